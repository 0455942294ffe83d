"""The detection pass over a whole library, in the background of a running window: how long the GUI
thread ever waits while it runs.

The library is the search benchmark's generated one (5,000 calls of ~100 lines; quick: 300) with a rep
and a customer on every call. The pass runs through the app's one background helper (run_task, as the
window runs it after start-up) while a 5 ms timer on the GUI thread records every gap between its ticks.

detect_library_frame_ms_max: the longest the GUI thread waited (target: no frame over 50 ms);
detect_library_frame_ms_p99; detect_library_s: the whole pass; detect_library_unchanged_s: the same pass
again, every transcript unchanged (the cache answers).
"""

from __future__ import annotations

import os
import sqlite3
import tempfile
import time
from pathlib import Path

from tests.benchmarks.bench_search import build


def _with_roles(path: Path, calls: int) -> None:
    con = sqlite3.connect(path)
    with con:
        con.executemany("INSERT INTO speaker (call_id, label, name, role) VALUES (?, ?, ?, ?)",
                        [(c, label, label, role) for c in range(1, calls + 1)
                         for label, role in (("Rep", "rep"), ("Customer", "customer"))])
    con.close()


def frame_gaps(app, work) -> tuple[float, list[float]]:
    """Run the generator function `work` through the window's one background helper (run_task) while a 5 ms
    timer ticks on the GUI thread: (seconds it took, the gaps between ticks in ms — each a frame's length)."""
    from PySide6.QtCore import QTimer

    from desktop.ui.tasks import run_task

    gaps: list[float] = []
    last = [time.perf_counter()]

    def tick() -> None:
        now = time.perf_counter()
        gaps.append((now - last[0]) * 1000)
        last[0] = now

    timer = QTimer()
    timer.setInterval(5)
    timer.timeout.connect(tick)
    done = []
    started = time.perf_counter()
    timer.start()
    run_task(work, lambda _r: done.append(True), on_error=lambda exc: done.append(exc),
             on_progress=lambda _p: None)
    while not done:
        app.processEvents()
        time.sleep(0.001)
    timer.stop()
    if done[0] is not True:
        raise done[0]
    return time.perf_counter() - started, gaps


def _timed_pass(app, store) -> tuple[float, list[float]]:
    from desktop.services.library_pass import paced
    from desktop.services.suggestions import refresh_library

    def every_call():  # as the window runs it (desktop.ui.controllers.suggestions.run_over_library)
        return (yield from paced(refresh_library(store)))

    return frame_gaps(app, every_call)


def run(quick: bool) -> dict[str, float]:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    from db.store import open_store

    calls = 300 if quick else 5000
    app = QApplication.instance() or QApplication([])
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "library.sqlite3"
        build(path, calls)
        _with_roles(path, calls)
        store = open_store(path)
        try:
            whole, gaps = _timed_pass(app, store)
            again, _ = _timed_pass(app, store)
        finally:
            store.close()
    gaps.sort()
    return {
        "detect_library_calls": calls,
        "detect_library_s": round(whole, 2),
        "detect_library_unchanged_s": round(again, 2),
        "detect_library_frame_ms_max": round(gaps[-1], 1),
        "detect_library_frame_ms_p99": round(gaps[int(len(gaps) * 0.99)], 1),
    }
