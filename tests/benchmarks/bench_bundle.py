"""The one-folder bundle: its size, and how long it takes to open a call against the venv's
`callmark` doing the same, side by side in the same run.

`bundle_start_ratio` = bundle ÷ venv, each the median of N runs of `callmark --offscreen --call 1
--quit-after 0.01` (the window built, the call opened, the first turn of the event loop, quit),
alternated so both see the same load. The bundle is built here (about a minute and a half) unless
CALLMARK_BUNDLE names one already built; --quick without one skips this benchmark.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tests.conftest import DEMO, REPO


def _folder_mb(folder: Path) -> float:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file() and not p.is_symlink()) / 2**20


def _timed(argv: list[str], env: dict[str, str]) -> float:
    started = time.perf_counter()
    subprocess.run(argv, env=env, capture_output=True, check=True, timeout=120)
    return time.perf_counter() - started


def run(quick: bool) -> dict[str, float]:
    given = os.environ.get("CALLMARK_BUNDLE")
    if quick and not given:
        print("   bundle: skipped with --quick (set CALLMARK_BUNDLE to a built dist/callmark/callmark)",
              file=sys.stderr)
        return {}
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        figures: dict[str, float] = {}
        if given:
            bundle = Path(given)
        else:
            started = time.perf_counter()
            subprocess.run(["bash", str(REPO / "packaging" / "bundle.sh"), "--dist", str(tmp / "dist"),
                            "--work", str(tmp / "work")], check=True, capture_output=True, timeout=1800)
            figures["bundle_build_s"] = time.perf_counter() - started
            bundle = tmp / "dist" / "callmark" / "callmark"
        figures["bundle_mb"] = _folder_mb(bundle.parent)
        venv = Path(sys.executable).parent / "callmark"
        env = dict(os.environ, QT_QPA_PLATFORM="offscreen", CALLMARK_VLC_ARGS="--aout=dummy --vout=dummy",
                   XDG_CONFIG_HOME=str(tmp / "config"), CALLMARK_HOME=str(tmp / "home"))
        subprocess.run([str(venv), "calls", "add", str(DEMO)], env=env, capture_output=True, check=True)
        window = ["--offscreen", "--call", "1", "--quit-after", "0.01"]
        for argv in ([str(venv), *window], [str(bundle), *window]):  # warm the file cache once
            _timed(argv, env)
        times: dict[str, list[float]] = {"venv": [], "bundle": [], "venv_version": [], "bundle_version": []}
        for _ in range(5 if quick else 11):
            times["venv"].append(_timed([str(venv), *window], env))
            times["bundle"].append(_timed([str(bundle), *window], env))
            times["venv_version"].append(_timed([str(venv), "--version"], env))
            times["bundle_version"].append(_timed([str(bundle), "--version"], env))
        median = {k: statistics.median(v) for k, v in times.items()}
        figures["bundle_start_s"] = median["bundle"]
        figures["bundle_start_ratio"] = median["bundle"] / median["venv"]
        figures["bundle_version_ratio"] = median["bundle_version"] / median["venv_version"]
        if not given:
            shutil.rmtree(tmp / "dist", ignore_errors=True)
        return figures
