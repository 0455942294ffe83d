from datetime import date, timedelta

import pytest

from desktop.core.enums import ObservationSource as Src, ReviewDecision, Seen
from desktop.core.review_rule import (METHOD_RULE, ContinueAfter, Observation, ReviewRuleError,
                                      propose, weekly_tally)

WEEK1 = date(2026, 11, 2)  # a Monday, ISO week 45
RULE = ContinueAfter(seen_in=2, of_reviewed=2, weeks_in_a_row=2)


def obs(week: int, weekday: int, seen: str, source: Src = Src.CALL) -> Observation:
    return Observation(WEEK1 + timedelta(weeks=week - 1, days=weekday), Seen(seen), source)


def test_seen_in_both_recordings_two_weeks_running_continues():
    proposal = propose(RULE, [obs(1, 1, "yes"), obs(1, 3, "yes"), obs(2, 0, "yes"), obs(2, 4, "yes")])
    assert proposal.decision is ReviewDecision.CONTINUE
    assert proposal.reason == "seen in 2 of 2 recordings for 2 weeks: continue"


def test_a_week_in_progress_does_not_break_the_run():
    observations = [obs(1, 1, "yes"), obs(1, 3, "yes"), obs(2, 0, "yes"), obs(2, 4, "yes"),
                    obs(3, 0, "no")]  # week 3 has 1 of the 2 reviews the rule needs
    assert propose(RULE, observations).decision is ReviewDecision.CONTINUE


def test_weeks_must_be_consecutive_calendar_weeks():
    # Weeks 1 and 3 meet the rule, week 2 had no review: not "two weeks in a row" yet.
    observations = [obs(1, 1, "yes"), obs(1, 3, "yes"), obs(3, 0, "yes"), obs(3, 4, "yes")]
    proposal = propose(RULE, observations)
    assert proposal.decision is None
    assert proposal.reason.startswith("not enough evidence yet")
    # ... and across a year end, ISO week 53 of 2026 runs into week 1 of 2027.
    dec28, jan4 = date(2026, 12, 28), date(2027, 1, 4)
    year_end = [Observation(d, Seen.YES, Src.CALL) for d in (dec28, dec28, jan4, jan4)]
    assert propose(RULE, year_end).decision is ReviewDecision.CONTINUE


def test_role_play_well_but_missing_live_adapts_the_practice():
    observations = [obs(1, 0, "yes", Src.ROLE_PLAY), obs(1, 2, "yes", Src.ROLE_PLAY),
                    obs(1, 3, "no"), obs(1, 4, "no")]
    proposal = propose(RULE, observations)
    assert proposal.decision is ReviewDecision.ADAPT
    assert proposal.reason == ("practised well in role-play (2 of 2) but missing in live calls "
                               "(0 of 2 recordings): adapt the practice")


def test_too_few_observations_is_not_enough_evidence():
    assert propose(RULE, []).decision is None
    assert "no recordings or pipeline reviews checked" in propose(RULE, []).reason
    one_week = propose(RULE, [obs(1, 1, "yes"), obs(1, 2, "yes")])
    assert one_week.decision is None
    assert one_week.reason == ("not enough evidence yet: 1 of 2 weeks met so far, seen in 2 of 2 "
                               "recordings; the rule needs 2 of 2 for 2 weeks in a row")


def test_never_seen_after_enough_reviews_replaces():
    observations = [obs(1, 1, "no"), obs(1, 3, "no"), obs(2, 1, "no", Src.PIPELINE_REVIEW),
                    obs(2, 3, "no")]
    proposal = propose(RULE, observations)
    assert proposal.decision is ReviewDecision.REPLACE
    assert proposal.reason == ("not seen in any of 4 recordings and pipeline reviews: the evidence "
                               "points somewhere else, replace the behavior")


def test_seen_sometimes_adapts():
    observations = [obs(1, 1, "yes"), obs(1, 3, "no"), obs(2, 1, "partial"), obs(2, 3, "yes")]
    proposal = propose(RULE, observations)
    assert proposal.decision is ReviewDecision.ADAPT
    assert proposal.reason == ("seen in 2 of 4 recordings (partly in 1 more), short of 2 of 2 for "
                               "2 weeks in a row: adapt the practice")


def test_share_rule_with_extra_reviews_in_a_week():
    rule = ContinueAfter(2, 3, 1)  # seen in 2 of 3 reviewed, one week
    # 3 of 4 seen: share 0.75 >= 2/3 -> meets.
    met = [obs(1, d, s) for d, s in enumerate(["yes", "yes", "no", "yes"])]
    assert propose(rule, met).reason == "seen in 3 of 4 recordings for 1 week: continue"
    # 2 of 4 seen: share 0.5 < 2/3 -> does not meet; 4 reviewed >= 3 x 1 -> adapt.
    short = [obs(1, d, s) for d, s in enumerate(["yes", "no", "no", "yes"])]
    assert propose(rule, short).decision is ReviewDecision.ADAPT


def test_no_structured_rule_uses_the_methods_example():
    assert METHOD_RULE == ContinueAfter(2, 2, 2)
    observations = [obs(1, 1, "yes"), obs(1, 3, "yes"), obs(2, 0, "yes"), obs(2, 4, "yes")]
    assert propose(None, observations).decision is ReviewDecision.CONTINUE


def test_weekly_tally_groups_live_observations_by_iso_week():
    observations = [obs(1, 0, "yes"), obs(1, 6, "partial"), obs(2, 0, "no"),
                    obs(2, 1, "yes", Src.ROLE_PLAY)]
    tally = weekly_tally(observations)
    assert [(w.iso_week, w.reviewed, w.seen, w.partial) for w in tally] == [
        ((2026, 45), 2, 1, 1), ((2026, 46), 1, 0, 0)]


def test_invalid_rule_is_refused():
    with pytest.raises(ReviewRuleError, match="3 of 2"):
        ContinueAfter(3, 2, 1)
    with pytest.raises(ReviewRuleError):
        ContinueAfter(1, 1, 0)
