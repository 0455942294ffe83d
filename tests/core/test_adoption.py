"""Reading adoption from one call's hits: seen, not seen, partly, or no occasion (desktop.core.adoption)."""

from __future__ import annotations

from desktop.core.adoption import Hit, indicator_for, proposed_focus, read_call
from desktop.core.behaviors import SEED
from desktop.core.enums import Seen


def hit(pattern: str, ms: int) -> Hit:
    return Hit(pattern, ms, ms + 1000, None, pattern)


def test_a_deferral_probed_is_seen_one_accepted_is_not_and_both_is_partly():
    ind = indicator_for("deferral_accepted")
    seen = read_call(ind, [hit("deferral", 5_000), hit("rep_question_open", 9_000)])
    assert (seen.seen, seen.evidence.start_ms, seen.handled, seen.missed) == (Seen.YES, 5_000, 1, 0)
    missed = read_call(ind, [hit("deferral", 5_000), hit("deferral_accepted", 9_000)])
    assert (missed.seen, missed.evidence.start_ms) == (Seen.NO, 9_000)
    both = read_call(ind, [hit("deferral_accepted", 40_000), hit("deferral", 5_000), hit("deferral", 30_000)])
    assert (both.seen, both.evidence.start_ms, both.handled, both.missed) == (Seen.PARTIAL, 40_000, 1, 1)
    assert read_call(ind, [hit("next_step_confirmed", 1_000)]) is None  # no deferral: no occasion


def test_a_pattern_to_see_more_of_is_not_seen_on_a_call_without_it():
    ind = indicator_for("next_step_confirmed")
    assert read_call(ind, [hit("next_step_confirmed", 3_000)]).seen == Seen.YES
    absent = read_call(ind, [])
    assert (absent.seen, absent.evidence) == (Seen.NO, None)
    assert read_call(ind, [hit("next_step_vague", 2_000), hit("next_step_confirmed", 3_000)]).seen == Seen.PARTIAL


def test_picking_a_pattern_proposes_the_behavior_library_s_wording():
    behavior, indicator = proposed_focus("deferral_accepted")
    assert behavior == SEED[1] and "deferral accepted" in indicator
    behavior, indicator = proposed_focus("economic_buyer")  # not in the table: one to see more of
    assert "economic buyer" in behavior and "economic buyer" in indicator
