"""A 90-day cycle scripted week by week in a real store: the six indicators and the review, by hand.

The script (cycle from Monday 2026-09-07; day 31 = Wed 2026-10-07; sessions every
7 days from day 31: Oct 7, 14, 21, 28, Nov 4, 11, 18):

  S1 Oct 7  held, action, example attached, action done
  S2 Oct 14 held, action, no example, action not done
  S3 Oct 21 missed
  S4 Oct 28 held with a reason instead of an action, example attached
  S5 Nov 4  held, action, moment attached, action done
  S6 Nov 11 held, action, no example, not marked yet (counts as not done)
  S7 Nov 18 still planned

Item A (passes the specificity check, attached to the cycle, rule 2 of 2 for 2 weeks)
and item B ("Improve pipeline discipline", fails, the manager's loose item created in
the cycle). Not counted: an item of another manager, Morgan's item from before the cycle.

Observations of item A (live unless said):
  Sep 10 call no; Sep 22 pipeline review no (no customer evidence)       <- baseline
  Oct 14 role-play yes; Oct 15 call yes; Oct 16 call no                  week of Oct 12: 1 of 2
  Oct 27 pipeline review yes (customer evidence); Oct 29 call yes        week of Oct 26: 2 of 2
  Nov 3 call yes; Nov 5 call yes                                         week of Nov 2: 2 of 2
  Nov 10 pipeline review partial (customer evidence)                     week of Nov 9: 1 reviewed, in progress
  two pending "next two recordings" (count nowhere)

As of 2026-11-25 (day 80, compare):
  coaching_frequency   held 5 / planned 7
  action_completion    done 2 (S1, S5) / agreed 4 (S1, S2, S5, S6)
  feedback_specificity 1 (A) / 2 (A, B)
  inspection_quality   2 (Oct 27, Nov 10) / 3 pipeline reviews
  behavior_adoption    5 yes / 9 live (role-play left out, partial in the denominator)
  evidence_capture     3 (S1, S4, S5) / 5 held
  review: continue, "seen in 2 of 2 recordings and pipeline reviews for 2 weeks: continue"
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from contextlib import contextmanager
from datetime import date, datetime

import pytest

from db.models import CoachingItem
from desktop.core.enums import ReviewDecision
from desktop.errors import CallmarkError
from desktop import paths
from desktop.services import calls, coaching_sessions, cycles, indicators, items, moments, observations

pytestmark = pytest.mark.both_stores  # the services on SQLite and on a team store

START = date(2026, 9, 7)
AS_OF = date(2026, 11, 25)
GOOD_BEHAVIOR = ("Ask the rep to state the next step the customer confirmed before discussing how "
                 "likely the deal is to close.")


@dataclass
class Script:
    cycle_id: int
    item_a: int
    item_b: int
    session_ids: list[int]
    moment_id: int | None = None


@contextmanager
def _on(day: date):
    kept = coaching_sessions.today
    coaching_sessions.today = lambda: day
    try:
        yield
    finally:
        coaching_sessions.today = kept


def _created(store, item_id: int, day: date) -> None:
    with store.write() as s:
        s.get(CoachingItem, item_id).created_at = datetime.combine(day, datetime.min.time().replace(hour=9))


def _good_item(store, manager: str) -> int:
    row = items.create_item(
        store, [], manager=manager, consequence="The rep doesn't know who else reviews the proposal.",
        behavior_change="start", behavior_text=GOOD_BEHAVIOR, practice_kind="role_play",
        practice_task="Role-play a deal update: ask the rep to state the next step the customer confirmed first.",
        owner_does=manager, owner_reviews="Me",
        next_evidence="the next two recordings and the next pipeline review", next_evidence_due="2026-10-30",
        continue_after=(2, 2, 2))
    items.add_evidence(store, row.id, "note",
                       "Casey accepted 'send me some information' as the next step; no date in Salesforce",
                       "2026-09-10")
    return row.id


def scripted_cycle(store, manager: str = "Morgan Manager", *, through: date = AS_OF) -> Script:
    """Build the cycle above in `store`; steps dated after `through` are left out."""
    cycle = cycles.add_cycle(store, manager, START, model="grow",
                             baseline_notes="Next steps are accepted without a date or a second contact "
                                            "in 4 of 5 baseline calls.")
    a = _good_item(store, manager)
    _created(store, a, date(2026, 9, 18))
    cycles.attach_item(store, cycle.id, a)
    cycles.set_focus(store, cycle.id, GOOD_BEHAVIOR, on=date(2026, 9, 25))
    b = items.create_item(store, [], manager=manager, behavior_text="Improve pipeline discipline").id
    _created(store, b, date(2026, 10, 2))
    # Not this cycle: another manager's item, and Morgan's item from before the start.
    _created(store, _good_item(store, "Other Manager"), date(2026, 10, 1))
    _created(store, items.create_item(store, [], manager=manager, behavior_text="Pause after the price").id,
             date(2026, 8, 20))

    ids = [s.id for s in coaching_sessions.list_sessions(store, cycle.id)]
    call, _ = calls.add_call(store, paths.DEMO_MEDIA, title="Discovery - Acme Logistics", rep="Riley Rep",
                             manager=manager, recorded_at="2026-11-05T15:00:00Z")
    moment = moments.add_moment(store, call.id, 125551, 129000, kind="next_step")
    action = dict(practice_action="Role-play: ask 'What will you review, and who else needs to be involved?'",
                  action_owner=manager, evidence_place="the next two recordings", item_id=a)
    steps = [
        (date(2026, 9, 10), lambda: observations.record(store, source="call", observed_on="2026-09-10",
                                                        seen="no", item_id=a, evidence="Baseline call")),
        (date(2026, 9, 22), lambda: observations.record(store, source="pipeline_review", observed_on="2026-09-22",
                                                        seen="no", item_id=a, uses_customer_evidence=False)),
        (date(2026, 10, 7), lambda: coaching_sessions.close_held(store, ids[0], example="Casey: 'send me some information'",
                                                        **action)),
        (date(2026, 10, 14), lambda: coaching_sessions.set_action_done(store, ids[0], True)),
        (date(2026, 10, 14), lambda: coaching_sessions.close_held(store, ids[1], **action)),
        (date(2026, 10, 14), lambda: observations.record(store, source="role_play", observed_on="2026-10-14",
                                                         seen="yes", item_id=a)),
        (date(2026, 10, 15), lambda: observations.record(store, source="call", observed_on="2026-10-15",
                                                         seen="yes", item_id=a)),
        (date(2026, 10, 16), lambda: observations.record(store, source="call", observed_on="2026-10-16",
                                                         seen="no", item_id=a)),
        (date(2026, 10, 21), lambda: coaching_sessions.set_action_done(store, ids[1], False)),
        (date(2026, 10, 21), lambda: coaching_sessions.mark_missed(store, ids[2], "Manager travelling")),
        (date(2026, 10, 27), lambda: observations.record(store, source="pipeline_review", observed_on="2026-10-27",
                                                         seen="yes", item_id=a, uses_customer_evidence=True)),
        (date(2026, 10, 28), lambda: coaching_sessions.close_held(store, ids[3], reason="Half the hour went to a escalation",
                                                         example="Forecast call: next step read from the CRM")),
        (date(2026, 10, 29), lambda: observations.record(store, source="call", observed_on="2026-10-29",
                                                         seen="yes", item_id=a)),
        (date(2026, 11, 3), lambda: observations.record(store, source="call", observed_on="2026-11-03",
                                                        seen="yes", item_id=a)),
        (date(2026, 11, 4), lambda: coaching_sessions.close_held(store, ids[4], moment_id=moment.id, **action)),
        (date(2026, 11, 5), lambda: observations.record(store, source="call", observed_on="2026-11-05",
                                                        seen="yes", item_id=a, moment_id=moment.id,
                                                        evidence="Riley asks who else reviews it")),
        (date(2026, 11, 10), lambda: observations.record(store, source="pipeline_review", observed_on="2026-11-10",
                                                         seen="partial", item_id=a, uses_customer_evidence=True)),
        (date(2026, 11, 11), lambda: coaching_sessions.set_action_done(store, ids[4], True)),
        (date(2026, 11, 11), lambda: coaching_sessions.close_held(store, ids[5], **action)),
        (date(2026, 11, 20), lambda: observations.check_next_two_recordings(store, a, date(2026, 11, 20))),
    ]
    for day, step in steps:
        if day <= through:
            with _on(day):  # each step done on its day, as the coach would (a session held is held then)
                step()
    return Script(cycle.id, a, b, ids, moment.id)


def test_script_items_are_what_the_hand_count_assumes(store):
    script = scripted_cycle(store)
    checks = {i: items.findings(items.get_item(store, i)) for i in (script.item_a, script.item_b)}
    assert not any(f.severity == "error" for f in checks[script.item_a])
    assert any(f.severity == "error" for f in checks[script.item_b])


def test_six_indicators_match_the_hand_count(store):
    script = scripted_cycle(store)
    result = indicators.report(store, "Morgan Manager", as_of=AS_OF)
    assert result.cycle.id == script.cycle_id
    figures = {k: (v["numerator"], v["denominator"]) for k, v in result.to_json().items()}
    assert figures == {
        "coaching_frequency": (5, 7), "action_completion": (2, 4), "feedback_specificity": (1, 2),
        "inspection_quality": (2, 3), "behavior_adoption": (5, 9), "evidence_capture": (3, 5),
    }
    assert result.to_json()["coaching_frequency"]["value"] == pytest.approx(5 / 7)


def test_weekly_series_counts_each_week_to_its_last_day(store):
    scripted_cycle(store)
    result = indicators.report(store, "Morgan Manager", as_of=AS_OF)
    assert len(result.series) == 12  # week 12 = Nov 23–29 has begun by Nov 25 (day 80)
    week = {p.week: p for p in result.series}
    # Week 6 = Oct 12–18: S1, S2 planned and held; adoption 1 of 4 live (Sep 10, Sep 22, Oct 15, Oct 16).
    six = week[6].indicators
    assert (six.coaching_frequency.numerator, six.coaching_frequency.denominator) == (2, 2)
    assert (six.behavior_adoption.numerator, six.behavior_adoption.denominator) == (1, 4)
    # Week 7 = Oct 19–25: S3 (Oct 21) missed joins the planned count.
    assert (week[7].indicators.coaching_frequency.numerator,
            week[7].indicators.coaching_frequency.denominator) == (2, 3)
    # Before any session was planned the figure has no value (denominator 0).
    assert week[1].indicators.coaching_frequency.value is None


def test_review_proposes_continue_and_records_the_coachs_decision(store):
    script = scripted_cycle(store)
    proposal = observations.propose_review(store, script.item_a, AS_OF)
    assert proposal.decision == ReviewDecision.CONTINUE
    assert proposal.reason == "seen in 2 of 2 recordings and pipeline reviews for 2 weeks: continue"
    with pytest.raises(CallmarkError, match="say why"):
        observations.record_review(store, script.item_a, "adapt", on=AS_OF)
    row = observations.record_review(store, script.item_a, "continue", on=AS_OF)
    assert (row.proposed, row.decision, row.rationale) == (ReviewDecision.CONTINUE, ReviewDecision.CONTINUE,
                                                          proposal.reason)
    other = observations.record_review(store, script.item_a, "adapt", "The manager asks for it in role-play only",
                                       on=AS_OF)
    assert [r.decision for r in observations.list_reviews(store, cycle_id=script.cycle_id)] == [
        ReviewDecision.CONTINUE, ReviewDecision.ADAPT]
    assert other.rationale == "The manager asks for it in role-play only"


def test_review_midway_is_not_enough_then_adapt(store):
    # By Oct 13 only the two baseline observations exist: not enough evidence for 2 of 2, 2 weeks.
    script = scripted_cycle(store, through=date(2026, 10, 13))
    proposal = observations.propose_review(store, script.item_a, date(2026, 10, 13))
    assert proposal.decision is None
    assert proposal.reason.startswith("not enough evidence yet")
    # The role-play goes well, the live calls of that week don't (1 of 2): adapt the practice.
    observations.record(store, source="role_play", observed_on="2026-10-14", seen="yes", item_id=script.item_a)
    observations.record(store, source="call", observed_on="2026-10-15", seen="yes", item_id=script.item_a)
    observations.record(store, source="call", observed_on="2026-10-16", seen="no", item_id=script.item_a)
    proposal = observations.propose_review(store, script.item_a, date(2026, 10, 20))
    assert proposal.decision == ReviewDecision.ADAPT
    assert proposal.reason == ("practised well in role-play (1 of 1) but missing in live calls "
                               "(1 of 4 recordings and pipeline reviews): adapt the practice")


def test_quality_checklist_and_compare_phase(store):
    script = scripted_cycle(store)
    result = indicators.report(store, "Morgan Manager", as_of=AS_OF)
    by_item = {q.item_id: {c.key: c.ok for c in q.checks} for q in result.quality}
    assert set(by_item) == {script.item_a, script.item_b}
    assert by_item[script.item_a] == {"evidence_quality": True, "behavior_clarity": True, "action_fit": True,
                                      "follow_through": True, "adoption": True}
    assert by_item[script.item_b]["behavior_clarity"] is False
    assert by_item[script.item_b]["adoption"] is None
    side = observations.compare(store, script.cycle_id, AS_OF)
    assert side.baseline_seen == (0, 2)
    assert side.current_seen == (5, 7)
    assert "4 of 5 baseline calls" in side.baseline_notes


def test_full_json_has_weeks_and_checklist(store):
    scripted_cycle(store)
    full = indicators.report(store, "Morgan Manager", as_of=AS_OF).to_json(full=True)
    json.dumps(full)
    assert full["manager"] == "Morgan Manager"
    assert full["weeks"][0]["week"] == 1
    assert full["quality"][0]["checks"][0]["key"] == "evidence_quality"
