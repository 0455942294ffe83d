"""The six leading indicators for one manager's cycle, from the store.

This module only gathers rows; the figures are defined and computed in
desktop.core.indicators (read its docstring for each definition). What goes in,
for one cycle:
- sessions:     every session of the cycle (planned date, status, and whether a
                moment or an example is attached);
- actions:      each held session that agreed a practice action, dated on the
                day it was held, done when the coach marked it done;
- items:        the cycle's coaching items (attached to it, or the manager's
                unattached items created between its start and end), checked
                for specificity, dated by creation;
- observations: the cycle's filled observations (pending ones count nowhere);
- crm_checks:   the manager's per-call next-step checks from
                desktop.services.crm.crm_checks (calls linked to an opportunity,
                conclusive checks only, dated by the call), inside the cycle.
One manager at a time: nothing here compares managers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from sqlalchemy import or_, select

from db.models import CoachingSession, Cycle, Observation
from db.store import Store
from desktop.core import cycles as method
from desktop.core import indicators as core
from desktop.core.enums import SessionStatus
from desktop.core.quality import QualityCheck, review_item
from desktop.core.review_rule import Observation as MethodObservation
from desktop.core.review_rule import Proposal
from desktop.services import items as item_service
from desktop.services.cycles import CycleRow, cycle_items, get_cycle, resolve_cycle, today
from desktop.services.lookup import one

__all__ = ["ItemQuality", "IndicatorReport", "inputs_for", "report", "crm_checks_for"]


@dataclass(frozen=True)
class ItemQuality:
    item_id: int
    title: str
    checks: list[QualityCheck]
    proposal: Proposal

    def to_json(self) -> dict[str, Any]:
        return {"item_id": self.item_id, "title": self.title,
                "checks": [c.to_dict() for c in self.checks], "proposal": self.proposal.to_dict()}


@dataclass(frozen=True)
class IndicatorReport:
    cycle: CycleRow
    as_of: date
    indicators: core.Indicators
    series: list[core.WeekPoint]  # cumulative to each week's last day
    quality: list[ItemQuality]
    each_week: list[core.WeekPoint] = field(default_factory=list)  # each week alone
    # Observations proposed from later calls and not confirmed yet: they count nowhere until they are.
    proposals_waiting: int = 0

    def to_json(self, *, full: bool = False) -> dict[str, Any]:
        """The six figures (exactly the six keys); with full=True also the cycle, weeks and checklist."""
        figures = self.indicators.to_dict()
        if not full:
            return figures
        return {"manager": self.cycle.manager, "cycle_id": self.cycle.id, "as_of": self.as_of.isoformat(),
                "indicators": figures, "weeks": [p.to_dict() for p in self.series],
                "quality": [q.to_json() for q in self.quality], "proposals_waiting": self.proposals_waiting}


def _attr(obj, *names, default=None):
    for name in names:
        if isinstance(obj, dict) and name in obj:
            return obj[name]
        if hasattr(obj, name):
            return getattr(obj, name)
    return default


def crm_checks_for(store: Store, cycle: CycleRow) -> list[core.CrmCheck]:
    """The manager's per-call next-step checks from the CRM service, dated inside the cycle."""
    try:
        from desktop.services import crm
    except ImportError:
        return []
    if hasattr(crm, "crm_checks"):  # already conclusive checks dated by the call
        found = crm.crm_checks(store, manager=cycle.manager)
    else:
        found = []
        for check in getattr(crm, "inspection_checks", lambda *_a, **_k: [])(store, manager=cycle.manager):
            on = _attr(check, "on", "checked_on", "date", "recorded_on")
            ok = _attr(check, "next_step_confirmed", "confirmed", "recorded")
            if isinstance(on, datetime):
                on = on.date()
            if isinstance(on, date) and ok is not None:
                found.append(core.CrmCheck(on, bool(ok)))
    return [c for c in found if cycle.start_date <= c.on <= cycle.end_date]


def inputs_for(store: Store, cycle_id: int) -> tuple[core.IndicatorInputs, list[item_service.ItemRow]]:
    """The cycle's rows as desktop.core.indicators reads them (see the module doc)."""
    cycle_row = get_cycle(store, cycle_id)
    with store.read() as session:
        cycle = one(session, Cycle, cycle_id)
        sessions = list(session.scalars(select(CoachingSession).where(CoachingSession.cycle_id == cycle_id)))
        item_ids = [i.id for i in cycle_items(session, cycle)]
        obs = list(session.scalars(select(Observation).where(
            or_(Observation.cycle_id == cycle_id, Observation.item_id.in_(item_ids) if item_ids else False),
            Observation.seen.is_not(None)).order_by(Observation.observed_on, Observation.id)))
    rows = [item_service.get_item(store, i) for i in item_ids]
    inputs = core.IndicatorInputs(
        # A held session counts on the day it was held (held early or late), the others when planned.
        sessions=[core.SessionRow(s.held_date if s.status == SessionStatus.HELD and s.held_date else s.planned_date,
                                  s.status,
                                  s.moment_id is not None or bool((s.example or "").strip()))
                  for s in sessions],
        actions=[core.ActionRow(s.held_date or s.planned_date, s.action_done is True) for s in sessions
                 if s.status == SessionStatus.HELD and (s.practice_action or "").strip()],
        items=[item_service.draft(r) for r in rows],
        observations=[core.ObservationRow(o.observed_on, o.seen, o.source, bool(o.uses_customer_evidence))
                      for o in obs],
        crm_checks=crm_checks_for(store, cycle_row),
    )
    return inputs, rows


def _quality(store: Store, rows: list[item_service.ItemRow], as_of: date,
             waiting: dict[int, int] | None = None) -> list[ItemQuality]:
    """waiting: the proposed observations of each item, read once for the whole cycle."""
    from desktop.services import observations as obs_service

    out = []
    with store.read() as session:
        linked = list(session.execute(select(CoachingSession.item_id, CoachingSession.action_done,
                                             CoachingSession.practice_action)
                                      .where(CoachingSession.status == SessionStatus.HELD)))
    for row in rows:
        seen = [MethodObservation(o.observed_on, o.seen, o.source)
                for o in obs_service.list_observations(store, item_id=row.id, pending=False)
                if o.observed_on <= as_of]
        actions = [done for item_id, done, action in linked if item_id == row.id and (action or "").strip()]
        if row.practice_done:
            done = True
        elif actions:
            done = any(a is True for a in actions)
        else:
            done = None
        checks = review_item(item_service.draft(row), observations=seen, actions_done=done, today=as_of)
        out.append(ItemQuality(row.id, row.title, checks, obs_service.propose_review(
            store, row.id, as_of, waiting=None if waiting is None else waiting.get(row.id, 0))))
    return out


def report(store: Store, manager: str | None = None, cycle_id: int | None = None,
           as_of: date | None = None) -> IndicatorReport:
    """The six figures as of a date, the week-by-week series and each item's quality checklist."""
    as_of = as_of or today()
    cycle = resolve_cycle(store, manager, cycle_id, as_of)
    inputs, rows = inputs_for(store, cycle.id)
    figures = core.compute(inputs, as_of)
    through = min(as_of, method.cycle_end(cycle.start_date))
    started = through >= cycle.start_date
    series = core.weekly_series(cycle.start_date, inputs, through=through) if started else []
    each = core.weekly_series(cycle.start_date, inputs, through=through, cumulative=False) if started else []
    from collections import Counter

    from desktop.services.adoption import proposed

    waiting = Counter(p.item_id for p in proposed(store, cycle.id, as_of))  # the team's later calls, read once
    return IndicatorReport(cycle, as_of, figures, series, _quality(store, rows, as_of, waiting), each,
                           sum(waiting.values()))

