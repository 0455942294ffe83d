"""The coaching queue and the baseline table for a manager with many calls.

The search benchmark's generated calls (~100 lines each) with a rep and a customer, all Morgan's and
dated across a cycle, read once by the detection pass (as the library pass does after start-up).
queue_ms_500 / baseline_ms_500: the median of `callmark queue` and `callmark cycles baseline`'s work over
500 calls (quick: 150); targets 200 ms each.
"""

from __future__ import annotations

import sqlite3
import statistics
import tempfile
import time
from pathlib import Path

from tests.benchmarks.bench_detect_library import _with_roles
from tests.benchmarks.bench_search import build


def run(quick: bool) -> dict[str, float]:
    from db.store import open_store
    from desktop.services import coaching_queue, cycles
    from desktop.services.suggestions import refresh_library

    calls = 150 if quick else 500
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "queue.sqlite3"
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
        try:
            for _ in refresh_library(store):
                pass
            queue_ms, baseline_ms = [], []
            for _ in range(7):
                t = time.perf_counter()
                entries = coaching_queue.queue(store, "Morgan Manager", limit=50)  # as `callmark queue` shows
                queue_ms.append((time.perf_counter() - t) * 1000)
                t = time.perf_counter()
                coaching_queue.baseline(store, cycle.id)
                baseline_ms.append((time.perf_counter() - t) * 1000)
            every = coaching_queue.queue(store, "Morgan Manager")
        finally:
            store.close()
    return {"queue_calls": calls, "queue_entries": len(every), "queue_shown": len(entries),
            f"queue_ms_{calls}": round(statistics.median(queue_ms), 1),
            f"baseline_ms_{calls}": round(statistics.median(baseline_ms), 1)}
