"""The editor on a team store whose server goes away mid-edit: the text stays, and is saved once it is back."""

from __future__ import annotations

import pytest
from PySide6.QtTest import QTest

from db.server import open_server_store
from desktop.services import items
from desktop.ui.item_editor import ItemEditor
from desktop.ui.panels import WorkspaceContext
from tests.pg_server import PgServer
from tests.services.items_setup import INFO_LINE_MS, demo_call, mark

TYPED = "Ask who signs off before sending information."


@pytest.fixture
def own_server():
    server = PgServer()
    server.start()
    server.admin_sql("CREATE DATABASE callmark")
    yield server
    server.cleanup()


def test_text_typed_while_the_server_is_away_is_kept_and_saved_when_it_is_back(qtbot, own_server, isolated_home):
    store = open_server_store(own_server.url("callmark"))
    try:
        call = demo_call(store)
        item = items.create_item(store, [mark(store, call.id, INFO_LINE_MS).id], behavior_text="first draft")
        context = WorkspaceContext(store, isolated_home)
        editor = ItemEditor(store, context)
        qtbot.addWidget(editor)
        editor.resize(460, 1100)
        editor.show()
        qtbot.waitExposed(editor)
        context.set_call(call.id)
        editor.controller.show_item(item.id)
        editor.controller.away._timer.setInterval(200)  # try again sooner than a coach would wait
        own_server.stop("immediate")
        field = editor.view.behavior_text
        field.selectAll()
        QTest.keyClicks(field, TYPED)
        editor.controller.flush()
        message = editor.view.message.text()
        assert "the team store" in message and message.endswith("saved when the server is back.")
        assert field.text() == TYPED
        qtbot.wait(600)  # retries while the server is still away change nothing
        assert editor.controller.away.pending() == 1
        own_server.start()
        qtbot.waitUntil(lambda: editor.controller.away.pending() == 0, timeout=20000)
        assert editor.view.message.text() == "Saved: the team store is back."
        assert items.get_item(store, item.id).behavior_text == TYPED
        # And editing goes on from the version now saved (no conflict with itself).
        QTest.keyClicks(field, " Today.")
        editor.controller.flush()
        assert items.get_item(store, item.id).behavior_text == TYPED + " Today."
    finally:
        store.close()
