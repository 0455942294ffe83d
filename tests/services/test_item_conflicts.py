"""Two saves of the same item from the same version: the second is a conflict, and neither text is lost."""

from __future__ import annotations

import threading

import pytest

from db.server import libpq_url, open_server_store
from desktop.services import items
from tests.services.items_setup import INFO_LINE_MS, demo_call, mark

pytestmark = pytest.mark.both_stores  # the services on SQLite and on a team store

MINE = "Ask the rep to name who signs off before sending information."
THEIRS = "Ask the rep to confirm the next step the customer agreed to."


def _item(store):
    call = demo_call(store)
    return items.create_item(store, [mark(store, call.id, INFO_LINE_MS).id], behavior_text="first draft")


def test_the_second_save_from_the_same_version_is_a_conflict_with_both_texts(store):
    opened = _item(store)  # two editors open the item at the same version
    saved = items.update_item(store, opened.id, expected_version=opened.version, behavior_text=THEIRS)
    assert saved.version == opened.version + 1
    with pytest.raises(items.EditConflict) as caught:
        items.update_item(store, opened.id, expected_version=opened.version, behavior_text=MINE)
    conflict = caught.value
    assert conflict.mine == {"behavior_text": MINE} and conflict.theirs.behavior_text == THEIRS
    assert str(conflict).startswith(f"item {opened.id}: behavior_text was saved by someone else since you opened it")
    assert "\n" not in str(conflict)
    assert items.get_item(store, opened.id).behavior_text == THEIRS  # nothing overwritten
    # The coach who read both keeps theirs: saved from the version they now have seen.
    kept = items.update_item(store, opened.id, expected_version=conflict.theirs.version, behavior_text=MINE)
    assert kept.behavior_text == MINE and kept.version == conflict.theirs.version + 1


def test_every_save_counts_and_a_save_without_a_version_still_works(store):
    opened = _item(store)
    for n, field in enumerate(("consequence", "cadence", "indicator"), start=1):
        row = items.update_item(store, opened.id, **{field: f"{field} text"})
        assert row.version == opened.version + n


def test_saves_that_cross_on_the_server_are_a_conflict_not_a_lost_update(pg_store_url):
    """The second save waits on the first's row lock; once the first commits it matches no row of
    its version, and the coach is told, instead of the first save being overwritten."""
    store = open_server_store(pg_store_url)
    try:
        opened = _item(store)
        outcome = {}
        with store.write() as session:
            from db.models import CoachingItem

            first = session.get(CoachingItem, opened.id)
            first.behavior_text = THEIRS
            session.flush()  # holds the row lock until this transaction commits

            def second():
                try:
                    outcome["row"] = items.update_item(store, opened.id, behavior_text=MINE)
                except items.EditConflict as exc:
                    outcome["conflict"] = exc

            worker = threading.Thread(target=second)
            worker.start()
            _wait_for_a_lock_wait(store)
        worker.join(30)
        assert "conflict" in outcome, outcome
        assert outcome["conflict"].theirs.behavior_text == THEIRS
        assert items.get_item(store, opened.id).behavior_text == THEIRS
    finally:
        store.close()


def _wait_for_a_lock_wait(store, timeout_s: float = 20.0) -> None:
    import time

    import psycopg

    deadline = time.monotonic() + timeout_s
    with psycopg.connect(libpq_url(store.url), autocommit=True) as con:
        while time.monotonic() < deadline:
            waiting = con.execute("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                                  "AND datname = current_database()").fetchone()[0]
            if waiting:
                return
            time.sleep(0.02)
    raise AssertionError("the second save never waited on the first one's lock")
