"""Ctrl+Z in the window takes back what the coach cited, noted, parked, promoted or imported, in the
store and on screen; every one of those edits is told through the one change signal."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

import desktop.ui.crm  # noqa: F401 - registers the Opportunity panel, as desktop.app does
from desktop.services import crm as crm_service
from desktop.services import items, parking
from desktop.services.changes import CRM, ITEMS, PARKED
from desktop.ui.crm.import_dialog import ImportDialog
from tests.services.items_setup import INFO_LINE_MS, demo_call, mark, script_lines
from tests.services.test_crm_service import ACME_15, at, dump, export, sf_row

CTRL = Qt.KeyboardModifier.ControlModifier
SHIFT = Qt.KeyboardModifier.ShiftModifier


@pytest.fixture
def call(store):
    return demo_call(store)


@pytest.fixture
def opened(make_window, call):
    """A real window with the demo call open and the Coaching item tab shown; every change it tells."""
    window = make_window()
    window.resize(1700, 1300)
    window.open_call(call.id)
    editor = window.panel("Coaching item")
    window.view.inspector.setCurrentWidget(editor)
    window.context.flush_call()
    told = []
    window.history.changed.connect(told.append)
    return window, editor, told


def undo(qtbot, window) -> None:
    qtbot.keyClick(window.view.transcript, Qt.Key.Key_Z, CTRL)


def redo(qtbot, window) -> None:
    qtbot.keyClick(window.view.transcript, Qt.Key.Key_Z, CTRL | SHIFT)


def test_ctrl_z_takes_back_a_cited_crm_field_and_a_1_1_note(qtbot, store, call, opened, tmp_path):
    crm_service.apply_import(store, export(tmp_path, "e.csv", sf_row("Finance review", "12/02/2026")),
                             now=at("2026-11-23T10:00"))
    crm_service.link_call(store, call.id, ACME_15)
    window, editor, told = opened
    info = mark(store, call.id, INFO_LINE_MS)
    item = items.create_item(store, [info.id])
    window.context.set_call(None)
    window.context.set_call(call.id)  # the editor reads the call's opportunity again
    editor.controller.show_item(item.id)
    tools = editor.view.evidence
    tools.crm_field.setCurrentIndex(tools.crm_field.findData("next_step"))
    tools.crm_button.click()
    assert [e.field for e in items.get_item(store, item.id).evidence] == ["next_step"]
    assert told[-1].touches(ITEMS) and item.id in told[-1].ids
    tools.note_text.setText("Morgan said reps avoid asking for the buyer")
    tools.note_button.click()
    assert len(items.get_item(store, item.id).evidence) == 2
    assert tools.remove_pick.count() == 3  # the moment, the CRM field, the note

    undo(qtbot, window)  # the note first
    assert [e.kind for e in items.get_item(store, item.id).evidence] == ["crm"]
    assert tools.remove_pick.count() == 2  # the editor shows it, from the change signal
    undo(qtbot, window)
    assert items.get_item(store, item.id).evidence == []
    assert [tools.remove_pick.itemData(i) for i in range(tools.remove_pick.count())] == [f"moment:{info.id}"]
    redo(qtbot, window)
    assert [e.field for e in items.get_item(store, item.id).evidence] == ["next_step"]
    assert tools.remove_pick.count() == 2


def test_ctrl_z_brings_back_evidence_removed_from_an_item(qtbot, store, call, opened):
    window, editor, _ = opened
    info = mark(store, call.id, INFO_LINE_MS)
    item = items.create_item(store, [info.id])
    items.add_evidence(store, item.id, "note", "1:1 on Monday: agreed to try it", "2026-11-24")
    editor.controller.show_item(item.id)
    tools = editor.view.evidence
    tools.remove_pick.setCurrentIndex(tools.remove_pick.findData(f"moment:{info.id}"))
    tools.remove_button.click()
    assert items.get_item(store, item.id).moment_ids == []
    undo(qtbot, window)
    assert items.get_item(store, item.id).moment_ids == [info.id]
    assert tools.remove_pick.findData(f"moment:{info.id}") >= 0


def test_ctrl_z_takes_back_parking_and_promoting(qtbot, store, call, opened):
    window, editor, told = opened
    line = script_lines()[0]["start_ms"]
    moment = mark(store, call.id, line, kind="question")
    window.refresh_library()
    window.open_call(call.id)
    window.view.moments.select(moment.id)
    qtbot.waitUntil(lambda: window.context.moment_id == moment.id, timeout=3000)
    view = editor.view
    view.park_note.setText("budget: next cycle")
    view.park_button.click()
    assert [p.moment_id for p in parking.list_parked(store)] == [moment.id]
    assert told[-1].touches(PARKED)
    assert editor.controller.parked_model.rowCount() == 1
    undo(qtbot, window)
    assert parking.list_parked(store) == []
    assert editor.controller.parked_model.rowCount() == 0  # the list follows the change signal
    redo(qtbot, window)
    assert editor.controller.parked_model.rowCount() == 1

    view.parked_list.setCurrentIndex(editor.controller.parked_model.index(0, 0))
    view.promote_button.click()
    promoted = editor.controller.item
    assert promoted is not None and promoted.moment_ids == [moment.id]
    assert editor.controller.parked_model.rowCount() == 0
    undo(qtbot, window)
    assert items.item_for_moment(store, moment.id) is None
    assert [p.note for p in parking.list_parked(store)] == ["budget: next cycle"]
    assert editor.controller.parked_model.rowCount() == 1
    assert editor.controller.item is None  # the item it became is gone from the editor too


def test_ctrl_z_takes_back_a_crm_import_and_the_panel_shows_it(qtbot, store, call, opened, tmp_path):
    crm_service.apply_import(store, export(tmp_path, "first.csv", sf_row("Send information")),
                             now=at("2026-11-18T10:00"))
    crm_service.link_call(store, call.id, ACME_15)
    window, _, told = opened
    panel = window.panel("Opportunity")
    window.view.inspector.setCurrentWidget(panel)
    window.context.set_call(None)
    window.context.set_call(call.id)
    assert "Send information" in panel.view.next_step.text()
    before = dump(store)
    path = export(tmp_path, "second.csv", sf_row("Finance review", "12/02/2026", stage="Proposal"))
    dialog = ImportDialog(store, path, window, run=panel._run)
    qtbot.addWidget(dialog)
    with qtbot.waitSignal(dialog.preview_ready, timeout=10000):
        dialog.preview()
    dialog.import_button.click()
    assert dialog.result is not None and dialog.result.plan.summary()["updated"] == 1
    assert told[-1].touches(CRM)
    assert "Finance review" in panel.view.next_step.text()  # told by the change signal
    undo(qtbot, window)
    assert dump(store) == before
    assert "Send information" in panel.view.next_step.text()
    redo(qtbot, window)
    assert crm_service.opportunity_for_call(store, call.id).opportunity.next_step == "Finance review"
    assert "Finance review" in panel.view.next_step.text()


def test_parking_in_the_coaching_window_shows_in_the_item_editors_parked_list(qtbot, store, call, opened):
    from desktop.ui.coaching.cycle_view import CoachingWindow
    from tests.services.test_indicators_service import AS_OF, scripted_cycle

    window, editor, told = opened
    scripted_cycle(store)  # Morgan Manager's cycle: the demo call's manager
    coaching = CoachingWindow(store, "Morgan Manager", on=AS_OF, notify=window.history.tell)
    qtbot.addWidget(coaching)
    coaching.show()
    before = editor.controller.parked_model.rowCount()
    coaching.park_edit.setText("Discount offered before the customer asked")
    coaching.park_button.click()
    assert told[-1].touches(PARKED)
    assert editor.controller.parked_model.rowCount() == before + 1  # told, not reloaded by hand


def test_ctrl_z_takes_back_a_new_item_and_a_split(qtbot, store, call, opened):
    window, editor, told = opened
    moment = mark(store, call.id, INFO_LINE_MS)
    window.refresh_library()
    window.open_call(call.id)
    window.view.moments.select(moment.id)
    qtbot.waitUntil(lambda: window.context.moment_id == moment.id, timeout=3000)
    started = editor.controller.new_item_from_moment()
    assert started is not None and items.item_for_moment(store, moment.id).id == started.id
    assert told[-1].touches(ITEMS)
    undo(qtbot, window)
    assert items.item_for_moment(store, moment.id) is None
    assert editor.controller.item is None  # the editor lets go of the item that is gone
    redo(qtbot, window)
    assert items.item_for_moment(store, moment.id).id == started.id

    editor.controller.show_item(started.id)
    items.update_item(store, started.id, behavior_text="Ask who else will review the proposal, "
                                                       "and send the weekly forecast to finance by Friday.")
    editor.controller.show_item(started.id)
    editor.controller.split_behavior()
    assert len(items.list_items(store)) == 2
    undo(qtbot, window)
    assert [i.id for i in items.list_items(store)] == [started.id]
    assert items.get_item(store, started.id).behavior_text.endswith("to finance by Friday.")
