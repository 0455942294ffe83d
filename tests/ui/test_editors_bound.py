"""Every editor writes to the one record it shows: switching calls or moments while typing never lands
text on another call (checked in the store, through the real window)."""

from __future__ import annotations

from PySide6.QtCore import Qt

from desktop.services import calls, items, moments
from tests.conftest import make_tone


def _other_call(store, tmp_path, *, manager="Pat Other"):
    tone = make_tone(tmp_path / "pipeline review.wav", seconds=20)
    row, _ = calls.add_call(store, tone, title="Pipeline review", rep="Sam Seller", manager=manager)
    return row.id


def _select(qtbot, window, moment_id):
    window.view.moments.select(moment_id)
    qtbot.waitUntil(lambda: window.view.moments.selected_id() == moment_id, timeout=2000)


def test_the_note_field_forgets_a_moment_of_another_call(qtbot, window, store, demo_call, tmp_path):
    mine = moments.add_moment(store, demo_call, 39_876, kind="missed_intervention", note="accepted as next step")
    other = _other_call(store, tmp_path)
    window.refresh_library()
    window.open_call(demo_call)
    _select(qtbot, window, mine.id)
    note = window.view.moments.note
    assert note.text() == "accepted as next step" and note.isEnabled()

    # A call with no moments: the field is empty and refuses typing.
    window.open_call(other)
    assert note.text() == "" and not note.isEnabled()
    note.setFocus()
    qtbot.keyClicks(note, " and then some")
    qtbot.keyClick(window.view.transcript, Qt.Key.Key_E, Qt.KeyboardModifier.ControlModifier)  # Ctrl+E: nothing to write on
    assert note.text() == ""

    # Back on the first call, the moment selected again: its note is what it was.
    window.open_call(demo_call)
    _select(qtbot, window, mine.id)
    window.workspace.flush()
    assert moments.get_moment(store, mine.id).note == "accepted as next step"
    assert note.text() == "accepted as next step"


def test_typing_then_switching_keeps_the_words_on_the_moment_they_were_typed_for(qtbot, window, store, demo_call,
                                                                                  tmp_path):
    first = moments.add_moment(store, demo_call, 10_000, note="first")
    second = moments.add_moment(store, demo_call, 40_000, note="second")
    other = _other_call(store, tmp_path)
    theirs = moments.add_moment(store, other, 2_000, note="theirs")
    window.refresh_library()
    window.open_call(demo_call)
    _select(qtbot, window, first.id)
    note = window.view.moments.note
    note.setFocus()
    note.end(False)
    qtbot.keyClicks(note, " typed")  # mid-word: the save timer has not fired yet

    _select(qtbot, window, second.id)  # another moment of the same call
    assert note.text() == "second"
    note.setFocus()
    note.end(False)
    qtbot.keyClicks(note, " also")
    window.open_call(other)  # then another call, still typing
    assert note.text() == "" and not note.isEnabled()
    _select(qtbot, window, theirs.id)
    assert note.text() == "theirs"

    assert moments.get_moment(store, first.id).note == "first typed"
    assert moments.get_moment(store, second.id).note == "second also"
    assert moments.get_moment(store, theirs.id).note == "theirs"


def test_item_fields_stay_with_their_item_when_the_call_changes(qtbot, window, store, demo_call, tmp_path):
    mine = moments.add_moment(store, demo_call, 39_876, kind="missed_intervention")
    item = items.create_item(store, [mine.id])
    other = _other_call(store, tmp_path)  # another manager's call: the item is not shown there
    window.refresh_library()
    window.open_call(demo_call)
    editor = window.panel("Coaching item")
    _select(qtbot, window, mine.id)
    qtbot.waitUntil(lambda: editor.controller.item is not None and editor.controller.item.id == item.id,
                    timeout=3000)
    field = editor.view.consequence
    field.setFocus()
    qtbot.keyClicks(field, "The manager still does not know who signs")
    window.open_call(other)  # mid-typing
    qtbot.waitUntil(lambda: editor.controller.item is None, timeout=2000)  # the panels hear once painted
    assert not editor.view.form.isEnabled()
    assert editor.view.consequence.text() == ""
    assert items.get_item(store, item.id).consequence == "The manager still does not know who signs"
    # Nothing was written to any item of the other call (it has none).
    assert not [i for i in items.list_items(store) if i.id != item.id]


def test_a_note_can_run_over_several_lines(qtbot, window, store, demo_call):
    mine = moments.add_moment(store, demo_call, 39_876)
    window.open_call(demo_call)
    _select(qtbot, window, mine.id)
    note = window.view.moments.note
    note.setFocus()
    qtbot.keyClicks(note, "Casey pushed off.")
    qtbot.keyClick(note, Qt.Key.Key_Return)
    qtbot.keyClicks(note, "Riley agreed without a date.")
    window.workspace.flush()
    assert moments.get_moment(store, mine.id).note == "Casey pushed off.\nRiley agreed without a date."
