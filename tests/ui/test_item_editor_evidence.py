"""The item editor beyond the five steps, clicked and typed as a coach would, over a real store file:
the item picker, citing more evidence (a moment of this call or another, a CRM field, a dated 1:1
note), removing it, the next two recordings to check, the cycle, the calendar and the menu entry."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from db.store import open_store
from desktop.services import crm as crm_service
from desktop.services import calls, cycles, items, moments, observations
from desktop.ui.actions import ActionId
from tests.conftest import make_tone
from tests.services.items_setup import INFO_LINE_MS, demo_call, mark, script_lines

BEHAVIOR = "When the customer asks for information, ask what they will review and who else needs to be involved."
LEFT = Qt.MouseButton.LeftButton
CTRL = Qt.KeyboardModifier.ControlModifier
SF_HEADER = ('"Opportunity ID","Opportunity Name","Account Name","Stage","Next Step",'
             '"Next Step Date","Close Date","Opportunity Owner"\r\n')
SF_ROW = ('"0065g00000XyZ1A","Acme Logistics - Platform","Acme Logistics","Discovery",'
          '"Customer to review the deck with finance","12/02/2026","12/14/2026","Riley Rep"\r\n')


def other_line_ms(not_ms: int = INFO_LINE_MS) -> list[int]:
    return [line["start_ms"] for line in script_lines() if line["start_ms"] != not_ms]


@pytest.fixture
def call(store):
    return demo_call(store)


@pytest.fixture
def make_editor(make_window):
    """The panel in a real window, so Ctrl+I reaches it through the window's action registry."""
    def make(call_id: int | None):
        window = make_window()
        window.resize(1700, 1300)
        if call_id is not None:
            window.open_call(call_id)
        widget = window.panel("Coaching item")
        window.view.inspector.setCurrentWidget(widget)
        window.context.flush_call()
        widget.context = window.context
        return widget
    return make


@pytest.fixture
def editor(make_editor, call):
    return make_editor(call.id)


def click(qtbot, widget) -> None:
    assert widget.isEnabled() and widget.isVisibleTo(widget.window()), widget
    qtbot.mouseClick(widget, LEFT)


def pick(qtbot, combo, data) -> None:
    """Choose an entry of a combo with the keyboard, as a coach would: focus it, arrow to it."""
    combo.setFocus()
    target = combo.findData(data)
    assert target >= 0, (data, [combo.itemText(i) for i in range(combo.count())])
    while combo.currentIndex() != target:
        QTest.keyClick(combo, Qt.Key.Key_Down if combo.currentIndex() < target else Qt.Key.Key_Up)


def test_the_picker_opens_any_open_item_of_the_manager(qtbot, store, call, editor):
    first, second = (mark(store, call.id, ms) for ms in (INFO_LINE_MS, other_line_ms()[3]))
    a = items.create_item(store, [first.id], behavior_text=BEHAVIOR)
    b = items.create_item(store, [second.id], behavior_text="Ask the rep which date the customer agreed.")
    done = items.create_item(store, [], manager="Morgan Manager", status="done")
    elsewhere = items.create_item(store, [], manager="Someone Else")
    editor.context.set_call(None)
    editor.context.set_call(call.id)  # the picker follows the call's manager
    picker = editor.controller.picker
    assert sorted(picker.item_ids()) == [a.id, b.id]
    assert done.id not in picker.item_ids() and elsewhere.id not in picker.item_ids()
    assert "2 open items" in editor.view.picker.itemText(0)
    assert editor.controller.item is None  # nothing selected yet: no moment needed to reach an item
    pick(qtbot, editor.view.picker, a.id)
    assert editor.controller.item.id == a.id
    assert editor.view.behavior_text.text() == BEHAVIOR
    assert "send me some information" in editor.view.moment_card.text()
    pick(qtbot, editor.view.picker, b.id)
    assert editor.controller.item.id == b.id
    # a status change takes the item off the open list, but it stays named while it is open here
    editor.view.status.setFocus()
    QTest.keyClick(editor.view.status, Qt.Key.Key_Down)
    assert items.get_item(store, b.id).status == "done"
    assert picker.item_ids()[0] == b.id and a.id in picker.item_ids()


def test_cite_a_moment_of_this_call_and_of_another_call(qtbot, store, call, editor, tmp_path):
    info = mark(store, call.id, INFO_LINE_MS)
    later = mark(store, call.id, other_line_ms()[5])
    editor.context.select_moment(info.id)
    QTest.keyClick(editor, Qt.Key.Key_I, CTRL)
    item_id = editor.controller.item.id
    tools = editor.view.evidence
    assert not tools.cite_button.isEnabled()  # the selected moment is already cited here
    editor.context.select_moment(later.id)
    assert editor.controller.item.id == item_id  # the open item stays
    assert "feeds no item yet" in tools.selected_note.text()
    click(qtbot, tools.cite_button)
    assert sorted(items.get_item(store, item_id).moment_ids) == [info.id, later.id]
    assert "now cites 2 moments" in editor.view.message.text()
    assert not tools.cite_button.isEnabled()

    # the same manager's next call: the item stays open, and a moment there is cited on it
    media = make_tone(tmp_path / "follow-up.wav", seconds=8)
    second, _ = calls.add_call(store, media, title="Follow-up - Acme Logistics", rep="Riley Rep",
                               manager="Morgan Manager")
    there = moments.add_moment(store, second.id, 2000, 5000, quote="Send it over and I'll forward it.",
                               speaker="Casey")
    editor.context.set_call(second.id)
    assert editor.controller.item.id == item_id
    editor.context.select_moment(there.id)
    click(qtbot, tools.cite_button)
    row = items.get_item(store, item_id)
    assert sorted(row.moment_ids) == [info.id, later.id, there.id] and row.call_ids == [call.id, second.id]
    # moments from the first call now name it on the card
    assert "Discovery - Acme Logistics (demo)" in editor.view.moment_card.text()


def test_citing_a_moment_that_feeds_another_item_is_refused_clearly(qtbot, store, call, editor):
    info = mark(store, call.id, INFO_LINE_MS)
    taken = mark(store, call.id, other_line_ms()[2])
    mine = items.create_item(store, [info.id], behavior_text=BEHAVIOR)
    theirs = items.create_item(store, [taken.id], behavior_text="Ask the rep which date the customer agreed.")
    editor.context.select_moment(taken.id)
    assert editor.controller.item.id == theirs.id  # selecting it opens the item it feeds
    editor.controller.picker.reload()
    pick(qtbot, editor.view.picker, mine.id)  # back to my item, the moment still selected
    tools = editor.view.evidence
    assert f"already feeds item {theirs.id}" in tools.selected_note.text()
    click(qtbot, tools.cite_button)
    message = editor.view.message.text()
    assert f"already feeds item {theirs.id}" in message and "a moment feeds one item" in message
    assert "C0392B" in editor.view.message.styleSheet()  # shown as an error
    assert items.get_item(store, mine.id).moment_ids == [info.id]
    assert items.get_item(store, theirs.id).moment_ids == [taken.id]


def test_cite_a_crm_field_then_remove_it(qtbot, store, call, make_editor, tmp_path):
    export = tmp_path / "opportunities.csv"
    export.write_text(SF_HEADER + SF_ROW, encoding="utf-8")
    crm_service.apply_import(store, export)
    crm_service.link_call(store, call.id, "0065g00000XyZ1A")
    info = mark(store, call.id, INFO_LINE_MS)
    item = items.create_item(store, [info.id], behavior_text=BEHAVIOR)
    editor = make_editor(call.id)
    editor.context.select_moment(info.id)
    tools = editor.view.evidence
    assert not tools.more.isVisible()
    click(qtbot, tools.more_button)
    assert tools.more.isVisible()
    assert "Customer to review the deck" in tools.crm_field.itemText(tools.crm_field.findData("next_step"))
    pick(qtbot, tools.crm_field, "next_step")
    click(qtbot, tools.crm_button)
    row = items.get_item(store, item.id)
    assert len(row.evidence) == 1 and row.evidence[0].kind == "crm" and row.evidence[0].field == "next_step"
    assert "Customer to review the deck with finance (by 2026-12-02)" in row.evidence[0].text
    assert "Salesforce next step" in editor.view.moment_card.text()
    assert "Cited the CRM next step" in editor.view.message.text()

    crm_entry = f"evidence:{row.evidence[0].id}"
    pick(qtbot, tools.remove_pick, crm_entry)
    click(qtbot, tools.remove_button)
    row = items.get_item(store, item.id)
    assert row.evidence == [] and row.moment_ids == [info.id]
    assert "Salesforce" not in editor.view.moment_card.text()


def test_without_a_linked_opportunity_the_crm_field_says_what_to_do(qtbot, store, call, editor):
    info = mark(store, call.id, INFO_LINE_MS)
    editor.context.select_moment(info.id)
    QTest.keyClick(editor, Qt.Key.Key_I, CTRL)
    tools = editor.view.evidence
    assert "Link this call to an opportunity" in tools.crm_field.currentText()
    assert not tools.crm_button.isEnabled()


def test_a_dated_one_to_one_note_is_evidence_and_can_be_removed(qtbot, store, call, editor):
    info = mark(store, call.id, INFO_LINE_MS)
    editor.context.select_moment(info.id)
    QTest.keyClick(editor, Qt.Key.Key_I, CTRL)
    item_id = editor.controller.item.id
    tools = editor.view.evidence
    click(qtbot, tools.more_button)
    assert tools.note_date.text() == date.today().isoformat()  # today unless told otherwise
    tools.note_text.setFocus()
    QTest.keyClicks(tools.note_text, "Morgan agreed to ask who else reviews the deck")
    tools.note_date.selectAll()
    QTest.keyClicks(tools.note_date, "20261201")
    tools.note_text.setFocus()
    QTest.keyClick(tools.note_text, Qt.Key.Key_Return)  # Enter adds it
    row = items.get_item(store, item_id)
    assert [(e.kind, e.text, e.on_date) for e in row.evidence] == [
        ("note", "Morgan agreed to ask who else reviews the deck", date(2026, 12, 1))]
    assert tools.note_text.text() == ""
    assert "1:1 note · 2026-12-01" in editor.view.moment_card.text()

    # removing the moment leaves the dated note: still evidence another coach can return to
    pick(qtbot, tools.remove_pick, f"moment:{info.id}")
    click(qtbot, tools.remove_button)
    row = items.get_item(store, item_id)
    assert row.moment_ids == [] and len(row.evidence) == 1
    assert not any(f.component == "evidence" for f in editor.controller.findings)
    # an empty note is refused with a message, nothing written
    click(qtbot, tools.note_button)
    assert "Write what the 1:1 note says" in editor.view.message.text()
    assert len(items.get_item(store, item_id).evidence) == 1


def test_check_both_of_the_next_two_recordings_is_one_click(qtbot, store, call, editor):
    info = mark(store, call.id, INFO_LINE_MS)
    editor.context.select_moment(info.id)
    QTest.keyClick(editor, Qt.Key.Key_I, CTRL)
    item_id = editor.controller.item.id
    v = editor.view
    assert "No observations yet" in v.observations_note.text()
    click(qtbot, v.check_button)
    pending = observations.list_observations(store, item_id=item_id, pending=True)
    assert len(pending) == 2 and all(o.source == "call" for o in pending)
    assert "Two recordings to check" in v.message.text()
    assert "2 to check" in v.observations_note.text()
    click(qtbot, v.check_button)  # a second click does not pile up four
    assert len(observations.list_observations(store, item_id=item_id)) == 2
    assert "already has 2 recordings to check" in v.message.text()
    observations.fill(store, pending[0].id, seen="yes")
    editor.controller.reload_item()
    assert "1 to check · seen in 1 of 1 checked" in v.observations_note.text()


def test_attach_to_the_managers_current_cycle(qtbot, store, call, editor):
    info = mark(store, call.id, INFO_LINE_MS)
    editor.context.select_moment(info.id)
    QTest.keyClick(editor, Qt.Key.Key_I, CTRL)
    item_id = editor.controller.item.id
    v = editor.view
    assert not v.cycle_button.isEnabled()
    assert "has no coaching cycle yet" in v.cycle_note.text()
    cycle = cycles.add_cycle(store, "Morgan Manager", date.today() - timedelta(days=39))
    editor.controller.reload_item()
    assert v.cycle_button.isEnabled() and "Morgan Manager's current cycle" in v.cycle_button.text()
    assert "day 40" in v.cycle_note.text()
    click(qtbot, v.cycle_button)
    assert items.get_item(store, item_id).cycle_id == cycle.id
    assert item_id in cycles.get_cycle(store, cycle.id).item_ids
    assert not v.cycle_button.isEnabled() and "Worked on in Morgan Manager's cycle" in v.cycle_note.text()


def test_the_due_date_from_the_calendar_and_still_by_typing(qtbot, store, call, editor):
    info = mark(store, call.id, INFO_LINE_MS)
    editor.context.select_moment(info.id)
    QTest.keyClick(editor, Qt.Key.Key_I, CTRL)
    item_id = editor.controller.item.id
    v = editor.view
    click(qtbot, v.due_calendar)
    popup = v.due_calendar.popup
    qtbot.waitUntil(popup.isVisible)
    grid = QApplication.focusWidget()
    assert grid is not None and popup.isAncestorOf(grid)
    QTest.keyClick(grid, Qt.Key.Key_Right)
    QTest.keyClick(grid, Qt.Key.Key_Right)
    QTest.keyClick(grid, Qt.Key.Key_Return)  # Enter takes the day
    qtbot.waitUntil(lambda: not popup.isVisible())
    expected = date.today() + timedelta(days=2)
    assert v.next_evidence_due.text() == expected.isoformat()
    assert items.get_item(store, item_id).next_evidence_due == expected
    v.next_evidence_due.setFocus()
    v.next_evidence_due.selectAll()
    QTest.keyClicks(v.next_evidence_due, "20261214")
    QTest.keyClick(v.next_evidence_due, Qt.Key.Key_Tab)
    assert items.get_item(store, item_id).next_evidence_due == date(2026, 12, 14)


def test_the_evidence_survives_reopening_the_store(qtbot, store, call, editor):
    info = mark(store, call.id, INFO_LINE_MS)
    editor.context.select_moment(info.id)
    QTest.keyClick(editor, Qt.Key.Key_I, CTRL)
    item_id = editor.controller.item.id
    tools = editor.view.evidence
    click(qtbot, tools.more_button)
    tools.note_text.setFocus()
    QTest.keyClicks(tools.note_text, "Deck went to finance without a named reviewer")
    QTest.keyClick(tools.note_text, Qt.Key.Key_Return)
    editor.close()
    reopened = open_store(store.path)
    try:
        row = items.get_item(reopened, item_id)
    finally:
        reopened.close()
    assert [e.text for e in row.evidence] == ["Deck went to finance without a named reviewer"]


def test_new_coaching_item_is_in_the_moments_menu(qtbot, window, store, demo_call):
    moments_menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&Moments")
    action = window.registry[ActionId.NEW_ITEM]
    assert action in moments_menu.actions()
    assert action.shortcut().toString() == "Ctrl+I"
    window.open_call(demo_call)
    window.playback.seek(5000)
    window.registry[ActionId.MARK].trigger()
    marked = window.context.moment_id
    assert marked is not None
    action.trigger()  # what choosing Moments > New coaching item does
    made = items.list_items(store)
    assert len(made) == 1 and made[0].moment_ids == [marked]
