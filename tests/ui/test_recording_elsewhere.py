"""The window on machine B of a library shared with machine A (one SQLite file, or a team store on the real
PostgreSQL server): a call added on A opens on B with its recording found by SHA-256 in B's media folder; a
call whose recording B does not have opens with its transcript and marks and says where the recording was."""

from __future__ import annotations

import shutil

import pytest

from desktop.services import calls, moments, transcripts
from desktop.services.rows import SegmentRow, get_call
from desktop.services.this_machine import attach, machine_of
from desktop.ui.actions import ActionId
from desktop.ui.durability.recording import PLAYBACK_ACTIONS
from tests.conftest import make_tone

pytestmark = pytest.mark.both_stores  # the window on SQLite and on a team store


def _same_store(store):
    if store.dialect == "sqlite":
        from db.store import open_store

        return open_store(store.path)
    from db.server import open_server_store

    return open_server_store(store.url)


@pytest.fixture
def laptop_a(store, tmp_path):
    """The library as used from machine A; ``store`` (the window's) is machine B's."""
    attach(store, tmp_path / "laptop-b")
    a = attach(_same_store(store), tmp_path / "laptop-a")
    machine_of(a).set_name("laptop-a")
    yield a
    a.close()


def _added_on_a(a, tmp_path):
    disk_a = tmp_path / "disk-a"
    disk_a.mkdir()
    original = make_tone(disk_a / "renewal-call.wav", seconds=3)
    call, _ = calls.add_call(a, original, title="Renewal call")
    transcripts.save_transcript(a, call.id, [SegmentRow(0, 1200, "Rep", "Who else signs off on the renewal?"),
                                             SegmentRow(1300, 2500, "Customer", "Our CFO, in March.")],
                                origin="import")
    moments.add_moment(a, call.id, 1300, note="economic buyer named")
    return call, original


def _said(window) -> list[str]:
    """Every line the window shows in its status line from now on (other parts may write there after)."""
    said = []
    shown = window.show_message
    window.show_message = lambda text, error=False: (said.append(text), shown(text, error))
    return said


def _playback_enabled(window) -> list[bool]:
    return [window.registry[a].isEnabled() for a in PLAYBACK_ACTIONS]


def test_machine_b_opens_the_call_with_its_recording_found_by_hash(qtbot, laptop_a, make_window, store, tmp_path):
    call, original = _added_on_a(laptop_a, tmp_path)
    recordings_b = tmp_path / "disk-b" / "Recordings" / "2026"
    recordings_b.mkdir(parents=True)
    copy_b = recordings_b / "call-0423.wav"  # another name and place on B, the same bytes
    shutil.copy2(original, copy_b)
    original.unlink()  # A's disk: out of B's reach
    machine_of(store).add_media_folder(tmp_path / "disk-b" / "Recordings")
    window = make_window()
    said = _said(window)
    window.open_call(call.id)
    finder = window.recording_finder
    assert f"it was at {original} on laptop-a" in window.view.banner.text()
    assert finder.lookup is not None and finder.lookup.wait(30)
    qtbot.waitUntil(lambda: window.view.banner.isHidden(), timeout=10000)
    assert window.workspace.call.media_path == str(copy_b)
    assert f"Found the recording in your media folders at {copy_b}." in said
    assert all(_playback_enabled(window)) and finder.button.isHidden()
    assert window.transcript_model.rowCount() == 2 and window.moments_model.rowCount() == 1
    assert get_call(laptop_a, call.id).media_path == str(original)  # A is not pointed at B's copy
    # Real libvlc (dummy outputs) plays B's copy.
    states = []
    window.playback.state_changed.connect(states.append)
    window.registry[ActionId.PLAY_PAUSE].trigger()
    qtbot.waitUntil(lambda: "playing" in states, timeout=10000)
    assert window.playback.player.path == copy_b
    qtbot.waitUntil(lambda: window.warmup.finished, timeout=15000)  # its warm-up reads the store: done here


def test_a_call_not_on_machine_b_opens_with_its_transcript_and_marks_and_says_where_it_was(
        qtbot, laptop_a, make_window, store, tmp_path):
    call, original = _added_on_a(laptop_a, tmp_path)
    original.unlink()
    elsewhere = tmp_path / "disk-b" / "Recordings"
    elsewhere.mkdir(parents=True)
    make_tone(elsewhere / "renewal-call.wav", seconds=1)  # the same name, other bytes
    machine_of(store).add_media_folder(elsewhere)
    window = make_window()
    window.open_call(call.id)
    lookup = window.recording_finder.lookup  # B's media folders, searched in the background
    assert lookup is not None
    banner = window.view.banner.text()
    assert banner.count("\n") == 0 and f"not on this computer: it was at {original} on laptop-a" in banner
    assert window.transcript_model.rowCount() == 2 and window.moments_model.rowCount() == 1
    assert not any(_playback_enabled(window))
    assert window.view.call_info.value("File") == f"not on this computer (it was at {original} on laptop-a)"
    qtbot.waitUntil(lambda: "no waveform" in window.view.waveform._status, timeout=5000)
    assert window.view.waveform._peaks is None
    finder = window.recording_finder
    assert not finder.locate_button.isHidden() and window.registry[ActionId.LOCATE_RECORDING].isEnabled()
    assert lookup.wait(30)
    qtbot.waitUntil(lambda: "in none of this computer's media folders" in window.view.banner.text(), timeout=10000)
    assert window.view.banner.text().count("\n") == 0
    assert not window.view.banner.isHidden() and not any(_playback_enabled(window))


def test_locate_refuses_a_wrong_file_by_hash_and_takes_the_right_one(qtbot, laptop_a, make_window, store, tmp_path):
    call, original = _added_on_a(laptop_a, tmp_path)
    stick = tmp_path / "usb-stick"
    stick.mkdir()
    right = stick / "renewal.wav"
    shutil.copy2(original, right)
    original.unlink()
    wrong = make_tone(stick / "renewal-call.wav", seconds=2)
    window = make_window()
    said = _said(window)
    window.open_call(call.id)
    finder = window.recording_finder
    finder.locate(wrong).wait(30)
    qtbot.waitUntil(lambda: any("is not the recording of call" in line for line in said), timeout=10000)
    refusal = next(line for line in said if "is not the recording of call" in line)
    assert refusal.startswith(f"{wrong}: ") and "SHA-256" in refusal and "\n" not in refusal
    assert not window.view.banner.isHidden() and finder.locate_button.isEnabled()
    finder.locate(right).wait(30)
    qtbot.waitUntil(lambda: window.view.banner.isHidden(), timeout=10000)
    assert window.workspace.call.media_path == str(right) and all(_playback_enabled(window))
    assert machine_of(store).located(call.media_sha256) == right
    assert machine_of(laptop_a).located(call.media_sha256) is None


def test_the_media_folders_dialog_adds_and_removes_this_machines_folders(qtbot, laptop_a, store, tmp_path):
    from PySide6.QtGui import QAccessible

    from desktop.ui.dialogs.media_folders import MediaFoldersDialog

    folder = tmp_path / "Recordings"
    folder.mkdir()
    dialog = MediaFoldersDialog(machine_of(store))
    qtbot.addWidget(dialog)
    assert dialog.add_folder(folder) and dialog.folders.count() == 1
    assert not dialog.add_folder(tmp_path / "nowhere")
    assert f"{tmp_path / 'nowhere'}: no such folder" in dialog.problem.text()
    dialog.folders.setCurrentRow(0)
    dialog.remove_selected()
    assert dialog.folders.count() == 0 and dialog.changed
    assert machine_of(store).media_folders() == [] and machine_of(laptop_a).media_folders() == []
    for widget in (dialog.folders, dialog.add_button, dialog.remove_button):
        assert QAccessible.queryAccessibleInterface(widget).text(QAccessible.Text.Name).strip()


def test_new_media_folders_are_indexed_in_the_background(qtbot, laptop_a, make_window, store, tmp_path):
    from desktop.services.media_index import load_index

    folder = tmp_path / "Recordings"
    folder.mkdir()
    make_tone(folder / "one.wav", seconds=1)
    make_tone(folder / "two.wav", seconds=1)
    window = make_window()
    said = _said(window)
    machine_of(store).add_media_folder(folder)
    task = window.recording_finder.folders_changed()  # what closing the dialog after a change does
    assert task is not None and task.wait(30)
    qtbot.waitUntil(lambda: any("hold 2 recordings (2 newly indexed)" in line for line in said), timeout=10000)
    assert sorted(load_index(machine_of(store))) == [str(folder / "one.wav"), str(folder / "two.wav")]
    assert load_index(machine_of(laptop_a)) == {}  # each machine its own index
