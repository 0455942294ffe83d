"""0008: an upgraded store gets the shipped trackers, due a count, and its old calls are counted for them."""

from __future__ import annotations

from sqlalchemy import text

from db.engine import make_engine
from db.store import open_store, upgrade
from desktop.services import trackers


def test_an_upgraded_store_counts_its_old_calls_for_the_shipped_trackers(tmp_path):
    path = tmp_path / "old.sqlite3"
    engine = make_engine(path)
    upgrade(engine, "0007")
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO call (title, media_sha256, duration_ms, has_video, created_at) "
                          "VALUES ('Old call', :h, 60000, 0, '2026-01-01')"), {"h": "b" * 64})
        conn.execute(text("INSERT INTO transcript (call_id, origin, is_current, created_at) "
                          "VALUES (1, 'import', 1, '2026-01-01')"))
        conn.execute(text("INSERT INTO speaker (call_id, label, name, role) VALUES (1, 'Pat', 'Pat', 'customer')"))
        conn.execute(text("INSERT INTO segment (transcript_id, start_ms, end_ms, speaker, text) "
                          "VALUES (1, 4000, 9000, 'Pat', 'Our CFO signs off on anything over ten thousand.')"))
    engine.dispose()
    store = open_store(path, tmp_path / "backups")
    try:
        shipped = trackers.list_trackers(store)
        assert [t.name for t in shipped] == ["Budget owner", "Competitor names", "Deferral", "Deferral accepted",
                                             "Next step with a date", "Pricing"]
        assert all(t.pending and t.label for t in shipped), "each follows a detection label, not yet counted"
        trackers.ensure_counted(store)
        hits = trackers.tracker_hits(store, "Budget owner")
        assert [(h.call_id, h.start_ms, h.speaker, h.role, h.matched) for h in hits] == \
            [(1, 4000, "Pat", "customer", "signs off")]
        assert trackers.pending(store) == []
    finally:
        store.close()
