"""The six leading indicators for one manager and one cycle, exactly as computed.

The caller passes the rows of one manager's cycle (a coaching tool, never a
leaderboard: there is no function here that compares managers). A row counts
when its date is on or before `as_of` (and on or after `since`, when given).
Each figure is numerator / denominator; value is None when the denominator is 0.

- coaching_frequency   = sessions held / sessions planned, where planned means
                         every session (held, missed or still planned) whose
                         planned date is on or before as_of; held means status
                         held among those.
- action_completion    = practice actions done / practice actions agreed
                         (by the date they were agreed).
- feedback_specificity = coaching items that pass the specificity check (no
                         error finding from specificity.check_item) / items
                         (by creation date; an item without one always counts
                         in cumulative figures and in no weekly window).
- inspection_quality   = (pipeline-review observations that use what the
                         customer said or CRM evidence + per-call CRM
                         next-step checks that found a customer-confirmed next
                         step) / (pipeline-review observations + CRM next-step
                         checks).
- behavior_adoption    = observations from later calls or pipeline reviews
                         where the behavior was seen ("yes") / all such
                         observations. "partial" counts in the denominator
                         only, as in the review rule; role-play observations
                         are practice, not adoption, and are left out.
- evidence_capture     = held sessions with an attached moment or example /
                         held sessions (the same sessions as coaching_frequency's
                         numerator).

`weekly_series` gives the figures for each week of the cycle (week 1 = days
1–7 from the start date), cumulative to the week's last day by default, or for
the week alone with cumulative=False.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

from desktop.core.cycles import CYCLE_DAYS
from desktop.core.enums import ObservationSource, Seen, SessionStatus
from desktop.core.specificity import ItemDraft, check_item, passes

__all__ = ["Figure", "Indicators", "SessionRow", "ActionRow", "ObservationRow", "CrmCheck",
           "IndicatorInputs", "compute", "weekly_series", "WeekPoint", "INDICATOR_KEYS"]

INDICATOR_KEYS = ("coaching_frequency", "action_completion", "feedback_specificity",
                  "inspection_quality", "behavior_adoption", "evidence_capture")


@dataclass(frozen=True)
class Figure:
    numerator: int
    denominator: int

    @property
    def value(self) -> float | None:
        return None if self.denominator == 0 else self.numerator / self.denominator

    def to_dict(self) -> dict[str, Any]:
        return {"value": self.value, "numerator": self.numerator, "denominator": self.denominator}


@dataclass(frozen=True)
class Indicators:
    coaching_frequency: Figure
    action_completion: Figure
    feedback_specificity: Figure
    inspection_quality: Figure
    behavior_adoption: Figure
    evidence_capture: Figure

    def to_dict(self) -> dict[str, dict[str, Any]]:
        return {key: getattr(self, key).to_dict() for key in INDICATOR_KEYS}


@dataclass(frozen=True)
class SessionRow:
    planned_on: date
    status: SessionStatus
    has_evidence: bool = False  # a moment or example attached to the session


@dataclass(frozen=True)
class ActionRow:
    agreed_on: date
    done: bool


@dataclass(frozen=True)
class ObservationRow:
    on: date
    seen: Seen
    source: ObservationSource
    uses_customer_evidence: bool = False  # pipeline reviews: used what the customer said or the CRM


@dataclass(frozen=True)
class CrmCheck:
    """One call's check that a customer-confirmed next step is in the CRM."""
    on: date
    next_step_confirmed: bool


@dataclass
class IndicatorInputs:
    sessions: Sequence[SessionRow] = field(default_factory=list)
    actions: Sequence[ActionRow] = field(default_factory=list)
    items: Sequence[ItemDraft] = field(default_factory=list)
    observations: Sequence[ObservationRow] = field(default_factory=list)
    crm_checks: Sequence[CrmCheck] = field(default_factory=list)


def _in(day: date | None, since: date | None, as_of: date, undated_counts: bool) -> bool:
    if day is None:
        return undated_counts
    return day <= as_of and (since is None or day >= since)


def compute(inputs: IndicatorInputs, as_of: date, since: date | None = None,
            item_passes: Sequence[bool] | None = None) -> Indicators:
    """The six figures for rows dated in [since, as_of]; see the module doc for each definition.

    item_passes, when given, is the specificity verdict for each item (saves re-checking).
    """
    sessions = [s for s in inputs.sessions if _in(s.planned_on, since, as_of, False)]
    held = [s for s in sessions if s.status == SessionStatus.HELD]
    actions = [a for a in inputs.actions if _in(a.agreed_on, since, as_of, False)]
    verdicts = list(item_passes) if item_passes is not None else \
        [passes(check_item(item)) for item in inputs.items]
    if len(verdicts) != len(inputs.items):
        raise ValueError("item_passes needs one verdict per item")
    items = [ok for item, ok in zip(inputs.items, verdicts)
             if _in(item.created_on, since, as_of, since is None)]
    observations = [o for o in inputs.observations if _in(o.on, since, as_of, False)]
    reviews = [o for o in observations if o.source == ObservationSource.PIPELINE_REVIEW]
    live = [o for o in observations
            if o.source in (ObservationSource.CALL, ObservationSource.PIPELINE_REVIEW)]
    checks = [c for c in inputs.crm_checks if _in(c.on, since, as_of, False)]
    return Indicators(
        coaching_frequency=Figure(len(held), len(sessions)),
        action_completion=Figure(sum(a.done for a in actions), len(actions)),
        feedback_specificity=Figure(sum(items), len(items)),
        inspection_quality=Figure(
            sum(o.uses_customer_evidence for o in reviews) + sum(c.next_step_confirmed for c in checks),
            len(reviews) + len(checks)),
        behavior_adoption=Figure(sum(o.seen == Seen.YES for o in live), len(live)),
        evidence_capture=Figure(sum(s.has_evidence for s in held), len(held)),
    )


@dataclass(frozen=True)
class WeekPoint:
    week: int  # 1 = days 1–7 of the cycle
    first_day: date
    last_day: date
    indicators: Indicators

    def to_dict(self) -> dict[str, Any]:
        return {"week": self.week, "first_day": self.first_day.isoformat(),
                "last_day": self.last_day.isoformat(), **self.indicators.to_dict()}


def weekly_series(start: date, inputs: IndicatorInputs, through: date | None = None,
                  cumulative: bool = True) -> list[WeekPoint]:
    """One point per cycle week from the start date up to `through` (default: the cycle's end)."""
    last = start + timedelta(days=CYCLE_DAYS - 1)
    through = min(through or last, last)
    verdicts = [passes(check_item(item)) for item in inputs.items]  # check each item once
    points = []
    week = 1
    first_day = start
    while first_day <= through:
        last_day = min(first_day + timedelta(days=6), last)
        figures = compute(inputs, as_of=last_day, since=None if cumulative else first_day,
                          item_passes=verdicts)
        points.append(WeekPoint(week, first_day, last_day, figures))
        week += 1
        first_day += timedelta(days=7)
    return points
