"""The coaching-item editor driven by the keyboard only, over a real store file and the demo call."""

from __future__ import annotations

from datetime import date

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from db.store import open_store
from desktop.core.enums import Severity
from desktop.services import items, parking
from tests.services.items_setup import INFO_LINE_MS, demo_call, mark

CONSEQUENCE = "The rep doesn't know what the customer will review or who else is involved."
BEHAVIOR = "When the customer asks for information, ask what they will review and who else needs to be involved."
TASK = "Role-play the moment three times: when the customer asks for information, ask what they will review."
WHERE = "Next two discovery recordings"
CTRL = Qt.KeyboardModifier.ControlModifier


@pytest.fixture
def call(store):
    return demo_call(store)


@pytest.fixture
def info_moment(store, call):
    return mark(store, call.id, INFO_LINE_MS)


@pytest.fixture
def editor(qtbot, make_window, call):
    """The panel in a real window, so Ctrl+I reaches it through the window's action registry."""
    window = make_window()
    window.resize(1600, 1100)
    window.open_call(call.id)
    widget = window.panel("Coaching item")
    window.view.inspector.setCurrentWidget(widget)
    window.context.flush_call()
    widget.context = window.context
    return widget


def focused():
    return QApplication.focusWidget()


def type_here(qtbot, text: str) -> None:
    widget = focused()
    assert widget is not None
    QTest.keyClicks(widget, text)


def key(k, modifier=Qt.KeyboardModifier.NoModifier) -> None:
    QTest.keyClick(focused(), k, modifier)


def test_five_steps_with_the_keyboard_only(qtbot, editor, store, info_moment):
    v = editor.view
    editor.context.select_moment(info_moment.id)
    assert "send me some information" in v.moment_card.text()
    QTest.keyClick(editor, Qt.Key.Key_I, CTRL)  # the shortcut, not a method call
    qtbot.waitUntil(lambda: editor.controller.item is not None)
    item_id = editor.controller.item.id
    assert focused() is v.consequence

    type_here(qtbot, CONSEQUENCE)
    key(Qt.Key.Key_Return)  # Enter moves to the next step
    assert focused() is v.behavior_change
    key(Qt.Key.Key_A)  # typing picks the change: Adjust...
    assert v.behavior_change.currentData() == "adjust"
    key(Qt.Key.Key_Home)  # ...and back to Start
    key(Qt.Key.Key_Tab)
    assert focused() is v.behavior_text
    type_here(qtbot, "Improve pipeline discipline")
    # live, like a spell-checker: the field is marked and the reason is shown beside it
    assert v.behavior_text.severity() == Severity.ERROR
    assert "goal or a trait" in v.behavior_note.text()
    v.behavior_text.selectAll()
    key(Qt.Key.Key_Delete)
    type_here(qtbot, BEHAVIOR)
    if v.completer.popup().isVisible():
        key(Qt.Key.Key_Escape)
    assert v.behavior_text.severity() is None
    key(Qt.Key.Key_Tab)
    assert focused() is v.practice_kind
    key(Qt.Key.Key_Tab)
    type_here(qtbot, TASK)
    key(Qt.Key.Key_Tab)
    assert focused() is v.next_evidence
    type_here(qtbot, WHERE)
    key(Qt.Key.Key_Return)
    assert focused() is v.next_evidence_due
    type_here(qtbot, "20261214")
    key(Qt.Key.Key_Tab)  # the step's own buttons come right after its field: the calendar, the two checks
    assert focused() is v.due_calendar
    key(Qt.Key.Key_Tab)
    assert focused() is v.check_button
    key(Qt.Key.Key_Tab)
    if v.cycle_button.isVisible() and v.cycle_button.isEnabled():
        key(Qt.Key.Key_Tab)
    assert focused() is v.owner_does
    key(Qt.Key.Key_Tab)
    key(Qt.Key.Key_Tab)
    assert focused() is v.cadence
    type_here(qtbot, "Weekly 1:1, Thursdays")
    key(Qt.Key.Key_Tab)
    type_here(qtbot, "The question appears in the next two recordings.")
    key(Qt.Key.Key_Tab)
    type_here(qtbot, "Continue when the question appears in both recordings two weeks in a row.")
    key(Qt.Key.Key_Tab)
    assert focused() is v.seen_in
    for _ in range(2):
        key(Qt.Key.Key_Up)
    key(Qt.Key.Key_Tab)
    for _ in range(2):
        key(Qt.Key.Key_Up)
    key(Qt.Key.Key_Tab)
    for _ in range(2):
        key(Qt.Key.Key_Up)
    key(Qt.Key.Key_Tab)
    assert focused() is v.qualification_gap
    key(Qt.Key.Key_Down)
    key(Qt.Key.Key_Down)  # (none) -> metrics -> economic buyer
    key(Qt.Key.Key_Tab)
    assert focused() is v.status
    editor.flush()

    row = items.get_item(store, item_id)
    assert row.moment_ids == [info_moment.id]
    assert row.consequence == CONSEQUENCE
    assert row.behavior_change == "start"
    assert row.behavior_text == BEHAVIOR
    assert row.practice_kind == "role_play" and row.practice_task == TASK
    assert row.next_evidence == WHERE and row.next_evidence_due == date(2026, 12, 14)
    assert (row.owner_does, row.owner_reviews) == ("Morgan Manager", "Me")
    assert row.cadence == "Weekly 1:1, Thursdays"
    assert row.continue_after is not None and (row.continue_after.seen_in, row.continue_after.of_reviewed,
                                               row.continue_after.weeks_in_a_row) == (2, 2, 2)
    assert row.qualification_gap == "meddicc:economic_buyer"
    assert row.status == "open"
    assert "specific enough to coach" in v.summary.text()
    assert all(f.severity != Severity.ERROR for f in editor.controller.findings)


def test_closing_mid_typing_keeps_the_text(qtbot, editor, store, info_moment):
    editor.context.select_moment(info_moment.id)
    QTest.keyClick(editor, Qt.Key.Key_I, CTRL)
    qtbot.waitUntil(lambda: editor.controller.item is not None)
    item_id = editor.controller.item.id
    for field, text in (("consequence", "The rep doesn't know who"), ("behavior_text", "Ask the rep to sta")):
        getattr(editor.view, field).setFocus()
        type_here(qtbot, text)
    assert editor.controller.saver.has_pending()  # still inside the typing pause
    editor.close()  # no wait: the pause has not run out
    reopened = open_store(store.path)
    try:
        row = items.get_item(reopened, item_id)
    finally:
        reopened.close()
    assert row.consequence == "The rep doesn't know who"
    assert row.behavior_text == "Ask the rep to sta"


@pytest.mark.parametrize("widget_name,field,text", [
    ("consequence", "consequence", "The rep doesn't know the buyer."),
    ("behavior_text", "behavior_text", "Ask the rep to name the buyer."),
    ("practice_task", "practice_task", "Role-play naming the buyer."),
    ("next_evidence", "next_evidence", "Next pipeline review"),
    ("owner_does", "owner_does", "Morgan"),
    ("owner_reviews", "owner_reviews", "Dana Coach"),
    ("cadence", "cadence", "Weekly"),
    ("indicator", "indicator", "Buyer named in the CRM"),
    ("review_rule_text", "review_rule_text", "Continue when seen twice."),
])
def test_every_text_field_is_saved_after_the_pause_and_on_leaving(qtbot, editor, store, info_moment,
                                                                  widget_name, field, text):
    editor.context.select_moment(info_moment.id)
    QTest.keyClick(editor, Qt.Key.Key_I, CTRL)
    qtbot.waitUntil(lambda: editor.controller.item is not None)
    item_id = editor.controller.item.id
    widget = getattr(editor.view, widget_name)
    widget.setFocus()
    if hasattr(widget, "selectAll"):
        widget.selectAll()
    type_here(qtbot, text)
    qtbot.waitUntil(lambda: getattr(items.get_item(store, item_id), field) == text, timeout=3000)
    type_here(qtbot, "!")
    key(Qt.Key.Key_Tab)  # leaving the field writes at once
    assert getattr(items.get_item(store, item_id), field) == text + "!"


def test_choices_are_saved_at_once(qtbot, editor, store, info_moment):
    editor.context.select_moment(info_moment.id)
    QTest.keyClick(editor, Qt.Key.Key_I, CTRL)
    qtbot.waitUntil(lambda: editor.controller.item is not None)
    v = editor.view
    v.practice_kind.setFocus()
    key(Qt.Key.Key_Down)
    v.status.setFocus()
    key(Qt.Key.Key_Down)
    row = items.get_item(store, editor.controller.item.id)
    assert row.practice_kind == "call_review" and row.status == "done"


def test_selecting_a_moment_opens_the_item_it_feeds(qtbot, editor, store, call, info_moment):
    item = items.create_item(store, [info_moment.id], behavior_text=BEHAVIOR)
    other = mark(store, call.id, 121699, kind="question")
    editor.context.select_moment(other.id)
    assert editor.controller.item is None and not editor.view.form.isEnabled()
    assert "feeds no item yet" in editor.view.moment_card.text()
    editor.context.select_moment(info_moment.id)
    assert editor.controller.item.id == item.id
    assert editor.view.behavior_text.text() == BEHAVIOR
    # Ctrl+I on a moment that already feeds an item opens it instead of refusing silently
    QTest.keyClick(editor, Qt.Key.Key_I, CTRL)
    assert editor.controller.item.id == item.id
    assert f"already feeds item {item.id}" in editor.view.message.text()
    assert len(items.list_items(store)) == 1


def test_one_behavior_a_second_one_becomes_a_second_item(qtbot, editor, store, info_moment):
    editor.context.select_moment(info_moment.id)
    QTest.keyClick(editor, Qt.Key.Key_I, CTRL)
    qtbot.waitUntil(lambda: editor.controller.item is not None)
    v = editor.view
    v.behavior_text.setFocus()
    type_here(qtbot, "Ask the rep to state the next step the customer confirmed, and also write "
                     "the date in Salesforce.")
    if v.completer.popup().isVisible():
        key(Qt.Key.Key_Escape)
    assert "more than one behavior" in v.behavior_note.text()
    assert v.behavior_text.severity() == Severity.ERROR
    assert v.split_button.isVisibleTo(editor)
    first_id = editor.controller.item.id
    v.split_button.setFocus()
    key(Qt.Key.Key_Space)
    assert v.behavior_text.text() == "Ask the rep to state the next step the customer confirmed."
    assert "more than one behavior" not in v.behavior_note.text()
    rows = {r.id: r for r in items.list_items(store)}
    assert len(rows) == 2
    second = next(r for r in rows.values() if r.id != first_id)
    assert second.behavior_text == "Write the date in Salesforce."
    assert second.manager == "Morgan Manager"


def test_the_behavior_library_is_offered_as_the_coach_types(qtbot, editor, store, info_moment):
    editor.context.select_moment(info_moment.id)
    QTest.keyClick(editor, Qt.Key.Key_I, CTRL)
    qtbot.waitUntil(lambda: editor.controller.item is not None)
    v = editor.view
    v.behavior_text.setFocus()
    type_here(qtbot, "When the customer asks")
    popup = v.completer.popup()
    qtbot.waitUntil(popup.isVisible)
    offered = [v.completer.completionModel().index(r, 0).data() for r in range(popup.model().rowCount())]
    assert offered[0].startswith("When the customer asks for information")
    QTest.keyClick(popup, Qt.Key.Key_Down)
    QTest.keyClick(popup, Qt.Key.Key_Return)
    assert v.behavior_text.text() == offered[0]
    editor.flush()
    assert items.get_item(store, editor.controller.item.id).behavior_text == offered[0]


def test_park_and_promote_from_the_editor(qtbot, editor, store, call, info_moment):
    demo_question = mark(store, call.id, 121699, kind="question")
    editor.context.select_moment(demo_question.id)
    v = editor.view
    v.park_note.setFocus()
    type_here(qtbot, "Closed question; later cycle")
    key(Qt.Key.Key_Return)  # Enter parks
    parked = parking.list_parked(store, "Morgan Manager")
    assert [p.moment_id for p in parked] == [demo_question.id]
    assert parked[0].note == "Closed question; later cycle"
    assert editor.view.parked_list.model().rowCount() == 1
    assert "Parked on Morgan Manager" in v.message.text()
    v.parked_list.setFocus()
    v.parked_list.setCurrentIndex(v.parked_list.model().index(0, 0))
    v.promote_button.setFocus()
    key(Qt.Key.Key_Space)
    assert editor.controller.item is not None
    assert editor.controller.item.moment_ids == [demo_question.id]
    assert v.consequence.text() == "Closed question; later cycle"
    assert editor.view.parked_list.model().rowCount() == 0
    assert parking.list_parked(store, include_promoted=True)[0].promoted_item_id == editor.controller.item.id


def test_a_bad_review_rule_is_explained_not_saved(qtbot, editor, store, info_moment):
    editor.context.select_moment(info_moment.id)
    QTest.keyClick(editor, Qt.Key.Key_I, CTRL)
    qtbot.waitUntil(lambda: editor.controller.item is not None)
    v = editor.view
    v.seen_in.setValue(3)
    v.of_reviewed.setValue(2)
    v.weeks_in_a_row.setValue(1)
    editor.flush()
    assert "can't be more" in v.rule_note.text()
    assert items.get_item(store, editor.controller.item.id).continue_after is None


def test_no_moment_selected_says_what_to_do(qtbot, editor):
    QTest.keyClick(editor, Qt.Key.Key_I, CTRL)
    assert editor.controller.item is None
    assert "Select a moment first" in editor.view.message.text()
