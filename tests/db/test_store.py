"""The store on real SQLite files: migrations, refusals, pragmas, permissions, backups."""

from __future__ import annotations

import sqlite3
import stat
from datetime import date
from pathlib import Path

import pytest
from sqlalchemy import text

from db.engine import make_engine
from db.models import Call, CoachingItem, Moment, Person
from db.store import BUSY_TIMEOUT_MS, StoreError, head_revision, open_store, upgrade
from desktop.core.enums import BehaviorChange, MomentKind, PracticeKind, Role


def test_new_file_is_migrated_to_head(tmp_path):
    store = open_store(tmp_path / "s.sqlite3")
    assert store.revision() == head_revision()
    with store.read() as s:
        tables = {r[0] for r in s.execute(text("SELECT name FROM sqlite_master WHERE type='table'"))}
    assert {"call", "moment", "coaching_item", "cycle", "segment_fts", "moment_fts"} <= tables
    store.close()


def test_old_revision_is_backed_up_then_upgraded(tmp_path):
    path = tmp_path / "old.sqlite3"
    engine = make_engine(path)
    upgrade(engine, "0001")
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO call (title, media_sha256, duration_ms, has_video, created_at) "
                          "VALUES ('Old call', :h, 1000, 0, '2026-01-01')"), {"h": "a" * 64})
        conn.execute(text("INSERT INTO transcript (call_id, origin, is_current, created_at) "
                          "VALUES (1, 'import', 1, '2026-01-01')"))
        conn.execute(text("INSERT INTO segment (transcript_id, start_ms, end_ms, text) "
                          "VALUES (1, 0, 900, 'the budget owner is Pat')"))
    engine.dispose()

    store = open_store(path, tmp_path / "backups")
    assert store.revision() == head_revision()
    backups = list((tmp_path / "backups").glob("*.sqlite3"))
    assert len(backups) == 1
    with sqlite3.connect(backups[0]) as con:
        assert con.execute("SELECT version_num FROM alembic_version").fetchone()[0] == "0001"
        assert con.execute("SELECT title FROM call").fetchone()[0] == "Old call"
    # rows written before the search index existed are searchable after the upgrade
    with store.read() as s:
        hits = s.execute(text("SELECT rowid FROM segment_fts WHERE segment_fts MATCH 'budget'")).all()
    assert hits == [(1,)]
    # and a transcript's lines are read from the index that holds them (0003), which replaced the old one
    indexes = {r[0] for r in store.reader().execute(
        "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'segment'")}
    assert "ix_segment_lines" in indexes and "ix_segment_transcript_start" not in indexes
    store.close()


def test_not_sqlite_is_refused_and_left_untouched(tmp_path):
    path = tmp_path / "notes.sqlite3"
    path.write_text("these are my notes, not a database\n")
    with pytest.raises(StoreError, match="not a Callmark store"):
        open_store(path)
    assert path.read_text() == "these are my notes, not a database\n"


def test_other_sqlite_is_refused_and_left_untouched(tmp_path):
    path = tmp_path / "other.sqlite3"
    with sqlite3.connect(path) as con:
        con.execute("CREATE TABLE contacts (name TEXT)")
    before = path.read_bytes()
    with pytest.raises(StoreError, match="not a Callmark store"):
        open_store(path)
    assert path.read_bytes() == before


def test_newer_schema_is_refused_naming_both_versions(tmp_path):
    path = tmp_path / "new.sqlite3"
    open_store(path).close()
    with sqlite3.connect(path) as con:
        con.execute("UPDATE alembic_version SET version_num = '0099'")
    with pytest.raises(StoreError) as err:
        open_store(path)
    assert "0099" in str(err.value) and head_revision() in str(err.value)


def test_pragmas_hold_on_every_connection(tmp_path):
    store = open_store(tmp_path / "s.sqlite3")
    for _ in range(3):
        with store.engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
            assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == 2  # FULL
            assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
            assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar() == BUSY_TIMEOUT_MS == 15000
        store.engine.dispose()  # next round opens a new connection
    store.close()


def test_transactions_are_real(tmp_path):
    store = open_store(tmp_path / "s.sqlite3")
    with pytest.raises(RuntimeError):
        with store.write() as s:
            s.add(Person(name="Morgan", role=Role.MANAGER))
            s.flush()
            raise RuntimeError("half way")
    with store.read() as s:
        assert s.query(Person).count() == 0
    # a savepoint rolls back alone
    with store.write() as s:
        s.add(Person(name="Kept", role=Role.MANAGER))
        nested = s.begin_nested()
        s.add(Person(name="Dropped", role=Role.MANAGER))
        s.flush()
        nested.rollback()
    with store.read() as s:
        assert [p.name for p in s.query(Person)] == ["Kept"]
    store.close()


def test_files_are_private(tmp_path):
    path = tmp_path / "s.sqlite3"
    store = open_store(path)
    with store.write() as s:
        s.add(Person(name="Dana", role=Role.COACH))
    with store.engine.connect() as conn:  # keep a connection open so -wal/-shm exist
        conn.exec_driver_sql("SELECT 1").all()
        for suffix in ("", "-wal", "-shm"):
            f = Path(f"{path}{suffix}")
            assert f.exists(), suffix
            assert stat.S_IMODE(f.stat().st_mode) == 0o600, suffix
    store.close()


def _call(session, sha="b" * 64) -> Call:
    call = Call(title="Discovery - Acme", media_sha256=sha, duration_ms=183000, has_video=False)
    session.add(call)
    session.flush()
    return call


def test_item_round_trip_with_moments(tmp_path):
    store = open_store(tmp_path / "s.sqlite3")
    with store.write() as s:
        call = _call(s)
        item = CoachingItem(
            consequence="The rep doesn't know who else is involved.",
            behavior_change=BehaviorChange.START,
            behavior_text="Ask what they will review and who else needs to be involved.",
            practice_kind=PracticeKind.ROLE_PLAY, practice_task="Role-play it three times.",
            next_evidence="Next two discovery recordings", next_evidence_due=date(2026, 12, 14),
            continue_seen_in=2, continue_of_reviewed=2, continue_weeks_in_a_row=2,
            qualification_gap="meddicc:economic_buyer",
        )
        s.add(item)
        s.flush()
        s.add(Moment(call_id=call.id, start_ms=39876, end_ms=44610, kind=MomentKind.MISSED_INTERVENTION,
                     quote="Just send me some information.", item_id=item.id))
    with store.read() as s:
        item = s.query(CoachingItem).one()
        assert item.behavior_change is BehaviorChange.START
        assert item.next_evidence_due == date(2026, 12, 14)
        assert [(m.start_ms, m.kind) for m in item.moments] == [(39876, MomentKind.MISSED_INTERVENTION)]
        assert len(item.uid) == 36
    store.close()


def test_constraints_reject_bad_rows(tmp_path):
    store = open_store(tmp_path / "s.sqlite3")
    from sqlalchemy.exc import IntegrityError

    with pytest.raises(IntegrityError):
        with store.write() as s:
            call = _call(s)
            s.add(Moment(call_id=call.id, start_ms=5000, end_ms=1000, quote=""))
    with pytest.raises(IntegrityError):
        with store.write() as s:
            s.add(Moment(call_id=999, start_ms=0, end_ms=1, quote=""))  # no such call
    with pytest.raises(IntegrityError):
        with store.write() as s:
            s.execute(text("INSERT INTO moment (uid, call_id, start_ms, end_ms, kind, quote, imported, "
                           "created_at, updated_at) VALUES ('x', 1, 0, 1, 'shouting', '', 0, '2026-01-01', "
                           "'2026-01-01')"))
    store.close()


def test_revision_reading_matches_alembic():
    from alembic.script import ScriptDirectory

    from db.store import alembic_config, known_revisions

    script = ScriptDirectory.from_config(alembic_config())
    assert head_revision() == script.get_current_head()
    assert known_revisions() == {rev.revision for rev in script.walk_revisions()}


def test_opening_a_current_store_does_not_import_alembic(tmp_path):
    import subprocess
    import sys

    open_store(tmp_path / "s.sqlite3").close()
    code = ("import sys; from pathlib import Path; from db.store import open_store; "
            f"open_store(Path({str(tmp_path / 's.sqlite3')!r})).close(); "
            "print('alembic' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
