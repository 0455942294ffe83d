"""The SQLite engine: WAL, full sync, foreign keys, a busy timeout, and real transactions.

pysqlite's own transaction handling is switched off and SQLAlchemy emits BEGIN
itself (the workaround documented under "Serializable isolation / Savepoints /
Transactional DDL" in SQLAlchemy's SQLite dialect notes), so that savepoints and
DDL inside a migration really are transactional.
"""

from __future__ import annotations

import os
from pathlib import Path

from sqlalchemy import Engine, create_engine, event

from db.store import BUSY_TIMEOUT_MS, WRITE_OPTION

PRAGMAS = (
    "PRAGMA journal_mode=WAL",
    "PRAGMA synchronous=FULL",
    "PRAGMA foreign_keys=ON",
    f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}",
)


def make_engine(path: Path) -> Engine:
    _create_private(path)
    engine = create_engine(f"sqlite:///{path}", future=True)

    @event.listens_for(engine, "connect")
    def on_connect(dbapi_connection, _record):
        dbapi_connection.isolation_level = None  # let SQLAlchemy emit BEGIN (see module doc)
        cursor = dbapi_connection.cursor()
        for pragma in PRAGMAS:
            cursor.execute(pragma)
        cursor.close()
        _tighten(path)

    @event.listens_for(engine, "begin")
    def on_begin(conn):
        # A write transaction takes the write lock at once (IMMEDIATE): begun as a read, it could
        # not become a write once another process had committed, and SQLite would answer
        # "database is locked" without waiting. Reads stay deferred and never block a writer.
        conn.exec_driver_sql("BEGIN IMMEDIATE" if conn.get_execution_options().get(WRITE_OPTION) else "BEGIN")

    return engine


def _create_private(path: Path) -> None:
    """Create an empty store file readable by its owner only, before SQLite opens it."""
    if not path.exists():
        fd = os.open(path, os.O_CREAT | os.O_WRONLY | os.O_EXCL, 0o600)
        os.close(fd)


def _tighten(path: Path) -> None:
    # SQLite gives the -wal and -shm files the database's mode; this also covers
    # files created earlier with a looser umask.
    for suffix in ("", "-wal", "-shm"):
        candidate = Path(f"{path}{suffix}")
        try:
            if candidate.exists() and (candidate.stat().st_mode & 0o077):
                os.chmod(candidate, 0o600)
        except PermissionError:
            pass
