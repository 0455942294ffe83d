"""Observations after a session, and the review rule evaluated from them.

An observation says whether the chosen behavior appeared in later evidence: a
later call (linked to a moment in it), a pipeline review, or a role-play
(practice). `seen` is yes / no / partial, or None while it is still to check:
"check both of the next two recordings" creates two such pending observations.
Pending observations count nowhere until they are filled.

The review: `propose_review` applies the item's structured rule (or the
method's 2 of 2 for 2 weeks) to the item's filled observations
(desktop.core.review_rule.propose); `record_review` keeps the coach's decision
with what was proposed and the rationale.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from db.models import Call, CoachingItem, Cycle, Moment, Observation, Review
from db.store import Store
from desktop.core import cycles as method
from desktop.core import review_rule
from desktop.core.enums import ObservationSource, ReviewDecision, Seen
from desktop.errors import CallmarkError, NotFound
from desktop.services.cycles import parse_date, today
from desktop.services.lookup import one

__all__ = ["ObservationRow", "ReviewRow", "Comparison", "record", "fill", "delete",
           "check_next_two_recordings", "list_observations", "propose_review", "record_review",
           "list_reviews", "compare", "rule_of"]


@dataclass(frozen=True)
class ObservationRow:
    id: int
    item_id: int | None
    cycle_id: int | None
    source: ObservationSource
    call_id: int | None
    call_title: str | None
    moment_id: int | None
    observed_on: date
    seen: Seen | None
    evidence: str
    uses_customer_evidence: bool | None
    start_ms: int | None = None  # the moment in the call it was read at (a confirmed proposal)

    @property
    def pending(self) -> bool:
        return self.seen is None

    @property
    def seen_label(self) -> str:
        return {None: "to check", Seen.YES: "seen", Seen.NO: "not seen", Seen.PARTIAL: "partly"}[self.seen]

    def to_json(self) -> dict[str, Any]:
        out = dict(self.__dict__)
        out["observed_on"] = self.observed_on.isoformat()
        out["source"] = str(self.source)
        out["seen"] = None if self.seen is None else str(self.seen)
        return out


@dataclass(frozen=True)
class ReviewRow:
    id: int
    cycle_id: int | None
    item_id: int | None
    reviewed_on: date
    proposed: ReviewDecision | None
    decision: ReviewDecision
    rationale: str

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "cycle_id": self.cycle_id, "item_id": self.item_id,
                "reviewed_on": self.reviewed_on.isoformat(),
                "proposed": None if self.proposed is None else str(self.proposed),
                "decision": str(self.decision), "rationale": self.rationale}


def _row(o: Observation, titles: dict[int, str]) -> ObservationRow:
    return ObservationRow(o.id, o.item_id, o.cycle_id, o.source, o.call_id, titles.get(o.call_id),
                          o.moment_id, o.observed_on, o.seen, o.evidence or "",
                          o.uses_customer_evidence, o.start_ms)


def _titles(session: Session) -> dict[int, str]:
    return dict(session.execute(select(Call.id, Call.title)).all())


def _enum(enum_cls, value, what: str):
    if value is None or isinstance(value, enum_cls):
        return value
    text = str(value).strip().lower().replace("-", "_").replace(" ", "_")
    aliases = {"seen": "yes", "not_seen": "no", "partly": "partial", "pipeline": "pipeline_review",
               "roleplay": "role_play"}
    try:
        return enum_cls(aliases.get(text, text))
    except ValueError:
        choices = ", ".join(m.value for m in enum_cls)
        raise CallmarkError(f"{what} {value!r}: use one of {choices}") from None


def _cycle_of(session: Session, item: CoachingItem | None, cycle_id: int | None) -> int | None:
    if cycle_id is not None:
        if session.get(Cycle, cycle_id) is None:
            raise NotFound(f"cycle {cycle_id}: no such cycle")
        return cycle_id
    if item is None:
        return None
    if item.cycle_id is not None:
        return item.cycle_id
    # The manager's cycle covering today, so a loose item's evidence still counts for the cycle.
    on = today()
    for cycle in session.scalars(select(Cycle).where(Cycle.manager_id == item.manager_id)):
        if cycle.start_date <= on <= method.cycle_end(cycle.start_date):
            return cycle.id
    return None


def _link(session: Session, obs: Observation, call_id: int | None, moment_id: int | None) -> None:
    if moment_id is not None:
        moment = one(session, Moment, moment_id)
        if call_id is not None and call_id != moment.call_id:
            raise CallmarkError(f"moment {moment_id} is in call {moment.call_id}, not call {call_id}")
        obs.moment_id, obs.call_id = moment.id, moment.call_id
    elif call_id is not None:
        if session.get(Call, call_id) is None:
            raise NotFound(f"call {call_id}: no such call in this library")
        obs.call_id = call_id


def record(store: Store, *, source: ObservationSource | str, observed_on: date | str | None = None,
           seen: Seen | str | None = None, item_id: int | None = None, cycle_id: int | None = None,
           evidence: str = "", call_id: int | None = None, moment_id: int | None = None,
           uses_customer_evidence: bool | None = None) -> ObservationRow:
    """One observation of the behavior in later evidence (seen None: still to check)."""
    source = _enum(ObservationSource, source, "source")
    seen = _enum(Seen, seen, "seen")
    observed_on = parse_date(observed_on, "observed on") or today()
    if item_id is None and cycle_id is None:
        raise CallmarkError("an observation is about an item or a cycle: name one")
    with store.write() as session:
        item = None
        if item_id is not None:
            item = one(session, CoachingItem, item_id)
        obs = Observation(item_id=item_id, cycle_id=_cycle_of(session, item, cycle_id), source=source,
                          observed_on=observed_on, seen=seen, evidence=(evidence or "").strip(),
                          uses_customer_evidence=uses_customer_evidence)
        _link(session, obs, call_id, moment_id)
        session.add(obs)
        session.flush()
        return _row(obs, _titles(session))


_UNSET = object()


def fill(store: Store, observation_id: int, *, seen=_UNSET, evidence=_UNSET, observed_on=_UNSET,
         source=_UNSET, call_id=_UNSET, moment_id=_UNSET, uses_customer_evidence=_UNSET) -> ObservationRow:
    """Fill in (or correct) an observation: only the fields given change."""
    with store.write() as session:
        obs = session.get(Observation, observation_id)
        if obs is None:
            raise NotFound(f"observation {observation_id}: no such observation")
        if seen is not _UNSET:
            obs.seen = _enum(Seen, seen, "seen")
        if evidence is not _UNSET:
            obs.evidence = (evidence or "").strip()
        if observed_on is not _UNSET:
            obs.observed_on = parse_date(observed_on, "observed on") or obs.observed_on
        if source is not _UNSET:
            obs.source = _enum(ObservationSource, source, "source")
        if uses_customer_evidence is not _UNSET:
            obs.uses_customer_evidence = uses_customer_evidence
        if call_id is not _UNSET or moment_id is not _UNSET:
            obs.call_id = None if call_id is _UNSET else call_id
            obs.moment_id = None
            _link(session, obs, None if call_id is _UNSET else call_id,
                  None if moment_id is _UNSET else moment_id)
        session.flush()
        return _row(obs, _titles(session))


def delete(store: Store, observation_id: int) -> None:
    with store.write() as session:
        obs = session.get(Observation, observation_id)
        if obs is None:
            raise NotFound(f"observation {observation_id}: no such observation")
        session.delete(obs)


def check_next_two_recordings(store: Store, item_id: int, on: date | None = None) -> list[ObservationRow]:
    """The method's "check both of the next two recordings": two call observations to fill."""
    return [record(store, source=ObservationSource.CALL, observed_on=on, item_id=item_id,
                   evidence=f"Next recording {n} of 2: is the behavior there?") for n in (1, 2)]


def list_observations(store: Store, *, item_id: int | None = None, cycle_id: int | None = None,
                      pending: bool | None = None) -> list[ObservationRow]:
    """Observations of an item or a cycle, oldest first."""
    with store.read() as session:
        query = select(Observation)
        if item_id is not None:
            query = query.where(Observation.item_id == item_id)
        if cycle_id is not None:
            query = query.where(Observation.cycle_id == cycle_id)
        if pending is True:
            query = query.where(Observation.seen.is_(None))
        elif pending is False:
            query = query.where(Observation.seen.is_not(None))
        titles = _titles(session)
        rows = session.scalars(query.order_by(Observation.observed_on, Observation.id))
        return [_row(o, titles) for o in rows]


def rule_of(store: Store, item_id: int) -> review_rule.ContinueAfter | None:
    with store.read() as session:
        item = one(session, CoachingItem, item_id)
        if None in (item.continue_seen_in, item.continue_of_reviewed, item.continue_weeks_in_a_row):
            return None
        return review_rule.ContinueAfter(item.continue_seen_in, item.continue_of_reviewed,
                                         item.continue_weeks_in_a_row)


def _method(rows: list[ObservationRow], as_of: date | None) -> list[review_rule.Observation]:
    return [review_rule.Observation(r.observed_on, r.seen, r.source) for r in rows
            if r.seen is not None and (as_of is None or r.observed_on <= as_of)]


def propose_review(store: Store, item_id: int, as_of: date | None = None, *,
                   waiting: int | None = None) -> review_rule.Proposal:
    """Continue / adapt / replace (or not enough evidence yet), with the reason in plain words.
    `waiting`: the item's proposed observations, when the caller has read them already."""
    rule = rule_of(store, item_id)
    made = review_rule.propose(rule, _method(list_observations(store, item_id=item_id), as_of))
    if waiting is None:
        waiting = _waiting(store, item_id, as_of)
    if waiting:  # proposals count nowhere until confirmed; the coach is told they are there
        made = review_rule.Proposal(made.decision, f"{made.reason} ({waiting} proposed observation"
                                                   f"{'s' if waiting != 1 else ''} from later calls to confirm)")
    return made


def _waiting(store: Store, item_id: int, as_of: date | None) -> int:
    from desktop.services.adoption import waiting

    with store.read() as session:
        item = one(session, CoachingItem, item_id)
        if not item.indicator_pattern:
            return 0
        cycle_id = _cycle_of(session, item, None)
    return waiting(store, cycle_id, as_of, item_id) if cycle_id is not None else 0


def record_review(store: Store, item_id: int, decision: ReviewDecision | str, rationale: str = "",
                  on: date | str | None = None) -> ReviewRow:
    """The coach's decision, kept with what the app proposed and why the coach chose it."""
    decision = _enum(ReviewDecision, decision, "decision")
    if decision is None:
        raise CallmarkError("a review needs a decision: continue, adapt or replace")
    on = parse_date(on, "review date") or today()
    proposal = propose_review(store, item_id, on)
    rationale = (rationale or "").strip()
    if decision != proposal.decision and not rationale:
        raise CallmarkError(f"the app proposed {proposal.decision or 'waiting for more evidence'} "
                            f"({proposal.reason}); say why you decide {decision}")
    with store.write() as session:
        item = session.get(CoachingItem, item_id)
        review = Review(cycle_id=item.cycle_id, item_id=item_id, reviewed_on=on,
                        proposed=proposal.decision, decision=decision,
                        rationale=rationale or proposal.reason)
        session.add(review)
        session.flush()
        return ReviewRow(review.id, review.cycle_id, item_id, on, proposal.decision, decision,
                         review.rationale)


def list_reviews(store: Store, *, item_id: int | None = None, cycle_id: int | None = None) -> list[ReviewRow]:
    with store.read() as session:
        query = select(Review)
        if item_id is not None:
            query = query.where(Review.item_id == item_id)
        if cycle_id is not None:
            query = query.where(Review.cycle_id == cycle_id)
        return [ReviewRow(r.id, r.cycle_id, r.item_id, r.reviewed_on, r.proposed, r.decision,
                          r.rationale) for r in session.scalars(query.order_by(Review.reviewed_on, Review.id))]


@dataclass(frozen=True)
class Comparison:
    """The compare phase: the baseline beside the current evidence."""
    baseline_notes: str
    baseline: list[ObservationRow]  # observed in days 1–30 (baseline and choose)
    current: list[ObservationRow]  # observed from day 31 on
    baseline_seen: tuple[int, int]  # (seen, reviewed) of live evidence
    current_seen: tuple[int, int]


def _seen(rows: list[ObservationRow]) -> tuple[int, int]:
    live = [r for r in rows if r.source != ObservationSource.ROLE_PLAY and r.seen is not None]
    return sum(r.seen == Seen.YES for r in live), len(live)


def compare(store: Store, cycle_id: int, as_of: date | None = None) -> Comparison:
    from desktop.services.cycles import get_cycle

    cycle = get_cycle(store, cycle_id, as_of)
    split = cycle.start_date.toordinal() + method.Phase.COACH.days[0] - 1
    rows = [r for r in list_observations(store, cycle_id=cycle_id, pending=False)
            if as_of is None or r.observed_on <= as_of]
    before = [r for r in rows if r.observed_on.toordinal() < split]
    after = [r for r in rows if r.observed_on.toordinal() >= split]
    return Comparison(cycle.baseline_notes, before, after, _seen(before), _seen(after))
