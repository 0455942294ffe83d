"""The coaching queue and the baseline table for a manager with many calls.

The search benchmark's generated calls (~100 lines each) with a rep and a customer, all Morgan's and
dated across a cycle, read once by the detection pass (as the library pass does after start-up).
queue_ms_500 / baseline_ms_500: the median of `callmark queue` and `callmark cycles baseline`'s work over
500 calls (quick: 150); targets 200 ms each. proposed_ms_500: the observations proposed from the calls
after a session held on day 1 (reported).
"""

from __future__ import annotations

import sqlite3
import statistics
import tempfile
import time
from pathlib import Path

from tests.benchmarks.bench_detect_library import _with_roles
from tests.benchmarks.bench_search import build


def managers_library(folder: Path, calls: int):
    """A store in `folder` with `calls` generated calls, all Morgan's and dated across a cycle from 1 November,
    read once by the detection pass: (the open store, the cycle)."""
    from db.store import open_store
    from desktop.services import cycles
    from desktop.services.suggestions import refresh_library

    path = folder / "manager.sqlite3"
    build(path, calls)
    _with_roles(path, calls)
    store = open_store(path)
    cycle = cycles.add_cycle(store, "Morgan Manager", "2026-11-01")
    store.close()
    con = sqlite3.connect(path)
    with con:
        manager = con.execute("SELECT id FROM person WHERE name = 'Morgan Manager'").fetchone()[0]
        con.executemany("UPDATE call SET manager_id = ?, recorded_at = ? WHERE id = ?",
                        [(manager, f"2026-11-{1 + c % 28:02d} 10:00:00.000000", c) for c in range(1, calls + 1)])
    con.close()
    store = open_store(path)
    for _ in refresh_library(store):
        pass
    return store, cycle


def run(quick: bool) -> dict[str, float]:
    from desktop.services import coaching_queue

    calls = 150 if quick else 500
    with tempfile.TemporaryDirectory() as tmp:
        store, cycle = managers_library(Path(tmp), calls)
        try:
            queue_ms, baseline_ms = [], []
            for _ in range(7):
                t = time.perf_counter()
                entries = coaching_queue.queue(store, "Morgan Manager", limit=50)  # as `callmark queue` shows
                queue_ms.append((time.perf_counter() - t) * 1000)
                t = time.perf_counter()
                coaching_queue.baseline(store, cycle.id)
                baseline_ms.append((time.perf_counter() - t) * 1000)
            every = coaching_queue.queue(store, "Morgan Manager")
            proposals, proposed_ms = _proposals(store, cycle.id)
        finally:
            store.close()
    return {"queue_calls": calls, "queue_entries": len(every), "queue_shown": len(entries),
            f"queue_ms_{calls}": round(statistics.median(queue_ms), 1),
            f"baseline_ms_{calls}": round(statistics.median(baseline_ms), 1),
            "proposed_observations": proposals, f"proposed_ms_{calls}": proposed_ms}


def _proposals(store, cycle_id: int) -> tuple[int, float]:
    """The observations proposed from every call after a session held on day 1 (the Observations to confirm
    tab reads them on each change): the focus tied to the missed follow-up detector."""
    from datetime import date

    from desktop.core.adoption import proposed_focus
    from desktop.services import adoption, coaching_sessions

    # The generated calls have pains, budget owners and objections, and follow-ups missed; no deferral.
    behavior, indicator = proposed_focus("missed_follow_up")
    adoption.set_focus_from_pattern(store, cycle_id, "missed_follow_up", behavior, indicator, on=date(2026, 11, 1))
    first = coaching_sessions.list_sessions(store, cycle_id)[0]
    coaching_sessions.close_held(store, first.id, practice_action="Role-play a deferral", action_owner="Morgan",
                                 evidence_place="the next calls", held_on=date(2026, 11, 1))
    times, found = [], []
    for _ in range(7):
        t = time.perf_counter()
        found = adoption.proposed(store, cycle_id, date(2026, 11, 30))
        times.append((time.perf_counter() - t) * 1000)
    return len(found), round(statistics.median(times), 1)
