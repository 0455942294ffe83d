"""Open the coach's store: refuse what is not ours, back up, migrate, hand out sessions.

A store is one SQLite file. Opening it:
1. refuses a file that is not SQLite, or SQLite that is not a Callmark store;
2. refuses a store written by a newer Callmark, naming both schema versions;
3. backs up an existing store (SQLite online backup) before upgrading it;
4. runs the migrations shipped in this package up to head;
5. refuses a store that fails SQLite's ``quick_check`` (``DamagedStoreError``).

While it is open, a write or read that SQLite answers with "database disk image
is malformed" marks the store damaged: writes stop (``DamagedStoreError``) and
whoever listens (``on_damaged``) is told, to set the file aside and offer a backup.
"""

from __future__ import annotations

import re
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from desktop.errors import CallmarkError

if TYPE_CHECKING:  # SQLAlchemy is imported when the first session is asked for, not to open a store
    from sqlalchemy import Engine
    from sqlalchemy.orm import Session

SQLITE_HEADER = b"SQLite format 3\x00"
MIGRATIONS = Path(__file__).resolve().parent / "migrations"
BUSY_TIMEOUT_MS = 15000  # every connection waits this long for another writer (a long import holds it)
WRITE_OPTION = "callmark_write"  # an execution option: this transaction writes (BEGIN IMMEDIATE)


class StoreError(CallmarkError):
    """A store that can't be opened as it is. The message names the file and the problem."""


class DamagedStoreError(StoreError):
    """The store's file is damaged (a bad sector, a sync tool): nothing more is written to it."""

    def __init__(self, path: Path, detail: str):
        self.path = Path(path)
        self.detail = detail
        super().__init__(f"{path}: the store is damaged ({detail}); nothing more was written to it")


class StoreWriteError(StoreError):
    """A write the disk refused (full, or failing); nothing of it was written, and it can be tried again."""

    retry_later = True  # the text stays with the coach and is saved when there is room

    def __init__(self, path: Path, problem: str):
        self.path = Path(path)
        self.problem = problem
        super().__init__(f"{path}: {problem}; nothing was written. Your text is kept here and is saved "
                         "as soon as there is room again")


# SQLite's primary result codes for a disk that refused a write: SQLITE_IOERR, SQLITE_FULL.
WRITE_CODES = {10: "the disk could not be written (input/output error)", 13: "the disk is full"}


def write_problem(exc: BaseException) -> str | None:
    """What the disk said, if ``exc`` (or the driver error it wraps) is a refused write."""
    exc = getattr(exc, "orig", None) or exc
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None:
        return WRITE_CODES.get(code & 0xFF)
    if isinstance(exc, OSError) and exc.errno in (28, 122):  # ENOSPC, EDQUOT
        return "the disk is full"
    return None


# SQLite's primary result codes for a damaged file: SQLITE_CORRUPT, SQLITE_NOTADB.
DAMAGE_CODES = (11, 26)


def is_damage(exc: BaseException) -> bool:
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None:
        return (code & 0xFF) in DAMAGE_CODES
    text = str(exc)
    return "malformed" in text or "file is not a database" in text


def alembic_config():
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    return cfg


_REVISION = re.compile(r"^revision\s*=\s*['\"]([^'\"]+)['\"]", re.M)
_DOWN = re.compile(r"^down_revision\s*=\s*(?:None|['\"]([^'\"]+)['\"])", re.M)


@cache
def _revision_graph() -> dict[str, str | None]:
    """revision -> down_revision, read from the shipped migration files.

    Alembic is only imported when a store actually needs migrating: importing it
    costs more than opening a store, and every start of the app opens one.
    A test checks this reading against Alembic's own.
    """
    graph: dict[str, str | None] = {}
    for path in sorted((MIGRATIONS / "versions").glob("*.py")):
        source = path.read_text(encoding="utf-8")
        rev, down = _REVISION.search(source), _DOWN.search(source)
        if rev and down:
            graph[rev.group(1)] = down.group(1)
    return graph


def head_revision() -> str:
    graph = _revision_graph()
    parents = {down for down in graph.values() if down}
    heads = [rev for rev in graph if rev not in parents]
    if len(heads) != 1:
        raise RuntimeError(f"the shipped migrations have {len(heads)} heads: {heads}")
    return heads[0]


def known_revisions() -> set[str]:
    return set(_revision_graph())


@dataclass
class StoreState:
    revision: str | None  # None: a new, empty file
    needs_upgrade: bool


def inspect_file(path: Path) -> StoreState:
    """What is at `path`, without changing it. Raises StoreError for anything not ours."""
    if not path.exists() or path.stat().st_size == 0:
        return StoreState(None, True)
    if path.is_dir():
        raise StoreError(f"{path}: is a folder, not a Callmark store")
    with open(path, "rb") as fh:
        header = fh.read(len(SQLITE_HEADER))
    if header != SQLITE_HEADER:
        raise StoreError(f"{path}: is not a Callmark store (not an SQLite database); it was left untouched")
    try:
        con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            revision = None
            if "alembic_version" in tables:
                row = con.execute("SELECT version_num FROM alembic_version").fetchone()
                revision = row[0] if row else None
        finally:
            con.close()
    except sqlite3.DatabaseError as exc:
        if is_damage(exc):
            raise DamagedStoreError(path, str(exc)) from exc
        raise StoreError(f"{path}: is not a readable Callmark store ({exc}); it was left untouched") from exc
    if revision is None:
        if tables:
            raise StoreError(
                f"{path}: is an SQLite database but not a Callmark store; it was left untouched"
            )
        return StoreState(None, True)
    if revision not in known_revisions():
        raise StoreError(
            f"{path}: was written by a newer Callmark (schema {revision}); "
            f"this version knows schemas up to {head_revision()}. Update Callmark to open it."
        )
    return StoreState(revision, revision != head_revision())


def quick_check(path: Path) -> list[str]:
    """SQLite's quick_check (read-only): ["ok"] for a sound file, else what is wrong."""
    try:
        con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            return [r[0] for r in con.execute("PRAGMA quick_check").fetchall()]
        finally:
            con.close()
    except sqlite3.DatabaseError as exc:
        return [str(exc)]


BACKUP_STEP_PAGES = 16_384  # 64 MB of 4 KB pages a step: progress to show, and the source free between steps
BACKUP_RESTARTS = 2  # the store written this often during a stepped copy: the rest goes in one step


class _Restarted(Exception):
    """The store changed under a stepped copy more than BACKUP_RESTARTS times."""


def online_backup(source: Path, target: Path, progress=None, step_pages: int = BACKUP_STEP_PAGES) -> Path:
    """Copy a live store with SQLite's online backup API (never a file copy: WAL may hold pages).

    In steps of `step_pages`, `progress(done_pages, total_pages)` after each. SQLite starts a stepped copy
    again when another connection writes to the store meanwhile (the coach working on); after
    BACKUP_RESTARTS of those the copy is made in one step, which holds a read snapshot (the coach's
    writes go on: the store is in WAL mode) and cannot be restarted.
    """
    target.parent.mkdir(parents=True, exist_ok=True)
    if target.exists():
        raise StoreError(f"{target}: already exists; choose another name for the backup")
    src = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    tmp = target.with_name(target.name + ".part")
    restarts = 0
    last: list[int] = []

    def stepped(_status, remaining: int, total: int) -> None:
        nonlocal restarts
        done = total - remaining
        if last and done <= last[-1]:  # started again from the first page
            restarts += 1
            if restarts > BACKUP_RESTARTS:
                raise _Restarted
        last.append(done)
        if progress is not None:
            progress(done, total)

    try:
        dst = sqlite3.connect(tmp)
        try:
            try:
                src.backup(dst, pages=max(1, step_pages), progress=stepped)
            except _Restarted:
                src.backup(dst)  # one step: a consistent copy of the store as it is now
                if progress is not None and last:
                    total = src.execute("PRAGMA page_count").fetchone()[0]
                    progress(total, total)
            dst.execute("PRAGMA journal_mode=DELETE")
        finally:
            dst.close()
        tmp.chmod(0o600)
        tmp.replace(target)
    except (sqlite3.Error, OSError) as exc:
        tmp.unlink(missing_ok=True)
        raise StoreError(f"{target}: backup failed ({exc})") from exc
    finally:
        src.close()
    return target


class StoreBase:
    """What the SQLite store and a team store (db/server.py ``ServerStore``) share: sessions on their
    engine, a plain reader per thread, the schema revision, closing."""

    def __init__(self, path, engine: Engine | None = None):
        self.path = path
        self._engine = engine
        self._sessions = None
        self._lock = threading.Lock()
        self._readers = threading.local()
        self._reader_list: list = []

    def _session_factory(self):
        if self._sessions is None:
            from sqlalchemy.orm import sessionmaker

            import db.models  # noqa: F401 - every mapper known before the first query

            self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        return self._sessions

    def revision(self) -> str | None:
        row = self.reader().execute("SELECT version_num FROM alembic_version").fetchone()
        return row[0] if row else None

    def close(self) -> None:
        with self._lock:
            readers, self._reader_list = self._reader_list, []
        for reader in readers:
            reader.close()
        self._readers = threading.local()
        if self._engine is not None:
            self._engine.dispose()


class Store(StoreBase):
    """The open store: sessions for the services, and a plain reader for the workspace.

    SQLAlchemy (and the models) are imported when the first session is asked
    for: importing them costs several times what opening a call does, and a
    coach starting the app on a call only reads until the window is up.
    ``reader()`` is a plain sqlite3 connection for those reads. Writes go
    through ``write()``.
    """

    dialect = "sqlite"  # a team store (db/server.py) says "postgresql"

    def __init__(self, path: Path, engine: Engine | None = None):
        super().__init__(path, engine)
        # The one writer: every write of this process (the GUI, the transcription worker's thread, an
        # import) takes its turn here, so two of them never race for SQLite's write lock; other
        # processes (a script beside the app) wait through the busy timeout.
        self._writer = threading.RLock()
        self.damaged: str | None = None  # what SQLite said, once it reported the file damaged
        self._damage_listeners: list = []

    # --- damage -------------------------------------------------------------------------------

    def on_damaged(self, callback) -> None:
        """Call ``callback(detail)`` (from whichever thread saw it) when SQLite reports damage."""
        self._damage_listeners.append(callback)

    def note_error(self, exc: BaseException) -> None:
        """Any SQLite error passes here; damage stops further writes and is told once."""
        if is_damage(exc):
            self.mark_damaged(str(exc))

    def mark_damaged(self, detail: str) -> None:
        if self.damaged is not None:
            return
        self.damaged = detail
        for callback in list(self._damage_listeners):
            try:
                callback(self.damaged)
            except Exception:  # noqa: BLE001 - one listener's failure must not hide the damage
                pass

    def clear_damage(self) -> None:
        """The file at ``path`` was replaced (a backup restored, a recovery put in place)."""
        self.damaged = None

    @property
    def engine(self) -> Engine:
        with self._lock:
            if self._engine is None:
                from db.engine import make_engine

                from sqlalchemy import event

                self._engine = make_engine(self.path)
                event.listen(self._engine, "handle_error",
                             lambda ctx: self.note_error(ctx.original_exception))
            return self._engine

    @contextmanager
    def read(self) -> Iterator[Session]:
        with self._session_factory()() as session:
            yield session

    @contextmanager
    def write(self) -> Iterator[Session]:
        """One transaction: everything inside lands together, or nothing does (one writer at a time)."""
        if self.damaged is not None:
            raise DamagedStoreError(self.path, self.damaged)
        try:
            with self._writer, self._session_factory()() as session, session.begin():
                session.connection(execution_options={WRITE_OPTION: True})
                yield session
        except Exception as exc:
            problem = write_problem(exc)
            if problem is None:
                raise
            raise StoreWriteError(self.path, problem) from exc

    def reader(self) -> sqlite3.Connection:
        """This thread's plain connection for reads (autocommit: each query sees the latest writes)."""
        con = getattr(self._readers, "con", None)
        if con is None:
            con = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, factory=_Reader)
            con.store = self
            con.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
            con.execute("PRAGMA query_only=ON")
            self._readers.con = con
            with self._lock:
                self._reader_list.append(con)
        return con


class _ReaderCursor(sqlite3.Cursor):
    """Tells the store when a fetch meets a damaged page (SQLite reads pages as rows are stepped)."""

    def _noted(self, exc: sqlite3.DatabaseError):
        store = getattr(self.connection, "store", None)
        if store is not None:
            store.note_error(exc)

    def execute(self, *args):
        try:
            return super().execute(*args)
        except sqlite3.DatabaseError as exc:
            self._noted(exc)
            raise

    def fetchone(self):
        try:
            return super().fetchone()
        except sqlite3.DatabaseError as exc:
            self._noted(exc)
            raise

    def fetchall(self):
        try:
            return super().fetchall()
        except sqlite3.DatabaseError as exc:
            self._noted(exc)
            raise

    def __next__(self):  # a loop over rows; about 0.2 µs a row (0.5 ms on a 2-hour transcript)
        try:
            return super().__next__()
        except sqlite3.DatabaseError as exc:
            self._noted(exc)
            raise

    def fetchmany(self, *args):
        try:
            return super().fetchmany(*args)
        except sqlite3.DatabaseError as exc:
            self._noted(exc)
            raise


class _Reader(sqlite3.Connection):
    """A plain reading connection that tells its store when SQLite reports the file damaged."""

    store: Store | None = None

    def execute(self, *args):
        return self.cursor(_ReaderCursor).execute(*args)


def open_store(path: Path, backup_dir: Path | None = None, *, check: bool = True) -> Store:
    """Open (creating or migrating as needed) the store at `path`.

    Raises DamagedStoreError when the file fails SQLite's quick_check (the file is left as it is).
    ``check=False`` leaves that check to the caller (the window runs it once it is painted:
    on a large store it takes longer than the first paint).
    """
    path = Path(path)
    state = inspect_file(path)
    if state.revision is not None and (check or state.needs_upgrade):
        verdict = quick_check(path)
        if verdict != ["ok"]:
            raise DamagedStoreError(path, "; ".join(verdict[:3]))
    if state.needs_upgrade and state.revision is not None:
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
        folder = backup_dir or path.parent / "backups"
        online_backup(path, folder / f"{path.stem}-before-{head_revision()}-{stamp}.sqlite3")
    store = Store(path)
    if state.needs_upgrade:
        upgrade(store.engine, head_revision())
    else:
        store.reader()  # a current store opens without SQLAlchemy; the reader proves it readable now
    return store


def upgrade(engine: Engine, revision: str) -> None:
    from alembic import command

    cfg = alembic_config()
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, revision)
