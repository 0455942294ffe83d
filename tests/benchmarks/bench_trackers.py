"""Tracker counts on a 5,000-call library (the search benchmark's generated one; quick: 500 calls).

tracker_recount_ms: one call's recount for every tracker after a new transcript of ~100 lines is
saved (median over 20 calls; what the suggestions hook runs; target <= 50);
tracker_library_s: a new tracker ("Security review", three phrases) counted over the whole library,
as the window runs it in the background (target <= 5);
tracker_library_common_s: the same for a tracker on one of the library's most frequent words
(`budget*`, on about a third of all lines), where the index narrows little: the hard case, reported;
tracker_library_shipped_s: the six shipped trackers counted after the upgrade adds them, reported;
tracker_library_frame_ms_max: the longest the GUI thread waited while a new tracker was counted through
the window's background helper (run_task), a 5 ms timer ticking on the GUI thread (target <= 50, as the
detection pass's own figure).
"""

from __future__ import annotations

import random
import statistics
import tempfile
import time
from pathlib import Path

from tests.benchmarks.bench_detect_library import _with_roles, frame_gaps
from tests.benchmarks.bench_search import VOCAB, WORDS_PER_SEGMENT, build


def _whole(store, name: str, phrases: list[str]) -> tuple[float, int]:
    from desktop.services import trackers

    trackers.add(store, name, "either", phrases)
    started = time.perf_counter()
    steps = list(trackers.recount_library(store))
    return time.perf_counter() - started, steps[-1].hits


def _frame_gaps(store, name: str, phrases: list[str]) -> list[float]:
    import os

    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    from desktop.services import trackers
    from desktop.services.library_pass import paced
    from desktop.ui.trackers import PAUSE_S  # imported before the timer starts, as in a running window

    app = QApplication.instance() or QApplication([])
    trackers.add(store, name, "either", phrases)

    def count():  # as the window runs it: paced progress, resting now and then (desktop.ui.trackers)
        yield from paced(trackers.recount_library(store, pause_s=PAUSE_S))

    return sorted(frame_gaps(app, count)[1])


def run(quick: bool) -> dict[str, float]:
    from db.store import open_store
    from desktop.services import trackers, transcripts
    from desktop.transcription.segments import Segment

    calls = 500 if quick else 5000
    rng = random.Random(5)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "library.sqlite3"
        build(path, calls)
        _with_roles(path, calls)
        store = open_store(path)
        try:
            started = time.perf_counter()
            trackers.ensure_counted(store)
            shipped = time.perf_counter() - started
            new_s, new_hits = _whole(store, "Security review", ["security review", "legal * security",
                                                                "security question*"])
            common_s, common_hits = _whole(store, "Budget talk", ["budget*"])
            gaps = _frame_gaps(store, "Pilot plans", ["pilot*", "trial * contract"])
            times = []
            for call_id in rng.sample(range(1, calls + 1), 20):
                lines = [Segment(n * 9000, n * 9000 + 8000, "Rep" if n % 2 else "Customer",
                                 " ".join(rng.choices(VOCAB, k=WORDS_PER_SEGMENT))) for n in range(100)]
                transcripts.save_transcript(store, call_id, lines, origin="import", suggest=False)
                t = time.perf_counter()
                trackers.recount_call(store, call_id)
                times.append((time.perf_counter() - t) * 1000)
        finally:
            store.close()
    return {
        "tracker_calls": calls,
        "tracker_recount_ms": round(statistics.median(times), 1),
        "tracker_recount_ms_max": round(max(times), 1),
        "tracker_library_s": round(new_s, 2),
        "tracker_library_hits": new_hits,
        "tracker_library_common_s": round(common_s, 2),
        "tracker_library_common_hits": common_hits,
        "tracker_library_shipped_s": round(shipped, 2),
        "tracker_library_frame_ms_max": round(gaps[-1], 1),
    }
