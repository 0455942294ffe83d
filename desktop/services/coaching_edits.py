"""The coaching screens' writes as coach edits: each wraps the plain service function (which the
command line keeps calling) and returns a Change whose undo puts back the rows it touched.

Cycles, sessions, observations and reviews are small rows, so each operation keeps the rows in its
reach as they were before and after the write (their ids and every column). Undo writes the "before"
back, redo the "after": a row the write made is deleted and comes back under the same id, so a
later edit of it (a session planned, then marked missed) still finds it on redo. A row that is to be
deleted but changed since, or a new cycle that something else now refers to, is not taken away:
the undo is refused and says why (the store keeps the coach's newer work).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from datetime import date
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from db.models import (
    Call, CoachingItem, CoachingSession, Cycle, FocusChange, Observation, ParkedObservation, Person, Review,
)
from db.store import Store
from desktop.errors import CallmarkError
from desktop.services import coaching_sessions, cycles, observations
from desktop.services.changes import CYCLES, ITEMS, OBSERVATIONS, SESSIONS, Change, change

__all__ = ["UndoRefused", "choose_focus", "choose_model", "write_baseline", "start_cycle", "plan_session",
           "move_session", "miss_session", "write_stage_note", "score_session", "mark_action_done",
           "hold_session", "save_session_notes", "record_observation", "fill_observation", "check_next_two", "decide_review", "attach_item"]

# Parents first: rows are put back in this order and taken away in the reverse one.
_ORDER = (Person, Cycle, CoachingItem, CoachingSession, FocusChange, Observation, Review)

State = dict[type, dict[int, dict | None]]  # model -> id -> its columns, or None: not there
Scope = Callable[[Session, Any], dict[type, list[int]]]  # the rows in reach (row: None before the write)


class UndoRefused(CallmarkError):
    """The undo would take away something the coach wrote or linked since."""


def _columns(obj) -> dict:
    return {a.key: copy.deepcopy(getattr(obj, a.key)) for a in type(obj).__mapper__.column_attrs}


def _read(session: Session, ids: dict[type, set[int]]) -> State:
    state: State = {}
    for model, wanted in ids.items():
        state[model] = {}
        for i in wanted:
            obj = session.get(model, i)
            state[model][i] = _columns(obj) if obj is not None else None
    return state


def _person_used(session: Session, person_id: int) -> bool:
    checks = ((Call.manager_id, Call.rep_id), (CoachingItem.manager_id, CoachingItem.coach_id),
              (Cycle.manager_id, Cycle.coach_id), (ParkedObservation.manager_id, ParkedObservation.coach_id))
    return any(session.scalar(select(func.count()).where((a == person_id) | (b == person_id)))
               for a, b in checks)


def _check_cycle_free(session: Session, cycle_id: int, target: State) -> None:
    gone = {m: {i for i, cols in rows.items() if cols is None} for m, rows in target.items()}
    for model, what in ((CoachingItem, "coaching item"), (Observation, "observation"), (Review, "review"),
                        (FocusChange, "focus change"), (CoachingSession, "session")):
        used = [i for i in session.scalars(select(model.id).where(model.cycle_id == cycle_id))
                if i not in gone.get(model, set())]
        if used:
            raise UndoRefused(f"cycle {cycle_id}: not taken back: {what} {used[0]} belongs to it now")


def _put(store: Store, target: State, leaving: State) -> None:
    """Write ``target``; ``leaving`` is what the rows were after the step being taken back."""
    with store.write() as session:
        for model in reversed(_ORDER):
            for i, cols in target.get(model, {}).items():
                obj = session.get(model, i)
                if cols is not None or obj is None:
                    continue
                if model is Person:
                    if _person_used(session, i):
                        continue  # someone else's call or item names them now: they stay
                elif model is Cycle:
                    _check_cycle_free(session, i, target)
                elif _columns(obj) != leaving.get(model, {}).get(i):
                    raise UndoRefused(f"{model.__tablename__.replace('_', ' ')} {i}: not taken back: "
                                      "it was changed since")
                session.delete(obj)
            session.flush()
        for model in _ORDER:
            for i, cols in target.get(model, {}).items():
                if cols is None:
                    continue
                obj = session.get(model, i)
                if obj is None:
                    session.add(model(**copy.deepcopy(cols)))
                else:
                    for key, value in cols.items():
                        setattr(obj, key, copy.deepcopy(value))
            session.flush()


def _step(label: str, parts: tuple[str, ...], ids, row, back: State, forward: State) -> Change:
    def undo(s: Store) -> Change:
        # The redo puts back what is there now: after typing merged into one step, the last text.
        with s.read() as session:
            now = _read(session, {m: set(rows) for m, rows in back.items()})
        _put(s, back, forward)
        return _step(label, parts, ids, None, now, back)

    return change(label, *parts, ids=ids, row=row, undo=undo)


def _tracked(store: Store, label: str, parts: tuple[str, ...], scope: Scope, write: Callable[[], Any],
             ids: Callable[[Any], list[int]]) -> Change:
    with store.read() as session:
        reach = {m: set(v) for m, v in scope(session, None).items()}
        before = _read(session, reach)
    row = write()
    with store.read() as session:
        for model, more in scope(session, row).items():
            reach.setdefault(model, set()).update(more)
        after = _read(session, reach)
    for model, wanted in reach.items():  # rows the write made were not there before
        for i in wanted:
            before.setdefault(model, {}).setdefault(i, None)
    if before == after:  # the same focus or model chosen again: told, but nothing to take back
        return change(label, *parts, ids=ids(row), row=row)
    return _step(label, parts, ids(row), row, before, after)


# --- cycles ----------------------------------------------------------------------------------


def _cycle_scope(cycle_id: int) -> Scope:
    def scope(session: Session, _row) -> dict[type, list[int]]:
        return {Cycle: [cycle_id],
                FocusChange: list(session.scalars(select(FocusChange.id).where(FocusChange.cycle_id == cycle_id)))}
    return scope


def choose_focus(store: Store, cycle_id: int, behavior: str, *, on: date | None = None,
                 reason: str | None = None) -> Change:
    """Set the focus behavior (``cycles.set_focus``); undo puts the old one back and drops the kept change."""
    return _tracked(store, "Set focus", (CYCLES,), _cycle_scope(cycle_id),
                    lambda: cycles.set_focus(store, cycle_id, behavior, on=on, reason=reason),
                    lambda row: [cycle_id])


def attach_item(store: Store, cycle_id: int, item_id: int) -> Change:
    """The item worked on in this cycle (``cycles.attach_item``); undo puts its cycle and manager back."""
    return _tracked(store, "Work on item in cycle", (ITEMS, CYCLES), lambda _s, _row: {CoachingItem: [item_id]},
                    lambda: cycles.attach_item(store, cycle_id, item_id), lambda _row: [item_id, cycle_id])


def choose_model(store: Store, cycle_id: int, model) -> Change:
    """The cycle's conversation model (``cycles.set_model``); undo puts the old model back."""
    return _tracked(store, "Conversation model", (CYCLES, SESSIONS), _cycle_scope(cycle_id),
                    lambda: cycles.set_model(store, cycle_id, model), lambda row: [cycle_id])


def write_baseline(store: Store, cycle_id: int, notes: str) -> Change:
    """The baseline notes (``cycles.set_baseline_notes``); typing them is one undo step in the window."""
    return _tracked(store, "Edit baseline", (CYCLES,), _cycle_scope(cycle_id),
                    lambda: cycles.set_baseline_notes(store, cycle_id, notes), lambda row: [cycle_id])


def start_cycle(store: Store, manager: str, start, **options) -> Change:
    """A new cycle with its planned sessions (``cycles.add_cycle``); undo deletes it while nothing
    else refers to it (and the manager, if this cycle first named them)."""
    with store.read() as session:
        people = set(session.scalars(select(Person.id)))

    def scope(session: Session, row) -> dict[type, list[int]]:
        if row is None:
            return {}
        return {Cycle: [row.id],
                CoachingSession: list(session.scalars(select(CoachingSession.id)
                                                      .where(CoachingSession.cycle_id == row.id))),
                Person: [i for i in session.scalars(select(Person.id)) if i not in people]}

    return _tracked(store, "New cycle", (CYCLES, SESSIONS), scope,
                    lambda: cycles.add_cycle(store, manager, start, **options), lambda row: [row.id])


# --- sessions --------------------------------------------------------------------------------


def _session_scope(*session_ids: int | None) -> Scope:
    return lambda _session, _row: {CoachingSession: [i for i in session_ids if i is not None]}


def _session_op(store: Store, label: str, session_id: int, write, *others: int | None) -> Change:
    return _tracked(store, label, (SESSIONS,), _session_scope(session_id, *others), write,
                    lambda row: [session_id, *(i for i in others if i is not None)])


def plan_session(store: Store, cycle_id: int, planned) -> Change:
    """A session on another day of the cycle (``add_session``); undo takes it off the plan."""
    return _tracked(store, "Plan a session", (SESSIONS,),
                    lambda _s, row: {CoachingSession: [row.id]} if row is not None else {},
                    lambda: coaching_sessions.add_session(store, cycle_id, planned),
                    lambda row: [row.id, cycle_id])


def move_session(store: Store, session_id: int, planned) -> Change:
    return _session_op(store, "Move a session", session_id,
                       lambda: coaching_sessions.move_session(store, session_id, planned))


def miss_session(store: Store, session_id: int, reason: str | None = None) -> Change:
    return _session_op(store, "Mark missed", session_id,
                       lambda: coaching_sessions.mark_missed(store, session_id, reason))


def write_stage_note(store: Store, session_id: int, stage: str, text: str) -> Change:
    return _session_op(store, "Session notes", session_id,
                       lambda: coaching_sessions.save_stage_note(store, session_id, stage, text))


def score_session(store: Store, session_id: int, score: int | None) -> Change:
    return _session_op(store, "Scale score", session_id,
                       lambda: coaching_sessions.set_score(store, session_id, score))


def mark_action_done(store: Store, session_id: int, done: bool | None) -> Change:
    return _session_op(store, "Practice action done", session_id,
                       lambda: coaching_sessions.set_action_done(store, session_id, done))


def hold_session(store: Store, session_id: int, *, previous_id: int | None = None,
                 previous_done: bool | None = None, **fields) -> Change:
    """Close the session as held (``close_held``), and with it whether the last session's action was
    done: one step, so one undo puts both back."""
    def write():
        row = coaching_sessions.close_held(store, session_id, **fields)
        if previous_id is not None:
            coaching_sessions.set_action_done(store, previous_id, previous_done)
        return row

    return _session_op(store, "Close session as held", session_id, write, previous_id)


def save_session_notes(store: Store, session_id: int, notes: dict[str, str], *, score=None,
                       takes_score: bool = False, previous_id: int | None = None,
                       previous_done: bool | None = None) -> Change:
    """The guide's "Save notes": every stage's note, the score, the last action's outcome, one step."""
    def write():
        row = None
        for stage, text in notes.items():
            row = coaching_sessions.save_stage_note(store, session_id, stage, text)
        if takes_score:
            row = coaching_sessions.set_score(store, session_id, score)
        if previous_id is not None:
            coaching_sessions.set_action_done(store, previous_id, previous_done)
        return row

    return _session_op(store, "Session notes", session_id, write, previous_id)


# --- observations and reviews ------------------------------------------------------------------


def record_observation(store: Store, **fields) -> Change:
    """One observation (``observations.record``); undo deletes it."""
    return _tracked(store, "Record observation", (OBSERVATIONS,),
                    lambda _s, row: {Observation: [row.id]} if row is not None else {},
                    lambda: observations.record(store, **fields), lambda row: [row.id])


def fill_observation(store: Store, observation_id: int, **fields) -> Change:
    """Fill in an observation (``observations.fill``); undo puts what it said back."""
    return _tracked(store, "Fill in observation", (OBSERVATIONS,),
                    lambda _s, _row: {Observation: [observation_id]},
                    lambda: observations.fill(store, observation_id, **fields), lambda row: [observation_id])


def check_next_two(store: Store, item_id: int, on: date | None = None) -> Change:
    """The two recordings to check (``check_next_two_recordings``); undo takes both away."""
    return _tracked(store, "Check the next two recordings", (OBSERVATIONS,),
                    lambda _s, rows: {Observation: [r.id for r in rows]} if rows is not None else {},
                    lambda: observations.check_next_two_recordings(store, item_id, on),
                    lambda rows: [item_id, *(r.id for r in rows)])


def decide_review(store: Store, item_id: int, decision, rationale: str = "", on=None) -> Change:
    """The coach's review decision (``observations.record_review``); undo deletes it."""
    return _tracked(store, "Record review", (OBSERVATIONS, ITEMS),
                    lambda _s, row: {Review: [row.id]} if row is not None else {},
                    lambda: observations.record_review(store, item_id, decision, rationale, on),
                    lambda row: [row.id, item_id])
