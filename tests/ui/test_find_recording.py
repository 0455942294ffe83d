"""The workspace on a call whose recording moved: it says so, and "Find recording…" relinks it."""

from __future__ import annotations

import shutil

from desktop.services import calls, moments
from desktop.services.rows import get_call
from desktop.ui.actions import ActionId
from tests.conftest import make_tone
from tests.ui.conftest import demo_segments


def test_find_recording_relinks_a_moved_file_and_the_call_plays_again(qtbot, window, store, tmp_path):
    from desktop.services import transcripts

    original = make_tone(tmp_path / "pipeline.wav", seconds=3)
    call, _ = calls.add_call(store, original, title="Pipeline")
    transcripts.save_transcript(store, call.id, demo_segments()[:3], origin="import")
    moments.add_moment(store, call.id, 500, note="kept")
    moved = tmp_path / "Recordings" / "2026" / "pipeline-moved.wav"
    moved.parent.mkdir(parents=True)
    shutil.move(original, moved)
    window.refresh_library()
    window.open_call(call.id)
    finder = window.recording_finder
    assert not finder.button.isHidden()
    assert window.registry[ActionId.FIND_RECORDING].isEnabled()
    banner = window.view.banner.text()
    assert str(original) in banner and "Find recording…" in banner
    assert window.transcript_model.rowCount() == 3 and window.moments_model.rowCount() == 1
    task = finder.search(tmp_path / "Recordings")
    task.wait(30)
    qtbot.waitUntil(lambda: get_call(store, call.id).media_path == str(moved), timeout=5000)
    qtbot.waitUntil(lambda: finder.button.isHidden(), timeout=5000)
    assert window.view.banner.isHidden()
    assert "Found the recording at" in window.status.text()
    assert window.moments_model.rowCount() == 1


def test_a_search_in_the_wrong_folder_says_so_and_keeps_the_button(qtbot, window, store, tmp_path):
    original = make_tone(tmp_path / "lost.wav", seconds=1)
    call, _ = calls.add_call(store, original)
    original.unlink()
    (tmp_path / "nothing").mkdir()
    make_tone(tmp_path / "nothing" / "lost.wav", seconds=2)  # same name, other bytes
    window.refresh_library()
    window.open_call(call.id)
    finder = window.recording_finder
    finder.search(tmp_path / "nothing").wait(30)
    qtbot.waitUntil(lambda: "no file there is the recording" in window.status.text(), timeout=5000)
    assert not finder.button.isHidden() and finder.button.isEnabled()


def test_a_call_with_its_recording_shows_no_button(window, store, tmp_path):
    call, _ = calls.add_call(store, make_tone(tmp_path / "here.wav", seconds=1))
    window.refresh_library()
    window.open_call(call.id)
    assert window.recording_finder.button.isHidden()
    assert not window.registry[ActionId.FIND_RECORDING].isEnabled()
