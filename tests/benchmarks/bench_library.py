"""A 10,000-call library: start-up, the filter and sorting, memory (tests/benchmarks/make_library.py makes it).

- library_start_ratio: a fresh process started as bare `callmark` (the last call opened, the library
  listed) until the window is painted with every call in the library's list and the event loop idle,
  with 10,000 calls ÷ the same with 100 calls (same lines and moments per call). Timed from the
  parent's spawn (CLOCK_MONOTONIC is system-wide); interleaved, medians of 7 (3 with --quick)
  (`library_start_10k_s`, `library_start_100_s`).
- library_filter_ms_p95: with 10,000 calls, one keystroke in the library filter (typing
  "discovery acme 1" and deleting it again, key by key), or one click on a column to sort, until
  the table is repainted; p95 over all of them (`library_filter_ms_p50`).
- rss_mb_10k: resident memory of the app with the 10,000-call library listed, a call open and the
  warm-up done (panels made).

`--quick`: 30 lines per call instead of 300 (the library list reads no lines; the store is smaller).
Stores are cached in ~/.cache/callmark-bench (or $CALLMARK_BENCH_CACHE).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def _library(calls: int, lines: int) -> Path:
    from tests.benchmarks.bench_transcribe import _cache_dir
    from tests.benchmarks.make_library import make_library

    home = _cache_dir() / f"library-{calls}-{lines}-v1"
    if not (home / "ready").exists():
        import shutil

        shutil.rmtree(home, ignore_errors=True)
        make_library(home, calls=calls, lines=lines)
        (home / "ready").write_text("made\n")
    return home


def _env(home: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(QT_QPA_PLATFORM="offscreen", CALLMARK_HOME=str(home), CALLMARK_VLC_ARGS="--aout=dummy --vout=dummy",
               XDG_CONFIG_HOME=str(home / "config"))
    return env


def _child_run(mode: str, home: Path, calls: int) -> dict:
    started = time.monotonic()
    out = subprocess.run([sys.executable, "-m", "tests.benchmarks.bench_library", "--child", mode, str(calls)],
                         capture_output=True, text=True, cwd=REPO, env=_env(home), timeout=600)
    if out.returncode != 0:
        raise RuntimeError(f"benchmark child {mode} failed:\n{out.stderr[-3000:]}")
    result = json.loads(out.stdout.strip().splitlines()[-1])
    if "ready_at" in result:
        result["ready_s"] = result["ready_at"] - started
    return result


def run(quick: bool) -> dict[str, float]:
    subprocess.run([sys.executable, "-m", "compileall", "-q", "desktop", "db", "tests"], cwd=REPO, check=True,
                   capture_output=True)
    lines = 30 if quick else 300
    big, small = _library(10_000, lines), _library(100, lines)
    repeats = 3 if quick else 7
    _child_run("start", big, 10_000)  # once each first: both read from the page cache after
    _child_run("start", small, 100)
    big_s, small_s = [], []
    for _ in range(repeats):
        small_s.append(_child_run("start", small, 100)["ready_s"])
        big_s.append(_child_run("start", big, 10_000)["ready_s"])
    typing = _child_run("filter", big, 10_000)
    memory = _child_run("memory", big, 10_000)
    return {
        "library_start_ratio": round(statistics.median(big_s) / statistics.median(small_s), 3),
        "library_start_10k_s": round(statistics.median(big_s), 3),
        "library_start_100_s": round(statistics.median(small_s), 3),
        "library_filter_ms_p95": round(typing["p95_ms"], 1),
        "library_filter_ms_p50": round(typing["p50_ms"], 1),
        "rss_mb_10k": round(memory["rss_mb"], 1),
    }


# --- children -------------------------------------------------------------------------------------


def _spin() -> None:
    from PySide6.QtCore import QEventLoop, QTimer

    loop = QEventLoop()
    QTimer.singleShot(0, loop.quit)
    loop.exec()


def _until(ready, seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while not ready():
        if time.monotonic() > deadline:
            raise RuntimeError("the library did not show in time")
        _spin()
    _spin()


def _start(calls: int):
    import desktop.cli  # noqa: F401 - the `callmark` script's module
    from desktop.cli.gui import gui_args

    args = gui_args([])
    from desktop.app import start

    app, window, store = start(home=args.home)
    window.show()
    painted = []
    from PySide6.QtCore import QEvent, QObject

    class Painted(QObject):
        def eventFilter(self, obj, event):  # noqa: N802
            if event.type() == QEvent.Type.Paint:
                painted.append(True)
            return False

    seen = Painted()
    window.library.table.viewport().installEventFilter(seen)
    _until(lambda: painted and window.library_model.shown_count() == calls and window.workspace.call is not None)
    return app, window, store, seen


def _settled(window) -> None:
    import gc

    from desktop.ui.panels import PendingPanel

    tabs = window.view.inspector
    _until(lambda: window.warmup.finished and getattr(window, "transcription", None) is not None
           and not any(isinstance(tabs.widget(i), PendingPanel) for i in range(tabs.count())))
    for _ in range(20):
        _spin()
    gc.collect()  # the start-up objects unfrozen after the warm-up: their first collection is not a keystroke's


def _child_start(calls: int) -> dict:
    _app, window, store, _seen = _start(calls)
    result = {"ready_at": time.monotonic()}
    window.close()
    store.close()
    return result


def _child_filter(calls: int) -> dict:
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    _app, window, store, _seen = _start(calls)
    _settled(window)  # the warm-up and the inspector's panels in: a coach typing now meets a settled window
    lib = window.library
    lib.filter.setFocus()
    times = []

    def timed(act) -> None:
        start = time.perf_counter()
        act()
        lib.table.viewport().repaint()
        _spin()
        times.append((time.perf_counter() - start) * 1000)

    gc_ms = []
    if os.environ.get("CALLMARK_BENCH_DETAIL"):
        import gc

        began = {}
        gc.callbacks.append(lambda phase, info: began.__setitem__("t", time.perf_counter()) if phase == "start"
                            else gc_ms.append((info["generation"], round((time.perf_counter() - began["t"]) * 1000, 1))))
    text = "discovery acme 1"
    for _ in range(2):
        for ch in text:
            timed(lambda c=ch: QTest.keyClicks(lib.filter, c))
        for _ch in text:
            timed(lambda: QTest.keyClick(lib.filter, Qt.Key.Key_Backspace))
        for col in range(7):
            for order in (Qt.SortOrder.AscendingOrder, Qt.SortOrder.DescendingOrder):
                timed(lambda c=col, o=order: lib.table.sortByColumn(c, o))
    if os.environ.get("CALLMARK_BENCH_DETAIL"):
        print(json.dumps([round(t, 1) for t in times]), file=sys.stderr)
        print("gc", [g for g in gc_ms if g[1] > 2], file=sys.stderr)
    times.sort()
    window.close()
    store.close()
    return {"p95_ms": times[int(0.95 * (len(times) - 1))], "p50_ms": statistics.median(times), "n": len(times)}


def _child_memory(calls: int) -> dict:
    _app, window, store, _seen = _start(calls)
    _settled(window)
    with open("/proc/self/status", encoding="ascii") as fh:
        rss = next(int(line.split()[1]) / 1024 for line in fh if line.startswith("VmRSS:"))
    window.close()
    store.close()
    return {"rss_mb": rss}


def _child(argv: list[str]) -> None:
    mode, calls = argv[0], int(argv[1])
    result = {"start": _child_start, "filter": _child_filter, "memory": _child_memory}[mode](calls)
    print(json.dumps(result), flush=True)
    os._exit(0)  # as bench_workspace: skip Qt and libvlc teardown once the figures are out


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        _child(sys.argv[2:])
    else:
        for key, value in run(quick="--quick" in sys.argv).items():
            print(f"{key:>24}  {value}")
