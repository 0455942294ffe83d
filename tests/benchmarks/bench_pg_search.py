"""Library search on a team store against the raw PostgreSQL full-text query it is built on.

pg_search_ratio = median(app search on the team store) / median(raw query for the same lines:
SELECT id, text FROM segment WHERE search_words @@ query ORDER BY id DESC LIMIT 200), run
interleaved on the same server and data (the app also joins transcript and call, keeps current
versions only and orders each call's lines). The data are bench_search's: 5,000 calls of ~2,000
words (~10 M words); quick: 500 calls. The server is a throw-away one (tests/pg_server.py).
"""

from __future__ import annotations

import random
import statistics
import time

from db.server import libpq_url, open_server_store
from db.server_search import typed_words
from desktop.services.search import search
from tests.benchmarks.bench_search import QUERIES, VOCAB, WORDS_PER_CALL, WORDS_PER_SEGMENT
from tests.pg_server import PgServer

RAW = ("SELECT id, text FROM segment WHERE search_words @@ callmark_search_query(%s) "
       "ORDER BY id DESC LIMIT 200")


def build(url: str, calls: int, seed: int = 7) -> None:
    import psycopg

    open_server_store(url).close()  # the schema, through the migrations
    rng = random.Random(seed)
    weights = [1 / (i + 1) for i in range(len(VOCAB))]  # Zipf-like, as speech is (bench_search's data)
    with psycopg.connect(libpq_url(url)) as con:
        with con.cursor() as cur:
            with cur.copy("COPY call (id, title, media_sha256, duration_ms, has_video, created_at) FROM STDIN") as cp:
                for call_id in range(1, calls + 1):
                    cp.write_row((call_id, f"Call {call_id}", f"{call_id:064x}", 900000, False, "2026-11-01"))
            with cur.copy("COPY transcript (id, call_id, origin, is_current, created_at) FROM STDIN") as cp:
                for call_id in range(1, calls + 1):
                    cp.write_row((call_id, call_id, "whisper", True, "2026-11-01"))
            with cur.copy("COPY segment (transcript_id, start_ms, end_ms, speaker, text) FROM STDIN") as cp:
                for call_id in range(1, calls + 1):
                    for n in range(WORDS_PER_CALL // WORDS_PER_SEGMENT):
                        words = rng.choices(VOCAB, weights, k=WORDS_PER_SEGMENT)
                        cp.write_row((call_id, n * 9000, n * 9000 + 8000, "Rep" if n % 2 else "Customer",
                                      " ".join(words)))
        con.execute("ANALYZE")


def run(quick: bool) -> dict[str, float]:
    import psycopg

    calls = 500 if quick else 5000
    server = PgServer()
    try:
        server.start()
        server.admin_sql("CREATE DATABASE bench")
        url = server.url("bench")
        t0 = time.perf_counter()
        build(url, calls)
        build_s = time.perf_counter() - t0
        store = open_server_store(url)
        raw = psycopg.connect(libpq_url(url), autocommit=True)
        app_times, raw_times = [], []
        for q in QUERIES:  # warm both once: the first query of each plans and reads the index in
            raw.execute(RAW, (typed_words(q),)).fetchall()
            search(store, q)
        rounds = 3 if quick else 5
        for _ in range(rounds):
            for q in QUERIES:
                t = time.perf_counter()
                raw.execute(RAW, (typed_words(q),)).fetchall()
                raw_times.append(time.perf_counter() - t)
                t = time.perf_counter()
                search(store, q, limit=200)
                app_times.append(time.perf_counter() - t)
        raw.close()
        store.close()
    finally:
        server.cleanup()
    app_p50 = statistics.median(app_times) * 1000
    raw_p50 = statistics.median(raw_times) * 1000
    return {
        "pg_search_ratio": round(app_p50 / raw_p50, 3),
        "pg_search_ms_p50": round(app_p50, 2),
        "pg_search_raw_ms_p50": round(raw_p50, 2),
        "pg_search_words_millions": round(calls * WORDS_PER_CALL / 1e6, 2),
        "pg_search_build_s": round(build_s, 1),
    }


if __name__ == "__main__":
    import json
    import sys

    print(json.dumps(run("--quick" in sys.argv), indent=2))
