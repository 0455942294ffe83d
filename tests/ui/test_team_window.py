"""The window on a team store: the call, its transcript and the coach's own moments, read from the server."""

from __future__ import annotations

from db.server import open_server_store
from desktop.app import start
from desktop.services import moments
from tests.services.items_setup import INFO_LINE_MS, demo_call, mark


def test_the_window_opens_a_call_from_the_team_store(qtbot, pg_store_url, isolated_home):
    team = open_server_store(pg_store_url)
    try:
        call = demo_call(team)
        mark(team, call.id, INFO_LINE_MS)
        moments.add_moment(team, call.id, 1000, 2000, kind="question")
    finally:
        team.close()
    app, window, store = start(home=str(isolated_home), call_id=call.id, store=pg_store_url)
    try:
        qtbot.addWidget(window)
        window.show()
        qtbot.waitExposed(window)
        assert store.dialect == "postgresql"
        assert window.moments_model.rowCount() == 2
        assert window.transcript_model.rowCount() == 23
        assert not (isolated_home / "callmark.sqlite3").exists()  # the local file was not made
    finally:
        window.close()
        store.close()
