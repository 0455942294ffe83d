"""Move a library in or out: copy a store to another (a file to a team store, or back), verified.

Every table is copied in one transaction on the target, then counted and
checksummed there against the source before it commits: a copy that does not
verify leaves the target as it was. A target that already holds a library is
refused unless merging, which matches rows by their identity (a moment's or an
item's UUID, a call's recording hash, a person's name and role, and for rows
without one, everything they hold) and adds only what is missing, so copying
twice never duplicates anything. A row already there is kept as it is.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from datetime import date, datetime
from enum import Enum

from sqlalchemy import func, insert, select, text

from db.models import Base
from desktop.errors import CallmarkError

# The identity a row keeps from one store to another (others: all they hold, ids aside).
IDENTITY = {
    "moment": ("uid",), "coaching_item": ("uid",), "call": ("media_sha256",), "person": ("name", "role"),
    "opportunity": ("crm", "external_id"), "speaker": ("call_id", "label"), "setting": ("key",),
    "suggestion_verdict": ("call_id", "finding_id"), "tracker": ("key",),
}
# Derived from what is copied, and made again where it is read: the detection pass's cache, the trackers'
# hits (every tracker is counted again on the target: its calls are new there).
DERIVED = ("suggestion_cache", "tracker_hit", "tracker_call")
# Rows a new store is given by its migrations (the shipped trackers): not a library; a plain copy
# puts the source's in their place.
SEEDED = ("tracker",)
BATCH = 2000
# Rows a store holds before it holds a library: the team's coaches (added with `team add-coach`) and
# settings. They are matched by identity even in a plain copy; a library is everything else.
BEFORE_A_LIBRARY = ("person", "setting")


class CopyError(CallmarkError):
    """A copy refused or not verified; the target was left as it was."""


@dataclass
class TableCopy:
    table: str
    source: int = 0
    added: int = 0
    already_there: int = 0
    checksum: str = ""

    def to_json(self) -> dict:
        return {"table": self.table, "source": self.source, "added": self.added,
                "already_there": self.already_there, "checksum": self.checksum}


@dataclass
class CopyReport:
    source: str
    target: str
    merged: bool
    tables: list[TableCopy] = field(default_factory=list)

    @property
    def added(self) -> int:
        return sum(t.added for t in self.tables)

    def to_json(self) -> dict:
        return {"source": self.source, "target": self.target, "merged": self.merged, "added": self.added,
                "verified": True, "tables": [t.to_json() for t in self.tables]}


def _plain(value):
    """A value as both back ends read it back, for keys and checksums."""
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, (datetime, date)):
        return value.isoformat()
    if isinstance(value, (dict, list)):
        return json.dumps(value, sort_keys=True, ensure_ascii=False)
    return value


def _id_column(table):
    pk = list(table.primary_key.columns)
    if len(pk) == 1 and pk[0].name == "id":
        return pk[0]
    return None  # a natural key (setting.key) travels as it is


def _foreign(table) -> dict[str, str]:
    """column -> the table it refers to (by id)."""
    out = {}
    for fk in table.foreign_keys:
        out[fk.parent.name] = fk.column.table.name
    return out


def _key(table, row: dict) -> tuple:
    names = IDENTITY.get(table.name)
    if names is None:
        names = [c.name for c in table.columns if c is not _id_column(table)]
    return tuple(_plain(row[n]) for n in names)


def _checksum(rows: list[dict], columns: list[str]) -> str:
    digest = hashlib.sha256()
    for row in rows:
        digest.update(json.dumps([_plain(row[c]) for c in columns], ensure_ascii=False, default=str).encode())
        digest.update(b"\n")
    return digest.hexdigest()


def _rows(conn, table) -> list[dict]:
    return [dict(r._mapping) for r in conn.execute(select(table).order_by(*table.primary_key.columns))]


def is_empty(conn) -> bool:
    """No library yet (people and settings alone are not one)."""
    return all(conn.execute(select(func.count()).select_from(t)).scalar() == 0
               for t in Base.metadata.sorted_tables if t.name not in BEFORE_A_LIBRARY + DERIVED + SEEDED)


def copy_store(source, target, *, merge: bool = False) -> CopyReport:
    """Copy every row of `source` into `target` (open stores), verified before it is committed."""
    import db.models  # noqa: F401 - every table on the MetaData

    if source.path == target.path:
        raise CopyError(f"{target.path}: is the store being copied; choose another target")
    report = CopyReport(str(source.path), str(target.path), merge)
    with source.engine.connect() as src, target.engine.begin() as dst:
        if not merge and not is_empty(dst):
            raise CopyError(f"{target.path}: already holds a library; nothing was copied "
                            "(--merge adds what is missing, by the records' ids)")
        me = dst.execute(text("SELECT current_user")).scalar() if target.dialect != "sqlite" else None
        ids: dict[str, dict] = {}
        if not merge:
            for name in SEEDED:
                dst.execute(text(f"DELETE FROM {name}"))
        for table in Base.metadata.sorted_tables:
            if table.name in DERIVED:
                continue
            keep_ids = not merge and table.name not in BEFORE_A_LIBRARY
            report.tables.append(_copy_table(src, dst, table, ids, keep_ids=keep_ids, owner=me))
        if any(t.added for t in report.tables):  # the trackers are counted again there, new calls and all
            dst.execute(text("UPDATE tracker SET counted_version = 0"))
        if target.dialect != "sqlite" and not merge:
            for table in Base.metadata.sorted_tables:
                if _id_column(table) is not None and table.name not in BEFORE_A_LIBRARY:  # the next new row gets an id after the copied ones
                    dst.execute(text(f"SELECT setval(pg_get_serial_sequence('{table.name}', 'id'), "
                                     f"coalesce((SELECT max(id) FROM {table.name}), 0) + 1, false)"))
    return report


def _copy_table(src, dst, table, ids: dict[str, dict], *, keep_ids: bool, owner: str | None) -> TableCopy:
    result = TableCopy(table.name)
    id_col = _id_column(table)
    refs = _foreign(table)
    rows = _rows(src, table)
    result.source = len(rows)
    mapping = ids.setdefault(table.name, {})
    existing = {}
    if not keep_ids:
        existing = {_key(table, r): (r[id_col.name] if id_col is not None else None) for r in _rows(dst, table)}
    added: list[dict] = []
    for row in rows:
        for column, referred in refs.items():
            if row[column] is not None:
                if row[column] not in ids.get(referred, {}):
                    raise CopyError(f"{table.name} row {row.get('id')}: refers to {referred} {row[column]}, "
                                    "which the source does not hold; nothing was copied")
                row[column] = ids[referred][row[column]]
        if "owner_role" in row and row["owner_role"] is None and owner:
            row["owner_role"] = owner  # a local store's rows become the copying coach's on the team store
        key = _key(table, row)
        if key in existing:
            result.already_there += 1
            if id_col is not None:
                mapping[row[id_col.name]] = existing[key]
            continue
        source_id = row[id_col.name] if id_col is not None else None
        if id_col is not None and not keep_ids:
            del row[id_col.name]
            new_id = dst.execute(insert(table).returning(id_col), row).scalar_one()
            row[id_col.name] = new_id
            mapping[source_id] = new_id
        else:
            if id_col is not None:
                mapping[source_id] = source_id
        existing[key] = row.get(id_col.name) if id_col is not None else None
        added.append(row)
    if keep_ids:
        for start in range(0, len(added), BATCH):
            dst.execute(insert(table), added[start:start + BATCH])
    result.added = len(added)
    _verify(dst, table, added, result)
    return result


def _verify(dst, table, added: list[dict], result: TableCopy) -> None:
    """What landed in the target is what was read from the source: counted and checksummed."""
    columns = [c.name for c in table.columns]
    id_col = _id_column(table)
    if id_col is not None:
        landed = {r[id_col.name]: r for r in _rows(dst, table)}
        back = [landed.get(r[id_col.name]) for r in added]
    else:
        landed = {_key(table, r): r for r in _rows(dst, table)}
        back = [landed.get(_key(table, r)) for r in added]
    if any(r is None for r in back):
        raise CopyError(f"{table.name}: {sum(r is None for r in back)} of {len(added)} rows did not land; "
                        "nothing was copied")
    expected, found = _checksum(added, columns), _checksum(back, columns)
    if expected != found:
        raise CopyError(f"{table.name}: the copied rows' checksum differs from the source's; nothing was copied")
    result.checksum = found
