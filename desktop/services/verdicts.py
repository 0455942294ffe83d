"""The coach's verdicts on suggestions: accept (a moment is made), dismiss, undo, and each label's record.

A verdict is kept by the finding's id, which comes from its label and its line's text: a new
transcript version that keeps the line keeps the verdict. Accept and dismiss each write in one
transaction and return a `VerdictChange` whose `undo(store)` puts everything back (Ctrl+Z).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import select

from db.base import utcnow
from db.models import Moment, SuggestionVerdict
from db.store import Store
from desktop.core.detect import LABELS, Finding
from desktop.core.detect.model import Verdict
from desktop.errors import CallmarkError, NotFound
from desktop.services.moments import get_moments, new_moment
from desktop.services.people import local_coach_person
from desktop.services.rows import MomentRow

_SAVED = ("verdict", "coach_id", "moment_id", "start_ms", "end_ms", "quote", "decided_at", "label")
MIN_ID_PREFIX = 6


@dataclass
class VerdictChange:
    """What one accept or dismiss changed; `undo(store)` reverts exactly that."""

    call_id: int
    verdict: str
    decided: list[Finding] = field(default_factory=list)
    moments: list[MomentRow] = field(default_factory=list)  # made by accept
    unchanged: list[str] = field(default_factory=list)  # ids that already had this verdict
    new_verdicts: list[int] = field(default_factory=list)
    replaced: list[dict] = field(default_factory=list)  # verdict rows as they were before

    def undo(self, store: Store) -> None:
        undo(store, self)

    def to_json(self) -> dict:
        return {"call_id": self.call_id, "verdict": self.verdict, "ids": [f.id for f in self.decided],
                "moments": [m.to_record() for m in self.moments], "unchanged": self.unchanged}


def _resolve(store: Store, call_id: int, ids: list[str]) -> list[Finding]:
    """The call's current findings for these ids (a unique prefix of at least six characters will do)."""
    from desktop.services.suggestions import refresh

    if not ids:
        raise CallmarkError("give at least one suggestion id (from `callmark moments suggest CALL`)")
    findings = refresh(store, call_id).findings
    out = []
    for wanted in ids:
        wanted = wanted.strip().lower()
        matches = [f for f in findings if f.id == wanted] or (
            [f for f in findings if f.id.startswith(wanted)] if len(wanted) >= MIN_ID_PREFIX else [])
        if not matches:
            raise NotFound(f"call {call_id}: no suggestion {wanted!r} on its current transcript")
        if len(matches) > 1:
            raise CallmarkError(f"call {call_id}: suggestion id {wanted!r} is ambiguous; give more of it")
        if matches[0] not in out:
            out.append(matches[0])
    return out


def _decide(store: Store, call_id: int, ids: list[str], verdict: Verdict) -> VerdictChange:
    findings = _resolve(store, call_id, list(ids))
    change = VerdictChange(call_id, verdict.value)
    made = []  # moments made, read back once written (the one way a moment is read)
    with store.write() as session:
        coach = local_coach_person(session)
        for f in findings:
            row = session.scalar(select(SuggestionVerdict).where(SuggestionVerdict.call_id == call_id,
                                                                 SuggestionVerdict.finding_id == f.id))
            if row is not None and row.verdict is verdict:
                change.unchanged.append(f.id)
                continue
            is_new = row is None
            if not is_new:
                change.replaced.append({"id": row.id, **{k: getattr(row, k) for k in _SAVED}})
            moment_id = None if is_new else row.moment_id
            if verdict is Verdict.ACCEPTED:
                moment = new_moment(session, call_id, f.start_ms, f.end_ms, kind=f.kind, quote=f.quote,
                                    speaker=f.speaker, note=f"Suggested ({f.label.replace('_', ' ')}): {f.reason}")
                made.append(moment.id)
                moment_id = moment.id
            if is_new:
                row = SuggestionVerdict(call_id=call_id, finding_id=f.id)
            row.label, row.verdict, row.coach_id, row.moment_id = f.label, verdict, coach.id, moment_id
            row.start_ms, row.end_ms, row.quote, row.decided_at = f.start_ms, f.end_ms, f.quote, utcnow()
            if is_new:
                session.add(row)
            session.flush()
            if is_new:
                change.new_verdicts.append(row.id)
            change.decided.append(f)
    change.moments.extend(get_moments(store, made))
    return change


def accept(store: Store, call_id: int, ids: list[str]) -> VerdictChange:
    """Each suggestion becomes a moment (its kind, its quote, a note from its reason)."""
    return _decide(store, call_id, ids, Verdict.ACCEPTED)


def dismiss(store: Store, call_id: int, ids: list[str]) -> VerdictChange:
    """Record that the coach does not want these; a moment already made from one stays."""
    return _decide(store, call_id, ids, Verdict.DISMISSED)


def undo(store: Store, change: VerdictChange) -> None:
    """Revert an accept or dismiss: the moments it made go, earlier verdicts come back."""
    with store.write() as session:
        for m in change.moments:
            moment = session.get(Moment, m.id)
            if moment is not None:
                session.delete(moment)
        for vid in change.new_verdicts:
            row = session.get(SuggestionVerdict, vid)
            if row is not None:
                session.delete(row)
        for saved in change.replaced:
            row = session.get(SuggestionVerdict, saved["id"])
            if row is not None:
                for key in _SAVED:
                    setattr(row, key, saved[key])


@dataclass(frozen=True)
class LabelTally:
    label: str
    accepted: int
    dismissed: int

    @property
    def precision(self) -> float | None:
        decided = self.accepted + self.dismissed
        return self.accepted / decided if decided else None

    def __str__(self) -> str:
        return f"{self.label}: {self.accepted} accepted, {self.dismissed} dismissed"

    def to_json(self) -> dict:
        return {"label": self.label, "accepted": self.accepted, "dismissed": self.dismissed,
                "precision": self.precision}


def label_precision(store: Store, call_id: int | None = None) -> list[LabelTally]:
    """Each label the coach has judged, with how often they accepted it (the whole library, or one call)."""
    query = "SELECT label, verdict, count(*) FROM suggestion_verdict"
    params: tuple = ()
    if call_id is not None:
        query += " WHERE call_id = ?"
        params = (int(call_id),)
    counts: dict[str, dict[str, int]] = {}
    for label, verdict, n in store.reader().execute(query + " GROUP BY label, verdict", params):
        counts.setdefault(label, {})[verdict] = n
    return [LabelTally(label, counts[label].get("accepted", 0), counts[label].get("dismissed", 0))
            for label in LABELS if label in counts]
