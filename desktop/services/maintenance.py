"""Store health: integrity, foreign keys, schema version, search index; online backups."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

from db.store import Store, head_revision, online_backup


@dataclass
class CheckReport:
    path: str
    schema: str | None
    head: str
    integrity: list[str]
    foreign_key_problems: list[str]
    search_index: str
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def to_json(self) -> dict:
        return {
            "path": self.path, "ok": self.ok, "schema": self.schema, "head": self.head,
            "integrity": self.integrity, "foreign_key_problems": self.foreign_key_problems,
            "search_index": self.search_index, "problems": self.problems,
        }


def _check_server(store) -> tuple[list[str], list[str], str | None, str]:
    """A team store: the server keeps pages and references whole; the search words are checked
    against the text they come from."""
    with store.engine.connect() as conn:
        schema = conn.execute(text("SELECT version_num FROM alembic_version")).scalar()
        stale = conn.execute(text(
            "SELECT (SELECT count(*) FROM segment WHERE search_words IS DISTINCT FROM callmark_search_words(text))"
            " + (SELECT count(*) FROM moment WHERE search_words IS DISTINCT FROM "
            "callmark_search_words(quote || ' ' || coalesce(note, '')))")).scalar()
    return ["ok"], [], schema, "ok" if not stale else f"{stale} lines' search words differ from their text"


SAMPLED = 200  # lines (and moments) looked up in the search index by one of their words


def check(store: Store, progress=None, *, full: bool = False) -> CheckReport:
    """The store's health. On a store file, in steps, `progress(done, total, what)` after each: SQLite's
    integrity check table by table (each with its indexes), the references table by table, then each
    search index. Each step is its own short read, so a big store's check never holds the store: the
    coach goes on working, and the log's pages are folded into the store between steps.

    The search index is read, not rebuilt: SAMPLED lines and moments spread over the store are each
    looked up by a word of theirs. `full`: FTS5's own integrity check as well, which compares every entry
    but is a write to SQLite, so the coach's saves wait while it runs (seconds on a big store)."""
    if store.dialect != "sqlite":
        integrity, fk, schema, search = _check_server(store)
        report = CheckReport(str(store.path), schema, head_revision(), integrity, fk, search)
        if progress is not None:
            progress(1, 1, "the server's store")
        return _judge(report)
    with store.engine.connect() as conn:
        tables = [r[0] for r in conn.exec_driver_sql(
            "SELECT name FROM sqlite_schema WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%' "
            "ORDER BY name").all()]
        schema = conn.execute(text("SELECT version_num FROM alembic_version")).scalar()
    fts = ("segment_fts", "moment_fts")
    steps = [("integrity", t) for t in tables] + [("references", t) for t in tables] + [("search", t) for t in fts]
    if full:
        steps += [("search, every entry", t) for t in fts]
    integrity: list[str] = []
    fk: list[str] = []
    search = "ok"
    for n, (kind, table) in enumerate(steps, start=1):
        try:
            search = _step(store, kind, table, integrity, fk, search)
        except DBAPIError as exc:  # a page too damaged to read: the table is named, the check goes on
            integrity.append(f"{table}: {getattr(exc, 'orig', exc)}")
        if progress is not None:
            progress(n, len(steps), f"{kind}: {table}")
    return _judge(CheckReport(str(store.path), schema, head_revision(), integrity or ["ok"], fk, search))


def _step(store: Store, kind: str, table: str, integrity: list[str], fk: list[str], search: str) -> str:
    """One step of the check (adds to `integrity` and `fk`); returns the search index's verdict so far."""
    with store.engine.connect() as conn:
        if kind == "integrity":
            found = [r[0] for r in conn.exec_driver_sql(f"PRAGMA integrity_check('{table}')").all()]
            integrity += [f for f in found if f != "ok"]
        elif kind == "references":
            fk += [f"{r[0]} row {r[1]} -> {r[2]}"
                   for r in conn.exec_driver_sql(f"PRAGMA foreign_key_check('{table}')").all()]
        elif kind == "search":
            missing = _sampled_search(conn, table)
            if missing and search == "ok":
                search = missing
        else:
            try:
                conn.exec_driver_sql(f"INSERT INTO {table}({table}) VALUES ('integrity-check')")
            except Exception as exc:  # noqa: BLE001 - the report names what went wrong
                search = f"{table}: {exc.__class__.__name__}: {exc}"
            conn.rollback()
    return search


_SEARCHED = {"segment_fts": ("segment", "text"), "moment_fts": ("moment", "quote || ' ' || coalesce(note, '')")}
_WORD = re.compile(r"[^\W_]{4,}")


def _sampled_search(conn, fts: str) -> str | None:
    """None, or which row the search index does not find by one of its own words."""
    table, said = _SEARCHED[fts]
    low, high = conn.exec_driver_sql(f"SELECT min(id), max(id) FROM {table}").one()
    if low is None:
        return None
    step = max(1, (high - low) // SAMPLED)
    for start in range(low, high + 1, step):
        row = conn.exec_driver_sql(f"SELECT id, {said} FROM {table} WHERE id >= ? ORDER BY id LIMIT 1",
                                   (start,)).first()
        words = _WORD.findall(row[1] or "") if row else []
        if not words:
            continue
        word = max(words, key=len)
        found = conn.exec_driver_sql(f"SELECT 1 FROM {fts} WHERE {fts} MATCH ? AND rowid = ?",
                                     (f'"{word}"', row[0])).first()
        if found is None:
            return f"{fts}: {table} {row[0]} is not found by its word '{word}'"
    return None


def _judge(report: CheckReport) -> CheckReport:
    integrity, fk, schema, search = (report.integrity, report.foreign_key_problems, report.schema,
                                     report.search_index)
    if integrity != ["ok"]:
        report.problems.append("integrity check: " + "; ".join(integrity[:5]))
    if fk:
        report.problems.append(f"{len(fk)} broken references: " + "; ".join(fk[:5]))
    if schema != report.head:
        report.problems.append(f"schema {schema} is not the current schema {report.head}")
    if search != "ok":
        report.problems.append("search index out of step: " + search)
    return report


def backup(store: Store, target: Path | None, backups_folder: Path, progress=None) -> Path:
    """An online copy of the store file; `progress(done_pages, total_pages)` as it goes (db.store.online_backup)."""
    if store.dialect != "sqlite":
        from desktop.errors import CallmarkError

        raise CallmarkError(f"{store.path}: a team store is backed up on its server (pg_dump); "
                            "`callmark db copy --to FILE` copies it into a store file")
    if target is None:
        target = backups_folder / f"callmark-{datetime.now().strftime('%Y%m%d-%H%M%S')}.sqlite3"
    return online_backup(store.path, Path(target).expanduser(), progress=progress)
