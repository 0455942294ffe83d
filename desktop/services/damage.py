"""A damaged store: set it aside (never deleted), offer the newest good backup, salvage what can be read.

Setting aside renames ``callmark.sqlite3`` (with its ``-wal`` and ``-shm``, so
the committed pages in the WAL stay with it) to ``callmark.sqlite3.damaged-<time>``.
Salvage runs SQLite's own ``.recover`` (the ``sqlite3`` command-line tool) into a
fresh file where that tool can (see ``recover_tool``), else reads every table row by
row, stepping over damaged pages, into a fresh store of the same schema; it then keeps only rows whose references still hold, rebuilds the search
index, checks the result, and only then puts it in place.
"""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from db.store import StoreError, inspect_file, quick_check
from desktop.errors import CallmarkError
from desktop.logs import logger
from desktop.services import backups

DAMAGED_MARK = ".damaged-"
FTS_TABLES = ("segment_fts", "moment_fts")


class RecoverError(CallmarkError):
    """Nothing could be salvaged into a store; the message names the file and why."""


@dataclass
class DamageReport:
    store: Path
    damaged: Path  # where the damaged file now is
    detail: str
    backup: backups.Backup | None  # the newest good backup, if any

    def message(self, now: datetime | None = None) -> str:
        """One line for the coach: what happened, where the file went, what can be done."""
        text = (f"{self.store}: the store is damaged ({self.detail}); it was moved aside to "
                f"{self.damaged.name} and nothing more was written to it. ")
        if self.backup is not None:
            when = f"{self.backup.made_at:%Y-%m-%d %H:%M}"
            text += (f"The newest good backup is from {when} ({backups.describe_age(self.backup.age(now))}): "
                     f"anything written after {when} is missing from it. "
                     f"Restore it with `callmark db restore {self.backup.path.name}`, or salvage what can be "
                     f"read with `callmark db recover`.")
        else:
            text += "There is no good backup; salvage what can be read with `callmark db recover`."
        return text

    def to_json(self) -> dict:
        return {"store": str(self.store), "damaged": str(self.damaged), "detail": self.detail,
                "backup": self.backup.to_json() if self.backup else None}


def set_aside(store_path: Path, backups_folder: Path, detail: str, now: datetime | None = None) -> DamageReport:
    """Move a damaged store (and its WAL) aside; find the newest good backup."""
    store_path = Path(store_path)
    stamp = (now or datetime.now()).strftime(backups.STAMP)
    damaged = store_path.with_name(f"{store_path.name}{DAMAGED_MARK}{stamp}")
    n = 1
    while damaged.exists():
        damaged = store_path.with_name(f"{store_path.name}{DAMAGED_MARK}{stamp}-{n}")
        n += 1
    if store_path.exists():
        store_path.rename(damaged)
    for suffix in ("-wal", "-shm"):
        side = Path(f"{store_path}{suffix}")
        if side.exists():
            side.rename(Path(f"{damaged}{suffix}"))
    report = DamageReport(store_path, damaged, detail, backups.newest_good(backups_folder))
    logger("damage").warning("store damaged (%s); set aside as %s; newest good backup: %s", detail, damaged.name,
                             report.backup.path.name if report.backup else "none")
    return report


def damaged_files(home: Path) -> list[Path]:
    """Stores set aside in this data folder, newest first."""
    found = [p for p in Path(home).glob(f"*{DAMAGED_MARK}*") if not p.name.endswith(("-wal", "-shm"))]
    return sorted(found, key=lambda p: p.name, reverse=True)


@dataclass
class RecoverReport:
    source: Path
    target: Path
    kept: dict[str, int] = field(default_factory=dict)  # rows per table in the salvaged store
    dropped: dict[str, int] = field(default_factory=dict)  # rows left out: their references were lost
    method: str = ""

    def to_json(self) -> dict:
        return {"source": str(self.source), "target": str(self.target), "method": self.method,
                "kept": self.kept, "dropped": self.dropped}


def recover_tool() -> str | None:
    """The sqlite3 command-line tool, if its ``.recover`` can run here.

    ``.recover`` reads pages through the ``sqlite_dbpage`` table; a build without it
    (Debian 12's sqlite3 3.40) prints only the schema. Then Callmark salvages row by row.
    """
    tool = shutil.which("sqlite3")
    if tool is None:
        return None
    probe = subprocess.run([tool, ":memory:", "SELECT count(*) FROM sqlite_dbpage"], capture_output=True, timeout=30)
    return tool if probe.returncode == 0 else None


def recover(source: Path, target: Path) -> RecoverReport:
    """Salvage what can be read from ``source`` into a new store at ``target`` (which must not exist)."""
    source, target = Path(source), Path(target)
    if not source.is_file():
        raise RecoverError(f"{source}: no such file to recover")
    if target.exists():
        raise RecoverError(f"{target}: already exists; choose another place for the recovered store")
    part = target.with_name(target.name + ".part")
    for stale in (part, Path(f"{part}-wal"), Path(f"{part}-shm")):
        stale.unlink(missing_ok=True)
    report = RecoverReport(source, target)
    try:
        tool = recover_tool()
        if tool is not None:
            report.method = "sqlite3 .recover"
            _recover_with_tool(tool, source, part)
        else:
            report.method = "row by row"
            _recover_row_by_row(source, part, report)
        _tidy(part, report)
        try:
            inspect_file(part)
        except StoreError as exc:
            raise RecoverError(f"{source}: what could be read is not a Callmark store ({exc})") from exc
        verdict = quick_check(part)
        if verdict != ["ok"]:
            raise RecoverError(f"{source}: the salvaged store fails its check: {'; '.join(verdict[:3])}")
        part.chmod(0o600)
        part.replace(target)
        logger("damage").info("recovered %s (%s): %s rows kept, %s left out", source.name, report.method,
                              sum(report.kept.values()), sum(report.dropped.values()))
    except BaseException:
        for stale in (part, Path(f"{part}-wal"), Path(f"{part}-shm")):
            stale.unlink(missing_ok=True)
        raise
    return report


def _recover_with_tool(tool: str, source: Path, part: Path) -> None:
    # The damaged file is opened read-only: .recover must not change what it reads.
    dump = subprocess.run([tool, "-readonly", str(source), ".recover"], capture_output=True, timeout=600)
    if b"INSERT" not in dump.stdout:
        raise RecoverError(f"{source}: nothing could be read from it "
                           f"({dump.stderr.decode(errors='replace').strip() or 'no rows recovered'})")
    load = subprocess.run([tool, str(part)], input=dump.stdout, capture_output=True, timeout=600)
    if not part.exists():
        raise RecoverError(f"{source}: the salvaged rows could not be written "
                           f"({load.stderr.decode(errors='replace').strip()})")


def _readable_rows(con: sqlite3.Connection, table: str):
    """Every row of ``table`` that can still be read, in rowid order, stepping over damaged pages.

    Each row is fetched by seeking past the last one read; a seek that lands on a damaged
    page is retried a little further on (one rowid at a time, then doubling), so a bad
    page costs its own rows and no more.
    """
    query = f'SELECT rowid, * FROM "{table}" WHERE rowid > ? ORDER BY rowid LIMIT 1'
    try:
        top = con.execute(f'SELECT rowid FROM "{table}" ORDER BY rowid DESC LIMIT 1').fetchone()
        top = top[0] if top else 0
    except sqlite3.DatabaseError:
        top = 1 << 40
    last, skip = -(1 << 62), 1
    while last < top:
        try:
            row = con.execute(query, (last,)).fetchone()
        except sqlite3.DatabaseError:
            last = max(last, 0) + skip
            skip = skip + 1 if skip < 64 else skip * 2
            continue
        if row is None:
            return
        skip = 1
        last = row[0]
        yield row


def _recover_row_by_row(source: Path, part: Path, report: RecoverReport) -> None:
    """A fresh store at the damaged one's schema, filled with every row that can be read."""
    from db.engine import make_engine
    from db.store import upgrade

    try:
        src = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
        revision = src.execute("SELECT version_num FROM alembic_version").fetchone()
        tables = [r[0] for r in src.execute(
            "SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%' "
            "AND sql NOT LIKE 'CREATE VIRTUAL%'")]
    except sqlite3.DatabaseError as exc:
        raise RecoverError(f"{source}: its list of tables can't be read ({exc}); restore a backup instead") from exc
    if not revision:
        raise RecoverError(f"{source}: its schema version can't be read; restore a backup instead")
    engine = make_engine(part)
    try:
        upgrade(engine, revision[0])
    finally:
        engine.dispose()
    dst = sqlite3.connect(part, isolation_level=None)
    try:
        shadow = {r[0] for r in dst.execute("SELECT name FROM sqlite_master WHERE type='table' AND name LIKE '%_fts%'")}
        dst.execute("BEGIN")
        for table in tables:
            if table in shadow or table == "alembic_version":
                continue  # the search index is rebuilt from its tables; the version is set already
            columns = [r[1] for r in dst.execute(f'PRAGMA table_info("{table}")')]
            if not columns:
                continue
            try:
                names = [d[0] for d in src.execute(f'SELECT * FROM "{table}" LIMIT 0').description]
            except sqlite3.DatabaseError:
                continue
            shared = [c for c in names if c in columns]
            picks = [names.index(c) + 1 for c in shared]  # +1: the rowid comes first
            insert = (f'INSERT OR IGNORE INTO "{table}" (rowid, {", ".join(chr(34) + c + chr(34) for c in shared)}) '
                      f'VALUES (?, {", ".join("?" for _ in shared)})')
            for row in _readable_rows(src, table):
                dst.execute(insert, (row[0], *(row[i] for i in picks)))
        dst.execute("COMMIT")
    finally:
        dst.close()
        src.close()


def _tidy(path: Path, report: RecoverReport) -> None:
    """Make the salvaged rows a consistent store: no row pointing at a lost one, a rebuilt index."""
    con = sqlite3.connect(path, isolation_level=None)
    try:
        con.execute("BEGIN")
        lost = con.execute("SELECT name FROM sqlite_master WHERE type='table' AND name='lost_and_found'").fetchone()
        if lost is not None:
            con.execute("DROP TABLE lost_and_found")  # pages with no table to go to: nothing to put back
        for _ in range(10):  # a dropped call drops its moments, whose items then go too
            broken = con.execute("PRAGMA foreign_key_check").fetchall()
            if not broken:
                break
            for table, rowid, _parent, _fk in broken:
                if rowid is not None:
                    con.execute(f'DELETE FROM "{table}" WHERE rowid = ?', (rowid,))
                    report.dropped[table] = report.dropped.get(table, 0) + 1
        tables = [r[0] for r in con.execute(
            "SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%' "
            "AND name NOT LIKE '%_fts%' AND sql NOT LIKE 'CREATE VIRTUAL%'")]
        for fts in FTS_TABLES:
            if con.execute("SELECT 1 FROM sqlite_master WHERE name = ?", (fts,)).fetchone():
                con.execute(f"INSERT INTO {fts}({fts}) VALUES ('rebuild')")
        con.execute("COMMIT")
        for table in tables:
            report.kept[table] = con.execute(f'SELECT count(*) FROM "{table}"').fetchone()[0]
        con.execute("PRAGMA journal_mode=WAL")
    except sqlite3.Error as exc:
        raise RecoverError(f"{report.source}: the salvaged rows could not be made a store ({exc})") from exc
    finally:
        con.close()
