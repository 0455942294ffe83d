"""One manager's leading-indicator dashboard over 2,000 calls.

dashboard_ms: the median of the dashboard's work for one manager's cycle, from the store to the painted
widget (`indicators.report` — the six figures, the weekly series, each item's quality, the adoption read
from the later calls — then `DashboardView.show_report`), over a manager with 2,000 calls dated in the
cycle (the search benchmark's generated calls, read once by the detection pass), a focus tied to the
missed follow-up detector and a session held on day 1, so every later call is read for adoption.
dashboard_first_ms is the first time in the process (each call's cached findings parsed once);
dashboard_ms the median of the six after it, as the dashboard is drawn again on each change (only
calls whose findings were written again are parsed again). Target 300 ms. Quick: 500 calls.
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

from tests.benchmarks.bench_queue import managers_library


def run(quick: bool) -> dict[str, float]:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    from desktop.core.adoption import proposed_focus
    from desktop.services import adoption, coaching_sessions, indicators
    from desktop.ui.coaching.dashboard import DashboardView

    app = QApplication.instance() or QApplication(sys.argv[:1])
    calls = 500 if quick else 2000
    with tempfile.TemporaryDirectory() as tmp:
        store, cycle = managers_library(Path(tmp), calls)
        try:
            behavior, indicator = proposed_focus("missed_follow_up")
            adoption.set_focus_from_pattern(store, cycle.id, "missed_follow_up", behavior, indicator,
                                            on=date(2026, 11, 1))
            first = coaching_sessions.list_sessions(store, cycle.id)[0]
            coaching_sessions.close_held(store, first.id, practice_action="Role-play a deferral", action_owner="Morgan",
                                         evidence_place="the next calls", held_on=date(2026, 11, 1))
            view = DashboardView()
            view.resize(1280, 800)
            view.show()
            times = []
            for _ in range(7):
                t = time.perf_counter()
                report = indicators.report(store, cycle_id=cycle.id, as_of=date(2026, 11, 30))
                view.show_report(report)
                app.processEvents()  # painted
                times.append((time.perf_counter() - t) * 1000)
            view.close()
        finally:
            store.close()
    return {"dashboard_calls": calls, "dashboard_first_ms": round(times[0], 1),
            "dashboard_ms": round(statistics.median(times[1:]), 1), "dashboard_ms_max": round(max(times[1:]), 1)}


if __name__ == "__main__":
    print(run("--quick" in sys.argv))
