"""Was a customer-confirmed next step with a date recorded after the call?

The method asks the coach to "check that the customer-confirmed next step is
recorded in Salesforce". Callmark sees the CRM only through imports, so the
check reads the opportunity's history of next-step values, each as of the
import that brought it: the next step passes when a value seen after the call
differs from the last one seen before it and carries a date.

When no import predates the call there is nothing to compare with, and when
none follows it there is nothing to look at yet: both are inconclusive, and an
indicator should leave them out rather than count them as misses.

An export can also be silent: one without a Next step column says nothing
about next steps (its values are not in the comparison), and one without a
Last Modified Date column dates a change only by the import that found it, so
a change found after the call may have been made before it: both are "can't
tell", never a conclusive "not recorded".
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime


@dataclass(frozen=True)
class NextStepValue:
    """The opportunity's next step as of one import (or CRM modification time)."""

    as_of: date | datetime
    next_step: str | None
    next_step_date: date | None = None
    #: False when the export that gave this value had no Next step column
    known: bool = True
    #: False when `as_of` is the import's time, not the CRM's Last Modified Date
    crm_time: bool = True

    @property
    def key(self) -> tuple[str, date | None]:
        return (" ".join((self.next_step or "").split()).casefold(), self.next_step_date)


@dataclass(frozen=True)
class NextStepCheck:
    recorded: bool
    reason: str
    #: the value that passed, or the one the reason talks about
    value: NextStepValue | None = None
    #: False when the history can't tell (no import before or after the call)
    conclusive: bool = True


def _day(value: date | datetime) -> date:
    return value.date() if isinstance(value, datetime) else value


def _after(as_of: date | datetime, call_at: date | datetime) -> bool:
    # Compare instants when both are instants of the same kind; otherwise days,
    # and a value dated the call's own day counts as before it (it may predate the call).
    if (isinstance(as_of, datetime) and isinstance(call_at, datetime)
            and (as_of.tzinfo is None) == (call_at.tzinfo is None)):
        return as_of > call_at
    return _day(as_of) > _day(call_at)


def _describe(v: NextStepValue) -> str:
    text = repr(v.next_step) if v.next_step else "no next step"
    when = f" dated {v.next_step_date.isoformat()}" if v.next_step_date else " with no date"
    return f"{text}{when}"


def check_next_step_recorded(call_at: date | datetime,
                             history: Iterable[NextStepValue]) -> NextStepCheck:
    """Check one call against its opportunity's next-step history."""
    every = sorted(history, key=lambda v: (_day(v.as_of), str(v.as_of)))
    values = [v for v in every if v.known]
    before = [v for v in values if not _after(v.as_of, call_at)]
    after = [v for v in values if _after(v.as_of, call_at)]
    call_day = _day(call_at).isoformat()
    if not values and every:
        return NextStepCheck(False, "can't tell — this export has no Next step column", None, False)
    if not values:
        return NextStepCheck(False, "the opportunity has no imported next step yet", None, False)
    if not after and any(_after(v.as_of, call_at) for v in every):
        last = values[-1]
        return NextStepCheck(False, "can't tell — the export imported after the call has no "
                             f"Next step column; the latest with one, from "
                             f"{_day(last.as_of).isoformat()}, has {_describe(last)}", last, False)
    if not after:
        last = values[-1]
        return NextStepCheck(False, f"no CRM import after the call on {call_day} yet; the "
                             f"latest, from {_day(last.as_of).isoformat()}, has "
                             f"{_describe(last)}", last, False)
    if not before:
        first = after[0]
        return NextStepCheck(False, f"no CRM import from before the call on {call_day}, so "
                             "a change after it can't be shown; the first import, from "
                             f"{_day(first.as_of).isoformat()}, has {_describe(first)}",
                             first, False)
    baseline = before[-1]
    changed = [v for v in after if v.key != baseline.key and v.next_step]
    dated = [v for v in changed if v.next_step_date]
    if changed and not changed[0].crm_time:
        v = changed[0]
        return NextStepCheck(False, f"can't tell — the next step changed to {_describe(v)} "
                             f"between the imports of {_day(baseline.as_of).isoformat()} and "
                             f"{_day(v.as_of).isoformat()}, but this export has no Last Modified "
                             "Date column, so the change may predate the call", v, False)
    if dated:
        v = dated[0]
        return NextStepCheck(True, f"the next step changed after the call: "
                             f"{_describe(v)} as of {_day(v.as_of).isoformat()} "
                             f"(before: {_describe(baseline)})", v)
    if changed:
        v = changed[0]
        return NextStepCheck(False, f"the next step changed after the call to "
                             f"{_describe(v)} as of {_day(v.as_of).isoformat()}, but it "
                             "has no date the customer confirmed", v)
    latest = after[-1]
    return NextStepCheck(False, f"the next step has not changed since before the call on "
                         f"{call_day}: still {_describe(baseline)} as of "
                         f"{_day(latest.as_of).isoformat()}", latest)


def recorded_share(checks: Iterable[NextStepCheck]) -> float | None:
    """Share of conclusive checks that passed (None when none is conclusive)."""
    conclusive = [c for c in checks if c.conclusive]
    if not conclusive:
        return None
    return sum(c.recorded for c in conclusive) / len(conclusive)
