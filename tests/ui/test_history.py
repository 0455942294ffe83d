"""One undo history for every coach edit, kept across calls; every view follows the store's change signal."""

from __future__ import annotations

from desktop.services import calls, items, moments
from desktop.services.changes import ITEMS, MOMENTS
from desktop.ui.actions import ActionId
from tests.conftest import make_tone


def _other_call(store, tmp_path):
    row, _ = calls.add_call(store, make_tone(tmp_path / "review.wav", seconds=20), title="Pipeline review",
                            rep="Sam Seller", manager="Pat Other")
    return row.id


def test_undo_and_redo_of_a_note_work_after_switching_calls(qtbot, window, store, demo_call, tmp_path):
    mine = moments.add_moment(store, demo_call, 39_876, note="first words")
    other = _other_call(store, tmp_path)
    window.refresh_library()
    window.open_call(demo_call)
    window.marking.edit(mine.id, "note", "first words, then more")
    window.marking.edit(mine.id, "note", "first words, then more and more")  # typing on: one step
    assert window.undo_stack.count() == 1
    window.open_call(other)
    assert window.undo_stack.count() == 1  # the history stays with the window, not the call
    window.registry[ActionId.UNDO].trigger()
    assert moments.get_moment(store, mine.id).note == "first words"
    assert "on call" in window.status.text()  # the coach is told it was another call's moment
    window.registry[ActionId.REDO].trigger()
    assert moments.get_moment(store, mine.id).note == "first words, then more and more"


def test_a_deleted_moment_comes_back_into_the_list_with_undo(qtbot, window, store, demo_call):
    window.open_call(demo_call)
    kept = moments.add_moment(store, demo_call, 10_000, kind="question")
    gone = moments.add_moment(store, demo_call, 40_000, note="keep me")
    window.open_call(demo_call)
    window.view.moments.select(gone.id)
    window.registry[ActionId.DELETE_MOMENT].trigger()
    assert window.moments_model.get(gone.id) is None
    assert [m.id for m in moments.list_moments(store, demo_call)] == [kept.id]
    window.registry[ActionId.UNDO].trigger()
    back = window.moments_model.get(gone.id)
    assert back is not None and back.note == "keep me"  # the same moment, id and note
    assert [m.id for m in moments.list_moments(store, demo_call)] == [kept.id, gone.id]


def test_item_fields_are_undone_one_field_at_a_time_and_the_editor_shows_it(qtbot, window, store, demo_call):
    moment = moments.add_moment(store, demo_call, 39_876, kind="missed_intervention")
    item = items.create_item(store, [moment.id])
    window.open_call(demo_call)
    editor = window.panel("Coaching item")
    window.view.inspector.setCurrentWidget(editor)
    window.view.moments.select(moment.id)
    qtbot.waitUntil(lambda: editor.controller.item is not None, timeout=3000)
    told = []
    window.history.changed.connect(lambda change: told.append(change))
    field = editor.view.consequence
    field.setFocus()
    qtbot.keyClicks(field, "The manager does not know who signs")
    editor.controller.flush()
    qtbot.keyClicks(editor.view.cadence, "Weekly")
    editor.controller.flush()
    assert items.get_item(store, item.id).consequence == "The manager does not know who signs"
    assert any(c.touches(ITEMS) and item.id in c.ids for c in told)  # one signal, whichever view listens
    window.setFocus()
    window.registry[ActionId.UNDO].trigger()  # the cadence first
    assert items.get_item(store, item.id).cadence == ""
    assert editor.view.cadence.text() == ""
    window.registry[ActionId.UNDO].trigger()  # then the consequence, typed in several pauses: one step
    assert items.get_item(store, item.id).consequence == ""
    assert editor.view.consequence.text() == ""
    window.registry[ActionId.REDO].trigger()
    assert editor.view.consequence.text() == "The manager does not know who signs"


def test_a_mark_is_told_to_every_view_through_the_change_signal(qtbot, window, store, demo_call):
    window.open_call(demo_call)
    told = []
    window.context.store_changed.connect(told.append)
    moment_id = window.marking.mark()
    assert moment_id is not None
    assert told and told[-1].touches(MOMENTS) and told[-1].call_id == demo_call and moment_id in told[-1].ids
