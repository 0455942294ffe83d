"""`db check` and `db backup` on a big store, while a coach works on.

The store is the library generator's (tests/benchmarks/make_library.py), 10,000 calls of 800 lines
(about 2 GB with the search index; quick: 2,000 calls of 300 lines). While each runs, a writer on its
own connection saves a moment every 100 ms, as the window's one writer would:
- check_s, backup_s: the whole check (table by table) and the whole backup (64 MB a step);
- check_steps, backup_steps: how many times each said how far it had got;
- check_write_wait_ms_max, backup_write_wait_ms_max: the longest a save waited meanwhile (the app stays
  usable if this stays small); idle_write_wait_ms_max: the same saves with nothing running, side by side.
"""

from __future__ import annotations

import sqlite3
import sys
import threading
import time
from pathlib import Path

from tests.benchmarks.bench_library import _library


class Writer(threading.Thread):
    """Saves a moment every 100 ms and keeps the longest wait."""

    def __init__(self, path: Path):
        super().__init__(daemon=True)
        self.path, self.stop, self.longest, self.saves = path, threading.Event(), 0.0, 0

    def run(self) -> None:
        con = sqlite3.connect(self.path, timeout=30)
        con.execute("PRAGMA busy_timeout = 30000")
        call = con.execute("SELECT min(id) FROM call").fetchone()[0]
        while not self.stop.is_set():
            t = time.perf_counter()
            with con:
                con.execute("UPDATE call SET title = title WHERE id = ?", (call,))
            self.longest = max(self.longest, (time.perf_counter() - t) * 1000)
            self.saves += 1
            self.stop.wait(0.1)
        con.close()


def _while_writing(path: Path, work) -> tuple[float, float, object]:
    writer = Writer(path)
    writer.start()
    t = time.perf_counter()
    result = work()
    seconds = time.perf_counter() - t
    writer.stop.set()
    writer.join()
    return seconds, writer.longest, result


def run(quick: bool) -> dict[str, float]:
    import tempfile

    from db.store import online_backup, open_store
    from desktop import paths
    from desktop.services import maintenance

    home = _library(2000 if quick else 10_000, 300 if quick else 800)
    path = paths.store_path(paths.data_home(home))
    size_mb = path.stat().st_size / 1e6
    store = open_store(path, check=False)
    try:
        idle_s, idle_wait, _ = _while_writing(path, lambda: time.sleep(3))
        steps: list = []
        check_s, check_wait, report = _while_writing(
            path, lambda: maintenance.check(store, progress=lambda d, t, w: steps.append(d)))
        copies: list = []
        with tempfile.TemporaryDirectory(dir=path.parent) as tmp:
            backup_s, backup_wait, _ = _while_writing(
                path, lambda: online_backup(path, Path(tmp) / "copy.sqlite3", progress=lambda d, t: copies.append(d)))
    finally:
        store.close()
    return {"store_mb": round(size_mb), "check_s": round(check_s, 1), "check_ok": int(report.ok),
            "check_steps": len(steps), "check_write_wait_ms_max": round(check_wait, 1),
            "backup_s": round(backup_s, 1), "backup_steps": len(copies),
            "backup_write_wait_ms_max": round(backup_wait, 1), "idle_write_wait_ms_max": round(idle_wait, 1)}


if __name__ == "__main__":
    print(run("--quick" in sys.argv))
