"""The review rule evaluated: propose continue, adapt or replace, with the reason in plain words.

The item's structured rule reads "continue after seen in N of M reviewed
recordings, K weeks in a row" (record-format.md `continue_after`). Without one,
the method's own example is used: seen in 2 of 2, 2 weeks in a row.

Definitions, applied in this order:
- Live evidence is an observation from a call or a pipeline review; role-play
  observations are practice, not adoption. Only "yes" counts as seen
  ("partial" counts as reviewed, not seen).
- Live observations are grouped by ISO week (Monday to Sunday). A week *meets*
  the rule when at least M live observations were reviewed in it and the share
  seen is at least N/M (seen x M >= N x reviewed).
- 1. Nothing live reviewed and no role-play: no proposal, "not enough evidence yet".
- 2. continue: the latest week with live evidence and the K-1 calendar weeks
     before it all meet the rule. A latest week with fewer than M reviewed is
     still in progress and is left out (the run then ends the week before).
- 3. adapt (the practice): role-play went well (at least one role-play, at least
     half of them seen) while live evidence, with at least M reviewed, falls
     short of N/M: "practised well in role-play but missing in live calls".
- 4. Fewer than M x K live observations reviewed (what the rule needs to earn a
     continue), or no week with M reviewed has failed the rule yet (the weeks
     met it but not K in a row): no proposal, "not enough evidence yet".
- 5. replace: with that much evidence the behavior was never seen, not even
     partly: the evidence points somewhere else, choose a different behavior.
- 6. adapt: otherwise it appears sometimes, but not N of M for K weeks in a row.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, timedelta

from desktop.core.enums import ObservationSource, ReviewDecision, Seen
from desktop.errors import CallmarkError

__all__ = ["ContinueAfter", "Observation", "Proposal", "WeekTally", "propose", "weekly_tally",
           "METHOD_RULE", "ReviewRuleError"]


class ReviewRuleError(CallmarkError, ValueError):
    """A structured review rule that cannot be applied (e.g. 3 of 2)."""


@dataclass(frozen=True)
class ContinueAfter:
    seen_in: int
    of_reviewed: int
    weeks_in_a_row: int

    def __post_init__(self) -> None:
        if not (1 <= self.seen_in <= self.of_reviewed) or self.weeks_in_a_row < 1:
            raise ReviewRuleError(
                f"review rule 'seen in {self.seen_in} of {self.of_reviewed}, "
                f"{self.weeks_in_a_row} weeks in a row' is not valid: need 1 <= N <= M and K >= 1")


METHOD_RULE = ContinueAfter(2, 2, 2)


@dataclass(frozen=True)
class Observation:
    on: date
    seen: Seen
    source: ObservationSource


@dataclass(frozen=True)
class WeekTally:
    monday: date  # the ISO week's Monday
    reviewed: int
    seen: int
    partial: int
    sources: frozenset[ObservationSource]

    @property
    def iso_week(self) -> tuple[int, int]:
        year, week, _ = self.monday.isocalendar()
        return year, week

    def meets(self, rule: ContinueAfter) -> bool:
        return (self.reviewed >= rule.of_reviewed
                and self.seen * rule.of_reviewed >= rule.seen_in * self.reviewed)


@dataclass(frozen=True)
class Proposal:
    decision: ReviewDecision | None  # None: not enough evidence yet
    reason: str

    def to_dict(self) -> dict[str, str | None]:
        return {"decision": None if self.decision is None else str(self.decision),
                "reason": self.reason}


_LIVE = (ObservationSource.CALL, ObservationSource.PIPELINE_REVIEW)


def weekly_tally(observations: Sequence[Observation]) -> list[WeekTally]:
    """Live observations counted per ISO week, oldest first."""
    weeks: dict[date, list[Observation]] = {}
    for o in observations:
        if o.source in _LIVE:
            weeks.setdefault(o.on - timedelta(days=o.on.weekday()), []).append(o)
    return [WeekTally(monday, len(obs), sum(o.seen == Seen.YES for o in obs),
                      sum(o.seen == Seen.PARTIAL for o in obs),
                      frozenset(o.source for o in obs))
            for monday, obs in sorted(weeks.items())]


def _noun(sources: set[ObservationSource]) -> str:
    if sources == {ObservationSource.CALL}:
        return "recordings"
    if sources == {ObservationSource.PIPELINE_REVIEW}:
        return "pipeline reviews"
    return "recordings and pipeline reviews"


def _weeks(k: int) -> str:
    return "1 week" if k == 1 else f"{k} weeks"


def propose(rule: ContinueAfter | None, observations: Sequence[Observation]) -> Proposal:
    """Continue / adapt / replace (or not enough evidence yet) with the reason; see module doc."""
    rule = rule or METHOD_RULE
    n, m, k = rule.seen_in, rule.of_reviewed, rule.weeks_in_a_row
    tally = weekly_tally(observations)
    live_reviewed = sum(w.reviewed for w in tally)
    live_seen = sum(w.seen for w in tally)
    live_partial = sum(w.partial for w in tally)
    noun = _noun({s for w in tally for s in w.sources}) if tally else "recordings"
    role_plays = [o for o in observations if o.source == ObservationSource.ROLE_PLAY]
    role_play_seen = sum(o.seen == Seen.YES for o in role_plays)

    if not tally and not role_plays:
        return Proposal(None, f"not enough evidence yet: no recordings or pipeline reviews "
                              f"checked (the rule needs {n} of {m} for {_weeks(k)} in a row)")

    # The run of consecutive calendar weeks ending at the latest week, each meeting the rule.
    # A latest week with fewer than M reviewed is still in progress: the run ends before it.
    complete = tally[:-1] if tally and tally[-1].reviewed < m else tally
    run: list[WeekTally] = []
    for week in reversed(complete):
        if run and run[-1].monday - week.monday != timedelta(days=7):
            break
        if not week.meets(rule):
            break
        run.append(week)
    if len(run) >= k:
        counted = run[:k]
        run_noun = _noun({s for w in counted for s in w.sources})
        if len({(w.seen, w.reviewed) for w in counted}) == 1:
            return Proposal(ReviewDecision.CONTINUE,
                            f"seen in {counted[0].seen} of {counted[0].reviewed} {run_noun} for "
                            f"{_weeks(k)}: continue")
        return Proposal(ReviewDecision.CONTINUE,
                        f"seen in {sum(w.seen for w in counted)} of "
                        f"{sum(w.reviewed for w in counted)} {run_noun} over {_weeks(k)} in a "
                        f"row: continue")

    live_short = live_seen * m < n * live_reviewed
    if role_plays and role_play_seen * 2 >= len(role_plays) and role_play_seen >= 1 \
            and live_reviewed >= m and live_short:
        return Proposal(ReviewDecision.ADAPT,
                        f"practised well in role-play ({role_play_seen} of {len(role_plays)}) but "
                        f"missing in live calls ({live_seen} of {live_reviewed} {noun}): "
                        f"adapt the practice")

    any_week_failed = any(w.reviewed >= m and not w.meets(rule) for w in tally)
    if live_reviewed < m * k or not any_week_failed:
        progress = f"{len(run)} of {k} weeks met so far, " if run else ""
        return Proposal(None, f"not enough evidence yet: {progress}seen in {live_seen} of "
                              f"{live_reviewed} {noun}; the rule needs {n} of {m} for "
                              f"{_weeks(k)} in a row")

    if live_seen == 0 and live_partial == 0:
        return Proposal(ReviewDecision.REPLACE,
                        f"not seen in any of {live_reviewed} {noun}: the evidence points "
                        f"somewhere else, replace the behavior")

    partly = f" (partly in {live_partial} more)" if live_partial else ""
    return Proposal(ReviewDecision.ADAPT,
                    f"seen in {live_seen} of {live_reviewed} {noun}{partly}, short of {n} of {m} "
                    f"for {_weeks(k)} in a row: adapt the practice")
