"""Opening a 2-hour call in the workspace, switching calls, and memory with it open.

Each measurement runs in a fresh child process, so imports are counted the
same way for the app and for the baseline:

- ``open_call_ratio``: (start a process that builds the main window, opens a
  2-hour call with 3,000 transcript lines and 200 moments and shows it, until
  the event loop is idle) ÷ (start a process that shows an empty PySide6
  QMainWindow, until the event loop is idle). Both timed from the parent's
  spawn to the instant the child reports (CLOCK_MONOTONIC is system-wide),
  interleaved, median of several runs.
- ``switch_call_ms``: median time to switch between two such open calls and
  have the window painted.
- ``rss_mb_open_call``: resident memory of the app with that call open and its
  waveform drawn.

The media is a long silent FLAC made with sox; the data goes into a temporary
store. Run alone: ``.venv/bin/python -m tests.benchmarks.bench_workspace [--quick]``.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
HOUR_MS = 3_600_000


def _make_media(path: Path, seconds: int) -> Path:
    subprocess.run(["sox", "-n", "-r", "8000", "-c", "1", str(path), "trim", "0", str(seconds)],
                   check=True, capture_output=True)
    return path


def _fill_store(home: Path, media: list[Path], segments: int, moments: int) -> list[int]:
    from db.store import open_store
    from desktop import paths
    from desktop.services import calls, transcripts
    from desktop.services import moments as moment_service
    from desktop.services.transcripts import SegmentRow

    store = open_store(paths.store_path(paths.data_home(home)))
    ids = []
    try:
        for n, path in enumerate(media):
            call, _ = calls.add_call(store, path, title=f"Long call {n + 1}", rep="Riley Rep",
                                     manager="Morgan Manager")
            step = call.duration_ms // segments
            words = "so tell me how your team reports on delivery performance today and who signs off".split()
            rows = [SegmentRow(i * step, i * step + step - 200, "Riley" if i % 2 else "Casey",
                               " ".join(words[(i + k) % len(words)] for k in range(14)))
                    for i in range(segments)]
            transcripts.save_transcript(store, call.id, rows, origin="import")
            gap = call.duration_ms // moments
            kinds = ["question", "answer", "missed_intervention", "next_step", "other"]
            for i in range(moments):
                moment_service.add_moment(store, call.id, i * gap + 1000, i * gap + 6000, kind=kinds[i % 5],
                                          quote="tell me how your team reports", speaker="Riley",
                                          note="bench" if i % 3 == 0 else None)
            ids.append(call.id)
    finally:
        store.close()
    return ids


def _child_env(home: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(QT_QPA_PLATFORM="offscreen", CALLMARK_HOME=str(home),
               CALLMARK_VLC_ARGS="--aout=dummy --vout=dummy", XDG_CONFIG_HOME=str(home / "config"))
    return env


def _run_child(mode: str, home: Path, *args: str) -> dict:
    started = time.monotonic()
    out = subprocess.run([sys.executable, "-m", "tests.benchmarks.bench_workspace", "--child", mode, *args],
                         capture_output=True, text=True, cwd=REPO, env=_child_env(home), timeout=300)
    if out.returncode != 0:
        raise RuntimeError(f"benchmark child {mode} failed:\n{out.stderr[-3000:]}")
    result = json.loads(out.stdout.strip().splitlines()[-1])
    if "ready_at" in result:
        result["elapsed_s"] = result["ready_at"] - started
    return result


def run(quick: bool) -> dict[str, float]:
    hours = 2
    repeats = 3 if quick else 7
    with tempfile.TemporaryDirectory(prefix="callmark-bench-ws-") as tmp:
        tmp_path = Path(tmp)
        media = [_make_media(tmp_path / "long-a.flac", hours * 3600),
                 _make_media(tmp_path / "long-b.flac", hours * 3600 - 7)]
        home = tmp_path / "home"
        ids = _fill_store(home, media, segments=3000, moments=200)
        # One warm-up of each, so both sides read their libraries from the page cache.
        _run_child("empty", home)
        _run_child("open", home, str(ids[0]))
        empty, opened = [], []
        for _ in range(repeats):
            empty.append(_run_child("empty", home)["elapsed_s"])
            opened.append(_run_child("open", home, str(ids[0]))["elapsed_s"])
        switch = _run_child("switch", home, str(ids[0]), str(ids[1]))
        memory = _run_child("memory", home, str(ids[0]))
    return {
        "open_call_ratio": round(statistics.median(opened) / statistics.median(empty), 3),
        "open_call_s": round(statistics.median(opened), 3),
        "empty_window_s": round(statistics.median(empty), 3),
        "switch_call_ms": round(switch["switch_ms_p50"], 1),
        "switch_call_ms_max": round(switch["switch_ms_max"], 1),
        "rss_mb_open_call": round(memory["rss_mb"], 1),
    }


# --- children -----------------------------------------------------------------------------------


def _rss_mb() -> float:
    with open("/proc/self/status", encoding="ascii") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def _when_idle(app, then) -> None:
    from PySide6.QtCore import QTimer

    QTimer.singleShot(0, then)  # fires once the shown window's first events (expose, paint) are handled
    app.exec()


def _child_empty() -> dict:
    from PySide6.QtWidgets import QApplication, QMainWindow

    app = QApplication(sys.argv[:1])
    window = QMainWindow()
    window.resize(1360, 840)
    window.show()
    result = {}

    def ready() -> None:
        result["ready_at"] = time.monotonic()
        app.quit()

    _when_idle(app, ready)
    return result


def _open_app(call_id: int):
    from PySide6.QtWidgets import QApplication

    from db.store import open_store
    from desktop import paths
    from desktop.ui.main_window import build_main_window

    app = QApplication(sys.argv[:1])
    app.setOrganizationName("Callmark")
    app.setApplicationName("Callmark")
    home = paths.data_home()
    store = open_store(paths.store_path(home))
    window = build_main_window(store, home)
    window.open_call(call_id)
    window.show()
    return app, window, store


def _child_open(call_id: int) -> dict:
    app, window, store = _open_app(call_id)
    result = {}

    def ready() -> None:
        result["ready_at"] = time.monotonic()
        assert window.transcript_model.rowCount() == 3000 and window.moments_model.rowCount() == 200
        app.quit()

    _when_idle(app, ready)
    window.close()
    store.close()
    return result


def _child_switch(first: int, second: int) -> dict:
    app, window, store = _open_app(first)
    times = []

    def measure() -> None:
        window.open_call(second)  # both calls seen once (waveforms, caches) before timing
        app.processEvents()
        for i in range(20):
            target = first if i % 2 == 0 else second
            t0 = time.perf_counter()
            window.open_call(target)
            window.repaint()  # the switch counts until the window is painted
            app.processEvents()
            times.append((time.perf_counter() - t0) * 1000)
        app.quit()

    _when_idle(app, measure)
    window.close()
    store.close()
    return {"switch_ms_p50": statistics.median(times), "switch_ms_max": max(times)}


def _child_memory(call_id: int) -> dict:
    app, window, store = _open_app(call_id)
    from PySide6.QtCore import QTimer

    deadline = time.monotonic() + 60

    def check() -> None:
        if window.view.waveform.has_peaks() or time.monotonic() > deadline:
            app.quit()
        else:
            QTimer.singleShot(100, check)

    _when_idle(app, check)
    rss = _rss_mb()
    window.close()
    store.close()
    return {"rss_mb": rss, "peaks": window.view.waveform.has_peaks()}


def _child(argv: list[str]) -> None:
    mode, args = argv[0], [int(a) for a in argv[1:]]
    result = {"empty": _child_empty, "open": _child_open, "switch": _child_switch,
              "memory": _child_memory}[mode](*args)
    print(json.dumps(result), flush=True)
    # Skip interpreter teardown: only the figures matter here, and tearing down Qt and libvlc in
    # garbage-collection order can crash (a refcount bug outside our code) after they are printed.
    os._exit(0)


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        _child(sys.argv[2:])
    else:
        figures = run(quick="--quick" in sys.argv)
        for key, value in figures.items():
            print(f"{key:>22}  {value}")
