"""Adoption read from a call: was the cycle's behavior seen, not seen or partly seen?

An indicator tied to a pattern (a detection label, later a tracker) reads a
call's hits in three parts:
- *occasions*: where the behavior was called for (the customer defers);
- *misses*: where the rep did the old thing (the rep accepts the deferral);
- *goods*: where the rep did the new thing outright (a next step with a date).

On one call: handled = goods + occasions not followed by a miss.
- nothing handled and no miss: no occasion, nothing to propose;
- handled and no miss: **seen** (the first handled moment is the evidence);
- misses and nothing handled: **not seen** (the first miss is the evidence);
- both: **partly** (the first miss is the evidence: what to bring to the session).
A pattern the coach wants more of and that has no miss of its own (a tracker
"Next step with a date", the label `economic_buyer`) is *seen* where it hits
and *not seen* on a call without it (``absent_is_miss``).

Picking a pattern as the cycle's focus proposes a behavior from the behavior
library and an indicator worded from the pattern; the coach edits both.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from desktop.core.behaviors import SEED
from desktop.core.enums import Seen

__all__ = ["Hit", "Reading", "PatternIndicator", "indicator_for", "read_call", "proposed_focus"]


@dataclass(frozen=True)
class Hit:
    """One place a pattern matched in a call."""

    pattern: str  # the label (or tracker) that matched
    start_ms: int
    end_ms: int
    speaker: str | None
    quote: str


@dataclass(frozen=True)
class PatternIndicator:
    pattern: str
    occasions: tuple[str, ...] = ()
    misses: tuple[str, ...] = ()
    goods: tuple[str, ...] = ()
    absent_is_miss: bool = False
    behavior: str = ""
    indicator: str = ""

    @property
    def patterns(self) -> tuple[str, ...]:
        """Every pattern whose hits this indicator reads."""
        return tuple(dict.fromkeys((*self.occasions, *self.misses, *self.goods)))


_DEFERRAL = SEED[1]
_NEXT_STEP = SEED[0]

# What each pattern, picked as a focus, proposes (the method's wording first: the behavior library).
INDICATORS: dict[str, PatternIndicator] = {p.pattern: p for p in (
    PatternIndicator("deferral_accepted", occasions=("deferral",), misses=("deferral_accepted",),
                     behavior=_DEFERRAL,
                     indicator="When the customer defers, the rep asks what they will review and who else is "
                               "involved instead of accepting (read from the detector: deferral accepted)"),
    PatternIndicator("deferral", occasions=("deferral",), misses=("deferral_accepted",), behavior=_DEFERRAL,
                     indicator="Deferrals answered with a question about what will be reviewed and who is "
                               "involved, not accepted (read from the detector: deferral accepted)"),
    PatternIndicator("next_step_vague", misses=("next_step_vague",), goods=("next_step_confirmed",),
                     behavior="Before the call ends, ask the customer to agree a next step with a date.",
                     indicator="Calls that end on a next step with a date, not a vague one "
                               "(read from the detectors: next step confirmed / vague)"),
    PatternIndicator("next_step_confirmed", misses=("next_step_vague",), goods=("next_step_confirmed",),
                     absent_is_miss=True, behavior=_NEXT_STEP,
                     indicator="A next step with a date confirmed by the customer on each call "
                               "(read from the detector: next step confirmed)"),
    PatternIndicator("missed_follow_up", occasions=("economic_buyer", "pain", "objection"),
                     misses=("missed_follow_up",),
                     behavior="When the customer names a pain, an objection or who signs, ask one more "
                              "question about it before moving on.",
                     indicator="Pains, objections and budget owners followed up with a question "
                               "(read from the detector: missed follow-up)"),
    PatternIndicator("rep_question_leading", misses=("rep_question_leading",), goods=("rep_question_open",),
                     behavior="Ask open questions in discovery instead of suggesting the answer.",
                     indicator="Open questions asked, not leading ones (read from the detectors: "
                               "open / leading question)"),
    PatternIndicator("rep_question_closed", misses=("rep_question_closed",), goods=("rep_question_open",),
                     behavior="Ask open questions in discovery instead of yes/no questions.",
                     indicator="Open questions asked, not closed ones (read from the detectors: "
                               "open / closed question)"),
)}


def indicator_for(pattern: str, follows: Mapping[str, str | None] | None = None) -> PatternIndicator:
    """The indicator a pattern is read with; a pattern not in the table counts as one to see more of.

    ``follows`` maps each tracker's name to the detection label it follows (the shipped ones do): a
    tracker picked as the focus is read as its label is, with every label the reading needs taken from
    the tracker that follows it where there is one ("Deferral accepted" misses, "Deferral" occasions).
    """
    known = INDICATORS.get(pattern)
    if known is not None:
        return known
    label = (follows or {}).get(pattern)
    if label in INDICATORS:
        tracker_of = {lab: name for name, lab in follows.items() if lab}
        base = INDICATORS[label]

        def swap(names: tuple[str, ...]) -> tuple[str, ...]:
            return tuple(tracker_of.get(n, n) for n in names)

        return replace(base, pattern=pattern, occasions=swap(base.occasions), misses=swap(base.misses),
                       goods=swap(base.goods),
                       indicator=base.indicator.split(" (read from")[0] + f" (read from the tracker: {pattern})")
    words = pattern.replace("_", " ")
    return PatternIndicator(pattern, goods=(pattern,), absent_is_miss=True,
                            behavior=f"Bring out {words} on every call.",
                            indicator=f"Calls where {words} comes up (read from the detector: {words})")


def proposed_focus(pattern: str, follows: Mapping[str, str | None] | None = None) -> tuple[str, str]:
    """(behavior, indicator) to offer when the coach picks ``pattern`` as the cycle's focus."""
    ind = indicator_for(pattern, follows)
    return ind.behavior, ind.indicator


@dataclass(frozen=True)
class Reading:
    """What one call says about the behavior."""

    seen: Seen
    evidence: Hit | None  # the moment to return to (None: a call where it never came up)
    handled: int
    missed: int

    def words(self) -> str:
        if self.evidence is None:
            return "not on this call"
        return f"{self.evidence.pattern.replace('_', ' ')}: “{self.evidence.quote}”"


def read_call(indicator: PatternIndicator, hits: Sequence[Hit]) -> Reading | None:
    """The proposed observation for one call, from its hits (see the module); None: no occasion."""
    hits = sorted(hits, key=lambda h: h.start_ms)
    occasions = [h for h in hits if h.pattern in indicator.occasions]
    misses = [h for h in hits if h.pattern in indicator.misses]
    goods = [h for h in hits if h.pattern in indicator.goods]
    # Each miss answers one occasion: the occasions not answered are the ones handled.
    handled = max(0, len(occasions) - len(misses)) + len(goods)
    if misses and handled:
        return Reading(Seen.PARTIAL, misses[0], handled, len(misses))
    if misses:
        return Reading(Seen.NO, misses[0], 0, len(misses))
    if handled:
        return Reading(Seen.YES, (goods or occasions)[0], handled, 0)
    if indicator.absent_is_miss:
        return Reading(Seen.NO, None, 0, 0)
    return None
