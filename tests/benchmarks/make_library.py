"""A coaching team's library for the benchmarks: N calls, their transcripts and moments, in a real store.

`python -m tests.benchmarks.make_library HOME [--calls 10000] [--lines 300] [--moments 2]` makes
10,000 calls with 300 transcript lines each (3 M lines, through the full-text triggers like any
saved transcript) and 2 moments each (20,000), spread over 50 reps and 10 managers and two years.
Every call points at one short real recording (their hashes differ: each is its own call).
Rows go in with plain SQL in large transactions; the store is made and migrated by `open_store`.
"""

from __future__ import annotations

import argparse
import random
import sqlite3
import subprocess
import sys
import uuid
from datetime import datetime, timedelta
from pathlib import Path

KINDS = ("Discovery", "Demo", "Pricing", "Negotiation", "Renewal", "Onboarding", "QBR", "Follow-up")
COMPANIES = ("Acme", "Globex", "Initech", "Umbrella", "Hooli", "Stark", "Wayne", "Wonka", "Tyrell", "Cyberdyne",
             "Soylent", "Vandelay", "Pied Piper", "Dunder Mifflin", "Monsters Inc", "Oceanic", "Aperture", "Gringotts")
FIRST = ("Riley", "Sam", "Jordan", "Casey", "Alex", "Taylor", "Morgan", "Jamie", "Drew", "Quinn")
LAST = ("Rep", "Seller", "Closer", "Hunter", "Farmer")
WORDS = ("so tell me how your team reports on delivery performance today and who signs off on the budget "
         "next quarter we could book a call with your finance director to review pricing").split()
SOURCES = ("zoom", "teams", "dialer")


def make_library(home: Path, calls: int = 10_000, lines: int = 300, moments: int = 2, seed: int = 11) -> Path:
    from db.store import open_store
    from desktop import paths

    folder = paths.data_home(home)
    open_store(paths.store_path(folder)).close()  # created and migrated like any coach's store
    media = folder / "recording.flac"
    subprocess.run(["sox", "-n", "-r", "8000", "-c", "1", str(media), "trim", "0", "60"], check=True,
                   capture_output=True)
    rnd = random.Random(seed)
    con = sqlite3.connect(paths.store_path(folder))
    con.execute("PRAGMA journal_mode=WAL")
    con.execute("PRAGMA synchronous=OFF")  # a generator: a crash means making it again
    now = "2026-12-01 09:00:00"
    people = [(f"{f} {last}", "rep") for f in FIRST for last in LAST] + [(f"{f} Manager", "manager") for f in FIRST]
    con.executemany("INSERT INTO person (name, role, created_at) VALUES (?, ?, ?)", [(n, r, now) for n, r in people])
    reps = [r[0] for r in con.execute("SELECT id FROM person WHERE role = 'rep'")]
    managers = [r[0] for r in con.execute("SELECT id FROM person WHERE role = 'manager'")]
    coach = con.execute("INSERT INTO person (name, role, created_at) VALUES ('Coach', 'coach', ?)", (now,)).lastrowid
    start = datetime(2025, 1, 1)
    batch = 500
    for first in range(0, calls, batch):
        call_rows, seg_rows, mom_rows = [], [], []
        for n in range(first, min(calls, first + batch)):
            when = start + timedelta(minutes=rnd.randrange(0, 2 * 365 * 24 * 60))
            title = f"{rnd.choice(KINDS)} - {rnd.choice(COMPANIES)} {n}"
            call_rows.append((n + 1, title, str(media), uuid.uuid4().hex + uuid.uuid4().hex, media.name,
                              rnd.randrange(5, 60) * 60_000, 0, 2, when.strftime("%Y-%m-%d %H:%M:%S.000000"),
                              rnd.choice(SOURCES), rnd.choice(reps), rnd.choice(managers), now))
        con.executemany('INSERT INTO "call" (id, title, media_path, media_sha256, media_filename, duration_ms, '
                        "has_video, channels, recorded_at, source, rep_id, manager_id, created_at) "
                        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", call_rows)
        con.executemany("INSERT INTO transcript (id, call_id, origin, model, language, is_current, created_at) "
                        "VALUES (?, ?, 'whisper', 'tiny.en', 'en', 1, ?)", [(r[0], r[0], now) for r in call_rows])
        for r in call_rows:
            cid, step = r[0], r[5] // max(lines, 1)
            for i in range(lines):
                text = " ".join(WORDS[(i + k * 3 + cid) % len(WORDS)] for k in range(12))
                seg_rows.append((cid, i * step, i * step + step - 100, "SPEAKER_0" if i % 2 else "SPEAKER_1", text))
            for i in range(moments):
                at = rnd.randrange(0, max(r[5] - 10_000, 1))
                mom_rows.append((str(uuid.uuid4()), cid, coach, at, at + 5000, "question", "tell me how", now, now))
        con.executemany("INSERT INTO segment (transcript_id, start_ms, end_ms, speaker, text, words) "
                        "VALUES (?, ?, ?, ?, ?, 'null')", seg_rows)
        con.executemany("INSERT INTO moment (uid, call_id, coach_id, start_ms, end_ms, kind, quote, imported, "
                        "created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?, ?)", mom_rows)
        con.commit()
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    return folder


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.benchmarks.make_library")
    parser.add_argument("home")
    parser.add_argument("--calls", type=int, default=10_000)
    parser.add_argument("--lines", type=int, default=300)
    parser.add_argument("--moments", type=int, default=2)
    args = parser.parse_args(argv)
    print(make_library(Path(args.home), args.calls, args.lines, args.moments))
    return 0


if __name__ == "__main__":
    sys.exit(main())
