"""A recording that moved is found again by its SHA-256 and the call points at it."""

from __future__ import annotations

import json
import shutil

import pytest

from desktop.errors import CallmarkError
from desktop.services import calls, moments, relink
from desktop.services.rows import get_call, list_moments
from tests.conftest import make_tone, run_cli


def test_relink_checks_the_hash_and_keeps_the_marks(store, tmp_path):
    original = make_tone(tmp_path / "discovery.wav", seconds=2)
    call, _ = calls.add_call(store, original)
    moments.add_moment(store, call.id, 300, note="still here")
    moved = tmp_path / "archive" / "2026" / "discovery-renamed.wav"
    moved.parent.mkdir(parents=True)
    shutil.move(original, moved)
    assert relink.recording_missing(get_call(store, call.id))
    other = make_tone(tmp_path / "archive" / "other.wav", seconds=1)
    with pytest.raises(CallmarkError, match=r"other.wav: is not the recording of call 1 .*SHA-256 differs"):
        relink.relink(store, call.id, other)
    assert get_call(store, call.id).media_path == str(original)  # left as it was
    row = relink.relink_by_search(store, call.id, tmp_path / "archive")
    assert row.media_path == str(moved) and not relink.recording_missing(row)
    assert [m.note for m in list_moments(store, call.id)] == ["still here"]


def test_a_search_that_finds_nothing_says_so(store, tmp_path):
    original = make_tone(tmp_path / "gone.wav", seconds=1)
    call, _ = calls.add_call(store, original)
    original.unlink()
    (tmp_path / "empty").mkdir()
    with pytest.raises(CallmarkError, match=r"empty: no file there is the recording of call 1"):
        relink.relink_by_search(store, call.id, tmp_path / "empty")


def test_cli_relinks_by_file_and_by_search(tmp_path):
    home = tmp_path / "home-relink"
    original = make_tone(tmp_path / "call.wav", seconds=1)
    run_cli("--home", str(home), "calls", "add", str(original), check=True)
    moved = tmp_path / "elsewhere" / "deep" / "call.wav"
    moved.parent.mkdir(parents=True)
    shutil.move(original, moved)
    out = run_cli("--home", str(home), "calls", "relink", "1", "--search", str(tmp_path / "elsewhere"), "--json",
                  check=True)
    assert json.loads(out.stdout)["media_path"] == str(moved)
    again = tmp_path / "call-again.wav"
    shutil.move(moved, again)
    assert run_cli("--home", str(home), "calls", "relink", "1", str(again), check=True).stdout.strip() == str(again)
    wrong = make_tone(tmp_path / "wrong.wav", seconds=2)
    bad = run_cli("--home", str(home), "calls", "relink", "1", str(wrong))
    assert bad.returncode == 1 and bad.stderr.count("\n") == 1
    assert "wrong.wav: is not the recording of call 1" in bad.stderr
