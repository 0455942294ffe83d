"""Trackers in the store: the coach's phrase sets, and the lines each one found on every call.

Counts stay up to date by doing only what changed: a new or edited transcript recounts its own call
for every tracker (`after_transcript_change`, run by the suggestions hook); a new or edited tracker is
counted over the library once (`recount_library`, a generator yielding progress, run in the
background by the window), reading only the lines the full-text index says could match.

Writes (`add`, `edit`, `remove`) return a `Change` with its undo. Other parts of Callmark read hits
through `tracker_hits(session_or_store, tracker_name, call_ids=None)`.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime

from db.base import utcnow
from db.store import Store
from desktop.core.detect.model import Line
from desktop.core.trackers import Matcher, TrackerError, TrackerSpec, find_hits, tracker_key
from desktop.errors import CallmarkError, NotFound
from desktop.services.changes import TRACKERS, Change, change

log = logging.getLogger(__name__)

PROGRESS_EVERY = 100  # calls between two progress reports of a library recount
WORK_S = 0.01  # a background count reads this long between two rests (pause_s)
MAX_MARKS = 900  # call ids bound in one statement (SQLite's limit is higher; this is plenty below it)


@dataclass(frozen=True)
class TrackerRow:
    id: int
    name: str
    key: str
    side: str
    phrases: tuple[str, ...]
    exclusions: tuple[str, ...]
    label: str | None  # the detection label a shipped tracker follows
    version: int
    counted_version: int
    calls: int = 0  # calls with at least one hit
    hits: int = 0

    @property
    def pending(self) -> bool:
        """The library has not been counted for this version yet."""
        return self.version != self.counted_version

    @property
    def spec(self) -> TrackerSpec:
        return TrackerSpec(self.name, self.side, self.phrases, self.exclusions)

    def to_json(self) -> dict:
        return {"id": self.id, "name": self.name, "key": self.key, "side": self.side, "phrases": list(self.phrases),
                "exclusions": list(self.exclusions), "label": self.label, "calls": self.calls, "hits": self.hits,
                "counted": not self.pending}


@dataclass(frozen=True)
class TrackerHitRow:
    """One line a tracker found: the call, when, who said it and what."""

    call_id: int
    call_title: str
    start_ms: int
    end_ms: int
    speaker: str | None
    role: str
    quote: str
    matched: str
    tracker: str = ""  # the tracker's name

    @property
    def pattern(self) -> str:
        """The tracker's name, as the coaching queue, the baseline and adoption name a pattern."""
        return self.tracker

    def to_json(self) -> dict:
        return {"call": self.call_id, "start_ms": self.start_ms, "end_ms": self.end_ms, "speaker": self.speaker,
                "role": self.role, "quote": self.quote}


# --- reading ------------------------------------------------------------------------------------------

_COLUMNS = "t.id, t.name, t.key, t.side, t.phrases, t.exclusions, t.label, t.version, t.counted_version"


def _row(r, calls: int = 0, hits: int = 0) -> TrackerRow:
    phrases = json.loads(r[4]) if isinstance(r[4], str) else r[4]
    exclusions = json.loads(r[5]) if isinstance(r[5], str) else r[5]
    return TrackerRow(int(r[0]), r[1], r[2], r[3], tuple(phrases or ()), tuple(exclusions or ()), r[6], int(r[7]),
                      int(r[8]), calls, hits)


def list_trackers(store: Store) -> list[TrackerRow]:
    """Every tracker by name, with how many calls and lines it found."""
    con = store.reader()
    tally = {tid: (calls, hits) for tid, calls, hits in con.execute(
        "SELECT tracker_id, COUNT(DISTINCT call_id), COUNT(*) FROM tracker_hit GROUP BY tracker_id")}
    rows = con.execute(f"SELECT {_COLUMNS} FROM tracker t ORDER BY t.name").fetchall()
    return [_row(r, *tally.get(r[0], (0, 0))) for r in rows]


def get_tracker(store: Store, ref: str | int) -> TrackerRow:
    """A tracker by id, name or key (any case: "deferral accepted", "deferral_accepted")."""
    con = store.reader()
    text = str(ref).strip()
    row = None
    if text.isdigit():
        row = con.execute(f"SELECT {_COLUMNS} FROM tracker t WHERE t.id = ?", (int(text),)).fetchone()
    if row is None:
        row = con.execute(f"SELECT {_COLUMNS} FROM tracker t WHERE t.key = ?", (tracker_key(text),)).fetchone()
    if row is None:
        known = ", ".join(r[0] for r in con.execute("SELECT name FROM tracker ORDER BY name")) or "none yet"
        raise NotFound(f"tracker {text!r}: no such tracker (known: {known})")
    return _row(row)


def counts_by_call(store: Store, call_id: int | None = None) -> dict[int, dict[int, int]]:
    """call id -> {tracker id: lines found} (calls without a hit are absent)."""
    sql = "SELECT call_id, tracker_id, COUNT(*) FROM tracker_hit"
    params: tuple = ()
    if call_id is not None:
        sql, params = sql + " WHERE call_id = ?", (int(call_id),)
    out: dict[int, dict[int, int]] = {}
    for cid, tid, n in store.reader().execute(sql + " GROUP BY call_id, tracker_id", params):
        out.setdefault(int(cid), {})[int(tid)] = int(n)
    return out


def tracker_hits(source, tracker_name: str, call_ids: Iterable[int] | None = None) -> list[TrackerHitRow]:
    """One tracker's hits across the library (or on ``call_ids``), newest call first, in time order.

    ``source`` is the Store or an open SQLAlchemy Session (a caller inside its own transaction).
    """
    key = tracker_key(str(tracker_name))
    sql = ('SELECT h.call_id, c.title, h.start_ms, h.end_ms, h.speaker, h.role, h.quote, h.matched, t.name '
           'FROM tracker_hit h JOIN tracker t ON t.id = h.tracker_id JOIN "call" c ON c.id = h.call_id '
           "WHERE t.key = :key")
    params: dict = {"key": key}
    wanted = None if call_ids is None else sorted({int(c) for c in call_ids})
    if wanted is not None and len(wanted) > MAX_MARKS:  # past what one statement may bind: filter here
        keep = set(wanted)
        return [h for h in tracker_hits(source, tracker_name) if h.call_id in keep]
    if wanted is not None:
        if not wanted:
            return []
        sql += " AND h.call_id IN (" + ", ".join(f":c{i}" for i in range(len(wanted))) + ")"
        params.update({f"c{i}": c for i, c in enumerate(wanted)})
    sql += " ORDER BY c.recorded_at DESC, h.call_id, h.start_ms"
    if hasattr(source, "reader"):  # the Store: its plain reader, ? marks in order
        import re

        con = source.reader()
        if con.execute("SELECT 1 FROM tracker WHERE key = ?", (key,)).fetchone() is None:
            get_tracker(source, tracker_name)  # says which trackers there are
        names = re.findall(r":(\w+)", sql)
        rows = con.execute(re.sub(r":\w+", "?", sql), tuple(params[n] for n in names)).fetchall()
    else:
        from sqlalchemy import text

        if source.execute(text("SELECT 1 FROM tracker WHERE key = :key"), {"key": key}).first() is None:
            raise NotFound(f"tracker {tracker_name!r}: no such tracker")
        rows = source.execute(text(sql), params).all()
    return [TrackerHitRow(int(r[0]), r[1], int(r[2]), int(r[3]), r[4], r[5], r[6], r[7], r[8]) for r in rows]


# --- trackers as patterns (the coaching queue, the baseline table, adoption) -----------------------------


def followed_labels(store: Store) -> dict[str, str | None]:
    """{tracker name: the detection label it follows, or None}: how a tracker picked as a focus is read."""
    return {name: label for name, label in store.reader().execute("SELECT name, label FROM tracker")}


def pattern_names(store: Store) -> set[str]:
    """Every tracker's name: the patterns trackers answer for (a detection label is never one)."""
    return {r[0] for r in store.reader().execute("SELECT name FROM tracker")}


def pattern_hits(store: Store, names: Iterable[str], call_ids: Iterable[int]) -> dict[int, list[TrackerHitRow]]:
    """{call id: hits of the named trackers on it}, each hit with ``pattern`` (its tracker's name),
    ``start_ms``, ``end_ms``, ``speaker`` and ``quote``: what a pattern source hands the coaching queue."""
    wanted = [int(c) for c in call_ids]
    out: dict[int, list[TrackerHitRow]] = {c: [] for c in wanted}
    for name in sorted(set(names)):
        for hit in tracker_hits(store, name, wanted):
            out.setdefault(hit.call_id, []).append(hit)
    for found in out.values():
        found.sort(key=lambda h: (h.start_ms, h.tracker))
    return out


# --- writes: add, edit, remove (each with its undo) -----------------------------------------------------


def _clash(session, key: str, name: str, but: int | None = None) -> None:
    from sqlalchemy import text

    found = session.execute(text("SELECT id, name FROM tracker WHERE key = :key"), {"key": key}).first()
    if found is not None and found[0] != but:
        raise TrackerError(f"tracker {name!r}: there is already a tracker {found[1]!r}; choose another name")


def add(store: Store, name: str, side: str = "either", phrases: Iterable[str] = (), exclusions: Iterable[str] = (),
        *, label: str | None = None, tracker_id: int | None = None) -> Change:
    """A new tracker; its counts come with the next library recount (`recount_library`)."""
    from sqlalchemy import insert

    from db.models import Tracker

    spec = TrackerSpec(name, side, tuple(phrases), tuple(exclusions)).checked()
    with store.write() as session:
        _clash(session, spec.key, spec.name)
        now = utcnow()
        values = {"name": spec.name, "key": spec.key, "side": spec.side, "phrases": list(spec.phrases),
                  "exclusions": list(spec.exclusions), "label": label, "version": 1, "counted_version": 0,
                  "created_at": now, "updated_at": now}
        if tracker_id is not None:  # an undone removal comes back under its id
            values["id"] = tracker_id
        new_id = session.execute(insert(Tracker).values(**values).returning(Tracker.id)).scalar_one()
    row = get_tracker(store, new_id)
    return change(f"Add tracker {spec.name}", TRACKERS, ids=[new_id], row=row,
                  undo=lambda s: remove(s, new_id))


def edit(store: Store, ref: str | int, *, name: str | None = None, side: str | None = None,
         phrases: Iterable[str] | None = None, exclusions: Iterable[str] | None = None) -> Change:
    """Change a tracker; a change to what it finds (side, phrases, exclusions) makes the library due a recount."""
    from sqlalchemy import update

    from db.models import Tracker

    before = get_tracker(store, ref)
    spec = TrackerSpec(name if name is not None else before.name, side or before.side,
                       tuple(phrases) if phrases is not None else before.phrases,
                       tuple(exclusions) if exclusions is not None else before.exclusions).checked()
    finds_other = (spec.side, spec.phrases, spec.exclusions) != (before.side, before.phrases, before.exclusions)
    with store.write() as session:
        _clash(session, spec.key, spec.name, but=before.id)
        session.execute(update(Tracker).where(Tracker.id == before.id).values(
            name=spec.name, key=spec.key, side=spec.side, phrases=list(spec.phrases),
            exclusions=list(spec.exclusions), version=Tracker.version + (1 if finds_other else 0),
            updated_at=utcnow()))
    row = get_tracker(store, before.id)
    return change(f"Edit tracker {spec.name}", TRACKERS, ids=[before.id], row=row,
                  undo=lambda s: edit(s, before.id, name=before.name, side=before.side, phrases=before.phrases,
                                      exclusions=before.exclusions))


def remove(store: Store, ref: str | int) -> Change:
    """Remove a tracker and its hits; undo brings it back (and counts the library for it again)."""
    from sqlalchemy import text

    before = get_tracker(store, ref)
    with store.write() as session:
        session.execute(text("DELETE FROM tracker_hit WHERE tracker_id = :id"), {"id": before.id})
        session.execute(text("DELETE FROM tracker WHERE id = :id"), {"id": before.id})
    return change(f"Remove tracker {before.name}", TRACKERS, ids=[before.id], row=before,
                  undo=lambda s: add(s, before.name, before.side, before.phrases, before.exclusions,
                                     label=before.label, tracker_id=before.id))


# --- counting -------------------------------------------------------------------------------------------

_MATCHERS: dict[TrackerSpec, Matcher] = {}


def matcher(row: TrackerRow) -> Matcher:
    """The tracker compiled, once per version of its phrases."""
    spec = row.spec
    found = _MATCHERS.get(spec)
    if found is None:
        if len(_MATCHERS) > 256:
            _MATCHERS.clear()
        found = _MATCHERS[spec] = spec.matcher()
    return found


def _usable(rows: Iterable[TrackerRow]) -> list[tuple[TrackerRow, Matcher]]:
    out = []
    for row in rows:
        try:
            out.append((row, matcher(row)))
        except TrackerError as exc:  # written by hand into the store: the others still count
            log.warning("%s; it is not counted", exc)
    return out


def _trackers_only(store: Store) -> list[TrackerRow]:
    return [_row(r) for r in store.reader().execute(f"SELECT {_COLUMNS} FROM tracker t ORDER BY t.id")]


def _call_lines(store: Store, call_id: int) -> list[Line]:
    con = store.reader()
    head = con.execute('SELECT id FROM "transcript" WHERE call_id = ? AND is_current = TRUE ORDER BY id DESC LIMIT 1',
                       (int(call_id),)).fetchone()
    if head is None:
        return []
    names = dict(con.execute("SELECT label, name FROM speaker WHERE call_id = ?", (int(call_id),)))
    return [Line(s, e, names.get(spk, spk), text) for s, e, spk, text in con.execute(
        "SELECT start_ms, end_ms, speaker, text FROM segment WHERE transcript_id = ? ORDER BY start_ms, id",
        (head[0],))]


def _hit_values(tracker_id: int, call_id: int, hit) -> tuple:
    return (tracker_id, call_id, hit.start_ms, hit.end_ms, hit.speaker, hit.role, hit.quote, hit.matched)


def _insert_hits(session, values: list[tuple]) -> None:
    """Many rows in one driver call: SQLAlchemy's own executemany builds a dict per row first."""
    if not values:
        return
    mark = "?" if session.get_bind().dialect.paramstyle == "qmark" else "%s"
    session.connection().exec_driver_sql(
        "INSERT INTO tracker_hit (tracker_id, call_id, start_ms, end_ms, speaker, role, quote, matched) "
        f"VALUES ({', '.join([mark] * 8)})", values)


def recount_call(store: Store, call_id: int) -> dict[int, int]:
    """Every tracker on one call's current transcript, written in one transaction: {tracker id: lines}."""
    from sqlalchemy import text

    from desktop.services.suggestions import call_roles

    trackers = _usable(_trackers_only(store))
    lines = _call_lines(store, call_id)
    roles = call_roles(store, call_id)
    found = find_hits([m for _r, m in trackers], lines, roles) if trackers and lines else [[] for _ in trackers]
    values = [_hit_values(row.id, call_id, h) for (row, _m), hits in zip(trackers, found) for h in hits]
    with store.write() as session:
        session.execute(text("DELETE FROM tracker_hit WHERE call_id = :call"), {"call": int(call_id)})
        _insert_hits(session, values)
        session.execute(text("INSERT INTO tracker_call (call_id, counted_at) VALUES (:call, :at) "
                             "ON CONFLICT (call_id) DO UPDATE SET counted_at = excluded.counted_at"),
                        {"call": int(call_id), "at": utcnow()})
    return {row.id: len(hits) for (row, _m), hits in zip(trackers, found)}


def after_transcript_change(store: Store, call_id: int) -> dict[int, int] | None:
    """The hook the suggestions pass calls. The transcript is saved already: a recount that fails is logged."""
    try:
        return recount_call(store, call_id)
    except CallmarkError as exc:
        log.warning("call %s: tracker counts not refreshed: %s", call_id, exc)
    except Exception as exc:  # noqa: BLE001 - never lose the save the coach just made over this
        log.warning("call %s: tracker counts not refreshed (%s)", call_id, type(exc).__name__)
    return None


@dataclass(frozen=True)
class RecountProgress:
    tracker: str
    done: int  # calls read
    total: int  # calls that could hold a hit
    hits: int  # lines found so far


def _candidates(store: Store, query: str | None) -> dict[int, list[tuple]]:
    """call id -> its current transcript's lines (start, end, speaker label, text) that might match."""
    con = store.reader()
    if query is not None and store.dialect == "sqlite":
        rows = con.execute(
            "SELECT t.call_id, s.start_ms, s.end_ms, s.speaker, s.text FROM segment_fts f "
            "JOIN segment s ON s.id = f.rowid JOIN transcript t ON t.id = s.transcript_id "
            "WHERE segment_fts MATCH ? AND t.is_current = 1", (query,))
    else:  # a team store, or a phrase the index cannot narrow: every current line
        rows = con.execute("SELECT t.call_id, s.start_ms, s.end_ms, s.speaker, s.text FROM segment s "
                           "JOIN transcript t ON t.id = s.transcript_id WHERE t.is_current = TRUE")
    by_call: dict[int, list[tuple]] = {}
    for call_id, start, end, speaker, text_ in rows:
        by_call.setdefault(call_id, []).append((start, end, speaker, text_))
    return by_call


def read_hits(store: Store, ref: str | int | TrackerRow, *,
              pause_s: float = 0.0) -> Iterator[tuple[int, int, list[tuple]]]:
    """One tracker over the library, read only: (calls read, calls to read, hit rows found since the last
    step) every PROGRESS_EVERY calls and at the end. What a count writes, in the window's process or
    sent from the child that reads for it (desktop.services.library_pass).

    ``pause_s``: rest this long after each ~10 ms of reading, so a window's thread, which needs the same
    interpreter, keeps answering keys while the count runs beside it.
    """
    from desktop.services.suggestions import call_roles

    row = ref if isinstance(ref, TrackerRow) else get_tracker(store, ref)
    match = matcher(row)
    by_call = _candidates(store, match.index_query())
    con = store.reader()
    values: list[tuple] = []
    total = len(by_call)
    rested = time.perf_counter()
    for done, (call_id, found) in enumerate(sorted(by_call.items()), start=1):
        if pause_s and time.perf_counter() - rested > WORK_S:
            time.sleep(pause_s)
            rested = time.perf_counter()
        found.sort()
        names = dict(con.execute("SELECT label, name FROM speaker WHERE call_id = ?", (call_id,)))
        lines = [Line(s, e, names.get(spk, spk), t) for s, e, spk, t in found]
        for hit in find_hits([match], lines, call_roles(store, call_id))[0]:
            values.append(_hit_values(row.id, call_id, hit))
        if done % PROGRESS_EVERY == 0:
            yield done, total, values
            values = []
    if values or total % PROGRESS_EVERY:
        yield total, total, values


def _library_size(store: Store) -> int:
    return int(store.reader().execute('SELECT COUNT(*) FROM "transcript" WHERE is_current = TRUE').fetchone()[0])


def recount_tracker(store: Store, ref: str | int, *, pause_s: float = 0.0,
                    child_from: int | None = None) -> Iterator[RecountProgress]:
    """Count one tracker over the whole library, yielding progress; written in one transaction at the end.

    Calls recounted meanwhile (a transcript edited while this ran) keep what their own recount found.
    A library of ``child_from`` calls or more (library_pass.CHILD_FROM) is read in a child process: the
    reading's garbage collections then never hold a window's thread still (a short one runs here,
    resting ``pause_s`` now and then, see `read_hits`).
    """
    from sqlalchemy import text

    from desktop.services.library_pass import CHILD_FROM, count_in_child

    row = get_tracker(store, ref)
    started = utcnow()
    matcher(row)  # a tracker that cannot be counted says so here, before any child starts
    # A team store's connection is the server's, not a file a child could open: read here.
    if store.dialect == "sqlite" and _library_size(store) >= (CHILD_FROM if child_from is None else child_from):
        steps = count_in_child(store, row.id)
    else:
        steps = read_hits(store, row, pause_s=pause_s)
    values: list[tuple] = []
    total = 0
    for done, total, found in steps:
        values.extend(found)
        if done % PROGRESS_EVERY == 0:
            yield RecountProgress(row.name, done, total, len(values))
    with store.write() as session:
        now = session.execute(text("SELECT version FROM tracker WHERE id = :id"), {"id": row.id}).scalar()
        if now != row.version:
            return  # removed or edited meanwhile: that change brings its own recount
        fresh = {r[0] for r in session.execute(text("SELECT call_id FROM tracker_call WHERE counted_at > :at"),
                                                {"at": started})}
        alive = {r[0] for r in session.execute(text('SELECT id FROM "call"'))}  # a call removed meanwhile
        values = [v for v in values if v[1] in alive]
        if fresh:
            values = [v for v in values if v[1] not in fresh]
            marks = ", ".join(str(int(c)) for c in fresh)
            session.execute(text(f"DELETE FROM tracker_hit WHERE tracker_id = :id AND call_id NOT IN ({marks})"),
                            {"id": row.id})
        else:
            session.execute(text("DELETE FROM tracker_hit WHERE tracker_id = :id"), {"id": row.id})
        _insert_hits(session, values)
        session.execute(text("UPDATE tracker SET counted_version = :v WHERE id = :id"), {"v": row.version, "id": row.id})
    yield RecountProgress(row.name, total, total, len(values))


def pending(store: Store) -> list[TrackerRow]:
    """Trackers the library has not been counted for (new, edited, or shipped with an upgrade)."""
    return [r for r in _trackers_only(store) if r.pending]


def recount_library(store: Store, refs: Iterable[str | int] | None = None, *, pause_s: float = 0.0,
                    child_from: int | None = None) -> Iterator[RecountProgress]:
    """Every pending tracker (or those named) counted over the library, one after another, with progress."""
    rows = [get_tracker(store, r) for r in refs] if refs is not None else pending(store)
    for row in rows:
        yield from recount_tracker(store, row.id, pause_s=pause_s, child_from=child_from)


def ensure_counted(store: Store) -> None:
    """Count what is due, now (the command line: it has no background to leave it to, nor a window to keep
    answering, so it reads here rather than start a child for each tracker)."""
    for _step in recount_library(store, child_from=2**62):
        pass


def counted_at(store: Store, call_id: int) -> datetime | None:
    row = store.reader().execute("SELECT counted_at FROM tracker_call WHERE call_id = ?", (int(call_id),)).fetchone()
    return datetime.fromisoformat(str(row[0])) if row else None


__all__ = ["RecountProgress", "TrackerHitRow", "TrackerRow", "add", "after_transcript_change", "counts_by_call",
           "edit", "ensure_counted", "get_tracker", "list_trackers", "pattern_hits", "pattern_names", "pending",
           "read_hits", "recount_call", "recount_library", "recount_tracker", "remove", "tracker_hits"]
