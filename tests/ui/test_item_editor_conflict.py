"""The editor's save of an item someone else saved since it opened: a conflict shown, both texts kept."""

from __future__ import annotations

import pytest
from PySide6.QtTest import QTest

from desktop.services import items
from desktop.ui.item_editor import ItemEditor
from desktop.ui.panels import WorkspaceContext
from tests.services.items_setup import INFO_LINE_MS, demo_call, mark

THEIRS = "Ask the rep to confirm the next step the customer agreed to."
MINE = "Ask who signs off before sending information."


@pytest.fixture
def editor_on_item(qtbot, store, isolated_home):
    call = demo_call(store)
    item = items.create_item(store, [mark(store, call.id, INFO_LINE_MS).id], behavior_text="first draft")
    context = WorkspaceContext(store, isolated_home)
    widget = ItemEditor(store, context)
    qtbot.addWidget(widget)
    widget.resize(460, 1100)
    widget.show()
    qtbot.waitExposed(widget)
    context.set_call(call.id)
    widget.controller.show_item(item.id)
    return widget, item


def test_a_save_over_someone_elses_shows_theirs_and_keeps_mine(qtbot, store, editor_on_item):
    editor, item = editor_on_item
    field = editor.view.behavior_text
    # Someone else (another coach, another window) saves the same field after the editor opened.
    items.update_item(store, item.id, expected_version=item.version, behavior_text=THEIRS)
    field.selectAll()
    QTest.keyClicks(field, MINE)
    editor.controller.flush()
    message = editor.view.message.text()
    assert message.startswith("Not saved: someone else saved this item since you opened it.")
    assert THEIRS in message
    assert field.text() == MINE  # the coach's text stays in the editor
    assert items.get_item(store, item.id).behavior_text == THEIRS  # theirs was not overwritten
    QTest.keyClicks(field, " Today.")  # the coach, having read theirs, saves again: theirs is replaced knowingly
    editor.controller.flush()
    assert items.get_item(store, item.id).behavior_text == MINE + " Today."
