"""Coaching sessions of a cycle: planned weekly, then held or missed.

A session follows the cycle's conversation model (GROW, CLEAR or OSKAR): notes
per stage, the OSKAR 0–10 score when the model is OSKAR. It closes as held only
with one practice action, one owner and one place to look for evidence, or an
explicit reason why not (desktop.core.conversation.can_close_held). At the next
session the coach records whether that action was done.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from db.models import CoachingItem, CoachingSession, Cycle, Moment
from db.store import Store
from desktop.core import cycles as method
from desktop.core.conversation import Guide, SessionRuleError, can_close_held, check_scale, guide
from desktop.core.enums import ConversationModel, SessionStatus
from desktop.errors import CallmarkError, NotFound
from desktop.services.cycles import parse_date, today
from desktop.services.lookup import one

__all__ = ["SessionRow", "SessionNotClosed", "list_sessions", "get_session", "guide_for",
           "save_stage_note", "set_score", "close_held", "mark_missed", "reopen", "set_action_done",
           "previous_held", "add_session", "replan", "attach_evidence"]


class SessionNotClosed(CallmarkError):
    """The session can't be closed as held: the action, owner or evidence place is missing."""


@dataclass(frozen=True)
class SessionRow:
    id: int
    cycle_id: int
    number: int  # 1 = first session of the cycle
    planned_date: date
    held_date: date | None
    status: SessionStatus
    model: ConversationModel
    stage_notes: dict[str, str]
    oskar_score: int | None
    practice_action: str
    action_owner: str
    evidence_place: str
    close_reason: str | None
    action_done: bool | None
    item_id: int | None
    moment_id: int | None
    example: str | None
    phase: method.Phase

    @property
    def has_evidence(self) -> bool:
        """A moment or example is attached (evidence capture)."""
        return self.moment_id is not None or bool((self.example or "").strip())

    @property
    def has_action(self) -> bool:
        return bool(self.practice_action.strip())

    def to_json(self) -> dict[str, Any]:
        out = dict(self.__dict__)
        for key in ("planned_date", "held_date"):
            out[key] = out[key].isoformat() if out[key] else None
        out["status"] = str(self.status)
        out["model"] = str(self.model)
        out["phase"] = str(self.phase)
        return out


def _rows(session: Session, cycle: Cycle) -> list[SessionRow]:
    ordered = sorted(cycle.sessions, key=lambda s: (s.planned_date, s.id))
    return [_row(s, cycle, n) for n, s in enumerate(ordered, start=1)]


def _row(s: CoachingSession, cycle: Cycle, number: int) -> SessionRow:
    return SessionRow(
        id=s.id, cycle_id=s.cycle_id, number=number, planned_date=s.planned_date,
        held_date=s.held_date, status=s.status, model=cycle.conversation_model,
        stage_notes=dict(s.stage_notes or {}), oskar_score=s.oskar_score,
        practice_action=s.practice_action or "", action_owner=s.action_owner or "",
        evidence_place=s.evidence_place or "", close_reason=s.close_reason,
        action_done=s.action_done, item_id=s.item_id, moment_id=s.moment_id, example=s.example,
        phase=method.phase_on(cycle.start_date, s.held_date or s.planned_date))


def _session(session: Session, session_id: int) -> CoachingSession:
    found = one(session, CoachingSession, session_id)
    return found


def _one(session: Session, found: CoachingSession) -> SessionRow:
    session.flush()
    cycle = found.cycle
    session.refresh(cycle)
    return next(r for r in _rows(session, cycle) if r.id == found.id)


def list_sessions(store: Store, cycle_id: int) -> list[SessionRow]:
    with store.read() as session:
        cycle = one(session, Cycle, cycle_id)
        return _rows(session, cycle)


def get_session(store: Store, session_id: int) -> SessionRow:
    with store.read() as session:
        return _one(session, _session(session, session_id))


def guide_for(store: Store, session_id: int) -> Guide:
    """The conversation guide of the session's cycle (stages and prompts)."""
    return guide(get_session(store, session_id).model)


def save_stage_note(store: Store, session_id: int, stage: str, text: str) -> SessionRow:
    with store.write() as session:
        found = _session(session, session_id)
        try:
            guide(found.cycle.conversation_model).stage(stage)
        except KeyError as exc:
            raise CallmarkError(str(exc.args[0])) from None
        notes = dict(found.stage_notes or {})
        notes[stage] = text or ""
        found.stage_notes = notes  # a new dict: JSON columns only notice reassignment
        return _one(session, found)


def _score(found: CoachingSession, score: int | None) -> int | None:
    if score is not None and found.cycle.conversation_model != ConversationModel.OSKAR:
        raise CallmarkError(f"session {found.id}: the scale score belongs to OSKAR; this cycle uses "
                            f"{found.cycle.conversation_model.upper()}")
    try:
        return check_scale(score)
    except SessionRuleError as exc:
        raise CallmarkError(f"session {found.id}: {exc}") from None


def set_score(store: Store, session_id: int, score: int | None) -> SessionRow:
    with store.write() as session:
        found = _session(session, session_id)
        found.oskar_score = _score(found, score)
        return _one(session, found)


def _moment(session: Session, moment_id: int | None) -> int | None:
    if moment_id is None:
        return None
    if session.get(Moment, moment_id) is None:
        raise NotFound(f"moment {moment_id}: no such moment")
    return moment_id


def close_held(store: Store, session_id: int, *, practice_action: str = "", action_owner: str = "",
               evidence_place: str = "", reason: str | None = None, held_on: date | str | None = None,
               stage_notes: dict[str, str] | None = None, oskar_score: int | None = None,
               item_id: int | None = None, moment_id: int | None = None,
               example: str | None = None) -> SessionRow:
    """Close the session as held; refused (SessionNotClosed) without action, owner and place or a reason."""
    ok, message = can_close_held(practice_action, action_owner, evidence_place, reason)
    if not ok:
        raise SessionNotClosed(f"session {session_id}: {message}")
    held_on = parse_date(held_on, "held date")
    with store.write() as session:
        found = _session(session, session_id)
        if stage_notes is not None:
            notes = dict(found.stage_notes or {})
            notes.update({k: v for k, v in stage_notes.items()})
            found.stage_notes = notes
        if oskar_score is not None:
            found.oskar_score = _score(found, oskar_score)
        if item_id is not None and session.get(CoachingItem, item_id) is None:
            raise NotFound(f"item {item_id}: no such coaching item")
        found.status = SessionStatus.HELD
        found.held_date = held_on or found.held_date or today()  # held now, unless the coach says when
        found.practice_action = (practice_action or "").strip()
        found.action_owner = (action_owner or "").strip()
        found.evidence_place = (evidence_place or "").strip()
        found.close_reason = (reason or "").strip() or None
        if item_id is not None:
            found.item_id = item_id
        if moment_id is not None:
            found.moment_id = _moment(session, moment_id)
        if example is not None:
            found.example = example.strip() or None
        return _one(session, found)


def attach_evidence(store: Store, session_id: int, *, moment_id: int | None = None,
                    example: str | None = None) -> SessionRow:
    """The moment or example kept from the conversation (evidence capture)."""
    with store.write() as session:
        found = _session(session, session_id)
        if moment_id is not None:
            found.moment_id = _moment(session, moment_id)
        if example is not None:
            found.example = example.strip() or None
        return _one(session, found)


def mark_missed(store: Store, session_id: int, reason: str | None = None) -> SessionRow:
    with store.write() as session:
        found = _session(session, session_id)
        found.status = SessionStatus.MISSED
        found.held_date = None
        found.close_reason = (reason or "").strip() or None
        return _one(session, found)


def reopen(store: Store, session_id: int) -> SessionRow:
    """Back to planned (a session closed by mistake); what was written stays."""
    with store.write() as session:
        found = _session(session, session_id)
        found.status = SessionStatus.PLANNED
        found.held_date = None
        return _one(session, found)


def previous_held(store: Store, session_id: int) -> SessionRow | None:
    """The last held session before this one: its action is checked at this one."""
    current = get_session(store, session_id)
    rows = [r for r in list_sessions(store, current.cycle_id)
            if r.status == SessionStatus.HELD and r.number < current.number and r.has_action]
    return rows[-1] if rows else None


def set_action_done(store: Store, session_id: int, done: bool | None) -> SessionRow:
    """Whether the practice action agreed in this session was done (asked at the next one)."""
    with store.write() as session:
        found = _session(session, session_id)
        if done is not None and not (found.practice_action or "").strip():
            raise CallmarkError(f"session {session_id} agreed no practice action; nothing to mark done")
        found.action_done = done
        return _one(session, found)


def add_session(store: Store, cycle_id: int, planned: date | str) -> SessionRow:
    planned = parse_date(planned, "planned date")
    with store.write() as session:
        one(session, Cycle, cycle_id)  # a cycle that is not there: said, nothing added
        found = CoachingSession(cycle_id=cycle_id, planned_date=planned)
        session.add(found)
        session.flush()
        return _one(session, found)


def move_session(store: Store, session_id: int, planned: date | str) -> SessionRow:
    """Plan a session for another day (any day of the cycle; a held one keeps the day it was held)."""
    planned = parse_date(planned, "planned date")
    with store.write() as session:
        found = _session(session, session_id)
        start = found.cycle.start_date
        end = start + timedelta(days=method.CYCLE_DAYS - 1)
        if not start <= planned <= end:
            raise CallmarkError(f"session {session_id}: {planned} is outside the cycle ({start} to {end})")
        found.planned_date = planned
        session.flush()
        return _one(session, found)


def replan(store: Store, cycle_id: int, weekday: int | None = None, cadence_days: int = 7,
           from_day: date | None = None) -> list[SessionRow]:
    """Plan again from a weekly cadence: still-planned sessions from `from_day` on are replaced."""
    from_day = from_day or today()
    with store.write() as session:
        cycle = one(session, Cycle, cycle_id)
        try:
            dates = method.plan_sessions(cycle.start_date, weekday, cadence_days)
        except method.CycleError as exc:
            raise CallmarkError(str(exc)) from exc
        for s in list(cycle.sessions):
            if s.status == SessionStatus.PLANNED and s.planned_date >= from_day:
                cycle.sessions.remove(s)
        kept = {s.planned_date for s in cycle.sessions}
        for day in dates:
            if day >= from_day and day not in kept:
                cycle.sessions.append(CoachingSession(planned_date=day))
        session.flush()
        session.refresh(cycle)
        return _rows(session, cycle)


def session_dates(store: Store, cycle_id: int) -> list[date]:
    with store.read() as session:
        return list(session.scalars(select(CoachingSession.planned_date)
                                    .where(CoachingSession.cycle_id == cycle_id)
                                    .order_by(CoachingSession.planned_date)))
