"""Library search against the raw SQLite FTS5 query it is built on, on the same generated data.

search_ratio = median(app search) / median(raw FTS5 query for the same lines: SELECT rowid, text ...
MATCH ... ORDER BY rowid DESC LIMIT 200),
both run interleaved on the same store (the app also joins transcript and call, keeps current
versions only and orders each call's lines); search_ms_p50 is the app's median. search_ranked_fts5_ms_p50
is what ordering by bm25 instead would cost: FTS5 must score every match first.
Full run: 5,000 calls of ~2,000 words (~10 M words). Quick: 500 calls.
"""

from __future__ import annotations

import random
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path

from db.store import open_store
from desktop.services.search import fts_query, search

WORDS_PER_CALL = 2000
WORDS_PER_SEGMENT = 20
VOCAB = (
    "the a to and of we you it is that for on in our with this they what budget price next step "
    "information send review team decision process timeline quarter pilot contract legal security "
    "integration data report dashboard warehouse logistics shipment carrier route delay invoice "
    "finance director approve sign champion competitor pain impact critical event metrics "
    "renewal onboarding training support pricing discount volume forecast pipeline close "
    "meeting calendar thursday friday monday email proposal demo trial feedback stakeholder"
).split()
QUERIES = ["send information", "budget", "finance director", "competitor", "next step", "pilot",
           "legal security", "thursday", "forecast pipeline", "approve", "renew", "carrier delay"]


def build(path: Path, calls: int, seed: int = 7) -> None:
    rng = random.Random(seed)
    store = open_store(path)
    store.close()
    con = sqlite3.connect(path)
    con.execute("PRAGMA journal_mode=WAL")
    con.execute("PRAGMA synchronous=OFF")  # building the fixture only
    weights = [1 / (i + 1) for i in range(len(VOCAB))]  # Zipf-like, as speech is
    with con:
        for call_id in range(1, calls + 1):
            con.execute(
                "INSERT INTO call (id, title, media_sha256, duration_ms, has_video, created_at) "
                "VALUES (?, ?, ?, ?, 0, '2026-11-01')", (call_id, f"Call {call_id}", f"{call_id:064x}", 900000))
            con.execute("INSERT INTO transcript (id, call_id, origin, is_current, created_at) "
                        "VALUES (?, ?, 'whisper', 1, '2026-11-01')", (call_id, call_id))
            rows = []
            for n in range(WORDS_PER_CALL // WORDS_PER_SEGMENT):
                words = rng.choices(VOCAB, weights, k=WORDS_PER_SEGMENT)
                rows.append((call_id, n * 9000, n * 9000 + 8000, "Rep" if n % 2 else "Customer", " ".join(words)))
            con.executemany("INSERT INTO segment (transcript_id, start_ms, end_ms, speaker, text) "
                            "VALUES (?, ?, ?, ?, ?)", rows)
    con.close()


def run(quick: bool) -> dict[str, float]:
    calls = 500 if quick else 5000
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.sqlite3"
        t0 = time.perf_counter()
        build(path, calls)
        build_s = time.perf_counter() - t0
        store = open_store(path)
        raw = sqlite3.connect(path)
        app_times, raw_times, ranked_times = [], [], []
        rounds = 3 if quick else 5
        for _ in range(rounds):
            for q in QUERIES:
                match = fts_query(q)
                t = time.perf_counter()
                raw.execute("SELECT rowid, text FROM segment_fts WHERE segment_fts MATCH ? ORDER BY rowid DESC LIMIT 200",
                            (match,)).fetchall()
                raw_times.append(time.perf_counter() - t)
                t = time.perf_counter()
                raw.execute("SELECT rowid FROM segment_fts WHERE segment_fts MATCH ? ORDER BY rank LIMIT 200",
                            (match,)).fetchall()
                ranked_times.append(time.perf_counter() - t)
                t = time.perf_counter()
                search(store, q, limit=200)
                app_times.append(time.perf_counter() - t)
        raw.close()
        store.close()
    app_p50 = statistics.median(app_times) * 1000
    raw_p50 = statistics.median(raw_times) * 1000
    ranked_p50 = statistics.median(ranked_times) * 1000
    return {
        "search_ms_p50": round(app_p50, 2),
        "search_raw_fts5_ms_p50": round(raw_p50, 2),
        "search_ratio": round(app_p50 / raw_p50, 3),
        "search_ranked_fts5_ms_p50": round(ranked_p50, 2),  # what bm25 ordering would cost
        "search_words_millions": round(calls * WORDS_PER_CALL / 1e6, 2),
        "search_build_s": round(build_s, 1),
    }


if __name__ == "__main__":
    import json
    import sys

    print(json.dumps(run("--quick" in sys.argv), indent=2))
