"""Opening a 2-hour call in the workspace, switching calls, and memory with it open.

The call has 3,000 transcript lines and 200 moments; its waveform is already in
the disk cache (the app drew it once before).

- ``open_call_ratio``: a fresh process started as `callmark --call ID` starts
  (the command's module, its window path ``desktop.cli.gui`` and
  ``desktop.app.start``; the benchmark's hooks go in after), until the coach can work: the transcript painted with
  all 3,000 lines, the 200 moments listed, keys answered (the event loop idle)
  ÷ a fresh process that shows an empty PySide6 QMainWindow until its event
  loop is idle. Imports counted on both sides; timed from the parent's spawn to
  the instant the child reports (CLOCK_MONOTONIC is system-wide); interleaved,
  medians of 11 (3 with --quick) (``cold_open_s``, ``cold_empty_s``).
- ``cold_complete_ratio`` / ``cold_complete_s``: the same start until the rest
  of the workspace is there too: the waveform drawn from its cache and the
  recording open in VLC (both start after the first paint).
  ``cold_warm_s``: until SQLAlchemy and the services are in and the
  inspector's panels made (on a background thread, then the GUI thread).
- ``open_call_ms``: in a running app (window shown, panels made, another call
  open), opening that call until complete; the in-memory copy of its peaks is
  dropped first, so it reads the disk cache like a first open.
  ``empty_window_ms`` is showing an empty QMainWindow in that same process, and
  ``open_call_inapp_ratio`` the ratio of the two (for reference: an empty
  window in a process that is already up takes a few milliseconds).
- ``transcript_frame_ms``: repainting every visible transcript line (what each step of
  a scroll costs), and ``playhead_frame_ms`` the waveform when the playhead moves,
  with that call open; medians of 40.
- ``switch_call_ms``: median time to switch between two calls already opened
  once in this session, until painted with the recording loaded.
- ``rss_mb_open_call``: resident memory of the app with that call open, its
  waveform drawn and every panel made.

The media is a long silent FLAC made with sox; the data goes into a temporary
store. Every transcript line has word timings, as a Whisper transcript has. Run alone: ``.venv/bin/python -m tests.benchmarks.bench_workspace [--quick]``.
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
            vocabulary = "so tell me how your team reports on delivery performance today and who signs off".split()
            rows = []
            for i in range(segments):
                # As Whisper leaves a line: fourteen words, each with its times and probability.
                words = [{"start_ms": i * step + k * 150, "end_ms": i * step + k * 150 + 140,
                          "text": vocabulary[(i + k) % len(vocabulary)], "probability": 0.9312}
                         for k in range(14)]
                rows.append(SegmentRow(i * step, i * step + step - 200, "Riley" if i % 2 else "Casey",
                                       " ".join(w["text"] for w in words), words))
            transcripts.save_transcript(store, call.id, rows, origin="whisper", model="tiny.en", language="en")
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
    for key in ("ready_at", "complete_at", "warm_at"):
        if key in result:
            result[key.replace("_at", "_s")] = result[key] - started
    return result


def run(quick: bool) -> dict[str, float]:
    # The app's bytecode, as an installed copy has it (packaging/bootstrap.sh does this too): with
    # PYTHONDONTWRITEBYTECODE set, every child would compile the sources again.
    subprocess.run([sys.executable, "-m", "compileall", "-q", "desktop", "db", "tests"], cwd=REPO,
                   check=True, capture_output=True)
    hours = 2
    repeats = 3 if quick else 11  # medians of 11: the machines drift by a tenth within a minute
    with tempfile.TemporaryDirectory(prefix="callmark-bench-ws-") as tmp:
        tmp_path = Path(tmp)
        media = [_make_media(tmp_path / "long-a.flac", hours * 3600),
                 _make_media(tmp_path / "long-b.flac", hours * 3600 - 7)]
        home = tmp_path / "home"
        ids = _fill_store(home, media, segments=3000, moments=200)
        # One warm-up of each, so both sides read their libraries from the page cache; the memory
        # child also leaves both waveforms in the disk cache.
        _run_child("empty", home)
        memory = _run_child("memory", home, str(ids[0]), str(ids[1]))
        empty, opened, complete, warm = [], [], [], []
        for _ in range(repeats):
            empty.append(_run_child("empty", home)["ready_s"])
            cold = _run_child("open", home, str(ids[0]))
            opened.append(cold["ready_s"])
            complete.append(cold["complete_s"])
            warm.append(cold["warm_s"])
        in_app = _run_child("inapp", home, str(ids[0]), str(ids[1]), str(5 if quick else 11))
        switch = _run_child("switch", home, str(ids[0]), str(ids[1]))
    empty_s = statistics.median(empty)
    return {
        "open_call_ratio": round(statistics.median(opened) / empty_s, 3),
        "cold_open_s": round(statistics.median(opened), 3),
        "cold_empty_s": round(empty_s, 3),
        "cold_complete_ratio": round(statistics.median(complete) / empty_s, 3),
        "cold_complete_s": round(statistics.median(complete), 3),
        "cold_warm_s": round(statistics.median(warm), 3),
        "open_call_ms": round(in_app["open_ms"], 1),
        "empty_window_ms": round(in_app["empty_ms"], 1),
        "open_call_inapp_ratio": round(in_app["open_ms"] / in_app["empty_ms"], 3),
        "transcript_frame_ms": round(in_app["transcript_frame_ms"], 2),
        "playhead_frame_ms": round(in_app["playhead_frame_ms"], 2),
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


def _spin(app) -> None:
    """Run the event loop until it is idle: what was queued before this call has run."""
    from PySide6.QtCore import QEventLoop, QTimer

    loop = QEventLoop()
    QTimer.singleShot(0, loop.quit)
    loop.exec()


def _until(app, ready, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not ready():
        if time.monotonic() > deadline:
            raise RuntimeError("the workspace did not become interactive in time")
        _spin(app)
    _spin(app)  # and idle after the last piece arrived


class _PaintSeen:
    """Notes the first paint of a widget (the transcript's viewport, the empty window)."""

    def __init__(self, widget):
        from PySide6.QtCore import QEvent, QObject

        seen = self

        class Filter(QObject):
            def eventFilter(self, _obj, event):  # noqa: N802
                if event.type() == QEvent.Type.Paint:
                    seen.painted = True
                return False

        self.painted = False
        self.filter = Filter()
        widget.installEventFilter(self.filter)


class _RowsPainted:
    """Notes that the transcript painted its lines: its delegate's ``paint`` (Python) ran.

    Not an event filter on the transcript's viewport: getting that QWidget, which Qt made, makes
    PySide try (and so create) every QWidget class it has, a cost the app itself does not pay.
    """

    def __init__(self):
        from desktop.ui.widgets.transcript_view import TranscriptDelegate

        seen = self
        original = TranscriptDelegate.paint

        def paint(delegate, painter, option, index):
            seen.painted = True
            return original(delegate, painter, option, index)

        TranscriptDelegate.paint = paint
        self.painted = False


def _shown(window, paint: _PaintSeen | _RowsPainted, rows: int = 3000, moments: int = 200):
    """The coach can work: the call's transcript painted, its moments listed, keys answered."""
    return lambda: (paint.painted and window.transcript_model.rowCount() == rows
                    and window.moments_model.rowCount() == moments)


def _panels_pending(window) -> bool:
    tabs = window.view.inspector
    return any(type(tabs.widget(i)).__name__ == "PendingPanel" for i in range(tabs.count()))


def _interactive(window, paint: _PaintSeen | _RowsPainted, rows: int = 3000, moments: int = 200):
    """And the rest of the workspace: the waveform drawn and the recording open in VLC."""
    return lambda: (paint.painted and window.transcript_model.rowCount() == rows
                    and window.moments_model.rowCount() == moments and window.view.waveform.has_peaks()
                    and window.playback._pending is None)


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
    """The app as `callmark --call ID` starts it, shown, its event loop not yet run.

    The same steps as the command: its module first (``desktop.cli``, what the console script
    imports), then the window's arguments and ``desktop.app.start``. Nothing of Qt or the app is
    imported before, so the imports happen where the app makes them (start-up pauses the cyclic
    collector around them).
    """
    import desktop.cli  # noqa: F401 - the `callmark` script's module
    from desktop.cli.gui import gui_args

    args = gui_args(["--call", str(call_id)])
    from desktop.app import start

    app, window, store = start(home=args.home, call_id=args.call)
    window.show()
    return app, window, store


def _child_open(call_id: int) -> dict:
    app, window, store = _open_app(call_id)
    paint = _RowsPainted()  # before the event loop runs, so before the first paint
    _until(app, _shown(window, paint))
    result = {"ready_at": time.monotonic()}
    _until(app, _interactive(window, paint))
    result["complete_at"] = time.monotonic()
    _until(app, lambda: window.warmup.finished and not _panels_pending(window))
    result["warm_at"] = time.monotonic()
    window.close()
    store.close()
    return result


def _child_inapp(call_id: int, other_id: int, repeats: int) -> dict:
    from PySide6.QtWidgets import QMainWindow

    app, window, store = _open_app(other_id)
    paint = _RowsPainted()
    _until(app, lambda: window.view.waveform.has_peaks() and not any(
        type(window.view.inspector.widget(i)).__name__ == "PendingPanel"
        for i in range(window.view.inspector.count())))
    opens, empties = [], []
    for _ in range(repeats):
        t0 = time.perf_counter()
        empty = QMainWindow()
        empty.resize(1360, 840)
        seen = _PaintSeen(empty)
        empty.show()
        _until(app, lambda: seen.painted)
        empties.append((time.perf_counter() - t0) * 1000)
        empty.close()
        empty.deleteLater()
        _spin(app)

        window.waveforms._memo.clear()  # read the peaks from the disk cache, as on a first open
        paint.painted = False
        t0 = time.perf_counter()
        window.open_call(call_id)
        _until(app, _interactive(window, paint))
        opens.append((time.perf_counter() - t0) * 1000)
        window.open_call(other_id)  # back, so the next open is a switch to a call not shown
        _until(app, lambda: window.view.waveform.has_peaks() and window.playback._pending is None)
    window.open_call(call_id)
    _until(app, _interactive(window, paint))
    frames = _frames(window)
    window.close()
    store.close()
    return {"open_ms": statistics.median(opens), "empty_ms": statistics.median(empties),
            "opens": opens, "empties": empties, **frames}


def _frames(window, repeats: int = 40) -> dict:
    """What a repaint costs with the 2-hour call open: every visible transcript line (a scroll step),
    and the waveform when the playhead moves (many times a second while the call plays)."""
    from PySide6.QtGui import QPixmap

    view = window.view.transcript.viewport()
    wave = window.view.waveform
    lines, heads = [], []
    target = QPixmap(view.size())
    for i in range(repeats):
        t0 = time.perf_counter()
        view.render(target)
        lines.append((time.perf_counter() - t0) * 1000)
    strip = QPixmap(wave.size())
    for i in range(repeats):
        wave.set_position(60_000 + i * 50)
        t0 = time.perf_counter()
        wave.render(strip)
        heads.append((time.perf_counter() - t0) * 1000)
    return {"transcript_frame_ms": statistics.median(lines), "playhead_frame_ms": statistics.median(heads)}


def _child_switch(first: int, second: int) -> dict:
    app, window, store = _open_app(first)
    _until(app, lambda: window.warmup.finished and not _panels_pending(window))  # the app settled
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
            window.playback.finish_load()  # and the recording is loaded (if the loop has not yet)
            times.append((time.perf_counter() - t0) * 1000)
        app.quit()

    _when_idle(app, measure)
    window.close()
    store.close()
    return {"switch_ms_p50": statistics.median(times), "switch_ms_max": max(times)}


def _child_memory(call_id: int, other_id: int | None = None) -> dict:
    if other_id is not None:  # draw the other call's waveform too, so it is in the disk cache
        app, window, store = _open_app(other_id)
        _until(app, lambda: window.view.waveform.has_peaks(), 120)
        window.open_call(call_id)
    else:
        app, window, store = _open_app(call_id)
    from PySide6.QtCore import QTimer

    deadline = time.monotonic() + 120

    def check() -> None:
        # Memory of the whole app: waveform drawn, SQLAlchemy and the services in, panels made.
        done = window.view.waveform.has_peaks() and window.warmup.finished and not _panels_pending(window)
        if done or time.monotonic() > deadline:
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
    result = {"empty": _child_empty, "open": _child_open, "inapp": _child_inapp, "switch": _child_switch,
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
