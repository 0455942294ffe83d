"""Across a scripted library (tests/services/coaching_library.py): the queue order, the baseline table and
the proposed observations, against values worked out by hand from the scripts and the method's weights."""

from __future__ import annotations

import json
from datetime import date

import pytest

from desktop.core.adoption import proposed_focus
from desktop.core.enums import Seen
from desktop.errors import CallmarkError
from desktop.services import adoption, coaching_queue, cycles, indicators, observations, suggestions
from tests.services import coaching_library as scripted

LATE = date(2026, 11, 25)  # day 80: the compare phase


@pytest.fixture
def lib(store, tmp_path):
    return scripted.build(store, tmp_path / "library")


def _key(lib, call_id):
    return next(k for k, v in lib.ids.items() if v == call_id)


def test_the_queue_is_ranked_by_weight_then_the_newest_call_then_focus_first(store, lib):
    got = [(_key(lib, e.call), e.label, e.start_ms) for e in coaching_queue.queue(store, scripted.MANAGER)]
    # By hand: deferral accepted (weight 5), deferral (3), closed question and dated next step (1), open
    # question (0); inside a weight the newest call first, then the moment's place in the call.
    accepted = [("c3", "deferral_accepted", 30_000), ("c2", "deferral_accepted", 18_000),
                ("b2", "deferral_accepted", 18_000), ("b1", "deferral_accepted", 18_000)]
    deferrals = [("c3", "deferral", 6_000), ("c3", "deferral", 24_000), ("c2", "deferral", 12_000),
                 ("c1", "deferral", 12_000), ("b2", "deferral", 12_000), ("b1", "deferral", 12_000)]
    ones = [(k, label, ms) for k in ("c4", "b3") for label, ms in
            (("rep_question_closed", 12_000), ("next_step_confirmed", 12_000), ("next_step_confirmed", 18_000))]
    opens = [("c4", "rep_question_open", 0), ("c3", "rep_question_open", 0), ("c3", "rep_question_open", 12_000),
             ("c2", "rep_question_open", 0), ("c1", "rep_question_open", 0), ("c1", "rep_question_open", 18_000),
             ("b3", "rep_question_open", 0), ("b2", "rep_question_open", 0), ("b1", "rep_question_open", 0)]
    assert got == accepted + deferrals + ones + opens  # and never Pat's call: another manager's
    # The focus picked from the baseline puts the deferral's labels first; the weight order stays after.
    behavior, indicator = proposed_focus("deferral_accepted")
    adoption.set_focus_from_pattern(store, lib.cycle_id, "deferral_accepted", behavior, indicator,
                                    on=date(2026, 9, 25))
    focused = coaching_queue.queue(store, scripted.MANAGER)
    assert [(_key(lib, e.call), e.label, e.start_ms) for e in focused] == accepted + deferrals + ones + opens
    assert [e.focus for e in focused] == [True] * 10 + [False] * 15
    # Dismissing the top one takes it off; undo puts it back.
    top = focused[0]
    made = suggestions.decide(store, top.call, [top.finding_id], "dismissed")
    assert [(_key(lib, e.call), e.label, e.start_ms) for e in coaching_queue.queue(store, scripted.MANAGER)][0] \
        == ("c2", "deferral_accepted", 18_000)
    made.undo(store)
    assert coaching_queue.queue(store, scripted.MANAGER)[0].finding_id == top.finding_id


def test_the_baseline_and_the_coaching_weeks_beside_it(store, lib):
    ids = lib.ids
    table = {p.pattern: (p.calls, p.count, p.reps, [(e["call"], e["start_ms"]) for e in p.examples])
             for p in coaching_queue.baseline(store, lib.cycle_id)}
    assert table == {  # b1, b2, b3: the calls dated 7–21 Sep
        "rep_question_open": (3, 3, {"Riley Rep", "Sam Seller", "Jo Closer"},
                              [(ids["b1"], 0), (ids["b2"], 0), (ids["b3"], 0)]),
        "deferral": (2, 2, {"Riley Rep", "Sam Seller"}, [(ids["b1"], 12_000), (ids["b2"], 12_000)]),
        "deferral_accepted": (2, 2, {"Riley Rep", "Sam Seller"}, [(ids["b1"], 18_000), (ids["b2"], 18_000)]),
        "next_step_confirmed": (1, 2, {"Jo Closer"}, [(ids["b3"], 12_000)]),
        "rep_question_closed": (1, 1, {"Jo Closer"}, [(ids["b3"], 12_000)]),
        # The shipped trackers, by their phrases: the customer's "send me some information", the rep's
        # "I'll send that over", and "meet again on Tuesday" (the customer's agreement names no verb).
        "Deferral": (2, 2, {"Riley Rep", "Sam Seller"}, [(ids["b1"], 12_000), (ids["b2"], 12_000)]),
        "Deferral accepted": (2, 2, {"Riley Rep", "Sam Seller"}, [(ids["b1"], 18_000), (ids["b2"], 18_000)]),
        "Next step with a date": (1, 1, {"Jo Closer"}, [(ids["b3"], 12_000)]),
    }
    weeks = {p.pattern: (p.calls, p.count) for p in coaching_queue.baseline(store, lib.cycle_id, window="coaching")}
    assert weeks == {"rep_question_open": (4, 6), "deferral": (3, 4), "deferral_accepted": (2, 2),
                     "next_step_confirmed": (1, 2), "rep_question_closed": (1, 1),
                     "Deferral": (3, 4), "Deferral accepted": (2, 2), "Next step with a date": (1, 1)}


def _tie_focus(store, lib):
    behavior, indicator = proposed_focus("deferral_accepted")
    assert behavior == ("When the customer asks for information, ask what they will review and who else needs "
                        "to be involved.")
    made = adoption.set_focus_from_pattern(store, lib.cycle_id, "deferral_accepted", behavior, indicator,
                                           on=date(2026, 9, 25))
    return made, made.row


def test_each_later_call_gets_a_proposed_observation_that_counts_once_confirmed(store, lib):
    made, item = _tie_focus(store, lib)
    assert cycles.get_cycle(store, lib.cycle_id).focus_behavior.startswith("When the customer asks")
    ids = lib.ids
    got = [(p.call, p.seen, p.start_ms, p.fills) for p in adoption.proposed(store, lib.cycle_id, LATE)]
    # By hand: c1 probes the deferral (seen, at the deferral); c2 accepts it (not seen, at the acceptance);
    # c3 probes one and accepts the other (partly, at the acceptance); c4 has no deferral: nothing to read.
    assert got == [(ids["c1"], Seen.YES, 12_000, None), (ids["c2"], Seen.NO, 18_000, None),
                   (ids["c3"], Seen.PARTIAL, 30_000, None)]
    # "Check both of the next two recordings" on 14 Oct: the next two calls after it fill them.
    pending = observations.check_next_two_recordings(store, item, date(2026, 10, 14))
    got = [(p.call, p.fills) for p in adoption.proposed(store, lib.cycle_id, LATE)]
    assert got == [(ids["c1"], None), (ids["c2"], pending[0].id), (ids["c3"], pending[1].id)]
    # Nothing counts yet: the rule waits and says how many proposals are there.
    waits = observations.propose_review(store, item, LATE)
    assert waits.decision is None and "3 proposed observations from later calls to confirm" in waits.reason
    adoption.confirm(store, lib.cycle_id, item, ids["c1"], as_of=LATE)  # kept as proposed
    corrected = adoption.confirm(store, lib.cycle_id, item, ids["c2"], "partly", as_of=LATE)  # corrected
    kept = {o.call_id: (o.seen, o.observed_on, o.start_ms)
            for o in observations.list_observations(store, item_id=item)}
    assert kept == {ids["c1"]: (Seen.YES, date(2026, 10, 13), 12_000),
                    ids["c2"]: (Seen.PARTIAL, date(2026, 10, 15), 18_000),
                    None: (None, date(2026, 10, 14), None)}  # the second "next recording" is still to check
    report = indicators.report(store, cycle_id=lib.cycle_id, as_of=LATE)
    assert (report.indicators.behavior_adoption.numerator, report.indicators.behavior_adoption.denominator) == (1, 2)
    assert report.proposals_waiting == 1
    assert "1 proposed observation from later calls to confirm" in observations.propose_review(store, item, LATE).reason
    # Undo takes the correction back: the pending observation is to check again and proposed again.
    corrected.undo(store)
    assert [p.call for p in adoption.proposed(store, lib.cycle_id, LATE)] == [ids["c2"], ids["c3"]]
    made.undo(store)
    assert cycles.get_cycle(store, lib.cycle_id).focus_behavior is None
    assert adoption.proposed(store, lib.cycle_id, LATE) == []


def test_a_held_session_moves_what_counts_as_later(store, lib):
    from desktop.services import coaching_sessions

    _made, _item = _tie_focus(store, lib)
    first = coaching_sessions.list_sessions(store, lib.cycle_id)[0]
    coaching_sessions.close_held(store, first.id, practice_action="Role-play a deferral", action_owner="Dana",
                                 evidence_place="next calls", held_on=date(2026, 10, 16))
    assert [p.call for p in adoption.proposed(store, lib.cycle_id, LATE)] == [lib.ids["c3"]]


def test_a_dismissed_finding_is_no_evidence(store, lib):
    _made, _item = _tie_focus(store, lib)
    c2 = next(s for s in suggestions.suggestions(store, lib.ids["c2"]) if s.finding.label == "deferral_accepted")
    suggestions.decide(store, lib.ids["c2"], [c2.finding.id], "dismissed")  # the coach: not an acceptance
    got = {p.call: p.seen for p in adoption.proposed(store, lib.cycle_id, LATE)}
    assert got[lib.ids["c2"]] == Seen.YES


def test_confirming_what_is_not_proposed_is_refused_in_one_line(store, lib):
    _made, item = _tie_focus(store, lib)
    with pytest.raises(CallmarkError, match=f"call {lib.ids['c4']}: no proposed observation"):
        adoption.confirm(store, lib.cycle_id, item, lib.ids["c4"], as_of=LATE)
    with pytest.raises(CallmarkError, match="pattern 'nonsense'"):
        adoption.set_focus_from_pattern(store, lib.cycle_id, "nonsense", "Do it.", "", on=date(2026, 9, 25))


def test_the_command_lists_and_confirms_proposals(store, lib, isolated_home):
    from tests.conftest import run_cli

    store.close()
    home = ("--home", str(isolated_home))
    behavior = proposed_focus("deferral_accepted")[0]
    run_cli(*home, "cycles", "focus", str(lib.cycle_id), behavior, "--pattern", "deferral_accepted",
            "--on", "2026-09-25", check=True)
    shown = json.loads(run_cli(*home, "cycles", "show", str(lib.cycle_id), "--json", check=True).stdout)
    assert shown["focus_behavior"] == behavior
    (item,) = shown["item_ids"]  # the focus item, its indicator tied to the detector
    out = json.loads(run_cli(*home, "observations", "proposed", "--cycle", str(lib.cycle_id), "--as-of",
                             "2026-11-25", "--json", check=True).stdout)
    assert [(p["call"], p["seen"], p["start_ms"]) for p in out] == [
        (lib.ids["c1"], "yes", 12_000), (lib.ids["c2"], "no", 18_000), (lib.ids["c3"], "partial", 30_000)]
    done = json.loads(run_cli(*home, "observations", "confirm", "--cycle", str(lib.cycle_id), "--item", str(item),
                              "--call", str(lib.ids["c2"]), "--seen", "yes", "--as-of", "2026-11-25", "--json",
                              check=True).stdout)
    assert done["seen"] == "seen"
    left = run_cli(*home, "observations", "proposed", "--cycle", str(lib.cycle_id), "--as-of", "2026-11-25")
    assert left.returncode == 0 and len(left.stdout.splitlines()) == 2
    bad = run_cli(*home, "observations", "confirm", "--cycle", str(lib.cycle_id), "--item", str(item),
                  "--call", str(lib.ids["c4"]), "--as-of", "2026-11-25")
    assert bad.returncode != 0 and len(bad.stderr.strip().splitlines()) == 1 and "no proposed observation" in bad.stderr


def test_a_new_focus_leaves_an_observed_item_its_behavior(store, lib):
    _made, item = _tie_focus(store, lib)
    adoption.confirm(store, lib.cycle_id, item, lib.ids["c1"], as_of=LATE)
    behavior, indicator = proposed_focus("next_step_vague")
    made = adoption.set_focus_from_pattern(store, lib.cycle_id, "next_step_vague", behavior, indicator,
                                           on=LATE, reason="the deferrals are handled; the next steps are not")
    assert made.row != item  # a new item for the new focus
    choices = dict(cycles.item_choices(store, lib.cycle_id))
    assert choices[item].startswith("When the customer asks for information") and choices[made.row] == behavior
    assert [c.reason for c in cycles.focus_changes(store, lib.cycle_id)] == [
        "the deferrals are handled; the next steps are not"]
    with pytest.raises(CallmarkError, match="Give a reason"):  # day 80: the focus stays stable without one
        adoption.set_focus_from_pattern(store, lib.cycle_id, "deferral", "Ask who else is involved.", "", on=LATE)


def test_a_tracker_picked_as_the_focus_is_read_from_later_calls_too(store, lib):
    behavior, indicator = proposed_focus("Next step with a date")
    assert "Next step with a date" in indicator
    adoption.set_focus_from_pattern(store, lib.cycle_id, "Next step with a date",
                                    "Before the call ends, book the next meeting with a day and a time.",
                                    indicator, on=date(2026, 9, 25))
    ids = lib.ids
    got = [(p.call, p.seen, p.start_ms) for p in adoption.proposed(store, lib.cycle_id, LATE)]
    # By hand: only c4 has "meet again on Tuesday" (seen, at that line); c1–c3 never book a dated step.
    assert got == [(ids["c1"], Seen.NO, None), (ids["c2"], Seen.NO, None), (ids["c3"], Seen.NO, None),
                   (ids["c4"], Seen.YES, 12_000)]


def test_a_shipped_tracker_picked_as_the_focus_is_read_as_the_label_it_follows(store, lib):
    from desktop.services import patterns

    follows = patterns.follows(store)
    assert follows["Deferral accepted"] == "deferral_accepted"
    behavior, indicator = proposed_focus("Deferral accepted", follows)
    assert behavior == proposed_focus("deferral_accepted")[0] and indicator.endswith("(read from the tracker: "
                                                                                    "Deferral accepted)")
    adoption.set_focus_from_pattern(store, lib.cycle_id, "Deferral accepted", behavior, indicator,
                                    on=date(2026, 9, 25))
    ids = lib.ids
    got = [(p.call, p.seen, p.start_ms) for p in adoption.proposed(store, lib.cycle_id, LATE)]
    # By hand, from the trackers' phrases: the "Deferral" tracker gives the occasions, "Deferral accepted"
    # the misses. c1 probes its deferral (seen), c2 accepts it (not seen, at "I'll send that over"),
    # c3 probes one of two and accepts the other (partly); c4 has no deferral.
    assert got == [(ids["c1"], Seen.YES, 12_000), (ids["c2"], Seen.NO, 18_000), (ids["c3"], Seen.PARTIAL, 30_000)]


def test_a_call_whose_transcript_changes_is_read_again_for_its_patterns(store, lib):
    """The parsed findings of each call are kept between readings (a manager's dashboard reads thousands on
    every change); a call whose findings were written again is read again, the others are not parsed twice."""
    from desktop.services import patterns, transcripts
    from desktop.transcription.segments import Segment

    c2 = lib.ids["c2"]
    before = patterns.hits(store, {"deferral_accepted"}, [c2])[c2]
    assert before, "the scripted call accepts a deferral"
    rep = before[0].speaker  # who accepted the deferral
    customer = next(s["name"] for s in transcripts.speakers(store, c2) if s["name"] != rep)
    transcripts.save_transcript(store, c2, [
        Segment(0, 3000, customer, "Just send me some information."),
        Segment(3500, 7000, rep, "Happy to. What will you review, and who else decides?")], origin="import")
    after = patterns.hits(store, {"deferral_accepted", "deferral"}, [c2])[c2]
    assert [h.pattern for h in after] == ["deferral"] and after[0].quote
