"""Ctrl+Z in the window takes back what the coach wrote in the Coaching window and its dialogs — a focus,
a session planned, held or missed, the baseline typed, an observation — in the store and on screen, which
refreshes from the one change signal."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from PySide6.QtCore import Qt

from desktop.core.enums import SessionStatus
from desktop.services import coaching_sessions, cycles, items, observations
from desktop.services.changes import CYCLES, OBSERVATIONS, SESSIONS
from desktop.ui.actions import ActionId

CTRL = Qt.KeyboardModifier.ControlModifier
SHIFT = Qt.KeyboardModifier.ShiftModifier
BEHAVIOR = "Ask the rep which date the customer agreed for the next step."


def undo(qtbot, window) -> None:
    qtbot.keyClick(window.view.transcript, Qt.Key.Key_Z, CTRL)


def redo(qtbot, window) -> None:
    qtbot.keyClick(window.view.transcript, Qt.Key.Key_Z, CTRL | SHIFT)


@pytest.fixture
def opened(qtbot, window, store, demo_call):
    """The real window on the demo call (Morgan Manager's), a cycle in its choose phase, and the Coaching
    window opened from the inspector's Coaching tab, as the coach does."""
    cycle = cycles.add_cycle(store, "Morgan Manager", date.today() - timedelta(days=20))
    window.open_call(demo_call)
    tab = window.panel("Coaching")
    window.view.inspector.setCurrentWidget(tab)
    coaching = tab.on_open_clicked()
    qtbot.addWidget(coaching)
    told = []
    window.history.changed.connect(told.append)
    assert coaching.cycle.id == cycle.id
    return window, tab, coaching, cycle, told


def test_ctrl_z_takes_back_the_focus_set_in_the_coaching_window(qtbot, store, opened):
    window, tab, coaching, cycle, told = opened
    coaching.focus_edit.setText(BEHAVIOR)
    coaching.focus_button.click()
    assert cycles.get_cycle(store, cycle.id).focus_behavior == BEHAVIOR
    assert told[-1].touches(CYCLES) and "Ask the rep which date" in tab.summary.text()
    assert window.registry[ActionId.UNDO].text() == "Undo Set focus"  # Edit ▸ Undo says what it takes back
    undo(qtbot, window)
    assert cycles.get_cycle(store, cycle.id).focus_behavior is None
    assert coaching.focus_edit.text() == ""  # the Coaching window shows it, from the change signal
    assert "not chosen yet" in tab.summary.text()
    redo(qtbot, window)
    assert cycles.get_cycle(store, cycle.id).focus_behavior == BEHAVIOR
    assert coaching.focus_edit.text() == BEHAVIOR


def test_typing_the_baseline_is_one_undo_step(qtbot, store, opened):
    window, _, coaching, cycle, _ = opened
    coaching.baseline.setFocus()
    qtbot.keyClicks(coaching.baseline, "Half the calls")
    assert cycles.get_cycle(store, cycle.id).baseline_notes == "Half the calls"
    assert coaching.baseline.textCursor().position() == len("Half the calls")  # the cursor stayed put
    undo(qtbot, window)
    assert cycles.get_cycle(store, cycle.id).baseline_notes == ""
    assert coaching.baseline.toPlainText() == ""
    redo(qtbot, window)
    assert coaching.baseline.toPlainText() == "Half the calls"


def test_ctrl_z_takes_back_a_session_planned_and_a_session_marked_missed(qtbot, store, opened):
    window, _, coaching, cycle, told = opened
    planned = coaching.sessions_table.rowCount()
    day = date.today() - timedelta(days=2)
    assert coaching.plan_session(day)
    assert coaching.sessions_table.rowCount() == planned + 1 and told[-1].touches(SESSIONS)
    new_id = coaching.session_rows[0].id
    undo(qtbot, window)
    assert coaching.sessions_table.rowCount() == planned
    assert new_id not in [s.id for s in coaching_sessions.list_sessions(store, cycle.id)]
    redo(qtbot, window)
    assert coaching.sessions_table.rowCount() == planned + 1
    assert coaching_sessions.get_session(store, new_id).planned_date == day  # the same session

    coaching.sessions_table.setCurrentCell(0, 0)
    coaching.missed_button.click()
    assert coaching_sessions.get_session(store, new_id).status == SessionStatus.MISSED
    assert coaching.sessions_table.item(0, 2).text() == "missed"
    undo(qtbot, window)
    assert coaching_sessions.get_session(store, new_id).status == SessionStatus.PLANNED
    assert coaching.sessions_table.item(0, 2).text() == "planned"


def test_once_the_session_guide_is_closed_ctrl_z_takes_back_the_held_session(qtbot, store, opened):
    window, _, coaching, cycle, _ = opened
    first = coaching_sessions.list_sessions(store, cycle.id)[0]
    dialog = coaching.open_session(first.id)
    qtbot.addWidget(dialog)
    dialog.action.setText("Role-play the next-step question twice")
    dialog.owner.setText("Morgan Manager")
    dialog.evidence_place.setText("the next two recordings")
    with qtbot.waitSignal(dialog.session_closed):
        dialog.held_button.click()
    assert coaching_sessions.get_session(store, first.id).status == SessionStatus.HELD
    assert coaching.sessions_table.item(0, 3).text() == "Role-play the next-step question twice"
    undo(qtbot, window)
    row = coaching_sessions.get_session(store, first.id)
    assert (row.status, row.practice_action) == (SessionStatus.PLANNED, "")
    assert coaching.sessions_table.item(0, 3).text() == ""


def test_ctrl_z_takes_back_a_recorded_observation(qtbot, store, opened):
    from desktop.core.enums import Seen
    from desktop.ui.coaching.observation_dialog import ObservationDialog

    window, _, coaching, cycle, told = opened
    item = items.create_item(store, [], manager="Morgan Manager", behavior_text=BEHAVIOR)
    cycles.attach_item(store, cycle.id, item.id)
    coaching.refresh()
    coaching.tabs.setCurrentIndex(2)
    assert coaching.item_box.currentData() == item.id and coaching.obs_table.rowCount() == 0
    dialog = ObservationDialog(store, item.id, parent=coaching, run=coaching.run)
    qtbot.addWidget(dialog)
    dialog.seen_buttons[Seen.YES].setChecked(True)
    dialog.evidence.setPlainText("Asked for the date on both calls")
    dialog.on_save_clicked()
    assert dialog.result() == dialog.DialogCode.Accepted and told[-1].touches(OBSERVATIONS)
    assert coaching.obs_table.rowCount() == 1
    undo(qtbot, window)
    assert observations.list_observations(store, item_id=item.id) == []
    assert coaching.obs_table.rowCount() == 0
    redo(qtbot, window)
    assert [o.id for o in observations.list_observations(store, item_id=item.id)] == [dialog.saved.id]
    assert coaching.obs_table.item(0, 4).text() == "Asked for the date on both calls"


def test_ctrl_z_in_the_coaching_window_itself_and_the_dashboard_follows(qtbot, store, opened):
    from PySide6.QtWidgets import QApplication

    window, _, coaching, cycle, _ = opened
    first = coaching_sessions.list_sessions(store, cycle.id)[0]
    coaching_sessions.close_held(store, first.id, practice_action="Role-play the deferral",
                                 action_owner="Morgan Manager", evidence_place="next two calls",
                                 held_on=date.today() - timedelta(days=1))
    coaching.tabs.setCurrentWidget(coaching.dashboard)
    coaching.refresh()
    held = coaching.dashboard.cards["coaching_frequency"].ratio.text()
    coaching.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is coaching, timeout=3000)
    coaching.tabs.setCurrentIndex(1)
    coaching.sessions_table.setCurrentCell(0, 0)
    coaching.missed_button.click()
    assert coaching_sessions.get_session(store, first.id).status == SessionStatus.MISSED
    coaching.tabs.setCurrentWidget(coaching.dashboard)
    assert coaching.dashboard.cards["coaching_frequency"].ratio.text() != held
    qtbot.keyClick(coaching.dashboard, Qt.Key.Key_Z, CTRL)  # the window's Undo answers here too
    assert coaching_sessions.get_session(store, first.id).status == SessionStatus.HELD
    assert coaching.dashboard.cards["coaching_frequency"].ratio.text() == held  # refreshed from the signal


def test_ctrl_z_takes_back_a_new_cycle_and_the_manager_it_first_named(qtbot, store, opened):
    window, _, coaching, cycle, told = opened
    assert coaching.new_cycle("Jamie Manager", date.today())
    assert told[-1].touches(CYCLES) and coaching.manager_box.currentText() == "Jamie Manager"
    jamie = coaching.cycle.id
    assert coaching_sessions.list_sessions(store, jamie)  # its weekly sessions are planned
    undo(qtbot, window)
    assert [c.id for c in cycles.list_cycles(store)] == [cycle.id]
    assert [coaching.manager_box.itemText(i) for i in range(coaching.manager_box.count())] == ["Morgan Manager"]
    assert coaching.cycle.id == cycle.id  # the window shows the cycle that is left
    redo(qtbot, window)
    assert cycles.get_cycle(store, jamie).manager == "Jamie Manager"  # under its own id again
    assert "Jamie Manager" in [coaching.manager_box.itemText(i) for i in range(coaching.manager_box.count())]
