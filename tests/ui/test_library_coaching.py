"""The queue, the baseline and the observations to confirm in the window, over the scripted library, with the
real store, the real detection pass and the real libvlc: opening a row plays its call from a second before."""

from __future__ import annotations

from datetime import date

import pytest
from PySide6.QtCore import Qt

from desktop.core.enums import Seen
from desktop.services import adoption, coaching_queue, cycles, observations
from desktop.ui.actions import ActionId
from tests.services import coaching_library as scripted
from tests.ui.test_accessibility import _reachable, _unnamed


@pytest.fixture
def lib(store, tmp_path):
    return scripted.build(store, tmp_path / "library")


def _open(qtbot, window, action: ActionId):
    window.registry.trigger(action)
    view = window.registry.owner("desktop.ui.coaching.library_window:library_commands").view
    qtbot.waitExposed(view)
    view.manager_box.setCurrentText(scripted.MANAGER)
    return view


def _plays_at(qtbot, window, call_id: int, ms: int) -> None:
    qtbot.waitUntil(lambda: window.workspace.call is not None and window.workspace.call.id == call_id, timeout=5000)
    qtbot.waitUntil(lambda: window.playback.is_playing, timeout=5000)
    # From a second before the moment (libvlc's clock steps by ~300 ms: a little slack, never before).
    assert ms - 1000 - 50 <= window.playback.position_ms() <= ms - 1000 + 1500


def test_the_queue_opens_the_call_at_the_moment_and_a_verdict_takes_it_off(qtbot, window, store, lib):
    view = _open(qtbot, window, ActionId.COACHING_QUEUE)
    assert view.tabs.currentWidget() is view.queue
    table = view.queue.table
    expected = coaching_queue.queue(store, scripted.MANAGER)
    shown = [table.model().row(n) for n in range(table.model().rowCount())]
    assert [(e.call, e.finding_id) for e in shown] == [(e.call, e.finding_id) for e in expected]
    top = shown[0]
    assert (top.call, top.label, top.start_ms) == (lib.ids["c3"], "deferral_accepted", 30_000)
    assert table.model().index(0, 3).data() == "Jo Closer"  # the rep
    table.setFocus()
    table.selectRow(0)
    qtbot.keyClick(table, Qt.Key.Key_Return)
    _plays_at(qtbot, window, top.call, top.start_ms)
    window.playback.pause()
    # D dismisses it (through the window's history): off the queue; Ctrl+Z brings it back.
    table.setFocus()
    table.selectRow(0)
    qtbot.keyClick(table, Qt.Key.Key_D)
    def ids():  # a finding's id is its label and line text: the same line on two calls shares it
        return [(table.model().row(n).call, table.model().row(n).finding_id) for n in range(table.model().rowCount())]

    qtbot.waitUntil(lambda: ids()[0] != (top.call, top.finding_id))
    assert (top.call, top.finding_id) not in ids() and len(ids()) == len(expected) - 1
    view.activateWindow()
    qtbot.waitUntil(view.isActiveWindow)
    qtbot.keyClick(table, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)  # Ctrl+Z from this window
    qtbot.waitUntil(lambda: ids()[0] == (top.call, top.finding_id))


def test_the_baseline_shows_the_coaching_weeks_beside_it_and_picks_the_focus(qtbot, window, store, lib):
    from desktop.ui.coaching.library_window import LibraryWindow

    view = LibraryWindow(store, window.context.run, window.registry.owner(
        "desktop.ui.coaching.library_window:library_commands").play_at, scripted.MANAGER, on=date(2026, 11, 25))
    qtbot.addWidget(view)
    window.context.store_changed.connect(view.on_store_changed)
    view.tabs.setCurrentWidget(view.baseline)
    view.show()
    qtbot.waitExposed(view)
    base = view.baseline
    assert base.coaching.isVisible()  # day 80: the compare phase
    patterns = [base.baseline.model.row(n) for n in range(base.baseline.model.rowCount())]
    rows = {p.pattern: p for p in patterns}
    assert (rows["deferral_accepted"].calls, rows["deferral_accepted"].count) == (2, 2)
    weeks = {base.coaching.model.row(n).pattern: base.coaching.model.row(n).calls
             for n in range(base.coaching.model.rowCount())}
    assert weeks["deferral"] == 3
    # Enter on the pattern goes to its examples; Enter on an example plays its call from a second before.
    n = next(i for i, p in enumerate(patterns) if p.pattern == "deferral_accepted")
    base.baseline.table.setFocus()
    base.baseline.table.selectRow(n)
    qtbot.keyClick(base.baseline.table, Qt.Key.Key_Return)
    assert base.baseline.examples.currentIndex().row() == 0  # the examples take the keys from here
    assert base.baseline.examples.model().index(0, 1).data() == "Riley Rep"
    qtbot.keyClick(base.baseline.examples, Qt.Key.Key_Return)
    _plays_at(qtbot, window, lib.ids["b1"], 18_000)
    window.playback.pause()

    # Pick it as the focus: the library's behavior and an indicator tied to the detector, edited, saved.
    def answer(dialog):
        assert dialog.behavior.toPlainText().startswith("When the customer asks for information")
        assert "deferral accepted" in dialog.indicator.toPlainText()
        dialog.indicator.setPlainText("Deferrals answered with a question (deferral accepted detector)")
        return dialog.DialogCode.Accepted

    assert base.pick_focus(answer)
    cycle = cycles.get_cycle(store, lib.cycle_id)
    assert cycle.focus_behavior.startswith("When the customer asks for information")
    (item_id, _title), = cycles.item_choices(store, lib.cycle_id)
    assert cycle.focus_behavior in base.heading.text()
    from desktop.services import items

    assert items.get_item(store, item_id).indicator == "Deferrals answered with a question (deferral accepted detector)"
    # The proposals tab now reads adoption from the later calls.
    props = view.proposals
    assert [props.model.row(n).call for n in range(props.model.rowCount())] == \
        [lib.ids["c1"], lib.ids["c2"], lib.ids["c3"]]
    # One key corrects a proposal: N keeps c1 as not seen (proposed: seen); it leaves the list.
    props.table.setFocus()
    props.table.selectRow(0)
    qtbot.keyClick(props.table, Qt.Key.Key_N)
    qtbot.waitUntil(lambda: props.model.rowCount() == 2)
    (kept,) = observations.list_observations(store, item_id=item_id)
    assert (kept.call_id, kept.seen) == (lib.ids["c1"], Seen.NO)
    # Enter listens to the next one at its moment; C keeps it as proposed.
    qtbot.keyClick(props.table, Qt.Key.Key_Return)
    _plays_at(qtbot, window, lib.ids["c2"], 18_000)
    window.playback.pause()
    props.table.setFocus()
    qtbot.keyClick(props.table, Qt.Key.Key_C)
    qtbot.waitUntil(lambda: props.model.rowCount() == 1)
    # Ctrl+Z (the window's one history) takes the last confirmation back, then the focus itself.
    window.history.undo()
    qtbot.waitUntil(lambda: props.model.rowCount() == 2)
    window.history.undo()
    window.history.undo()
    assert cycles.get_cycle(store, lib.cycle_id).focus_behavior is None
    qtbot.waitUntil(lambda: props.model.rowCount() == 0)
    assert adoption.proposed(store, lib.cycle_id, date(2026, 11, 25)) == []


def test_every_control_of_the_library_window_has_a_name(qtbot, window, store, lib):
    from desktop.ui.coaching.baseline_view import FocusDialog

    view = _open(qtbot, window, ActionId.CYCLE_BASELINE)
    missing = set()
    for i in range(view.tabs.count()):
        view.tabs.setCurrentIndex(i)
        qtbot.wait(20)
        missing |= set(_unnamed(_reachable(view)))
    dialog = FocusDialog("deferral_accepted", needs_reason=True, parent=view)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    missing |= set(_unnamed(_reachable(dialog)))
    assert sorted(missing) == []


def test_a_closed_window_reads_nothing_and_shows_every_change_when_opened_again(qtbot, window, store, lib):
    from desktop.services import suggestions

    view = _open(qtbot, window, ActionId.COACHING_QUEUE)
    before = view.queue.model.rowCount()
    view.close()
    top = coaching_queue.queue(store, scripted.MANAGER)[0]
    window.history.run(lambda: suggestions.decide(store, top.call, [top.finding_id], "accepted"))
    assert view.queue.model.rowCount() == before  # closed: not read
    again = _open(qtbot, window, ActionId.COACHING_QUEUE)
    assert again is view and view.queue.model.rowCount() == before - 1
    assert (view.queue.model.row(0).call, view.queue.model.row(0).finding_id) != (top.call, top.finding_id)
