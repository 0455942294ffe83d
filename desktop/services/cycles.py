"""90-day cycles: one manager, one coach, one start date, one focus behavior, one conversation model.

The phase comes from the date (desktop.core.cycles). The focus behavior is
chosen in the choose phase and then stays stable: changing it from day 31 on
needs a reason, and the change is kept (FocusChange). What the coach notices
meanwhile is parked on the manager (ParkedObservation) for the next cycle. The
conversation model is kept for the whole cycle: it can change only while no
session has been held.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, timezone

from sqlalchemy import select
from sqlalchemy.orm import Session

from db.models import CoachingItem, CoachingSession, Cycle, FocusChange, Person
from db.store import Store
from desktop.core import cycles as method
from desktop.core.enums import ConversationModel, Role, SessionStatus
from desktop.errors import CallmarkError, NotFound
from desktop.services.lookup import one
from desktop.services.people import local_coach_person, person

__all__ = ["CycleRow", "FocusChangeRow", "PhaseInfo", "FocusLocked", "add_cycle", "get_cycle",
           "list_cycles", "current_cycle", "resolve_cycle", "phase_info", "set_focus", "set_model",
           "set_baseline_notes", "focus_changes", "park", "attach_item", "cycle_items", "parse_date",
           "item_choices", "managers_with_cycles",
           "today"]


class FocusLocked(CallmarkError):
    """The focus behavior can't change now without a reason."""


def today() -> date:
    return date.today()


def parse_date(value: date | str | None, what: str = "date") -> date | None:
    if value is None or isinstance(value, date):
        return value
    text = str(value).strip()
    if not text:
        return None
    try:
        return date.fromisoformat(text)
    except ValueError as exc:
        raise CallmarkError(f"{what} {value!r}: not an ISO date (e.g. 2026-12-14)") from exc


@dataclass(frozen=True)
class PhaseInfo:
    phase: method.Phase
    day: int  # day of the cycle (1 = start date); 0 or less before it
    label: str
    asks: str

    def to_json(self) -> dict:
        return {"phase": str(self.phase), "day": self.day, "label": self.label, "asks": self.asks}


def phase_info(start: date, on: date) -> PhaseInfo:
    phase = method.phase_on(start, on)
    return PhaseInfo(phase, method.day_of_cycle(start, on), phase.label, phase.asks)


@dataclass(frozen=True)
class CycleRow:
    id: int
    manager: str
    coach: str | None
    start_date: date
    end_date: date
    focus_behavior: str | None
    conversation_model: ConversationModel
    baseline_notes: str
    sessions_planned: int
    sessions_held: int
    sessions_missed: int
    as_of: date
    now: PhaseInfo
    item_ids: list[int] = field(default_factory=list)

    @property
    def title(self) -> str:
        return f"{self.manager}: cycle from {self.start_date.isoformat()}"

    def to_json(self) -> dict:
        return {"id": self.id, "manager": self.manager, "coach": self.coach,
                "start_date": self.start_date.isoformat(), "end_date": self.end_date.isoformat(),
                "focus_behavior": self.focus_behavior,
                "conversation_model": str(self.conversation_model),
                "baseline_notes": self.baseline_notes,
                "sessions": {"planned": self.sessions_planned, "held": self.sessions_held,
                             "missed": self.sessions_missed},
                "as_of": self.as_of.isoformat(), **self.now.to_json(), "item_ids": self.item_ids}


@dataclass(frozen=True)
class FocusChangeRow:
    id: int
    changed_at: str
    old_behavior: str | None
    new_behavior: str
    reason: str

    def to_json(self) -> dict:
        return dict(self.__dict__)


def _names(session: Session) -> dict[int, str]:
    return dict(session.execute(select(Person.id, Person.name)).all())


def _row(session: Session, cycle: Cycle, on: date | None) -> CycleRow:
    names = _names(session)
    on = on or today()
    statuses = [s.status for s in cycle.sessions]
    item_ids = list(session.scalars(select(CoachingItem.id).where(CoachingItem.cycle_id == cycle.id)
                                    .order_by(CoachingItem.id)))
    return CycleRow(
        id=cycle.id, manager=names.get(cycle.manager_id, "?"),
        coach=names.get(cycle.coach_id) if cycle.coach_id else None,
        start_date=cycle.start_date, end_date=method.cycle_end(cycle.start_date),
        focus_behavior=cycle.focus_behavior, conversation_model=cycle.conversation_model,
        baseline_notes=cycle.baseline_notes or "",
        sessions_planned=len(statuses), sessions_held=statuses.count(SessionStatus.HELD),
        sessions_missed=statuses.count(SessionStatus.MISSED), as_of=on,
        now=phase_info(cycle.start_date, on), item_ids=item_ids)


def _cycle(session: Session, cycle_id: int) -> Cycle:
    cycle = one(session, Cycle, cycle_id)
    return cycle


def _model(value) -> ConversationModel:
    try:
        return ConversationModel(str(value).strip().lower())
    except ValueError:
        raise CallmarkError(f"conversation model {value!r}: use grow, clear or oskar") from None


def add_cycle(store: Store, manager: str, start: date | str, *, coach: str | None = None,
              model: ConversationModel | str = ConversationModel.GROW, focus: str | None = None,
              baseline_notes: str = "", weekday: int | None = None, cadence_days: int = 7) -> CycleRow:
    """A new cycle with its weekly sessions planned over the coach phase (days 31–75).

    A manager has one cycle at a time: a start date inside another cycle of the
    same manager is refused.
    """
    start = parse_date(start, "start date")
    if start is None:
        raise CallmarkError("a cycle needs a start date (YYYY-MM-DD)")
    if not (manager or "").strip():
        raise CallmarkError("a cycle needs the manager it is for")
    model = _model(model)
    try:
        planned = method.plan_sessions(start, weekday, cadence_days)
    except method.CycleError as exc:
        raise CallmarkError(str(exc)) from exc
    with store.write() as session:
        who = person(session, manager, Role.MANAGER)
        for other in session.scalars(select(Cycle).where(Cycle.manager_id == who.id)):
            if other.start_date <= start <= method.cycle_end(other.start_date) or \
                    start <= other.start_date <= method.cycle_end(start):
                raise CallmarkError(
                    f"{who.name} already has cycle {other.id} from {other.start_date.isoformat()} "
                    f"to {method.cycle_end(other.start_date).isoformat()}; one cycle at a time")
        by = person(session, coach, Role.COACH) if coach else local_coach_person(session)
        cycle = Cycle(manager_id=who.id, coach_id=by.id, start_date=start,
                      focus_behavior=(focus or "").strip() or None, conversation_model=model,
                      baseline_notes=baseline_notes or "")
        session.add(cycle)
        session.flush()
        for day in planned:
            session.add(CoachingSession(cycle_id=cycle.id, planned_date=day))
        session.flush()
        session.refresh(cycle)
        return _row(session, cycle, None)


def get_cycle(store: Store, cycle_id: int, on: date | None = None) -> CycleRow:
    with store.read() as session:
        return _row(session, _cycle(session, cycle_id), on)


def list_cycles(store: Store, manager: str | None = None, on: date | None = None) -> list[CycleRow]:
    """Cycles, by manager then newest start first (never ranked against each other)."""
    with store.read() as session:
        query = select(Cycle)
        if manager is not None:
            ids = session.scalars(select(Person.id).where(Person.name == manager.strip())).all()
            if not ids:
                raise NotFound(f"manager {manager!r}: nobody of that name in this library")
            query = query.where(Cycle.manager_id.in_(ids))
        rows = [_row(session, c, on) for c in session.scalars(query)]
    return sorted(rows, key=lambda r: (r.manager.lower(), -r.start_date.toordinal()))


def current_cycle(store: Store, manager: str, on: date | None = None) -> CycleRow | None:
    """The manager's cycle on that date; else the latest that started; else the next one."""
    on = on or today()
    rows = list_cycles(store, manager, on)
    for row in rows:
        if row.start_date <= on <= row.end_date:
            return row
    started = [r for r in rows if r.start_date <= on]
    if started:
        return max(started, key=lambda r: r.start_date)
    return min(rows, key=lambda r: r.start_date) if rows else None


def resolve_cycle(store: Store, manager: str | None, cycle_id: int | None,
                  on: date | None = None) -> CycleRow:
    """The cycle a command means: by id (checked against the manager), or the manager's current one."""
    if cycle_id is not None:
        row = get_cycle(store, cycle_id, on)
        if manager is not None and row.manager != manager.strip():
            raise CallmarkError(f"cycle {cycle_id} is {row.manager}'s, not {manager.strip()}'s")
        return row
    if manager is None:
        raise CallmarkError("name the manager (--manager NAME) or the cycle (--cycle ID)")
    row = current_cycle(store, manager, on)
    if row is None:
        raise NotFound(f"{manager.strip()} has no coaching cycle yet; start one with "
                       f"`callmark cycles add --manager \"{manager.strip()}\" --start YYYY-MM-DD`")
    return row


def set_focus(store: Store, cycle_id: int, behavior: str, *, on: date | None = None,
              reason: str | None = None) -> CycleRow:
    """Choose (or change) the focus behavior; from day 31 on a change needs a reason and is kept."""
    behavior = (behavior or "").strip()
    if not behavior:
        raise CallmarkError("the focus behavior is empty: write the one behavior to coach")
    on = on or today()
    with store.write() as session:
        cycle = _cycle(session, cycle_id)
        old = cycle.focus_behavior
        if old == behavior:
            return _row(session, cycle, on)
        verdict = method.can_change_focus(cycle.start_date, on, reason)
        if old and not verdict.allowed:
            raise FocusLocked(verdict.message)
        if old and verdict.needs_reason:
            session.add(FocusChange(cycle_id=cycle.id, old_behavior=old, new_behavior=behavior,
                                    reason=(reason or "").strip()))
        cycle.focus_behavior = behavior
        session.flush()
        return _row(session, cycle, on)


def focus_changes(store: Store, cycle_id: int) -> list[FocusChangeRow]:
    with store.read() as session:
        cycle = _cycle(session, cycle_id)
        return [FocusChangeRow(c.id, c.changed_at.replace(tzinfo=timezone.utc).isoformat(),
                               c.old_behavior, c.new_behavior, c.reason) for c in cycle.focus_changes]


def set_model(store: Store, cycle_id: int, model: ConversationModel | str) -> CycleRow:
    """One model per cycle: it may change only before the first session is held."""
    model = _model(model)
    with store.write() as session:
        cycle = _cycle(session, cycle_id)
        if model != cycle.conversation_model and any(
                s.status == SessionStatus.HELD for s in cycle.sessions):
            raise CallmarkError(
                f"cycle {cycle_id} already held sessions with {cycle.conversation_model.upper()}: "
                "keep one conversation model for the whole cycle (change it in the next one)")
        cycle.conversation_model = model
        session.flush()
        return _row(session, cycle, None)


def set_baseline_notes(store: Store, cycle_id: int, notes: str) -> CycleRow:
    with store.write() as session:
        cycle = _cycle(session, cycle_id)
        cycle.baseline_notes = notes or ""
        session.flush()
        return _row(session, cycle, None)


def attach_item(store: Store, cycle_id: int, item_id: int) -> CycleRow:
    """The coaching item worked on in this cycle (its observations and reviews belong here)."""
    with store.write() as session:
        cycle = _cycle(session, cycle_id)
        item = one(session, CoachingItem, item_id)
        if item.manager_id not in (None, cycle.manager_id):
            raise CallmarkError(f"item {item_id} is for another manager than cycle {cycle_id}")
        item.cycle_id = cycle.id
        item.manager_id = cycle.manager_id
        session.flush()
        return _row(session, cycle, None)


def cycle_items(session: Session, cycle: Cycle) -> list[CoachingItem]:
    """Items of the cycle: attached to it, or the manager's unattached items created inside it."""
    end = method.cycle_end(cycle.start_date)
    lo = datetime.combine(cycle.start_date, datetime.min.time())
    hi = datetime.combine(end, datetime.max.time())
    attached = select(CoachingItem).where(CoachingItem.cycle_id == cycle.id)
    loose = select(CoachingItem).where(CoachingItem.cycle_id.is_(None),
                                       CoachingItem.manager_id == cycle.manager_id,
                                       CoachingItem.imported.is_(False),
                                       CoachingItem.created_at >= lo, CoachingItem.created_at <= hi)
    found = {i.id: i for i in session.scalars(attached)}
    for item in session.scalars(loose):
        found.setdefault(item.id, item)
    return [found[k] for k in sorted(found)]


def park(store: Store, cycle_id: int, note: str = "", moment_id: int | None = None):
    """Keep something noticed during the cycle for later, on the cycle's manager."""
    from desktop.services import parking

    row = get_cycle(store, cycle_id)
    return parking.park(store, moment_id=moment_id, note=note, manager=row.manager)


def item_choices(store: Store, cycle_id: int) -> list[tuple[int, str]]:
    """(id, behavior) of the cycle's items, the focus item first: what the evidence screen offers."""
    with store.read() as session:
        cycle = _cycle(session, cycle_id)
        found = cycle_items(session, cycle)
        rows = [(i.id, (i.behavior_text or "").strip() or "(no behavior yet)", i.cycle_id == cycle.id)
                for i in found]
    return [(i, text) for i, text, _ in sorted(rows, key=lambda r: (not r[2], r[0]))]


def managers_with_cycles(store: Store) -> list[str]:
    """Names, alphabetically: whom the coaching screen can show (one at a time)."""
    with store.read() as session:
        ids = set(session.scalars(select(Cycle.manager_id)))
        names = [p.name for p in session.scalars(select(Person).where(Person.id.in_(ids)))]
    return sorted(names, key=str.lower)
