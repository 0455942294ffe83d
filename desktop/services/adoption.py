"""Adoption read from later calls: proposed observations the coach confirms or corrects.

For each coaching item of a cycle whose indicator names a pattern
(``indicator_pattern``), every *later* call of the manager's team gets a
proposed observation (desktop.core.adoption.read_call): seen / not seen /
partly, with the moment as evidence. Later: recorded after the day of the
cycle's first held session, or from the coaching weeks (day 31) while none is
held, up to the cycle's end. A call the item already has an observation of is
not proposed again. "Check both of the next two recordings" (two observations
still to check) is answered from the next two calls after the day it was
asked: their proposals fill those two.

Proposals are computed on the fly and count nowhere; ``confirm`` stores one as
an observation (or fills the one still to check), and only those count in the
review rule and the behavior-adoption indicator. ``waiting`` says how many
proposals are left.

Picking a baseline pattern as the focus (``set_focus_from_pattern``) sets the
cycle's focus behavior and ties the cycle's focus item's indicator to the
pattern, in one transaction that undo takes back.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta

from sqlalchemy import select

from db.models import Call, CoachingItem, CoachingSession, Cycle, FocusChange, Observation, Person
from db.store import Store
from desktop.core import cycles as method
from desktop.core.adoption import indicator_for, read_call
from desktop.core.enums import ObservationSource, SessionStatus, Seen
from desktop.core.timefmt import format_ms
from desktop.errors import CallmarkError, NotFound
from desktop.services import patterns
from desktop.services.changes import CYCLES, ITEMS, OBSERVATIONS, Change, change
from desktop.services.cycles import cycle_items, today
from desktop.services.lookup import one
from desktop.services.people import local_coach_person

__all__ = ["ProposedObservation", "proposed", "waiting", "confirm", "set_focus_from_pattern", "later_since"]

SEEN_WORDS = {Seen.YES: "seen", Seen.NO: "not seen", Seen.PARTIAL: "partly"}


@dataclass(frozen=True)
class ProposedObservation:
    item_id: int
    pattern: str
    call: int
    title: str
    rep: str | None
    recorded_on: date | None
    seen: Seen
    start_ms: int | None  # the moment that is the evidence (None: the pattern never came up)
    quote: str
    evidence: str
    fills: int | None  # the observation still to check ("next two recordings") this one fills

    @property
    def seen_label(self) -> str:
        return SEEN_WORDS[self.seen]

    def to_json(self) -> dict:
        return {"item": self.item_id, "pattern": self.pattern, "call": self.call, "title": self.title,
                "rep": self.rep, "recorded_on": self.recorded_on.isoformat() if self.recorded_on else None,
                "seen": str(self.seen), "start_ms": self.start_ms, "quote": self.quote,
                "evidence": self.evidence, "fills": self.fills}


def later_since(session, cycle: Cycle) -> date:
    """The first day a call counts as later: the day after the first held session, else day 31."""
    held = [s.held_date or s.planned_date for s in session.scalars(
        select(CoachingSession).where(CoachingSession.cycle_id == cycle.id,
                                      CoachingSession.status == SessionStatus.HELD))]
    if held:
        return min(held) + timedelta(days=1)
    return cycle.start_date + timedelta(days=method.Phase.COACH.days[0] - 1)


def _day(value) -> date | None:
    return value.date() if isinstance(value, datetime) else value


def _team_calls(session, cycle: Cycle, since: date, until: date) -> list[tuple]:
    """(id, title, rep, recorded day) of the manager's calls dated since..until, oldest first."""
    rows = session.execute(
        select(Call.id, Call.title, Person.name, Call.recorded_at)
        .outerjoin(Person, Person.id == Call.rep_id)
        .where(Call.manager_id == cycle.manager_id, Call.recorded_at.is_not(None),
               Call.recorded_at >= datetime.combine(since, datetime.min.time()),
               Call.recorded_at < datetime.combine(until + timedelta(days=1), datetime.min.time()))
        .order_by(Call.recorded_at, Call.id)).all()
    return [(i, t, r, _day(at)) for i, t, r, at in rows]


def _evidence(reading) -> str:
    if reading.evidence is None:
        return f"{reading.words()} (read from the calls)"
    return f"{format_ms(reading.evidence.start_ms)} {reading.words()}"


def proposed(store: Store, cycle_id: int, as_of: date | None = None, item_id: int | None = None
             ) -> list[ProposedObservation]:
    """The proposals waiting on a cycle's items (oldest call first), see the module."""
    as_of = as_of or today()
    with store.read() as session:
        cycle = one(session, Cycle, cycle_id)
        items = [i for i in cycle_items(session, cycle) if i.indicator_pattern
                 and (item_id is None or i.id == item_id)]
        if not items:
            return []
        since = later_since(session, cycle)
        until = min(as_of, method.cycle_end(cycle.start_date))
        calls = _team_calls(session, cycle, since, until)
        observed = {(o.item_id, o.call_id) for o in session.scalars(
            select(Observation).where(Observation.item_id.in_([i.id for i in items]),
                                      Observation.call_id.is_not(None)))}
        to_check = session.scalars(select(Observation).where(
            Observation.item_id.in_([i.id for i in items]), Observation.seen.is_(None),
            Observation.call_id.is_(None)).order_by(Observation.observed_on, Observation.id)).all()
        to_check = [(o.id, o.item_id, o.observed_on) for o in to_check]
        follows = patterns.follows(store)
        indicators = {i.id: indicator_for(i.indicator_pattern, follows) for i in items}
        item_ids = [i.id for i in items]
    wanted = {p for ind in indicators.values() for p in ind.patterns}
    found = patterns.hits(store, wanted, [c[0] for c in calls])
    out: list[ProposedObservation] = []
    for item_id_ in item_ids:
        ind = indicators[item_id_]
        waiting_to_check = [(oid, on) for oid, iid, on in to_check if iid == item_id_]
        for call_id, title, rep, day in calls:
            if (item_id_, call_id) in observed:
                continue
            reading = read_call(ind, found.get(call_id, []))
            if reading is None:
                continue  # the behavior had no occasion on this call
            # The next recording after the day "check the next two" was asked fills it.
            fills = next((oid for oid, on in waiting_to_check if day is not None and day > on), None)
            if fills is not None:
                waiting_to_check = [w for w in waiting_to_check if w[0] != fills]
            hit = reading.evidence
            out.append(ProposedObservation(item_id_, ind.pattern, call_id, title, rep, day, reading.seen,
                                           hit.start_ms if hit else None, hit.quote if hit else "",
                                           _evidence(reading), fills))
    return out


def waiting(store: Store, cycle_id: int, as_of: date | None = None, item_id: int | None = None) -> int:
    """How many proposals wait for the coach to confirm."""
    return len(proposed(store, cycle_id, as_of, item_id))


def _find(store: Store, cycle_id: int, item_id: int, call_id: int, as_of: date | None) -> ProposedObservation:
    for p in proposed(store, cycle_id, as_of, item_id):
        if p.call == call_id:
            return p
    raise NotFound(f"call {call_id}: no proposed observation for item {item_id} (already confirmed, "
                   f"not a later call of the team, or the behavior had no occasion on it)")


def confirm(store: Store, cycle_id: int, item_id: int, call_id: int, seen: Seen | str | None = None,
            as_of: date | None = None) -> Change:
    """Keep a proposal as an observation (``seen`` corrects what was proposed); undo takes it back."""
    from desktop.services.observations import _enum

    p = _find(store, cycle_id, item_id, call_id, as_of)
    seen = _enum(Seen, seen, "seen") or p.seen
    evidence = p.evidence if seen == p.seen else f"{p.evidence} — the coach heard: {SEEN_WORDS[seen]}"
    with store.write() as session:
        if p.fills is not None:
            obs = one(session, Observation, p.fills)
            before = (obs.seen, obs.call_id, obs.evidence, obs.observed_on, obs.start_ms)
        else:
            obs = Observation(item_id=item_id, cycle_id=cycle_id, source=ObservationSource.CALL)
            session.add(obs)
            before = None
        obs.seen, obs.call_id, obs.evidence = seen, call_id, evidence
        obs.observed_on, obs.start_ms = p.recorded_on or today(), p.start_ms
        session.flush()
        obs_id = obs.id

    def take_back(s: Store) -> Change:
        with s.write() as session:
            row = session.get(Observation, obs_id)
            if row is not None:
                if before is None:
                    session.delete(row)
                else:
                    row.seen, row.call_id, row.evidence, row.observed_on, row.start_ms = before
        return change("Undo confirm observation", OBSERVATIONS, call_id=call_id, ids=[obs_id],
                      undo=lambda s2: confirm(s2, cycle_id, item_id, call_id, seen, as_of))

    return change(f"Confirm observation: {SEEN_WORDS[seen]}", OBSERVATIONS, call_id=call_id, ids=[obs_id],
                  row=p, undo=take_back)


def _focus_item(session, cycle: Cycle) -> CoachingItem | None:
    """The item the cycle's focus is worked in: attached to the cycle, with the focus's pattern or
    behavior (else the first attached one) and no observation yet — an item already observed keeps its
    behavior (its evidence is about that one), and a new focus gets an item of its own."""
    observed = set(session.scalars(select(Observation.item_id).where(Observation.item_id.is_not(None))))
    attached = [i for i in session.scalars(select(CoachingItem).where(CoachingItem.cycle_id == cycle.id)
                                           .order_by(CoachingItem.id)) if i.id not in observed]
    for item in attached:
        if cycle.focus_pattern and item.indicator_pattern == cycle.focus_pattern:
            return item
    for item in attached:
        if cycle.focus_behavior and (item.behavior_text or "").strip() == cycle.focus_behavior:
            return item
    return attached[0] if attached else None


def set_focus_from_pattern(store: Store, cycle_id: int, pattern: str, behavior: str, indicator: str, *,
                           on: date | None = None, reason: str | None = None) -> Change:
    """The cycle's focus picked from a baseline pattern: its behavior and the focus item's indicator,
    tied to the pattern. The cycle's stability rules apply (a change from day 31 on needs a reason)."""
    from desktop.services.cycles import FocusLocked

    behavior, indicator, pattern = (behavior or "").strip(), (indicator or "").strip(), (pattern or "").strip()
    if not behavior:
        raise CallmarkError("the focus behavior is empty: write the one behavior to coach")
    if not patterns.is_pattern(store, pattern):
        raise NotFound(f"pattern {pattern!r}: not a detection label or tracker")
    on = on or today()
    with store.write() as session:
        cycle = one(session, Cycle, cycle_id)
        old_focus, old_pattern = cycle.focus_behavior, cycle.focus_pattern
        added = None
        if old_focus and old_focus != behavior:
            verdict = method.can_change_focus(cycle.start_date, on, reason)
            if not verdict.allowed:
                raise FocusLocked(verdict.message)
            if verdict.needs_reason:
                added = FocusChange(cycle_id=cycle.id, old_behavior=old_focus, new_behavior=behavior,
                                    reason=(reason or "").strip())
                session.add(added)
        item = _focus_item(session, cycle)
        made_item = item is None
        if made_item:
            item = CoachingItem(manager_id=cycle.manager_id, cycle_id=cycle.id,
                                coach_id=local_coach_person(session).id)
            session.add(item)
            old_item = None
        else:
            old_item = (item.behavior_text, item.indicator, item.indicator_pattern)
        cycle.focus_behavior, cycle.focus_pattern = behavior, pattern
        item.behavior_text, item.indicator, item.indicator_pattern = behavior, indicator, pattern
        session.flush()
        item_id = item.id
        change_ids = [added.id] if added is not None else []

    def take_back(s: Store) -> Change:
        with s.write() as session:
            cycle = one(session, Cycle, cycle_id)
            cycle.focus_behavior, cycle.focus_pattern = old_focus, old_pattern
            for fc in session.scalars(select(FocusChange).where(FocusChange.id.in_(change_ids))):
                session.delete(fc)
            row = session.get(CoachingItem, item_id)
            if row is not None:
                if made_item:
                    session.delete(row)
                else:
                    row.behavior_text, row.indicator, row.indicator_pattern = old_item
        return change("Undo focus from the baseline", CYCLES, ITEMS, ids=[cycle_id],
                      undo=lambda s2: set_focus_from_pattern(s2, cycle_id, pattern, behavior, indicator,
                                                             on=on, reason=reason or "redo"))

    return change("Focus from the baseline", CYCLES, ITEMS, ids=[cycle_id, item_id], row=item_id, undo=take_back)
