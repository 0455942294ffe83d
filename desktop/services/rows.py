"""What the workspace shows of a call, read with plain sqlite3: the call, its transcript, its moments.

These reads are the only ones on the way from starting Callmark to a call on
screen, so they use the store's plain reader (``Store.reader()``) and not
SQLAlchemy: importing SQLAlchemy and configuring the mappers costs several
times what the reads do, and the window is up before it is needed. The
services (``calls``, ``transcripts``, ``moments``) re-export these functions,
so there is one implementation; the tests run them on real stores written
through the ORM.
"""

from __future__ import annotations

import bisect
import json
import threading
from dataclasses import asdict, dataclass, field
from datetime import datetime

from desktop.errors import NotFound

DEFAULT_SPAN_MS = 5000


@dataclass(frozen=True)
class CallRow:
    """A call as the library shows it."""

    id: int
    title: str
    rep: str | None
    manager: str | None
    recorded_at: str | None
    duration_ms: int
    has_video: bool
    channels: int | None
    media_sha256: str
    media_path: str | None
    source: str | None
    transcript_status: str  # "none", "whisper", "import", "edited"
    moment_count: int
    opportunity_id: int | None = None
    # Where the recording was added (the store's path, and the machine): ``media_path`` is where it
    # is on this machine when it was found here somewhere else (desktop.services.this_machine).
    stored_path: str | None = None
    media_machine: str | None = None

    def to_json(self) -> dict:
        return asdict(self)


@dataclass(slots=True)  # thousands per call: slots make them cheaper to build and hold
class SegmentRow:
    start_ms: int
    end_ms: int
    speaker: str | None
    text: str
    words: list | None = None
    id: int | None = None

    def to_record(self) -> dict:
        out = {"start_ms": self.start_ms, "end_ms": self.end_ms, "speaker": self.speaker, "text": self.text}
        if self.words:
            out["words"] = self.words
        return out


class _TranscriptWords:
    """Where a stored transcript's word timings are: read for all its lines at once, on first need.

    Opening a call reads its lines from an index that holds what a line shows (migration 0003); the
    word timings, most of each row, are read only when something asks a line for its words: a click
    on a word, a quote, an export.
    """

    __slots__ = ("_store", "_transcript_id", "_rows", "_lock")

    def __init__(self, store, transcript_id: int):
        self._store = store
        self._transcript_id = transcript_id
        self._rows: tuple = ()
        self._lock = threading.Lock()

    def hold(self, rows: list) -> None:
        """The lines to give their words to (a copy: the workspace may take some out before then)."""
        self._rows = tuple(rows)

    def read(self) -> None:
        """Give every line its words' JSON (None for a line without word timings)."""
        with self._lock:
            rows = self._rows
            if rows is None:
                return
            found = dict(self._store.reader().execute("SELECT id, words FROM segment WHERE transcript_id = ?",
                                                       (self._transcript_id,)))
            for row in rows:
                if row._words_json is self:
                    raw = found.get(row.id)
                    row._words_json = None if raw == "null" else raw
            self._rows = None


class StoredSegmentRow(SegmentRow):
    """A line read from the store: its word timings stay in the store, then JSON text, until read.

    A Whisper transcript has word timings on every line; reading and decoding them all took longer
    than the rest of opening a long call, and only a click on a word, a quote or an export needs
    them. Reads and writes of ``words`` behave as on any SegmentRow, and it compares equal to one
    with the same values.
    """

    __slots__ = ("_words", "_words_json")

    def __init__(self, start_ms: int, end_ms: int, speaker: str | None, text: str, words: list | None = None,
                 id: int | None = None, words_json=None):  # noqa: A002 - the field's name
        # Set here, not through SegmentRow.__init__ and the words setter: a long call makes thousands
        # of these while it opens. The words live in this class's own slot, behind the property.
        # ``words_json``: the column's JSON text, or the transcript's _TranscriptWords to read it from.
        self.start_ms = start_ms
        self.end_ms = end_ms
        self.speaker = speaker
        self.text = text
        self._words = words
        self.id = id
        self._words_json = None if words_json == "null" else words_json  # the JSON column's null

    @property
    def words(self) -> list | None:
        raw = self._words_json
        if raw is not None:
            if raw.__class__ is _TranscriptWords:
                raw.read()  # every line of the transcript gets its JSON now
                raw = self._words_json
                if raw is None:
                    return self._words
            self._words_json = None
            self._words = json.loads(raw)
        return self._words

    @words.setter
    def words(self, value: list | None) -> None:
        self._words_json = None
        self._words = value

    def __eq__(self, other) -> bool:
        if not isinstance(other, SegmentRow):
            return NotImplemented
        return ((self.start_ms, self.end_ms, self.speaker, self.text, self.words, self.id)
                == (other.start_ms, other.end_ms, other.speaker, other.text, other.words, other.id))

    __hash__ = None


@dataclass
class TranscriptRow:
    id: int
    call_id: int
    origin: str
    model: str | None
    language: str | None
    segments: list[SegmentRow] = field(default_factory=list)

    def to_json(self) -> dict:
        out = asdict(self)
        out["segments"] = [s.to_record() for s in self.segments]
        return out


@dataclass
class MomentRow:
    id: int
    uid: str
    call_id: int
    start_ms: int
    end_ms: int
    kind: str
    speaker: str | None
    quote: str
    note: str | None
    item_id: int | None
    coach: str | None
    created_at: str

    def to_record(self) -> dict:
        """The record format's moment shape (what `moments list --json` prints)."""
        return {"id": self.uid, "start_ms": self.start_ms, "end_ms": self.end_ms, "kind": self.kind,
                "speaker": self.speaker, "quote": self.quote, "note": self.note}

    def to_json(self) -> dict:
        return asdict(self)


# --- stored values as the ORM gives them ------------------------------------------------------------


def _when(stored: str | datetime | None) -> datetime | None:
    """SQLAlchemy keeps a naive DateTime as 'YYYY-MM-DD HH:MM:SS[.ffffff]' text in SQLite (a team
    store's driver gives a datetime)."""
    if stored is None or stored.__class__ is datetime:
        return stored
    return datetime.fromisoformat(stored) if stored else None


def stamp(created: datetime | str) -> str:
    """A stored UTC time as the record writes it: ISO 8601 with a Z."""
    value = _when(created) if isinstance(created, str) else created
    return value.isoformat() + "Z"


# --- calls ------------------------------------------------------------------------------------------

_CALL_COLUMNS = """
    SELECT c.id, c.title, rep.name, manager.name, c.recorded_at, c.duration_ms, c.has_video, c.channels,
           c.media_sha256, c.media_path, c.source, c.opportunity_id, c.media_machine,
           (SELECT t.origin FROM "transcript" t WHERE t.call_id = c.id AND t.is_current = TRUE
             ORDER BY t.id DESC LIMIT 1),
           (SELECT count(*) FROM "moment" m WHERE m.call_id = c.id AND m.imported = FALSE)
    FROM "call" c
    LEFT JOIN person rep ON rep.id = c.rep_id
    LEFT JOIN person manager ON manager.id = c.manager_id
"""
# On a team store the library counts the coach's own moments, as the workspace shows them.
_TEAM_CALL_COLUMNS = _CALL_COLUMNS.replace("m.imported = FALSE)", "m.imported = FALSE AND m.owner_role = current_user)")


def _columns(store) -> str:
    return _CALL_COLUMNS if store.dialect == "sqlite" else _TEAM_CALL_COLUMNS


def _call_row(r) -> CallRow:
    (cid, title, rep, manager, recorded, duration, video, channels, sha, path, source, opportunity,
     machine, status, count) = r
    when = _when(recorded)
    return CallRow(cid, title, rep, manager, when.isoformat() if when else None, duration, bool(video),
                   channels, sha, path, source, status or "none", count, opportunity, path, machine)


def _here(store, calls: list[CallRow]) -> list[CallRow]:
    """The calls as this machine sees them: a recording found here elsewhere is where it is here."""
    from desktop.services.this_machine import machine_of

    machine = machine_of(store)
    found = machine.recordings()
    return [machine.place(c, found) for c in calls] if found else calls


def get_call(store, call_id: int) -> CallRow:
    row = store.reader().execute(_columns(store) + " WHERE c.id = ?", (int(call_id),)).fetchone()
    if row is None:
        raise NotFound(f"call {call_id}: no such call in this library")
    return _here(store, [_call_row(row)])[0]


def _iso(stored: str | None) -> str | None:
    """`_when(stored).isoformat()`, without parsing the text SQLAlchemy always writes (`YYYY-MM-DD HH:MM:SS.ffffff`)."""
    if not stored:
        return None
    if len(stored) == 26 and stored[10] == " " and stored[19] == ".":
        return f"{stored[:10]}T{stored[11:19]}" + ("" if stored.endswith(".000000") else stored[19:])
    return _when(stored).isoformat()


_LIST_COLUMNS = """
    SELECT c.id, c.title, rep.name, manager.name, c.recorded_at, c.duration_ms, c.has_video, c.channels,
           c.media_sha256, c.media_path, c.source, c.opportunity_id, c.media_machine
    FROM "call" c
    LEFT JOIN person rep ON rep.id = c.rep_id
    LEFT JOIN person manager ON manager.id = c.manager_id
"""


def list_calls(store) -> list[CallRow]:
    """Every call, newest recording first (calls without a date last).

    Three reads joined here rather than two subqueries per call, and sorted here rather than by SQLite
    (whose sorter carries the whole wide row): a 10,000-call library is listed at start-up.
    """
    if store.dialect != "sqlite":  # a team store counts the coach's own moments (see _TEAM_CALL_COLUMNS)
        rows = store.reader().execute(_columns(store) + " ORDER BY c.recorded_at DESC NULLS LAST, c.id DESC")
        return _here(store, [_call_row(r) for r in rows])
    con = store.reader()
    status = dict(con.execute('SELECT call_id, origin FROM "transcript" WHERE is_current = TRUE ORDER BY id'))
    counts = dict(con.execute('SELECT call_id, count(*) FROM "moment" WHERE imported = FALSE GROUP BY call_id'))
    out = []
    found = con.execute(_LIST_COLUMNS).fetchall()
    found.sort(key=lambda r: (r[4] is not None, r[4] or "", r[0]), reverse=True)  # newest first, undated last
    for (cid, title, rep, manager, recorded, duration, video, channels, sha, path, source,
         opportunity, machine) in found:
        when = _iso(recorded)
        out.append(CallRow(cid, title, rep, manager, when, duration, bool(video), channels, sha, path, source,
                           status.get(cid) or "none", counts.get(cid, 0), opportunity, path, machine))
    return _here(store, out)


# --- transcripts ------------------------------------------------------------------------------------


def current_transcript(store, call_id: int, transcript_id: int | None = None) -> TranscriptRow | None:
    """The call's current transcript version (or the version asked for), lines in time order."""
    con = store.reader()
    if transcript_id:
        head = con.execute('SELECT id, origin, model, language FROM "transcript" WHERE call_id = ? AND id = ?',
                           (int(call_id), int(transcript_id))).fetchone()
    else:
        head = con.execute('SELECT id, origin, model, language FROM "transcript" WHERE call_id = ? '
                           "AND is_current = TRUE ORDER BY id DESC LIMIT 1", (int(call_id),)).fetchone()
    if head is None:
        return None
    names = dict(con.execute("SELECT label, name FROM speaker WHERE call_id = ?", (int(call_id),)))
    get = names.get
    # The lines come from the index ix_segment_lines alone; their word timings are read on first
    # need (StoredSegmentRow, _TranscriptWords).
    words = _TranscriptWords(store, head[0])
    segments: list[SegmentRow] = [StoredSegmentRow(start, end, get(spk, spk), text, None, sid, words)
                                  for sid, start, end, spk, text in con.execute(
                                      "SELECT id, start_ms, end_ms, speaker, text FROM segment "
                                      "WHERE transcript_id = ? ORDER BY start_ms, id", (head[0],))]
    words.hold(segments)
    return TranscriptRow(head[0], int(call_id), head[1], head[2], head[3], segments)


def current_transcript_id(store, call_id: int) -> int | None:
    """The id of the call's current transcript version (cheap: tells whether a kept copy is stale)."""
    row = store.reader().execute('SELECT id FROM "transcript" WHERE call_id = ? AND is_current = TRUE '
                                 "ORDER BY id DESC LIMIT 1", (int(call_id),)).fetchone()
    return row[0] if row else None


def text_under(segments: list[SegmentRow], start_ms: int, end_ms: int) -> tuple[str, str | None]:
    """The transcript's words under a span, and the speaker who says most of them.

    Uses word times where the transcript has them; otherwise whole lines that overlap.
    """
    if not segments:
        return "", None
    end_ms = max(end_ms, start_ms + 1)
    pieces: list[str] = []
    weight: dict[str | None, int] = {}
    for seg in _overlapping(segments, start_ms, end_ms):
        overlap = min(seg.end_ms, end_ms) - max(seg.start_ms, start_ms)
        weight[seg.speaker] = weight.get(seg.speaker, 0) + max(overlap, 1)
        words = seg.words or []
        chosen = [w for w in words if w.get("end_ms", 0) > start_ms and w.get("start_ms", 0) < end_ms]
        if chosen:
            pieces.append(" ".join(str(w.get("text", "")).strip() for w in chosen))
        else:
            pieces.append(seg.text.strip())
    speaker = max(weight, key=weight.get) if weight else None
    return " ".join(p for p in pieces if p).strip(), speaker


def _overlapping(segments: list[SegmentRow], start_ms: int, end_ms: int) -> list[SegmentRow]:
    starts = [s.start_ms for s in segments]
    i = max(bisect.bisect_right(starts, start_ms) - 1, 0)
    out = []
    while i < len(segments) and segments[i].start_ms < end_ms:
        if segments[i].end_ms > start_ms:
            out.append(segments[i])
        i += 1
    return out


# --- moments ----------------------------------------------------------------------------------------


_MOMENT_SELECT = ("SELECT m.id, m.uid, m.call_id, m.start_ms, m.end_ms, m.kind, m.speaker, m.quote, m.note, "
                  "m.item_id, p.name, m.created_at FROM moment m LEFT JOIN person p ON p.id = m.coach_id ")


def _moment_rows(found) -> list[MomentRow]:
    return [MomentRow(mid, uid, cid, start, end, kind, speaker, quote, note, item, name, stamp(created))
            for mid, uid, cid, start, end, kind, speaker, quote, note, item, name, created in found]


def list_moments(store, call_id: int, *, include_imported: bool = False,
                 coach: str | None = None) -> list[MomentRow]:
    """The call's moments in time order (another coach's imported ones only when asked)."""
    con = store.reader()
    if con.execute('SELECT 1 FROM "call" WHERE id = ?', (int(call_id),)).fetchone() is None:
        raise NotFound(f"call {call_id}: no such call in this library")
    query = (_MOMENT_SELECT + "WHERE m.call_id = ?" + ("" if include_imported else " AND m.imported = FALSE")
             # On a team store the workspace shows the coach's own moments: others' shared ones are
             # for calibration (blind review), not for marking over.
             + (" AND m.owner_role = current_user" if store.dialect != "sqlite" and not include_imported else "")
             + " ORDER BY m.start_ms, m.id")
    rows = _moment_rows(con.execute(query, (int(call_id),)))
    if coach is not None:
        rows = [r for r in rows if r.coach == coach]
    return rows


def get_moment(store, moment_id: int) -> MomentRow:
    """One moment, read as the list reads it (the one way a moment becomes a MomentRow)."""
    found = _moment_rows(store.reader().execute(_MOMENT_SELECT + "WHERE m.id = ?", (int(moment_id),)))
    if not found:
        raise NotFound(f"moment {moment_id}: no such moment")
    return found[0]


def get_moments(store, moment_ids) -> list[MomentRow]:
    """These moments, in the order asked (those gone left out)."""
    ids = [int(i) for i in moment_ids]
    if not ids:
        return []
    marks = ", ".join("?" * len(ids))
    by_id = {r.id: r for r in _moment_rows(store.reader().execute(_MOMENT_SELECT + f"WHERE m.id IN ({marks})", ids))}
    return [by_id[i] for i in ids if i in by_id]
