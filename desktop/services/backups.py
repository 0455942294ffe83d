"""Automatic backups of the coach's store: made online, checked, kept as a rolling set, restored.

Modelled on Anki's and Zotero's: a backup when the app closes and after every
30 minutes with changes, in the data folder's ``backups/``. Each one is made
with SQLite's online backup API (never a file copy: the WAL may hold pages the
main file does not yet have) and passes ``integrity_check`` before it counts.

The rolling set keeps the last 8, plus the newest of each day for a week and
the newest of each week for a month; ``backups.json`` in the data folder can
change those numbers. Only automatic backups are pruned: the ones made before
a migration, before a restore, or by ``callmark db backup`` are the coach's.
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
from dataclasses import asdict, dataclass
from datetime import datetime, timedelta
from pathlib import Path

from db.store import StoreError, inspect_file, online_backup
from desktop.errors import CallmarkError
from desktop.logs import logger

AUTO_PREFIX = "callmark-auto-"
STAMP = "%Y%m%d-%H%M%S"
POLICY_FILE = "backups.json"
_STAMP_IN_NAME = re.compile(r"(\d{8}-\d{6})")
# What a backup holds, counted for the coach choosing one (tables that may be absent are skipped).
COUNTED = (("call", "calls"), ("moment", "moments"), ("coaching_item", "items"))


class BackupError(CallmarkError):
    """A backup that could not be made, read or restored; the message names the file."""


@dataclass(frozen=True)
class BackupPolicy:
    keep_last: int = 8
    daily_days: int = 7
    weekly_weeks: int = 4
    interval_minutes: int = 30

    @classmethod
    def load(cls, home: Path) -> BackupPolicy:
        """The policy in ``backups.json`` (any of the four numbers), else the defaults."""
        path = Path(home) / POLICY_FILE
        if not path.exists():
            return cls()
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            fields = {k: int(v) for k, v in data.items() if k in cls.__dataclass_fields__}
            if any(v < 0 for v in fields.values()):
                raise ValueError("negative number")
        except (ValueError, TypeError, AttributeError, OSError) as exc:
            raise BackupError(f"{path}: not a backup policy ({exc}); expected e.g. "
                              '{"keep_last": 8, "daily_days": 7, "weekly_weeks": 4}') from exc
        return cls(**fields)


@dataclass(frozen=True)
class Backup:
    path: Path
    made_at: datetime
    size: int
    automatic: bool

    def age(self, now: datetime | None = None) -> timedelta:
        return (now or datetime.now()) - self.made_at

    def to_json(self) -> dict:
        out = asdict(self)
        out["path"] = str(self.path)
        out["made_at"] = self.made_at.isoformat(timespec="seconds")
        return out


def describe_age(age: timedelta) -> str:
    seconds = max(0, int(age.total_seconds()))
    if seconds < 90:
        return "a minute old" if seconds >= 45 else "a few seconds old"
    minutes = seconds // 60
    if minutes < 90:
        return f"{minutes} minutes old"
    hours = minutes // 60
    if hours < 48:
        return f"{hours} hours old"
    return f"{hours // 24} days old"


def _made_at(path: Path) -> datetime:
    found = _STAMP_IN_NAME.search(path.name)
    if found:
        try:
            return datetime.strptime(found.group(1), STAMP)
        except ValueError:
            pass
    return datetime.fromtimestamp(path.stat().st_mtime)


def list_backups(folder: Path) -> list[Backup]:
    """Every backup in the folder, newest first (half-written ``.part`` files are not backups)."""
    folder = Path(folder)
    if not folder.is_dir():
        return []
    found = []
    for path in folder.glob("*.sqlite3"):
        if path.is_file():
            found.append(Backup(path, _made_at(path), path.stat().st_size, path.name.startswith(AUTO_PREFIX)))
    return sorted(found, key=lambda b: (b.made_at, b.path.name), reverse=True)


def integrity(path: Path) -> list[str]:
    """SQLite's integrity_check of a file, read-only: ["ok"] when it is sound."""
    try:
        con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            return [r[0] for r in con.execute("PRAGMA integrity_check").fetchall()]
        finally:
            con.close()
    except sqlite3.DatabaseError as exc:
        return [str(exc)]


def counts(path: Path) -> dict[str, int]:
    """How many calls, moments and items a store or backup holds."""
    out: dict[str, int] = {}
    try:
        con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    except sqlite3.Error:
        return out
    try:
        for table, name in COUNTED:
            try:
                out[name] = con.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
            except sqlite3.Error:
                continue
    finally:
        con.close()
    return out


def make_backup(store_path: Path, folder: Path, *, automatic: bool = True, label: str = "",
                now: datetime | None = None) -> Backup:
    """An online backup of the store, kept only if it passes integrity_check."""
    now = now or datetime.now()
    prefix = AUTO_PREFIX if automatic else f"callmark-{label}-" if label else "callmark-"
    target = Path(folder) / f"{prefix}{now.strftime(STAMP)}.sqlite3"
    n = 1
    while target.exists():  # two in one second (a close right after a timed one)
        target = Path(folder) / f"{prefix}{now.strftime(STAMP)}-{n}.sqlite3"
        n += 1
    try:
        online_backup(Path(store_path), target)
    except StoreError as exc:
        raise BackupError(str(exc)) from exc
    verdict = integrity(target)
    if verdict != ["ok"]:
        target.unlink(missing_ok=True)
        raise BackupError(f"{target}: the backup failed its integrity check ({'; '.join(verdict[:3])}); "
                          "it was not kept")
    made = Backup(target, now.replace(microsecond=0), target.stat().st_size, automatic)
    logger("backups").info("backup made: %s (%d bytes, integrity ok)", target.name, made.size)
    return made


def prune(folder: Path, policy: BackupPolicy, now: datetime | None = None) -> list[Path]:
    """Delete the automatic backups the rolling set no longer needs; returns what was deleted."""
    now = now or datetime.now()
    auto = [b for b in list_backups(folder) if b.automatic]  # newest first
    keep: set[Path] = {b.path for b in auto[: policy.keep_last]}
    days: set = set()
    weeks: set = set()
    for b in auto:
        age = now - b.made_at
        day = b.made_at.date()
        if age <= timedelta(days=policy.daily_days) and day not in days and len(days) < policy.daily_days:
            days.add(day)
            keep.add(b.path)
        week = b.made_at.isocalendar()[:2]
        if age <= timedelta(weeks=policy.weekly_weeks) and week not in weeks and len(weeks) < policy.weekly_weeks:
            weeks.add(week)
            keep.add(b.path)
    gone = []
    for b in auto:
        if b.path not in keep:
            b.path.unlink(missing_ok=True)
            gone.append(b.path)
    if gone:
        logger("backups").info("rolling set: %d older automatic backups deleted, %d kept", len(gone), len(keep))
    return gone


def store_changed_at(store_path: Path) -> datetime:
    """When the store (or its write-ahead log, where commits land first) was last written."""
    stamps = [p.stat().st_mtime for p in (Path(store_path), Path(f"{store_path}-wal")) if p.exists()]
    return datetime.fromtimestamp(max(stamps)) if stamps else datetime.min


def backup_if_changed(store_path: Path, folder: Path, policy: BackupPolicy | None = None,
                      now: datetime | None = None) -> Backup | None:
    """The timed backup: only when something was written since the newest automatic one."""
    policy = policy or BackupPolicy()
    newest = next((b for b in list_backups(folder) if b.automatic), None)
    if newest is not None and store_changed_at(store_path) <= datetime.fromtimestamp(newest.path.stat().st_mtime):
        return None
    made = make_backup(store_path, folder, now=now)
    prune(folder, policy, now)
    return made


def newest_good(folder: Path) -> Backup | None:
    """The newest backup that passes integrity_check and is a Callmark store."""
    for b in list_backups(folder):
        if integrity(b.path) == ["ok"]:
            try:
                inspect_file(b.path)
            except StoreError:
                continue
            return b
    return None


def resolve_backup(folder: Path, ref: str) -> Path:
    """A backup named by path, or by file name inside the backups folder."""
    candidate = Path(ref).expanduser()
    if not candidate.exists():
        candidate = Path(folder) / ref
    if not candidate.is_file():
        raise BackupError(f"{ref}: no such backup (see `callmark db backups`)")
    return candidate


def restore(store_path: Path, backup: Path, folder: Path) -> Backup | None:
    """Put a backup in the store's place, after backing up the current store.

    The backup is checked first (integrity, a Callmark store); the current store
    is then backed up as ``callmark-before-restore-<time>``; and the backup's
    pages are written into the store with the online backup API, in one step,
    so other connections see the old store or the restored one, never a mix.
    Returns the backup of the store that was replaced (None if there was none).
    """
    backup = Path(backup)
    verdict = integrity(backup)
    if verdict != ["ok"]:
        raise BackupError(f"{backup}: fails its integrity check ({'; '.join(verdict[:3])}); nothing was restored")
    try:
        inspect_file(backup)
    except StoreError as exc:
        raise BackupError(f"{exc}; nothing was restored") from exc
    store_path = Path(store_path)
    before = None
    if store_path.exists() and store_path.stat().st_size:
        verdict = integrity(store_path)
        if verdict == ["ok"]:
            before = make_backup(store_path, folder, automatic=False, label="before-restore")
        else:  # a damaged store is set aside (never deleted), not copied into the backups
            from desktop.services.damage import set_aside

            set_aside(store_path, folder, "; ".join(verdict[:3]))
    src = sqlite3.connect(f"file:{backup}?mode=ro", uri=True)
    try:
        dst = sqlite3.connect(store_path)
        try:
            dst.execute("PRAGMA busy_timeout=15000")
            src.backup(dst)
            dst.execute("PRAGMA journal_mode=WAL")
        finally:
            dst.close()
    except sqlite3.Error as exc:
        raise BackupError(f"{store_path}: could not restore {backup.name} ({exc}); the store is as it was") from exc
    finally:
        src.close()
    try:
        os.chmod(store_path, 0o600)
    except OSError:
        pass
    logger("backups").info("restored %s", backup.name)
    return before
