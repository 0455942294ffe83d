from datetime import date, timedelta

import pytest

from desktop.core.cycles import (CycleError, Phase, can_change_focus, cycle_end, day_of_cycle,
                                 phase_on, plan_sessions)

START = date(2026, 9, 1)  # a Tuesday


def on_day(n: int) -> date:
    return START + timedelta(days=n - 1)


@pytest.mark.parametrize("day, phase", [
    (0, Phase.NOT_STARTED), (1, Phase.BASELINE),
    (15, Phase.BASELINE), (16, Phase.CHOOSE),
    (30, Phase.CHOOSE), (31, Phase.COACH),
    (75, Phase.COACH), (76, Phase.COMPARE),
    (90, Phase.COMPARE), (91, Phase.ENDED),
])
def test_phase_at_each_boundary(day, phase):
    assert day_of_cycle(START, on_day(day)) == day
    assert phase_on(START, on_day(day)) is phase


def test_each_phase_says_what_it_asks_in_the_methods_words():
    assert "baseline" in phase_on(START, on_day(1)).asks
    assert "one observable management behavior" in phase_on(START, on_day(20)).asks
    assert "every week" in phase_on(START, on_day(40)).asks
    assert "continue the behavior, adjust the practice" in phase_on(START, on_day(80)).asks
    assert all(p.asks and p.label for p in Phase)
    assert Phase.COACH.days == (31, 75)
    assert cycle_end(START) == on_day(90)


def test_weekly_sessions_cover_the_coach_phase():
    sessions = plan_sessions(START)
    assert sessions[0] == on_day(31)
    assert sessions[-1] == on_day(73)  # 31, 38, ..., 73; 80 is past day 75
    assert len(sessions) == 7
    assert all(phase_on(START, s) is Phase.COACH for s in sessions)


def test_sessions_on_a_chosen_weekday():
    sessions = plan_sessions(START, weekday=3)  # Thursdays
    assert all(s.weekday() == 3 for s in sessions)
    assert sessions[0] == on_day(31) + timedelta(days=(3 - on_day(31).weekday()) % 7)
    assert all(on_day(31) <= s <= on_day(75) for s in sessions)
    assert plan_sessions(START, cadence_days=14) == plan_sessions(START)[::2]


def test_bad_cadence_is_refused():
    with pytest.raises(CycleError, match="cadence"):
        plan_sessions(START, cadence_days=0)
    with pytest.raises(CycleError, match="weekday"):
        plan_sessions(START, weekday=7)


def test_focus_change_inside_the_cycle_needs_a_reason():
    assert can_change_focus(START, on_day(20)).allowed
    blocked = can_change_focus(START, on_day(31))
    assert not blocked.allowed and blocked.needs_reason and "park" in blocked.message
    assert not can_change_focus(START, on_day(90), reason="   ").allowed
    assert can_change_focus(START, on_day(50), reason="Manager moved to enterprise team").allowed
    assert can_change_focus(START, on_day(91)).allowed
