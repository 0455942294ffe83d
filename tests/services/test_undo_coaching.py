"""The coaching screens' writes are coach edits: each one's undo, run on the real store, leaves every
row as it was before (the store's full dump compared), and its redo writes it again under the same ids."""

from __future__ import annotations

from datetime import date

import pytest

from desktop.core.enums import ReviewDecision, Seen, SessionStatus
from desktop.services import coaching_edits as edits
from desktop.services import coaching_sessions, cycles, items, observations
from desktop.services.changes import CYCLES, OBSERVATIONS, SESSIONS
from tests.services.test_crm_service import dump

pytestmark = pytest.mark.both_stores  # the undo of each on SQLite and on a team store

START = date(2026, 9, 7)
BEHAVIOR = "Ask the rep which date the customer agreed for the next step."


def _cycle(store, model="grow"):
    return cycles.add_cycle(store, "Morgan Manager", START, model=model)


def _undo_redo(store, made):
    """Undo must leave the store as before; returns (the dump after the write, the redo's Change)."""
    after = dump(store)
    redo = made.undo(store)
    return after, redo


def test_focus_model_and_baseline_are_taken_back_and_written_again(store):
    cycle = _cycle(store)
    before = dump(store)
    made = edits.choose_focus(store, cycle.id, BEHAVIOR, on=date(2026, 9, 25))
    assert made.touches(CYCLES) and cycle.id in made.ids and made.row.focus_behavior == BEHAVIOR
    after, redo = _undo_redo(store, made)
    assert cycles.get_cycle(store, cycle.id).focus_behavior is None
    assert dump(store) == before
    redo.undo(store)
    assert dump(store) == after

    # Inside the coach phase a change needs a reason and is kept; undo drops the kept change too.
    before = dump(store)
    made = edits.choose_focus(store, cycle.id, "Pause after the price", on=date(2026, 10, 20),
                              reason="The price loses every deal")
    [kept] = cycles.focus_changes(store, cycle.id)
    again = made.undo(store)
    assert cycles.focus_changes(store, cycle.id) == []
    assert cycles.get_cycle(store, cycle.id).focus_behavior == BEHAVIOR
    assert dump(store) == before
    again.undo(store)
    assert [c.id for c in cycles.focus_changes(store, cycle.id)] == [kept.id]  # the same row

    assert edits.choose_focus(store, cycle.id, "Pause after the price").undo is None  # the same again: no step

    before = dump(store)
    made = edits.choose_model(store, cycle.id, "oskar")
    after, redo = _undo_redo(store, made)
    assert dump(store) == before
    redo.undo(store)
    assert cycles.get_cycle(store, cycle.id).conversation_model == "oskar" and dump(store) == after

    before = dump(store)
    made = edits.write_baseline(store, cycle.id, "Asks for the next step in about half the calls")
    after, redo = _undo_redo(store, made)
    assert cycles.get_cycle(store, cycle.id).baseline_notes == "" and dump(store) == before
    redo.undo(store)
    assert dump(store) == after


def test_a_new_cycle_is_deleted_by_undo_and_comes_back_under_its_ids(store):
    before = dump(store)
    made = edits.start_cycle(store, "Morgan Manager", START, model="clear")
    assert made.touches(CYCLES, SESSIONS) and made.ids == (made.row.id,)
    sessions = [s.id for s in coaching_sessions.list_sessions(store, made.row.id)]
    assert sessions
    after, redo = _undo_redo(store, made)
    assert cycles.list_cycles(store) == []
    assert dump(store) == before  # the manager it first named is gone too
    again = redo.undo(store)
    assert dump(store) == after
    assert [s.id for s in coaching_sessions.list_sessions(store, made.row.id)] == sessions

    # Something else refers to the cycle now: undo refuses, and the cycle stays.
    item = items.create_item(store, [], manager="Morgan Manager", behavior_text=BEHAVIOR)
    cycles.attach_item(store, made.row.id, item.id)
    with pytest.raises(edits.UndoRefused, match=f"cycle {made.row.id}: not taken back: coaching item {item.id}"):
        again.undo(store)
    assert cycles.get_cycle(store, made.row.id).id == made.row.id


def test_planned_moved_and_missed_sessions_are_taken_back(store):
    cycle = _cycle(store)
    before = dump(store)
    made = edits.plan_session(store, cycle.id, date(2026, 9, 20))
    assert made.touches(SESSIONS)
    new_id = made.row.id
    after, redo = _undo_redo(store, made)
    assert new_id not in [s.id for s in coaching_sessions.list_sessions(store, cycle.id)]
    assert dump(store) == before
    redo.undo(store)
    assert dump(store) == after and coaching_sessions.get_session(store, new_id).planned_date == date(2026, 9, 20)

    before = dump(store)
    made = edits.move_session(store, new_id, date(2026, 9, 22))
    after, redo = _undo_redo(store, made)
    assert coaching_sessions.get_session(store, new_id).planned_date == date(2026, 9, 20)
    assert dump(store) == before
    redo.undo(store)
    assert dump(store) == after

    before = dump(store)
    made = edits.miss_session(store, new_id, "Manager off sick")
    assert made.row.status == SessionStatus.MISSED
    after, redo = _undo_redo(store, made)
    assert coaching_sessions.get_session(store, new_id).status == SessionStatus.PLANNED
    assert dump(store) == before
    redo.undo(store)
    assert dump(store) == after

    # A session planned and then held (outside this history) is not taken off the plan by an undo.
    made = edits.plan_session(store, cycle.id, date(2026, 9, 23))
    coaching_sessions.close_held(store, made.row.id, reason="Short check-in")
    with pytest.raises(edits.UndoRefused, match=f"coaching session {made.row.id}: not taken back"):
        made.undo(store)


def test_a_session_held_with_its_notes_score_and_the_last_action_is_taken_back_in_one_step(store):
    cycle = _cycle(store, model="oskar")
    first, second = coaching_sessions.list_sessions(store, cycle.id)[:2]
    before = dump(store)
    for write in (lambda: edits.write_stage_note(store, first.id, "scaling", "About half the calls"),
                  lambda: edits.score_session(store, first.id, 5)):
        after, redo = _undo_redo(store, write())
        assert dump(store) == before
        redo.undo(store)
        assert dump(store) == after
        before = after
    held = edits.hold_session(store, first.id, practice_action="Role-play the next-step question twice",
                              action_owner="Morgan Manager", evidence_place="the next two recordings",
                              stage_notes={"outcome": "Next steps with dates"}, oskar_score=6)
    assert held.row.status == SessionStatus.HELD
    after, redo = _undo_redo(store, held)
    row = coaching_sessions.get_session(store, first.id)
    assert (row.status, row.oskar_score, row.practice_action) == (SessionStatus.PLANNED, 5, "")
    assert dump(store) == before
    redo.undo(store)
    assert dump(store) == after

    before = dump(store)
    made = edits.hold_session(store, second.id, reason="Short check-in only", previous_id=first.id,
                              previous_done=True)
    assert set(made.ids) == {first.id, second.id}
    after, redo = _undo_redo(store, made)
    assert coaching_sessions.get_session(store, first.id).action_done is None
    assert coaching_sessions.get_session(store, second.id).status == SessionStatus.PLANNED
    assert dump(store) == before
    redo.undo(store)
    assert dump(store) == after

    before = dump(store)
    made = edits.mark_action_done(store, first.id, False)
    after, redo = _undo_redo(store, made)
    assert coaching_sessions.get_session(store, first.id).action_done is True and dump(store) == before
    redo.undo(store)
    assert dump(store) == after

    before = dump(store)
    made = edits.save_session_notes(store, second.id, {"outcome": "Dates on every next step"}, score=7,
                                    takes_score=True)
    after, redo = _undo_redo(store, made)
    assert dump(store) == before
    redo.undo(store)
    assert coaching_sessions.get_session(store, second.id).oskar_score == 7 and dump(store) == after


def test_an_observation_and_a_review_are_deleted_by_undo_and_come_back_the_same(store):
    cycle = _cycle(store)
    item = items.create_item(store, [], manager="Morgan Manager", behavior_text=BEHAVIOR)
    cycles.attach_item(store, cycle.id, item.id)
    before = dump(store)
    made = edits.record_observation(store, source="pipeline_review", seen="yes", item_id=item.id,
                                    observed_on=date(2026, 10, 12), evidence="Dates on both deals",
                                    uses_customer_evidence=True)
    assert made.touches(OBSERVATIONS) and made.row.seen == Seen.YES
    after, redo = _undo_redo(store, made)
    assert observations.list_observations(store, item_id=item.id) == []
    assert dump(store) == before
    redo.undo(store)
    assert dump(store) == after
    assert [o.id for o in observations.list_observations(store, item_id=item.id)] == [made.row.id]

    before = dump(store)
    made = edits.check_next_two(store, item.id, date(2026, 10, 13))
    pending = observations.list_observations(store, item_id=item.id, pending=True)
    assert len(pending) == 2
    filled = edits.fill_observation(store, pending[0].id, seen="no", evidence="No date asked")
    filled.undo(store)
    assert observations.list_observations(store, item_id=item.id, pending=True) == pending
    made.undo(store)
    assert dump(store) == before

    before = dump(store)
    made = edits.decide_review(store, item.id, ReviewDecision.ADAPT, "Only with the coach on the line",
                               date(2026, 10, 20))
    after, redo = _undo_redo(store, made)
    assert observations.list_reviews(store, item_id=item.id) == [] and dump(store) == before
    redo.undo(store)
    assert dump(store) == after


def test_an_item_put_in_a_cycle_from_the_item_editor_comes_out_with_undo(store):
    cycle = _cycle(store)
    item = items.create_item(store, manager="Morgan Manager", behavior_text=BEHAVIOR)
    before = dump(store)
    made = edits.attach_item(store, cycle.id, item.id)
    assert items.get_item(store, item.id).cycle_id == cycle.id and item.id in made.ids
    after, redo = _undo_redo(store, made)
    assert items.get_item(store, item.id).cycle_id is None
    assert dump(store) == before
    redo.undo(store)
    assert dump(store) == after
