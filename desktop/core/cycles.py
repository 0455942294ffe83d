"""The 90-day coaching cycle: its phase on a given date, its weekly sessions, its stable focus.

Day 1 is the cycle's start date. The method's phases:
- baseline  days 1–15
- choose    days 16–30
- coach     days 31–75 (coach weekly around the behavior)
- compare   days 76–90
Before day 1 the cycle has not started; after day 90 it has ended.

The focus behavior is chosen in the choose phase and then stays stable: from
day 31 to day 90 changing it needs a reason (which the store records); other
observations are parked for the next cycle.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from enum import StrEnum

from desktop.errors import CallmarkError

__all__ = ["Phase", "CYCLE_DAYS", "day_of_cycle", "phase_on", "plan_sessions", "FocusChange",
           "can_change_focus", "cycle_end", "CycleError"]

CYCLE_DAYS = 90


class CycleError(CallmarkError, ValueError):
    """A cycle date or cadence that makes no sense."""


class Phase(StrEnum):
    NOT_STARTED = "not_started"
    BASELINE = "baseline"
    CHOOSE = "choose"
    COACH = "coach"
    COMPARE = "compare"
    ENDED = "ended"

    @property
    def days(self) -> tuple[int, int] | None:
        """First and last day of the phase (day 1 = start date); None outside the cycle."""
        return _DAYS.get(self)

    @property
    def label(self) -> str:
        return _LABELS[self]

    @property
    def asks(self) -> str:
        """What the phase asks of the coach, in the method's words."""
        return _ASKS[self]


_DAYS = {Phase.BASELINE: (1, 15), Phase.CHOOSE: (16, 30), Phase.COACH: (31, 75),
         Phase.COMPARE: (76, 90)}
_LABELS = {
    Phase.NOT_STARTED: "Not started",
    Phase.BASELINE: "Baseline (days 1–15)",
    Phase.CHOOSE: "Choose (days 16–30)",
    Phase.COACH: "Coach weekly (days 31–75)",
    Phase.COMPARE: "Compare (days 76–90)",
    Phase.ENDED: "Ended",
}
_ASKS = {
    Phase.NOT_STARTED: "The cycle starts on its start date; until then, keep parking what you notice.",
    Phase.BASELINE: (
        "Build the baseline, meaning the starting point you'll compare against. Review calls, "
        "pipeline reviews, 1:1s and next-step fields in Salesforce, and look for the same "
        "behavior across several examples before turning it into a coaching priority."),
    Phase.CHOOSE: (
        "Choose one observable management behavior. Agree on the practice, owner, cadence, "
        "indicator and the rule you'll use to review progress."),
    Phase.COACH: (
        "Coach around the behavior every week. Bring a real moment from Zoom or Microsoft "
        "Teams, the relevant CRM evidence and the manager's notes into the conversation. "
        "Finish each session with one practice action, one owner and one place where you'll "
        "look for evidence."),
    Phase.COMPARE: (
        "Compare what you're seeing now with the baseline. Then decide whether to continue "
        "the behavior, adjust the practice or choose a new coaching focus."),
    Phase.ENDED: (
        "The cycle is over: start the next one from the parked observations and what the "
        "comparison showed."),
}


def day_of_cycle(start: date, day: date) -> int:
    """1 on the start date; 0 or less before it."""
    return (day - start).days + 1


def cycle_end(start: date) -> date:
    """The last day of the cycle (day 90)."""
    return start + timedelta(days=CYCLE_DAYS - 1)


def phase_on(start: date, day: date) -> Phase:
    n = day_of_cycle(start, day)
    if n < 1:
        return Phase.NOT_STARTED
    for phase, (first, last) in _DAYS.items():
        if first <= n <= last:
            return phase
    return Phase.ENDED


def plan_sessions(start: date, weekday: int | None = None, cadence_days: int = 7) -> list[date]:
    """Planned session dates covering the coach-weekly phase (days 31–75).

    The first session falls on day 31, or on the first `weekday` (0 = Monday ...
    6 = Sunday, as date.weekday()) from day 31 on; then one every `cadence_days`
    while the date is still inside day 75.
    """
    if cadence_days < 1:
        raise CycleError(f"the cadence must be at least one day, got {cadence_days}")
    if weekday is not None and not 0 <= weekday <= 6:
        raise CycleError(f"weekday must be 0 (Monday) to 6 (Sunday), got {weekday}")
    first_day, last_day = Phase.COACH.days  # type: ignore[misc]
    first = start + timedelta(days=first_day - 1)
    last = start + timedelta(days=last_day - 1)
    if weekday is not None:
        first += timedelta(days=(weekday - first.weekday()) % 7)
    sessions = []
    current = first
    while current <= last:
        sessions.append(current)
        current += timedelta(days=cadence_days)
    return sessions


@dataclass(frozen=True)
class FocusChange:
    allowed: bool
    needs_reason: bool
    message: str


def can_change_focus(start: date, on: date, reason: str | None = None) -> FocusChange:
    """May the focus behavior change on this date? Inside the cycle after choose, only with a reason."""
    phase = phase_on(start, on)
    if phase in (Phase.NOT_STARTED, Phase.BASELINE, Phase.CHOOSE, Phase.ENDED):
        return FocusChange(True, False, f"{phase.label}: the focus behavior can be set freely.")
    if reason and reason.strip():
        return FocusChange(True, True, "Focus changed inside the cycle; the reason is recorded.")
    return FocusChange(
        False, True,
        f"{phase.label}: the behavior stays stable during the cycle. Give a reason to change it, "
        "or park the new observation for later.")
