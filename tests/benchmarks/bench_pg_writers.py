"""Coaches writing to one team store at once: errors shown to a coach, and writes lost, counted.

2 coaches x 10 processes each, every process a coach's Callmark session through the real services
(moments.add_moment, items.create_item, items.update_item with the version it read), for 60 s
(quick: 10 s) on the same call. Each process counts what the services said was saved; afterwards
the store's owner counts what is there. pg_writers_errors: errors a coach would have seen (any
exception); pg_writers_lost: writes reported saved but not in the store (or their text not as
saved). Both must be 0. The server is a throw-away one (tests/pg_server.py, fsync off: the figure
is about correctness under contention, not disk speed).
"""

from __future__ import annotations

import multiprocessing as mp
import random
import tempfile
import time
from pathlib import Path

COACHES = ("sam", "alex")
PROCESSES_PER_COACH = 10


def _writer(url: str, call_id: int, seconds: float, seed: int, ready, go, started, out) -> None:
    from db.server import open_server_store
    from desktop.services import items, moments

    rng = random.Random(seed)
    saved_moments: list[str] = []
    saved_items: dict[int, str] = {}
    errors: list[str] = []
    store = open_server_store(url)
    moments.list_moments(store, call_id)  # connected and every module in before the clock runs
    ready.put(seed)
    go.wait()
    deadline = started.value + seconds
    try:
        while time.time() < deadline:
            try:
                start = rng.randint(0, 590_000)
                moment = moments.add_moment(store, call_id, start, start + 2000, kind="question",
                                            note=f"writer {seed}")
                saved_moments.append(moment.uid)
                if len(saved_moments) % 3 == 0:
                    item = items.create_item(store, [moment.id], behavior_text=f"draft {seed}")
                    text = f"Ask who signs off ({seed}/{len(saved_moments)})"
                    row = items.update_item(store, item.id, expected_version=item.version, behavior_text=text)
                    saved_items[row.id] = row.behavior_text
            except Exception as exc:  # noqa: BLE001 - every error a coach would see is counted
                errors.append(f"{exc.__class__.__name__}: {exc}"[:300])
    finally:
        store.close()
    out.put((seed, saved_moments, saved_items, errors))


def run(quick: bool) -> dict[str, float]:
    from sqlalchemy import text

    from db.server import open_server_store
    from desktop.services import calls, team
    from tests.conftest import make_tone
    from tests.pg_server import PgServer

    seconds = 10 if quick else 60
    server = PgServer()
    try:
        server.start()
        server.admin_sql("CREATE DATABASE team")
        owner_url = server.url("team")
        owner = open_server_store(owner_url)
        for coach in COACHES:
            team.add_coach(owner, coach)
        with tempfile.TemporaryDirectory() as tmp:
            call, _ = calls.add_call(owner, make_tone(Path(tmp) / "call.wav", 600.0), title="Team call")
        ctx = mp.get_context("spawn")
        out, ready, go, started = ctx.Queue(), ctx.Queue(), ctx.Event(), ctx.Value("d", 0.0)
        procs = []
        for n, coach in enumerate(c for c in COACHES for _ in range(PROCESSES_PER_COACH)):
            url = owner_url.replace("callmark_admin@", f"{coach}@", 1)
            procs.append(ctx.Process(target=_writer, args=(url, call.id, seconds, n, ready, go, started, out)))
        for p in procs:
            p.start()
        for _ in procs:  # every process started, connected and imported: then the clock runs for all
            ready.get(timeout=300)
        started.value = time.time()
        go.set()
        results = [out.get(timeout=seconds + 120) for _ in procs]
        for p in procs:
            p.join(30)
        errors = [e for r in results for e in r[3]]
        reported_moments = {uid for r in results for uid in r[1]}
        reported_items = {iid: t for r in results for iid, t in r[2].items()}
        with owner.read() as s:
            found_moments = set(s.execute(text("SELECT uid FROM moment")).scalars())
            found_items = dict(s.execute(text("SELECT id, behavior_text FROM coaching_item")).all())
            owners = dict(s.execute(text("SELECT owner_role, count(*) FROM moment GROUP BY 1")).all())
        owner.close()
        lost = len(reported_moments - found_moments)
        lost += sum(1 for iid, t in reported_items.items() if found_items.get(iid) != t)
        writes = len(reported_moments) + 2 * len(reported_items)
        if errors:
            print("pg_writers errors, first ones:", *errors[:5], sep="\n  ")
        return {
            "pg_writers_errors": len(errors),
            "pg_writers_lost": lost,
            "pg_writers_moments": len(reported_moments),
            "pg_writers_items": len(reported_items),
            "pg_writers_writes_per_s": round(writes / seconds, 1),
            "pg_writers_coaches_seen": len(owners),
            "pg_writers_seconds": seconds,
        }
    finally:
        server.cleanup()


if __name__ == "__main__":
    import json
    import sys

    print(json.dumps(run("--quick" in sys.argv), indent=2))
