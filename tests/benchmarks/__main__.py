"""Run every benchmark: `python -m tests.benchmarks [--quick] [--json FILE] [--only NAME ...]`.

Each `bench_<topic>.py` here exposes `run(quick: bool) -> dict[str, float]`.
Figures are ratios against a baseline measured side by side in the same run
wherever there is one, because these machines are shared and noisy. Nothing
here gates CI: the numbers are reported, not asserted.
"""

from __future__ import annotations

import argparse
import importlib
import json
import pkgutil
import sys
import time
import traceback
from pathlib import Path

TARGETS = {
    "mark_error_ms_p95": ("<=", 30),
    "open_call_ratio": ("<=", 2.5),  # without tricks on PySide or the interpreter (one way to build the window)
    "switch_call_ms": ("<=", 150),
    "transcript_frame_ms": ("<=", 16.7),  # a repaint within one frame at 60 Hz: scrolling stays smooth
    "playhead_frame_ms": ("<=", 16.7),
    "rss_mb_open_call": ("<=", 300),
    "transcribe_ratio": ("<=", 1.05),
    "transcribe_rtf": ("<=", 0.05),
    "first_segment_s": ("<=", 3),
    "search_ratio": ("<=", 1.5),
    "search_ms_p50": ("<=", 50),
    "detect_ms_2h": ("<=", 150),
    "detect_library_frame_ms_max": ("<=", 50),
    "queue_ms_500": ("<=", 200),
    "tracker_recount_ms": ("<=", 50),
    "tracker_library_s": ("<=", 5),
    "tracker_library_frame_ms_max": ("<=", 50),  # a tracker counted in the background: no frame over 50 ms
    "baseline_ms_500": ("<=", 200),
    "dashboard_ms": ("<=", 300),
    "pg_search_ratio": ("<=", 1.5),
    "media_index_build_ratio": ("<=", 1.2),  # the first index reads each file once, as bare hashing does
    "media_index_refresh_ratio": ("<=", 0.05),  # unchanged files are not read again
    "pg_writers_errors": ("<=", 0),
    "pg_writers_lost": ("<=", 0),
    "batch_ratio": ("<=", 0.7),
    "library_start_ratio": ("<=", 1.5),
    "library_filter_ms_p95": ("<=", 50),
    "rss_mb_10k": ("<=", 400),
    "specificity_ms_p95": ("<=", 5),  # checked on each keystroke in the item editor
    "specificity_paste_ms": ("<=", 100),
}


def modules(only: list[str] | None):
    here = Path(__file__).parent
    for info in sorted(pkgutil.iter_modules([str(here)]), key=lambda m: m.name):
        if not info.name.startswith("bench_"):
            continue
        topic = info.name.removeprefix("bench_")
        if only and topic not in only:
            continue
        yield topic, importlib.import_module(f"tests.benchmarks.{info.name}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.benchmarks")
    parser.add_argument("--quick", action="store_true", help="smaller inputs: the whole run in under two minutes")
    parser.add_argument("--json", metavar="FILE", help="write all figures as one JSON object")
    parser.add_argument("--only", nargs="*", metavar="TOPIC", help="e.g. mark search transcribe workspace")
    args = parser.parse_args(argv)
    figures: dict[str, float] = {}
    failed = []
    for topic, module in modules(args.only):
        started = time.perf_counter()
        print(f"== {topic}", file=sys.stderr, flush=True)
        try:
            result = module.run(args.quick)
        except Exception:  # noqa: BLE001 - one broken benchmark must not hide the others
            traceback.print_exc()
            failed.append(topic)
            continue
        figures.update(result)
        print(f"   ({time.perf_counter() - started:.1f} s)", file=sys.stderr)
    width = max((len(k) for k in figures), default=10)
    print(f"{'figure':<{width}}  {'value':>12}  target")
    for key, value in figures.items():
        op, target = TARGETS.get(key, ("", ""))
        verdict = ""
        if op and isinstance(value, (int, float)):
            verdict = "ok" if value <= target else "OVER"
        shown = f"{value:.3f}" if isinstance(value, float) else str(value)
        print(f"{key:<{width}}  {shown:>12}  {op} {target} {verdict}")
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2) + "\n")
    if failed:
        print(f"failed: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
