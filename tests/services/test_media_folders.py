"""Recordings stay where they are: two machines share one library, each finds recordings in its own folders.

Machine A and machine B are two data folders using one store (the same SQLite
file, or the same team store on the real PostgreSQL server). A adds a call
from its disk; B has the same recording under another name in its own media
folder and finds it by SHA-256; A's view of the call does not change.
"""

from __future__ import annotations

import os
import shutil

import pytest

from desktop.errors import CallmarkError
from desktop.services import calls, moments, transcripts
from desktop.services.media_index import find_in_media_folders, refresh_index
from desktop.services.relink import recording_missing, relink
from desktop.services.rows import SegmentRow, current_transcript, get_call, list_calls, list_moments
from desktop.services.this_machine import MediaFoldersError, ThisMachine, attach, machine_of, where_it_was
from tests.conftest import make_tone

pytestmark = pytest.mark.both_stores  # the services on SQLite and on a team store


def _same_store(store):
    """A second connection to the same library, as another machine would open it."""
    if store.dialect == "sqlite":
        from db.store import open_store

        return open_store(store.path)
    from db.server import open_server_store

    return open_server_store(store.url)


@pytest.fixture
def machines(store, tmp_path):
    """(A, B): the store as used from laptop A and from laptop B, each with its own data folder."""
    a = attach(store, tmp_path / "laptop-a")
    machine_of(a).set_name("laptop-a")
    b = attach(_same_store(store), tmp_path / "laptop-b")
    machine_of(b).set_name("laptop-b")
    yield a, b
    b.close()


def _call_on_a(a, tmp_path):
    """A call added on A (transcript, a moment); A's copy is then out of B's reach."""
    disk_a = tmp_path / "disk-a" / "Zoom"
    disk_a.mkdir(parents=True)
    original = make_tone(disk_a / "acme-discovery.wav", seconds=2)
    call, _ = calls.add_call(a, original, title="Acme discovery")
    line = SegmentRow(0, 900, "Rep", "What would the next step be?")
    transcripts.save_transcript(a, call.id, [line], origin="import")
    moments.add_moment(a, call.id, 400, note="open question")
    return call, original


def test_machine_b_finds_the_recording_by_hash_in_its_own_media_folder(machines, tmp_path):
    a, b = machines
    call, original = _call_on_a(a, tmp_path)
    folder_b = tmp_path / "disk-b" / "Recordings"
    (folder_b / "2026" / "november").mkdir(parents=True)
    copy_b = folder_b / "2026" / "november" / "call-0423.wav"  # another name, the same bytes
    shutil.copy2(original, copy_b)
    make_tone(folder_b / "other-call.wav", seconds=1)
    saved_on_a = tmp_path / "a-only.wav"
    shutil.move(original, saved_on_a)  # A's disk is not B's: its path does not exist from B

    seen_from_b = get_call(b, call.id)
    assert recording_missing(seen_from_b)
    assert where_it_was(seen_from_b) == f"it was at {original} on laptop-a"
    assert find_in_media_folders(b, call.id) is None  # no media folders on B yet
    machine_of(b).add_media_folder(folder_b)

    found = find_in_media_folders(b, call.id)
    assert found is not None and found.media_path == str(copy_b.resolve())
    assert get_call(b, call.id).media_path == str(copy_b.resolve()) and not recording_missing(get_call(b, call.id))
    assert [c.media_path for c in list_calls(b)] == [str(copy_b.resolve())]
    assert calls.resolve_call(b, str(copy_b)).id == call.id  # B names the call by its own file
    # The library still says where the recording was added; A's data folder knows nothing of B's copy.
    assert get_call(a, call.id).media_path == str(original)
    assert get_call(b, call.id).stored_path == str(original)
    assert machine_of(a).located(call.media_sha256) is None
    assert [m.note for m in list_moments(b, call.id)] == ["open question"]
    # Where B found it is kept in B's data folder only, not in the store.
    assert str(copy_b.resolve()) in (tmp_path / "laptop-b" / "this-machine.json").read_text()


def test_a_call_whose_recording_is_not_on_b_keeps_its_transcript_and_marks(machines, tmp_path):
    a, b = machines
    call, original = _call_on_a(a, tmp_path)
    original.unlink()
    empty = tmp_path / "disk-b" / "Recordings"
    empty.mkdir(parents=True)
    make_tone(empty / "acme-discovery.wav", seconds=3)  # the same name, other bytes: not this call
    machine_of(b).add_media_folder(empty)
    assert find_in_media_folders(b, call.id) is None
    seen = get_call(b, call.id)
    assert recording_missing(seen) and seen.media_machine == "laptop-a"
    assert [s.text for s in current_transcript(b, call.id).segments] == ["What would the next step be?"]
    assert [m.note for m in list_moments(b, call.id)] == ["open question"]


def test_a_wrong_file_is_refused_by_hash_and_the_right_one_is_kept_for_this_machine(machines, tmp_path):
    a, b = machines
    call, original = _call_on_a(a, tmp_path)
    kept = tmp_path / "usb-stick" / "acme.wav"
    kept.parent.mkdir()
    shutil.copy2(original, kept)
    original.unlink()
    wrong = make_tone(tmp_path / "usb-stick" / "acme-discovery.wav", seconds=1)
    with pytest.raises(CallmarkError, match=r"acme-discovery\.wav: is not the recording of call \d+ .*SHA-256"):
        relink(b, call.id, wrong)
    assert machine_of(b).located(call.media_sha256) is None
    assert relink(b, call.id, kept).media_path == str(kept.resolve())
    assert get_call(a, call.id).media_path == str(original)  # A is not pointed at B's file


def test_the_index_hashes_only_new_or_changed_recordings(tmp_path):
    machine = ThisMachine(tmp_path / "laptop")
    folder = tmp_path / "Recordings"
    folder.mkdir()
    first = make_tone(folder / "one.wav", seconds=1)
    make_tone(folder / "two.flac", seconds=1)
    (folder / "notes.txt").write_text("not a recording")
    machine.add_media_folder(folder)
    files, done = refresh_index(machine)
    assert (done.files, done.hashed, done.reused) == (2, 2, 0)
    files, done = refresh_index(machine)
    assert (done.files, done.hashed, done.reused) == (2, 0, 2)
    make_tone(first, seconds=2)  # re-recorded in place: other size, other time
    os.utime(first, ns=(1, 1))
    files, done = refresh_index(machine)
    assert (done.files, done.hashed, done.reused) == (2, 1, 1)
    (folder / "two.flac").unlink()
    files, done = refresh_index(machine)
    assert list(files) == [str(first)]


def test_media_folders_say_what_is_wrong_with_a_folder(tmp_path):
    machine = ThisMachine(tmp_path / "laptop")
    with pytest.raises(MediaFoldersError, match=r"nowhere: no such folder to add as a media folder"):
        machine.add_media_folder(tmp_path / "nowhere")
    (tmp_path / "Recordings").mkdir()
    assert machine.add_media_folder(tmp_path / "Recordings") == [tmp_path / "Recordings"]
    assert machine.add_media_folder(tmp_path / "Recordings") == [tmp_path / "Recordings"]  # once only
    with pytest.raises(MediaFoldersError, match=r"elsewhere: not one of this machine's media folders"):
        machine.remove_media_folder(tmp_path / "elsewhere")
    assert machine.remove_media_folder(tmp_path / "Recordings") == []
    assert ThisMachine(tmp_path / "laptop").media_folders() == []


def test_an_index_stopped_part_way_keeps_what_it_hashed(tmp_path):
    machine = ThisMachine(tmp_path / "laptop")
    folder = tmp_path / "Recordings"
    folder.mkdir()
    for name in ("a.wav", "b.wav", "c.wav"):
        make_tone(folder / name, seconds=1)
    machine.add_media_folder(folder)

    def stop_at_the_third(seen, _hashed, _path):
        if seen == 3:
            raise KeyboardInterrupt  # what a cancelled task raises is as abrupt

    with pytest.raises(KeyboardInterrupt):
        refresh_index(machine, stop_at_the_third)
    _files, done = refresh_index(machine)
    assert (done.files, done.hashed, done.reused) == (3, 1, 2)


def test_importing_a_folder_on_b_that_holds_a_call_added_on_a_remembers_it_there(machines, tmp_path):
    from desktop.services.folder_import import FolderImport

    a, b = machines
    call, original = _call_on_a(a, tmp_path)
    folder_b = tmp_path / "disk-b" / "Zoom"
    folder_b.mkdir(parents=True)
    copy_b = folder_b / "GMT20261120-150000_Recording.wav"
    shutil.copy2(original, copy_b)
    original.unlink()
    summary = FolderImport(b, folder_b).run()
    assert [e.outcome for e in summary.entries] == ["skipped"]
    assert f"already in the library as call {call.id}" in summary.entries[0].reason
    assert get_call(b, call.id).media_path == str(copy_b.resolve())
    assert get_call(a, call.id).media_path == str(original)


def test_a_damaged_machine_file_is_named_and_calls_still_open(store, tmp_path):
    call, _ = calls.add_call(store, make_tone(tmp_path / "kept.wav", seconds=1))
    attach(store, tmp_path / "laptop")
    machine_of(store).file.parent.mkdir(parents=True, exist_ok=True)
    machine_of(store).file.write_text("{ half written")
    with pytest.raises(MediaFoldersError, match=r"this-machine\.json: this machine's settings can't be read"):
        machine_of(store).media_folders()
    assert get_call(store, call.id).media_path == str(tmp_path / "kept.wav")  # the call opens all the same
