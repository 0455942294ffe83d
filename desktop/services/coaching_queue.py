"""Across the library: the coaching queue for a manager, and a cycle's baseline read from the calls.

The queue is the moments worth bringing into the manager's next session: the
suggestions still to review on the calls of that manager's reps, ranked —
those matching the cycle's focus first, then by how much the label matters to
the method, then the newest call first. Reviewing a suggestion (accept or
dismiss) takes it off. The baseline table counts each detection label across
the calls dated in a window of the cycle (days 1–15, or the coaching weeks
31–75 to compare), with the calls, the reps and examples to return to.

Both read the detection pass's cache (one query each), never the transcripts:
a call not read yet (the library pass reads every call after start-up, and
every new transcript) is not in them until it has been.
"""

from __future__ import annotations

import heapq
import json
from dataclasses import dataclass, field
from datetime import date, timedelta
from operator import itemgetter

from db.store import Store
from desktop.core.cycles import Phase
from desktop.errors import NotFound
from desktop.services.cycles import get_cycle

# How much each label matters to a coach (the method's missed interventions and stalls first).
LABEL_WEIGHTS = {
    "deferral_accepted": 5, "missed_follow_up": 5, "next_step_vague": 4, "rep_question_leading": 3,
    "deferral": 3, "objection": 3, "economic_buyer": 2, "decision_process": 2, "pain": 2, "critical_event": 2,
    "next_step_confirmed": 1, "rep_question_closed": 1, "price": 1, "competition": 1, "champion": 1,
    "metrics": 1, "customer_question": 0, "rep_question_open": 0,
}
# Words of a focus behavior that tie it to a label (the behavior library's wording and the coach's own).
FOCUS_WORDS = {
    "deferral_accepted": ("information", "review", "who else", "send", "deferr"),
    "deferral": ("information", "review", "who else", "deferr", "think about it"),
    "next_step_vague": ("next step", "date", "calendar", "confirm"),
    "next_step_confirmed": ("next step", "date", "confirm"),
    "missed_follow_up": ("follow up", "follow-up", "ask about", "dig", "explore"),
    "economic_buyer": ("budget", "sign", "approve", "economic buyer", "decision maker"),
    "decision_process": ("process", "approval", "procurement", "legal", "security"),
    "rep_question_leading": ("leading", "open question"),
    "rep_question_closed": ("closed question", "open question", "yes/no"),
    "rep_question_open": ("open question",),
    "objection": ("objection", "push back", "pushback"),
    "pain": ("pain", "impact", "cost"),
    "metrics": ("metric", "number", "quantif", "impact"),
    "price": ("price", "pricing", "discount"),
    "competition": ("competitor", "competition", "alternative"),
    "champion": ("champion",),
    "critical_event": ("deadline", "critical event", "by when"),
    "customer_question": ("customer's question", "customer question"),
}


def focus_labels(focus: str | None) -> set[str]:
    """The labels a cycle's focus behavior speaks of (none when there is no focus yet)."""
    text = (focus or "").lower()
    return {label for label, words in FOCUS_WORDS.items() if any(w in text for w in words)} if text else set()


@dataclass(frozen=True)
class QueueEntry:
    call: int
    title: str
    rep: str | None
    recorded_at: str | None
    start_ms: int
    end_ms: int
    label: str
    reason: str
    quote: str
    finding_id: str
    focus: bool  # matches the cycle's focus

    def to_json(self) -> dict:
        return {"call": self.call, "start_ms": self.start_ms, "label": self.label, "reason": self.reason,
                "rep": self.rep, "title": self.title, "quote": self.quote, "id": self.finding_id,
                "focus": self.focus, "end_ms": self.end_ms}


def _calls_of(store: Store, manager: str, since: date | None = None, until: date | None = None) -> list[tuple]:
    """(id, title, rep, recorded_at, findings JSON) for the manager's calls that the pass has read."""
    query = ('SELECT c.id, c.title, rep.name, c.recorded_at, s.findings FROM "call" c '
             "JOIN person manager ON manager.id = c.manager_id "
             "LEFT JOIN person rep ON rep.id = c.rep_id "
             "JOIN suggestion_cache s ON s.call_id = c.id WHERE manager.name = ?")
    params: list = [manager.strip()]
    if since is not None:
        query += " AND c.recorded_at >= ?"
        params.append(since.isoformat())
    if until is not None:
        query += " AND c.recorded_at < ?"
        params.append((until + timedelta(days=1)).isoformat())
    return store.reader().execute(query, params).fetchall()


def _judged(store: Store, call_ids: list[int]) -> set[tuple[int, str]]:
    if not call_ids:
        return set()
    marks = ",".join("?" * len(call_ids))
    return set(store.reader().execute(
        f"SELECT call_id, finding_id FROM suggestion_verdict WHERE call_id IN ({marks})", call_ids))


_MOMENT_SPAN = 10 ** 10  # more milliseconds than any call lasts (about 115 days)
_GROUP_SPAN = _MOMENT_SPAN * 10 ** 7  # more calls than any library holds, times the span of one


def queue(store: Store, manager: str, *, focus: str | None = None, limit: int | None = None) -> list[QueueEntry]:
    """The manager's queue, ranked (see the module). ``focus``: the behavior to put first (default: the
    focus of the manager's current cycle, if any)."""
    if focus is None:
        from desktop.services.cycles import current_cycle, managers_with_cycles

        if manager.strip() in managers_with_cycles(store):
            cycle = current_cycle(store, manager.strip())
            focus = cycle.focus_behavior if cycle is not None else None
    wanted = focus_labels(focus)
    calls = _calls_of(store, manager)
    judged = _judged(store, [c[0] for c in calls])
    # The newest call first (undated ones last): each call's place, worked out once for its entries.
    order = sorted(calls, key=lambda c: (c[3] is not None, str(c[3] or "")), reverse=True)
    place = {c[0]: n for n, c in enumerate(order)}
    # One integer per entry orders it (focus, then weight, then the call's place, then the moment): a
    # C-level sort of ints, where sorting tuples cost more than reading the findings.
    judged_at: dict[int, set[str]] = {}
    for call_id, finding_id in judged:
        judged_at.setdefault(call_id, set()).add(finding_id)
    top = max(LABEL_WEIGHTS.values()) + 1
    weight_of = {label: (label not in wanted) * 2 * top + top - w for label, w in LABEL_WEIGHTS.items()}
    other = 3 * top  # a label missing from the table: after every known one
    ranked = []
    add = ranked.append
    for call_id, _title, _rep, _recorded, findings in calls:
        at = place[call_id] * _MOMENT_SPAN
        skip = judged_at.get(call_id, ())
        for f in json.loads(findings):
            if f["id"] not in skip:
                add((weight_of.get(f["label"], other) * _GROUP_SPAN + at + f["start_ms"], call_id, f))
    first = itemgetter(0)
    ranked = heapq.nsmallest(limit, ranked, key=first) if limit else sorted(ranked, key=first)
    info = {c[0]: c for c in calls}
    out = []
    for _key, call_id, f in ranked:
        _id, title, rep, recorded, _f = info[call_id]
        out.append(QueueEntry(call_id, title, rep, str(recorded) if recorded else None, f["start_ms"], f["end_ms"],
                              f["label"], f["reason"], f["quote"], f["id"], f["label"] in wanted))
    return out


@dataclass
class Pattern:
    pattern: str  # a detection label or a tracker's name
    calls: int = 0
    count: int = 0
    reps: set[str] = field(default_factory=set)
    examples: list[dict] = field(default_factory=list)

    def to_json(self) -> dict:
        return {"pattern": self.pattern, "calls": self.calls, "count": self.count, "reps": sorted(self.reps),
                "examples": self.examples}


EXAMPLES = 3


def baseline(store: Store, cycle_id: int, *, window: str = "baseline") -> list[Pattern]:
    """Each pattern across the manager's calls dated in the cycle's baseline (days 1–15) or, with
    ``window="coaching"``, its coaching weeks (days 31–75): calls, times, reps, examples."""
    cycle = get_cycle(store, cycle_id)
    phase = {"baseline": Phase.BASELINE, "coaching": Phase.COACH}.get(window)
    if phase is None:
        raise NotFound(f"window {window!r}: choose baseline or coaching")
    first, last = phase.days
    start = cycle.start_date + timedelta(days=first - 1)
    end = cycle.start_date + timedelta(days=last - 1)
    table: dict[str, Pattern] = {}
    reps: dict[int, str | None] = {}

    def count(name: str, call_id: int, start_ms: int, seen_here: set[str]) -> None:
        row = table.setdefault(name, Pattern(name))
        row.count += 1
        if reps[call_id]:
            row.reps.add(reps[call_id])
        if name not in seen_here:
            seen_here.add(name)
            row.calls += 1
            if len(row.examples) < EXAMPLES:
                row.examples.append({"call": call_id, "start_ms": start_ms})

    for call_id, _title, rep, _recorded, findings in _calls_of(store, cycle.manager, start, end):
        reps[call_id] = rep
        seen_here: set[str] = set()
        for f in json.loads(findings):
            count(f["label"], call_id, f["start_ms"], seen_here)
    from desktop.services import trackers  # the other kind of pattern: the coach's named phrase sets

    names = trackers.pattern_names(store)
    if names and reps:
        for call_id, found in trackers.pattern_hits(store, names, list(reps)).items():
            seen_here = set()
            for hit in found:
                count(hit.pattern, call_id, hit.start_ms, seen_here)
    return sorted(table.values(), key=lambda p: (-p.calls, -LABEL_WEIGHTS.get(p.pattern, 0), p.pattern))
