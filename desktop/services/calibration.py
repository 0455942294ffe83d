"""Calibration in the store: two coaches' marks on one call, compared, then one agreed result.

The steps, each explicit:
1. Blind review: another coach's record comes in `imported` and stays hidden
   (`import_theirs` refuses a record made for another recording).
2. Compare: `compare(call, theirs=coach)` is the choice to look; it reads both
   coaches' moments (with the behavior change of the item each feeds), runs
   `desktop.core.calibration.match`, and keeps a `Calibration` row whose result
   holds the figures and a snapshot of both sides, so reopening shows exactly
   what was compared even after the coaches edited their marks.
3. Agree: for every row (a pair, or a moment only one coach marked) the
   coaches choose mine / theirs / merged / drop. The agreed moments and items
   belong to the local coach: their own moment is reused (a merged one widens
   to the union of both spans), anyone else's is copied; each agreed item has
   `calibration_id` set and travels in the portable record like any other.
"""

from __future__ import annotations

import difflib
from dataclasses import asdict, dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from sqlalchemy import select

from db.base import utcnow
from db.models import Calibration, Call, CoachingItem, Moment, Person
from db.store import Store
from desktop.core.calibration import DEFAULT_TOLERANCE_MS, CalibrationError, CalibrationResult, CalMoment, match
from desktop.core.enums import BehaviorChange, ItemStatus, MomentKind, PracticeKind, Role
from desktop.errors import CallmarkError, NotFound
from desktop.exchange import record as rec
from desktop.services.lookup import one
from desktop.services.people import local_coach, local_coach_person
from desktop.services.records import ImportResult, import_loaded

CHOICES = ("mine", "theirs", "merged", "drop")
# The item fields an agreed item copies from the side chosen (everything the record carries).
ITEM_FIELDS = ("consequence", "behavior_change", "behavior_text", "practice_kind", "practice_task",
               "owner_does", "owner_reviews", "cadence", "indicator", "next_evidence", "next_evidence_due",
               "review_rule_text", "continue_seen_in", "continue_of_reviewed", "continue_weeks_in_a_row",
               "qualification_gap")


class WrongRecording(CallmarkError):
    """A record made for another recording than the call being calibrated."""


class CalibrationProblem(CallmarkError):
    """Calibration cannot go on as asked (same coach twice, undecided rows, agreed already)."""


@dataclass(frozen=True)
class SideMoment:
    """One coach's moment as compared: its span and kind, and the item it feeds (if any)."""
    id: str  # the moment's uid: the id it travels under in a record
    start_ms: int
    end_ms: int
    kind: str
    speaker: str | None = None
    quote: str = ""
    note: str | None = None
    item: dict[str, Any] | None = None  # ITEM_FIELDS (dates as ISO text), or None

    def cal(self) -> CalMoment:
        change = self.item.get("behavior_change") if self.item else None
        return CalMoment(self.id, self.start_ms, self.end_ms, self.kind, change)


@dataclass(frozen=True)
class Row:
    """One line of the side-by-side: a matched pair, or a moment only one coach marked."""
    mine: SideMoment | None
    theirs: SideMoment | None

    @property
    def key(self) -> str:
        if self.mine and self.theirs:
            return f"pair:{self.mine.id}:{self.theirs.id}"
        return f"mine:{self.mine.id}" if self.mine else f"theirs:{self.theirs.id}"

    @property
    def start_diff_ms(self) -> int | None:
        return self.theirs.start_ms - self.mine.start_ms if self.mine and self.theirs else None

    @property
    def play_span(self) -> tuple[int, int]:
        """The union of both spans: what playing the row plays."""
        sides = [m for m in (self.mine, self.theirs) if m is not None]
        return min(m.start_ms for m in sides), max(m.end_ms for m in sides)

    @property
    def start_ms(self) -> int:
        return self.play_span[0]


@dataclass
class CalibrationView:
    id: int
    call_id: int
    call_title: str
    duration_ms: int
    mine_coach: str
    theirs_coach: str
    tolerance_ms: int
    result: CalibrationResult
    rows: list[Row]
    decisions: dict[str, dict[str, Any]] = field(default_factory=dict)
    agreed_at: str | None = None
    agreed_by: str | None = None

    def figures(self) -> dict[str, Any]:
        """The JSON the CLI prints (keys exactly as the issue names them)."""
        return self.result.to_dict()


@dataclass
class AgreeResult:
    calibration_id: int
    item_ids: list[int]
    moment_ids: list[int]
    dropped: int

    def to_json(self) -> dict:
        return asdict(self)


# --- blind review and the other coach's record ------------------------------------------


def check_record_for_call(store: Store, call_id: int, record: rec.CoachingRecord, path: Path | str) -> None:
    """Refuse a record made for another recording, naming both (nothing is written)."""
    with store.read() as session:
        call = _call(session, call_id)
        if record.call.media.sha256 != call.media_sha256:
            raise WrongRecording(
                f"{path}: this record is for “{record.call.title}” (recording {record.call.media.sha256[:12]}), "
                f"not for call {call.id} “{call.title}” (recording {call.media_sha256[:12]}); "
                "calibrate two coaches on the same recording")


def import_theirs(store: Store, call_id: int, path: Path | str) -> ImportResult:
    """Bring another coach's record for this call in; their marks stay hidden until you compare."""
    record = rec.load_record(path)
    check_record_for_call(store, call_id, record, path)
    return import_loaded(store, record, path)


def other_coaches(store: Store, call_id: int) -> list[str]:
    """Coaches other than you with moments on this call: whom you can compare with."""
    with store.read() as session:
        _call(session, call_id)
        me = local_coach(session)
        names = session.scalars(select(Person.name).join(Moment, Moment.coach_id == Person.id)
                                .where(Moment.call_id == call_id).distinct().order_by(Person.name)).all()
    return [n for n in names if me is None or n != me[0]]


def reveal(store: Store, call_id: int, coach: str) -> list[SideMoment]:
    """Their moments on the call: the explicit step that ends blind review."""
    with store.read() as session:
        _call(session, call_id)
        return _side(session, call_id, _coach(session, coach))


# --- compare ----------------------------------------------------------------------------


def compare(store: Store, call_id: int, theirs: str, *, mine: str | None = None,
            tolerance_ms: int = DEFAULT_TOLERANCE_MS) -> CalibrationView:
    """Match my moments (the local coach's, or `mine`'s) with `theirs` and keep the calibration."""
    with store.write() as session:
        call = _call(session, call_id)
        me = _coach(session, mine) if mine else local_coach_person(session)
        them = _coach(session, theirs)
        if me.id == them.id:
            raise CalibrationProblem(f"calibration: {me.name} on both sides; compare two different coaches")
        mine_side, theirs_side = _side(session, call.id, me), _side(session, call.id, them)
        result = _match(mine_side, theirs_side, tolerance_ms)
        snapshot = {"mine_moments": [asdict(m) for m in mine_side],
                    "theirs_moments": [asdict(m) for m in theirs_side]}
        # Running it again before agreeing refreshes the open calibration instead of piling rows up.
        row = session.scalar(select(Calibration).where(
            Calibration.call_id == call.id, Calibration.mine_coach_id == me.id,
            Calibration.theirs_coach_id == them.id, Calibration.agreed_at.is_(None))
            .order_by(Calibration.id.desc()).limit(1))
        if row is None:
            row = Calibration(call_id=call.id, mine_coach_id=me.id, theirs_coach_id=them.id, decisions={})
            session.add(row)
        row.tolerance_ms = tolerance_ms
        row.result = {**result.to_dict(), **snapshot}
        session.flush()
        return _view(session, row)


def open_calibration(store: Store, calibration_id: int) -> CalibrationView:
    """A kept calibration, exactly as it was compared (and agreed, if it was)."""
    with store.read() as session:
        return _view(session, _calibration(session, calibration_id))


def list_calibrations(store: Store, call_id: int | None = None) -> list[CalibrationView]:
    with store.read() as session:
        query = select(Calibration).order_by(Calibration.id.desc())
        if call_id is not None:
            query = query.where(Calibration.call_id == call_id)
        return [_view(session, c) for c in session.scalars(query)]


def set_decision(store: Store, calibration_id: int, key: str, choice: str,
                 fields: dict[str, Any] | None = None) -> None:
    """Keep one row's choice as the coaches make it (so a half-done calibration can be reopened)."""
    _check_choice(key, choice)
    with store.write() as session:
        row = _calibration(session, calibration_id)
        if row.agreed_at is not None:
            raise CalibrationProblem(f"calibration {row.id}: already agreed; its choices are kept as they were")
        decisions = dict(row.decisions or {})
        decisions[key] = {"choice": choice, **({"fields": _plain_fields(fields)} if fields else {})}
        row.decisions = decisions


# --- agree ------------------------------------------------------------------------------


def agree(store: Store, calibration_id: int, decisions: dict[str, str | dict[str, Any]] | None = None,
          *, agreed_by: str | None = None) -> AgreeResult:
    """Save the agreed result: a choice for every row, the agreed items marked calibrated."""
    with store.write() as session:
        row = _calibration(session, calibration_id)
        if row.agreed_at is not None:
            raise CalibrationProblem(f"calibration {row.id}: already agreed on {row.agreed_at:%Y-%m-%d %H:%M} "
                                     f"by {row.agreed_by}; compare again to calibrate anew")
        view = _view(session, row)
        chosen = dict(row.decisions or {})
        for key, value in (decisions or {}).items():
            entry = {"choice": value} if isinstance(value, str) else dict(value)
            _check_choice(key, entry.get("choice", ""))
            if entry.get("fields"):
                entry["fields"] = _plain_fields(entry["fields"])
            chosen[key] = entry
        keys = {r.key for r in view.rows}
        unknown = sorted(set(chosen) - keys)
        if unknown:
            raise CalibrationProblem(f"calibration {row.id}: no row {unknown[0]} in this calibration")
        undecided = [r.key for r in view.rows if r.key not in chosen]
        if undecided:
            raise CalibrationProblem(f"calibration {row.id}: choose mine, theirs, merged or drop for every row; "
                                     f"{len(undecided)} undecided, first {undecided[0]}")
        call = session.get(Call, row.call_id)
        coach = local_coach_person(session)
        out = AgreeResult(row.id, [], [], 0)
        for r in view.rows:
            entry = chosen[r.key]
            if entry["choice"] == "drop":
                out.dropped += 1
                continue
            moment, item = _agree_row(session, call, coach, row.id, r, entry)
            out.moment_ids.append(moment.id)
            if item is not None:
                out.item_ids.append(item.id)
        row.decisions = {**chosen, "_agreed": {"item_ids": out.item_ids, "moment_ids": out.moment_ids}}
        row.agreed_at = utcnow()
        row.agreed_by = (agreed_by or coach.name).strip() or coach.name
        return out


def _agree_row(session, call: Call, coach: Person, calibration_id: int, r: Row, entry: dict):
    choice = entry["choice"]
    mine, theirs = r.mine, r.theirs
    if choice == "mine" and mine is None or choice == "theirs" and theirs is None:
        raise CalibrationProblem(f"row {r.key}: nothing on the {choice} side to keep; choose another")
    base = mine if choice in ("mine", "merged") and mine is not None else theirs
    start, end = (r.play_span if choice == "merged" else (base.start_ms, base.end_ms))
    fields: dict[str, Any] | None
    if choice == "merged":
        fields = _merge_fields(mine.item if mine else None, theirs.item if theirs else None)
    else:
        fields = dict(base.item) if base.item else None
    if entry.get("fields"):
        fields = {**(fields or {}), **entry["fields"]}
    moment = _own_moment(session, coach, base.id)
    if moment is None:  # someone else's mark: the agreed copy is the local coach's
        moment = Moment(call_id=call.id, coach=coach, start_ms=start, end_ms=end, kind=MomentKind(base.kind),
                        speaker=base.speaker, quote=base.quote, note=base.note, imported=False)
        session.add(moment)
        session.flush()
    elif (moment.start_ms, moment.end_ms) != (start, end):
        moment.start_ms, moment.end_ms = start, end
    if fields is None:
        return moment, None
    item = moment.item
    if item is None:
        item = CoachingItem(coach=coach, manager=call.manager, status=ItemStatus.OPEN)
        session.add(item)
    for key, value in _typed_fields(fields).items():
        setattr(item, key, value)
    item.calibration_id = calibration_id
    session.flush()
    moment.item_id = item.id
    session.flush()
    return moment, item


def merged_wording(row: Row) -> dict[str, str]:
    """The wording "merged" starts from (mine where I wrote it, theirs where I left a gap), for the coach
    to edit before it is agreed."""
    fields = _merge_fields(row.mine.item if row.mine else None, row.theirs.item if row.theirs else None) or {}
    return {key: str(fields.get(key) or "") for key in ("consequence", "behavior_text", "practice_task")}


def _merge_fields(mine: dict | None, theirs: dict | None) -> dict | None:
    """Merged: my wording where I wrote one, theirs where I left a gap (the GUI lets them edit)."""
    if not mine and not theirs:
        return None
    out = dict(theirs or {})
    out.update({k: v for k, v in (mine or {}).items() if v not in (None, "")})
    return out


def _own_moment(session, coach: Person, uid: str) -> Moment | None:
    found = session.scalar(select(Moment).where(Moment.uid == uid))
    if found is not None and found.coach_id == coach.id and not found.imported:
        return found
    return None


# --- word-level difference (shared by the side-by-side view and the HTML report) -----


def word_diff(mine: str, theirs: str) -> tuple[list[tuple[str, bool]], list[tuple[str, bool]]]:
    """Each text as runs of (words, differs): what one coach wrote that the other did not."""
    a, b = (mine or "").split(), (theirs or "").split()
    left: list[tuple[str, bool]] = []
    right: list[tuple[str, bool]] = []
    def key(word: str) -> str:  # "signs." and "Signs" are the same word to a coach
        return word.lower().strip(".,;:!?\"'“”‘’()")

    matcher = difflib.SequenceMatcher(a=[key(w) for w in a], b=[key(w) for w in b], autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        same = op == "equal"
        if i2 > i1:
            left.append((" ".join(a[i1:i2]), not same))
        if j2 > j1:
            right.append((" ".join(b[j1:j2]), not same))
    return left, right


# --- inside -----------------------------------------------------------------------------


def _call(session, call_id: int) -> Call:
    call = one(session, Call, call_id)
    return call


def _coach(session, name: str) -> Person:
    found = session.scalar(select(Person).where(Person.name == (name or "").strip(), Person.role == Role.COACH))
    if found is None:
        raise NotFound(f"coach {name!r}: no coach of that name in this library")
    return found


def _calibration(session, calibration_id: int) -> Calibration:
    row = one(session, Calibration, calibration_id)
    return row


def _item_dict(item: CoachingItem | None) -> dict[str, Any] | None:
    if item is None:
        return None
    out = {k: getattr(item, k) for k in ITEM_FIELDS}
    return _plain_fields(out)


def _plain_fields(fields: dict[str, Any]) -> dict[str, Any]:
    """JSON-ready: enums as their values, dates as ISO text."""
    unknown = set(fields) - set(ITEM_FIELDS)
    if unknown:
        raise CalibrationProblem(f"not an item field: {', '.join(sorted(unknown))}")
    out = {}
    for key, value in fields.items():
        if isinstance(value, date):
            value = value.isoformat()
        elif hasattr(value, "value"):
            value = value.value
        out[key] = value
    return out


def _typed_fields(fields: dict[str, Any]) -> dict[str, Any]:
    out = dict(fields)
    if out.get("behavior_change") is not None:
        out["behavior_change"] = BehaviorChange(out["behavior_change"])
    if out.get("practice_kind") is not None:
        out["practice_kind"] = PracticeKind(out["practice_kind"])
    if isinstance(out.get("next_evidence_due"), str):
        out["next_evidence_due"] = date.fromisoformat(out["next_evidence_due"])
    for key in ("consequence", "behavior_text", "practice_task", "owner_does", "owner_reviews", "cadence",
                "indicator", "next_evidence", "review_rule_text"):
        if key in out and out[key] is None:
            out[key] = ""
    return out


def _side(session, call_id: int, coach: Person) -> list[SideMoment]:
    rows = session.scalars(select(Moment).where(Moment.call_id == call_id, Moment.coach_id == coach.id)
                           .order_by(Moment.start_ms, Moment.id))
    return [SideMoment(m.uid, m.start_ms, m.end_ms, m.kind.value, m.speaker, m.quote or "", m.note,
                       _item_dict(m.item)) for m in rows]


def _match(mine: list[SideMoment], theirs: list[SideMoment], tolerance_ms: int) -> CalibrationResult:
    try:
        return match([m.cal() for m in mine], [t.cal() for t in theirs], tolerance_ms)
    except CalibrationError as exc:
        raise CalibrationProblem(f"calibration: {exc}") from None


def _check_choice(key: str, choice: str) -> None:
    if choice not in CHOICES:
        raise CalibrationProblem(f"row {key}: choose one of {', '.join(CHOICES)} (got {choice!r})")
    if key.startswith("mine:") and choice == "theirs" or key.startswith("theirs:") and choice == "mine":
        raise CalibrationProblem(f"row {key}: only one coach marked this moment; choose "
                                 f"{'mine' if key.startswith('mine:') else 'theirs'}, merged or drop")


def _view(session, row: Calibration) -> CalibrationView:
    call = _call(session, row.call_id)
    snap = row.result or {}
    mine = [SideMoment(**m) for m in snap.get("mine_moments", [])]
    theirs = [SideMoment(**m) for m in snap.get("theirs_moments", [])]
    result = _match(mine, theirs, row.tolerance_ms)
    by_mine, by_theirs = {m.id: m for m in mine}, {t.id: t for t in theirs}
    rows = [Row(by_mine[p.mine.id], by_theirs[p.theirs.id]) for p in result.pairs]
    rows += [Row(by_mine[m.id], None) for m in result.only_mine]
    rows += [Row(None, by_theirs[t.id]) for t in result.only_theirs]
    rows.sort(key=lambda r: (r.start_ms, r.key))
    mine_coach = session.get(Person, row.mine_coach_id) if row.mine_coach_id else None
    theirs_coach = session.get(Person, row.theirs_coach_id) if row.theirs_coach_id else None
    decisions = {k: v for k, v in (row.decisions or {}).items() if not k.startswith("_")}
    return CalibrationView(
        id=row.id, call_id=call.id, call_title=call.title, duration_ms=call.duration_ms,
        mine_coach=mine_coach.name if mine_coach else "(removed)",
        theirs_coach=theirs_coach.name if theirs_coach else "(removed)",
        tolerance_ms=row.tolerance_ms, result=result, rows=rows, decisions=decisions,
        agreed_at=row.agreed_at.isoformat() if row.agreed_at else None, agreed_by=row.agreed_by)
