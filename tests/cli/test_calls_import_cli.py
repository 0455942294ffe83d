"""`callmark calls import DIR`: the real command over folders laid out like Zoom, Teams and a dialer."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.conftest import run_cli
from tests.services import import_folders as layouts


@pytest.fixture(scope="module")
def sample(tmp_path_factory) -> Path:
    return layouts.make_all(tmp_path_factory.mktemp("recordings"))


def test_import_prints_added_skipped_failed_with_reasons(isolated_home, sample):
    out = run_cli("calls", "import", str(sample), "--json", home=isolated_home)
    assert out.returncode == 1  # one file could not be read: said, and the rest came in
    data = json.loads(out.stdout)
    assert (data["added"], data["skipped"], data["failed"]) == (5, 2, 1)
    failed = [e for e in data["entries"] if e["outcome"] == "failed"]
    assert failed[0]["path"].endswith("broken.wav") and failed[0]["reason"]
    assert out.stderr.strip().splitlines() == [f"callmark: {failed[0]['path']}: {failed[0]['reason']}"]
    listed = json.loads(run_cli("calls", "list", "--json", home=isolated_home, check=True).stdout)
    assert sorted(c["title"] for c in listed) == ["Discovery Acme", "Discovery Initech", "Inbound 5559876",
                                                  "Outbound 5551234", "Pricing Globex"]
    assert {c["source"] for c in listed} == {"zoom", "teams", "dialer"}

    text = run_cli("calls", "import", str(sample), home=isolated_home).stdout  # again: all skipped
    assert "added 0, skipped 7, failed 1" in text
    assert text.count("already in the library as call") == 6


def test_dry_run_says_what_would_come_in_and_writes_nothing(isolated_home, sample):
    out = run_cli("calls", "import", str(sample), "--dry-run", home=isolated_home)
    assert "would add 5, skipped 2, failed 1" in out.stdout
    assert "Discovery Acme, 2026-11-20 15:00, zoom, transcript 5 lines" in out.stdout
    listed = json.loads(run_cli("calls", "list", "--json", home=isolated_home, check=True).stdout)
    assert listed == []


def test_a_file_instead_of_a_folder_is_one_line_and_no_store(isolated_home, tmp_path):
    out = run_cli("calls", "import", str(layouts.DEMO), home=isolated_home)
    assert out.returncode == 1
    assert out.stderr.strip() == f"callmark: {layouts.DEMO}: is a file, not a folder (use `callmark calls add` " \
                                 "for one recording)"
    from desktop import paths

    assert not paths.store_path(isolated_home).exists()


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_import_and_transcribe_splits_a_dialer_call_by_channel(isolated_home, tmp_path):
    night = tmp_path / "dialer"
    night.mkdir()
    shutil.copyfile(layouts.DEMO, night / layouts.DIALER_FILE)
    # the whole demo call through Whisper: half a minute on two quiet cores, minutes when CI shares them
    out = run_cli("calls", "import", str(night), "--transcribe", "--json", home=isolated_home, check=True,
                  timeout=600)
    data = json.loads(out.stdout)
    assert data["added"] == 1 and data["transcribed"][0]["outcome"] == "transcribed"
    call_id = data["entries"][0]["call_id"]
    exported = json.loads(run_cli("transcript", "export", str(call_id), "--format", "json",
                                  home=isolated_home, check=True).stdout)
    speakers = [s["speaker"] for s in exported["segments"]]
    assert {"Rep", "Customer"} <= set(speakers)  # rep left, customer right
    assert "send me some information" in " ".join(s["text"] for s in exported["segments"]).lower()
