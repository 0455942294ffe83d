"""A team store: the same schema and services on a PostgreSQL server, through psycopg 3.

Chosen with ``callmark --store postgresql://coach@host/callmark`` or
``CALLMARK_STORE``; without either, the SQLite file in the data folder is the
store and nothing here is imported. ``ServerStore`` answers what ``Store``
answers (sessions, one transaction per write, a plain reader for the
workspace's reads), so the services do not know which one they have.

The server away is said in one line naming it; a connection lost inside a
write rolls the whole transaction back on the server, and the coach gets a
``StoreUnreachable`` saying nothing of that change was saved.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from db.store import StoreBase, StoreError, head_revision, known_revisions

if TYPE_CHECKING:
    from sqlalchemy import Engine
    from sqlalchemy.orm import Session

SCHEMES = ("postgresql://", "postgres://", "postgresql+psycopg://")
CONNECT_TIMEOUT_S = 5
MIGRATION_LOCK = 0x63616C6C  # one migrator at a time: the first coach to open a new store builds it


class ServerStoreError(StoreError):
    """A team store that can't be used as it is; the message names the server."""


class StoreUnreachable(ServerStoreError):
    """The server can't be reached, or the connection was lost; nothing half-written."""


class Refused(ServerStoreError):
    """The server's policies said no: another coach's row, or a manager writing. Nothing was saved."""


def is_server_url(spec: str | None) -> bool:
    return bool(spec) and str(spec).lower().startswith(SCHEMES)


def libpq_url(url: str) -> str:
    """The URL as libpq (and psycopg) read it."""
    scheme, rest = url.split("://", 1)
    return f"postgresql://{rest}"


def engine_url(url: str) -> str:
    return "postgresql+psycopg://" + url.split("://", 1)[1]


def describe(url: str) -> str:
    """The server and database as the coach would name them, never the password."""
    from sqlalchemy.engine import make_url

    parsed = make_url(libpq_url(url))
    host = parsed.host or parsed.query.get("host") or "localhost"
    if isinstance(host, tuple):
        host = host[0]
    who = f"{parsed.username}@" if parsed.username else ""
    port = f":{parsed.port}" if parsed.port else ""
    return f"postgresql://{who}{host}{port}/{parsed.database or ''}"


def _reason(exc: BaseException) -> str:
    orig = getattr(exc, "orig", None) or exc
    text = " ".join(str(orig).split())
    return text[:200] or orig.__class__.__name__


def _lost(exc: BaseException) -> bool:
    """Is this the connection failing (not a constraint or a policy saying no)?"""
    import psycopg
    from sqlalchemy.exc import DBAPIError

    if isinstance(exc, DBAPIError):
        return bool(exc.connection_invalidated) or isinstance(exc.orig, psycopg.OperationalError)
    return isinstance(exc, psycopg.OperationalError)


def _refusal(exc: BaseException) -> str | None:
    """Why the server refused a write, in the coach's words (None: not a refusal)."""
    import psycopg
    from sqlalchemy.exc import DBAPIError
    from sqlalchemy.orm.exc import StaleDataError

    if isinstance(exc, StaleDataError):  # an UPDATE the policies filtered out: a row of another coach
        return "only the coach who made it can change it (another coach's moment or item)"
    if isinstance(exc, DBAPIError) and isinstance(exc.orig, psycopg.errors.InsufficientPrivilege):
        return f"the team store refused it ({_reason(exc).split(chr(10))[0]})"
    return None


def make_server_engine(url: str) -> Engine:
    from sqlalchemy import create_engine

    return create_engine(engine_url(url), pool_pre_ping=True, future=True,
                         connect_args={"connect_timeout": CONNECT_TIMEOUT_S, "application_name": "callmark"})


class _Reader:
    """The workspace's plain reads on the server: sqlite3's ``execute(sql, params)`` with ``?`` marks.

    JSON columns come back as their text, as sqlite3 gives them (the word timings are decoded
    only when first needed: desktop/services/rows.py).
    """

    def __init__(self, store: ServerStore):
        self._store = store
        self._con = None
        self._translated: dict[str, str] = {}

    def _connection(self):
        if self._con is None or self._con.closed:
            import psycopg
            from psycopg.types.string import TextLoader

            try:
                self._con = psycopg.connect(libpq_url(self._store.url), autocommit=True,
                                            connect_timeout=CONNECT_TIMEOUT_S, application_name="callmark")
            except psycopg.OperationalError as exc:
                raise self._store.unreachable(exc) from None
            for name in ("json", "jsonb"):
                self._con.adapters.register_loader(name, TextLoader)
        return self._con

    def execute(self, sql: str, params=()):
        import psycopg

        query = self._translated.get(sql)
        if query is None:
            query = self._translated[sql] = sql.replace("%", "%%").replace("?", "%s")
        try:
            return self._connection().execute(query, params)
        except psycopg.OperationalError as exc:
            self.close()
            raise self._store.unreachable(exc) from None

    def native(self, sql: str, params=None):
        """A statement in psycopg's own placeholders (%s, %(name)s)."""
        import psycopg

        try:
            return self._connection().execute(sql, params)
        except psycopg.OperationalError as exc:
            self.close()
            raise self._store.unreachable(exc) from None

    def close(self) -> None:
        if self._con is not None:
            try:
                self._con.close()
            finally:
                self._con = None


class ServerStore(StoreBase):
    """An open team store. ``path`` is the server's name as the coach sees it (for messages)."""

    dialect = "postgresql"

    def __init__(self, url: str, engine: Engine | None = None):
        self.url = url
        super().__init__(describe(url), engine)

    def unreachable(self, exc: BaseException, during: str = "") -> StoreUnreachable:
        if during:
            return StoreUnreachable(f"{self.path}: the connection to the team store was lost {during} "
                                    f"({_reason(exc)}); nothing of it was saved")
        return StoreUnreachable(f"{self.path}: the team store can't be reached ({_reason(exc)})")

    @property
    def engine(self) -> Engine:
        with self._lock:
            if self._engine is None:
                self._engine = make_server_engine(self.url)
            return self._engine

    @contextmanager
    def read(self) -> Iterator[Session]:
        try:
            with self._session_factory()() as session:
                yield session
        except Exception as exc:
            if _lost(exc):
                raise self.unreachable(exc) from None
            raise

    @contextmanager
    def write(self) -> Iterator[Session]:
        """One transaction: everything inside lands together, or nothing does (the server rolls back
        a transaction whose connection is lost)."""
        try:
            with self._session_factory()() as session, session.begin():
                yield session
        except Exception as exc:
            if _lost(exc):
                raise self.unreachable(exc, "while saving") from None
            refusal = _refusal(exc)
            if refusal:
                raise Refused(f"{self.path}: not saved: {refusal}") from None
            raise

    def reader(self) -> _Reader:
        reader = getattr(self._readers, "reader", None)
        if reader is None:
            reader = self._readers.reader = _Reader(self)
            with self._lock:
                self._reader_list.append(reader)
        return reader

    def current_role(self) -> str:
        return self.reader().execute("SELECT current_user").fetchone()[0]


def _state(conn) -> tuple[str | None, bool]:
    """(the store's schema revision, whether the database holds tables of something else)."""
    tables = {r[0] for r in conn.exec_driver_sql(
        "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")}
    if "alembic_version" not in tables:
        return None, bool(tables)
    row = conn.exec_driver_sql("SELECT version_num FROM alembic_version").first()
    return (row[0] if row else None), False


def open_server_store(url: str) -> ServerStore:
    """Open the team store at `url`, building or migrating its schema when it needs it."""
    store = ServerStore(url)
    try:
        with store.engine.connect() as conn:
            revision, foreign = _state(conn)
    except Exception as exc:
        store.close()
        if _lost(exc):
            raise store.unreachable(exc) from None
        raise ServerStoreError(f"{store.path}: can't be opened as a team store ({_reason(exc)})") from None
    if foreign:
        store.close()
        raise ServerStoreError(f"{store.path}: this database holds other tables, not a Callmark store; "
                               "it was left untouched")
    if revision is not None and revision not in known_revisions():
        store.close()
        raise ServerStoreError(f"{store.path}: was written by a newer Callmark (schema {revision}); this version "
                               f"knows schemas up to {head_revision()}. Update Callmark to open it.")
    if revision != head_revision():
        try:
            migrate(store.engine)
        except Exception as exc:
            store.close()
            if _lost(exc):
                raise store.unreachable(exc) from None
            raise ServerStoreError(f"{store.path}: the schema could not be brought up to date "
                                   f"({_reason(exc)}); nothing was changed") from None
    return store


def migrate(engine: Engine) -> None:
    """Migrations, then the team's grants, in one transaction under a lock (PostgreSQL's DDL is
    transactional: a failed upgrade leaves the schema as it was)."""
    from alembic import command

    from db.store import alembic_config
    from db.team import grant_team

    cfg = alembic_config()
    with engine.begin() as conn:
        conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, head_revision())
        grant_team(conn)


__all__ = ["Refused", "ServerStore", "ServerStoreError", "StoreUnreachable", "describe", "is_server_url",
           "open_server_store"]
