"""The server going away mid-edit: a clear error naming it, nothing half-written, work again once it is back."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from db.models import Moment, Segment, Transcript
from db.server import StoreUnreachable, open_server_store
from desktop.core.enums import TranscriptOrigin
from desktop.errors import CallmarkError
from desktop.services import calls, moments
from tests.conftest import make_tone
from tests.pg_server import PgServer


@pytest.fixture
def own_server():
    """A server of this test's own: it is stopped in the middle of the test."""
    server = PgServer()
    server.start()
    server.admin_sql("CREATE DATABASE callmark")
    yield server
    server.cleanup()


def _count(store, model) -> int:
    with store.read() as s:
        return s.scalar(select(func.count()).select_from(model))


def test_a_connection_lost_mid_write_saves_nothing_and_says_so(own_server, tmp_path):
    store = open_server_store(own_server.url("callmark"))
    try:
        call, _ = calls.add_call(store, make_tone(tmp_path / "call.wav", 10.0), title="Discovery")
        moments.add_moment(store, call.id, 1000, 2000, kind="question")
        with pytest.raises(StoreUnreachable) as caught:
            with store.write() as s:  # a transcript of many lines and a moment, in one transaction
                tr = Transcript(call_id=call.id, origin=TranscriptOrigin.IMPORT)
                s.add(tr)
                s.flush()
                s.add_all([Segment(transcript_id=tr.id, start_ms=i * 100, end_ms=i * 100 + 90, text=f"line {i}")
                           for i in range(50)])
                s.add(Moment(call_id=call.id, start_ms=3000, end_ms=4000, quote="half"))
                s.flush()
                own_server.stop("immediate")  # the server goes away before the commit
        message = str(caught.value)
        assert isinstance(caught.value, CallmarkError) and "\n" not in message
        assert message.startswith(f"{store.path}: the connection to the team store was lost while saving")
        assert message.endswith("nothing of it was saved")
        # While it is away, every read and write says so in one line.
        with pytest.raises(StoreUnreachable, match="can't be reached|was lost"):
            moments.list_moments(store, call.id)
        with pytest.raises(StoreUnreachable):
            moments.add_moment(store, call.id, 5000, 6000)
        own_server.start()
        # Back: none of the lost transaction landed, and work goes on with the same open store.
        assert _count(store, Transcript) == 0 and _count(store, Segment) == 0
        assert [m.start_ms for m in moments.list_moments(store, call.id)] == [1000]
        moments.add_moment(store, call.id, 5000, 6000)
        assert [m.start_ms for m in moments.list_moments(store, call.id)] == [1000, 5000]
    finally:
        store.close()


def test_opening_a_store_whose_server_is_down_names_the_server(own_server):
    url = own_server.url("callmark")
    own_server.stop()
    with pytest.raises(StoreUnreachable) as caught:
        open_server_store(url)
    assert str(caught.value).startswith("postgresql://callmark_admin@")
    assert "the team store can't be reached" in str(caught.value) and "\n" not in str(caught.value)
