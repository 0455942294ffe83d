"""Cycles, sessions and observations through the services, in a real store."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from desktop.core.cycles import Phase
from desktop.core.enums import SessionStatus
from desktop.errors import CallmarkError, NotFound
from desktop.services import coaching_sessions, cycles, indicators, items, observations, parking
from desktop.services.cycles import FocusLocked
from desktop.services.coaching_sessions import SessionNotClosed

pytestmark = pytest.mark.both_stores  # the services on SQLite and on a team store

START = date(2026, 9, 7)


def day(n: int) -> date:
    return START + timedelta(days=n - 1)


@pytest.mark.parametrize(("n", "phase"), [
    (0, Phase.NOT_STARTED), (1, Phase.BASELINE), (15, Phase.BASELINE), (16, Phase.CHOOSE),
    (30, Phase.CHOOSE), (31, Phase.COACH), (75, Phase.COACH), (76, Phase.COMPARE), (90, Phase.COMPARE),
    (91, Phase.ENDED)])
def test_phase_by_date_at_each_boundary(store, n, phase):
    cycle = cycles.add_cycle(store, "Morgan Manager", START)
    row = cycles.get_cycle(store, cycle.id, day(n))
    assert row.now.phase == phase
    assert row.now.day == n
    assert row.now.asks == phase.asks
    assert row.end_date == day(90)


def test_weekly_sessions_are_planned_over_the_coach_phase(store):
    cycle = cycles.add_cycle(store, "Morgan Manager", START, weekday=0)  # Mondays
    rows = coaching_sessions.list_sessions(store, cycle.id)
    assert [r.planned_date for r in rows] == [day(36) + timedelta(weeks=k) for k in range(6)]
    assert all(r.planned_date.weekday() == 0 and r.status == SessionStatus.PLANNED for r in rows)
    assert cycle.sessions_planned == 6
    again = coaching_sessions.replan(store, cycle.id, cadence_days=14, from_day=START)
    assert [r.planned_date for r in again] == [day(31), day(45), day(59), day(73)]


def test_one_cycle_at_a_time_per_manager(store):
    cycles.add_cycle(store, "Morgan Manager", START)
    with pytest.raises(CallmarkError, match="already has cycle"):
        cycles.add_cycle(store, "Morgan Manager", day(60))
    cycles.add_cycle(store, "Morgan Manager", day(91))  # the next cycle
    cycles.add_cycle(store, "Alex Manager", day(10))
    assert [c.manager for c in cycles.list_cycles(store)] == ["Alex Manager", "Morgan Manager", "Morgan Manager"]
    assert cycles.current_cycle(store, "Morgan Manager", day(95)).start_date == day(91)


def test_focus_is_free_until_day_30_then_needs_a_reason(store):
    cycle = cycles.add_cycle(store, "Morgan Manager", START)
    cycles.set_focus(store, cycle.id, "Ask for the customer-confirmed next step", on=day(20))
    cycles.set_focus(store, cycle.id, "Ask the rep for the next step the customer confirmed", on=day(30))
    assert cycles.focus_changes(store, cycle.id) == []
    with pytest.raises(FocusLocked, match="stays stable"):
        cycles.set_focus(store, cycle.id, "Pause after the price", on=day(31))
    assert cycles.get_cycle(store, cycle.id).focus_behavior == "Ask the rep for the next step the customer confirmed"
    row = cycles.set_focus(store, cycle.id, "Pause after the price", on=day(40),
                           reason="Every call since the baseline loses the deal at the price")
    assert row.focus_behavior == "Pause after the price"
    [change] = cycles.focus_changes(store, cycle.id)
    assert change.old_behavior == "Ask the rep for the next step the customer confirmed"
    assert change.reason == "Every call since the baseline loses the deal at the price"


def test_new_observations_during_the_cycle_are_parked_on_the_manager(store):
    cycle = cycles.add_cycle(store, "Morgan Manager", START)
    parked = cycles.park(store, cycle.id, note="Discount offered before the customer asked")
    assert parked.manager == "Morgan Manager"
    assert [p.note for p in parking.list_parked(store, "Morgan Manager")] == [
        "Discount offered before the customer asked"]


def test_a_session_held_counts_on_the_day_held_and_sessions_can_be_planned_and_moved(store):
    cycle = cycles.add_cycle(store, "Morgan Manager", START)
    planned = coaching_sessions.list_sessions(store, cycle.id)
    assert planned and all(s.planned_date >= START + timedelta(days=30) for s in planned)  # the plan: day 31 on
    early = coaching_sessions.add_session(store, cycle.id, START + timedelta(days=3))  # the coach adds one
    coaching_sessions.close_held(store, early.id, practice_action="Role-play the next-step question",
                                 action_owner="Morgan Manager", evidence_place="next two recordings",
                                 held_on=START + timedelta(days=4))  # held a day late
    moved = coaching_sessions.move_session(store, planned[0].id, START + timedelta(days=20))
    assert moved.planned_date == START + timedelta(days=20)
    with pytest.raises(CallmarkError, match="outside the cycle"):
        coaching_sessions.move_session(store, planned[0].id, START + timedelta(days=200))
    report = indicators.report(store, cycle_id=cycle.id, as_of=START + timedelta(days=10))
    frequency = report.indicators.coaching_frequency
    assert (frequency.numerator, frequency.denominator) == (1, 1)  # the one held on day 5 counts by day 11


def test_a_session_cant_close_as_held_without_its_action(store):
    cycle = cycles.add_cycle(store, "Morgan Manager", START)
    first = coaching_sessions.list_sessions(store, cycle.id)[0]
    with pytest.raises(SessionNotClosed, match="one practice action, one owner, one place to look"):
        coaching_sessions.close_held(store, first.id)
    with pytest.raises(SessionNotClosed, match="one owner"):
        coaching_sessions.close_held(store, first.id, practice_action="Role-play the next-step question",
                            evidence_place="next two recordings")
    assert coaching_sessions.get_session(store, first.id).status == SessionStatus.PLANNED
    held = coaching_sessions.close_held(store, first.id, practice_action="Role-play the next-step question",
                               action_owner="Morgan Manager", evidence_place="next two recordings")
    # Held now: it counts on the day it was held, not on the day it was planned for.
    assert (held.status, held.held_date, held.close_reason) == (SessionStatus.HELD, cycles.today(), None)
    second = coaching_sessions.list_sessions(store, cycle.id)[1]
    excused = coaching_sessions.close_held(store, second.id, reason="The manager was called into a customer escalation")
    assert excused.status == SessionStatus.HELD and excused.close_reason.startswith("The manager")
    assert coaching_sessions.previous_held(store, coaching_sessions.list_sessions(store, cycle.id)[2].id).id == first.id
    assert coaching_sessions.set_action_done(store, first.id, True).action_done is True
    with pytest.raises(CallmarkError, match="no practice action"):
        coaching_sessions.set_action_done(store, second.id, True)


def test_stage_notes_follow_the_cycles_model_and_oskar_scores(store):
    grow = cycles.add_cycle(store, "Morgan Manager", START)
    s = coaching_sessions.list_sessions(store, grow.id)[0]
    assert [st.key for st in coaching_sessions.guide_for(store, s.id).stages] == ["goal", "reality", "options", "will"]
    assert coaching_sessions.save_stage_note(store, s.id, "reality", "Casey: send me some information").stage_notes == {
        "reality": "Casey: send me some information"}
    with pytest.raises(CallmarkError, match="no stage 'scaling'"):
        coaching_sessions.save_stage_note(store, s.id, "scaling", "6")
    with pytest.raises(CallmarkError, match="belongs to OSKAR"):
        coaching_sessions.set_score(store, s.id, 6)
    oskar = cycles.add_cycle(store, "Alex Manager", START, model="oskar")
    o = coaching_sessions.list_sessions(store, oskar.id)[0]
    assert coaching_sessions.set_score(store, o.id, 6).oskar_score == 6
    with pytest.raises(CallmarkError, match="0 to 10"):
        coaching_sessions.set_score(store, o.id, 11)


def test_one_model_per_cycle_once_a_session_is_held(store):
    cycle = cycles.add_cycle(store, "Morgan Manager", START)
    assert cycles.set_model(store, cycle.id, "clear").conversation_model == "clear"
    first = coaching_sessions.list_sessions(store, cycle.id)[0]
    coaching_sessions.close_held(store, first.id, reason="intro session")
    with pytest.raises(CallmarkError, match="one conversation model"):
        cycles.set_model(store, cycle.id, "oskar")
    with pytest.raises(CallmarkError, match="use grow, clear or oskar"):
        cycles.add_cycle(store, "Alex Manager", START, model="spin")


def test_check_both_of_the_next_two_recordings(store):
    cycle = cycles.add_cycle(store, "Morgan Manager", START)
    item = items.create_item(store, [], manager="Morgan Manager", behavior_text="Ask who else reviews it")
    cycles.attach_item(store, cycle.id, item.id)
    pending = observations.check_next_two_recordings(store, item.id, day(40))
    assert [p.pending for p in pending] == [True, True]
    assert all(p.cycle_id == cycle.id for p in pending)
    filled = observations.fill(store, pending[0].id, seen="partly", evidence="asked, but not who else")
    assert filled.seen_label == "partly"
    assert [o.id for o in observations.list_observations(store, item_id=item.id, pending=True)] == [pending[1].id]
    with pytest.raises(CallmarkError, match="seen 'maybe'"):
        observations.fill(store, pending[1].id, seen="maybe")
    with pytest.raises(NotFound):
        observations.record(store, source="call", item_id=item.id, moment_id=999)
