"""Writers at once, on one real store: the app's services marking and editing in this process, the
`callmark` command adding moments and importing records in others, and transcripts landing (a
transcript import of a long call, and in the slow run a real Whisper transcription finishing).

Counted: every write each writer made is in the store afterwards, none failed, and no "database is
locked" reached anyone. The default run lasts 20 s; the slow one the issue's 60 s.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from db.store import open_store
from desktop import paths
from desktop.services import calls, moments
from desktop.services.rows import list_moments
from tests.conftest import REPO, make_tone


@dataclass
class Tally:
    made: int = 0
    failed: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def ok(self, n: int = 1) -> None:
        with self.lock:
            self.made += n

    def bad(self, what: str) -> None:
        with self.lock:
            self.failed.append(what)


def cli(home: Path, *args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    env = dict(os.environ, CALLMARK_HOME=str(home))
    return subprocess.run([sys.executable, "-m", "desktop", *args], capture_output=True, text=True, env=env,
                          cwd=REPO, timeout=timeout)


def long_vtt(path: Path, cues: int = 1500) -> Path:
    lines = ["WEBVTT", ""]
    for i in range(cues):
        start, end = i * 2000, i * 2000 + 1800
        lines += [f"{start // 3600000:02d}:{start // 60000 % 60:02d}:{start // 1000 % 60:02d}.{start % 1000:03d} --> "
                  f"{end // 3600000:02d}:{end // 60000 % 60:02d}:{end // 1000 % 60:02d}.{end % 1000:03d}",
                  f"<v {'Riley Rep' if i % 2 else 'Dana Buyer'}>Line {i} about the renewal and its budget.", ""]
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


def record_file(folder: Path, n: int) -> Path:
    """A coaching record from another coach, on a call of its own (each one new to the store)."""
    from desktop.exchange.record import dump_record
    from tests.exchange.sample_records import bare_record, encode, reseal

    plain = json.loads(dump_record(bare_record()))
    moment_id, item_id = str(uuid.uuid4()), str(uuid.uuid4())
    plain["call"]["media"]["sha256"] = f"{n:064x}"
    plain["call"]["title"] = f"Imported call {n}"
    plain["moments"][0]["id"] = moment_id
    plain["items"][0]["id"] = item_id
    plain["items"][0]["moment_ids"] = [moment_id]
    path = folder / f"record-{n}.callmark.json"
    path.write_bytes(encode(reseal(plain)))
    return path


def run_writers(tmp_path: Path, seconds: float, whisper: bool) -> dict:
    home = paths.data_home(tmp_path / "home")
    store = open_store(paths.store_path(home))
    # Three recordings of different lengths: the same bytes would be the same call.
    app_call, _ = calls.add_call(store, make_tone(tmp_path / "app.wav", seconds=30), title="App call")
    cli_call, _ = calls.add_call(store, make_tone(tmp_path / "cli.wav", seconds=31), title="CLI call")
    long_call, _ = calls.add_call(store, make_tone(tmp_path / "long.wav", seconds=32), title="Long call")
    if whisper:
        demo, _ = calls.add_call(store, paths.DEMO_MEDIA, title="Demo")
    vtt = long_vtt(tmp_path / "long.vtt")
    deadline = time.monotonic() + seconds
    tallies = {name: Tally() for name in ("app moments", "app notes", "cli moments", "cli records",
                                          "transcripts", "whisper")}
    app_notes: dict[int, str] = {}

    def app() -> None:
        """The window's writes, through the same services on this process's store."""
        i = 0
        while time.monotonic() < deadline:
            try:
                row = moments.add_moment(store, app_call.id, (i * 7) % 29000, note=f"app {i}")
                tallies["app moments"].ok()
                if i % 2:
                    text = f"app {i}, edited"
                    moments.update_moment(store, row.id, note=text)
                    app_notes[row.id] = text
                    tallies["app notes"].ok()
                else:
                    app_notes[row.id] = f"app {i}"
            except Exception as exc:  # noqa: BLE001 - counted: this is what the coach would see
                tallies["app moments"].bad(f"{type(exc).__name__}: {exc}")
            i += 1
            time.sleep(0.02)  # a coach marking and typing fast, not a loop holding the lock

    def cli_moments() -> None:
        i = 0
        while time.monotonic() < deadline:
            done = cli(home, "moments", "add", str(cli_call.id), "--at", f"{i % 29}.{i % 1000:03d}",
                       "--note", f"cli {i}")
            (tallies["cli moments"].ok() if done.returncode == 0 else tallies["cli moments"].bad(done.stderr))
            i += 1

    def cli_records() -> None:
        i = 0
        while time.monotonic() < deadline:
            done = cli(home, "record", "import", str(record_file(tmp_path, i)))
            (tallies["cli records"].ok() if done.returncode == 0 else tallies["cli records"].bad(done.stderr))
            i += 1

    def transcripts() -> None:
        while time.monotonic() < deadline:
            done = cli(home, "transcript", "import", str(long_call.id), str(vtt))
            (tallies["transcripts"].ok() if done.returncode == 0 else tallies["transcripts"].bad(done.stderr))

    def transcription() -> None:
        done = cli(home, "transcribe", str(demo.id), "--threads", "1", timeout=max(seconds * 3, 300))
        (tallies["whisper"].ok() if done.returncode == 0 else tallies["whisper"].bad(done.stderr))

    workers = [app, cli_moments, cli_records, transcripts] + ([transcription] if whisper else [])
    threads = [threading.Thread(target=w, name=w.__name__) for w in workers]
    for t in threads:
        t.start()
    for t in threads:
        t.join()

    # What the store holds afterwards, read fresh.
    store.close()
    store = open_store(paths.store_path(home))
    try:
        held_app = {m.id: m.note for m in list_moments(store, app_call.id)}
        held_cli = list_moments(store, cli_call.id)
        con = store.reader()
        imported = con.execute("SELECT count(*) FROM call WHERE title LIKE 'Imported call %'").fetchone()[0]
        versions = con.execute("SELECT count(*) FROM transcript WHERE call_id = ?", (long_call.id,)).fetchone()[0]
        whisper_lines = (con.execute("SELECT count(*) FROM segment s JOIN transcript t ON t.id = s.transcript_id "
                                     "WHERE t.call_id = ?", (demo.id,)).fetchone()[0] if whisper else 0)
        integrity = con.execute("PRAGMA integrity_check").fetchone()[0]
    finally:
        store.close()
    failures = [f for t in tallies.values() for f in t.failed]
    lost = (sum(1 for mid, note in app_notes.items() if held_app.get(mid) != note)
            + (tallies["cli moments"].made - len(held_cli)) + (tallies["cli records"].made - imported)
            + (tallies["transcripts"].made - versions))
    return {"tallies": {k: t.made for k, t in tallies.items()}, "failures": failures, "lost": lost,
            "held": {"app moments": len(held_app), "cli moments": len(held_cli), "records": imported,
                     "transcript versions": versions, "whisper lines": whisper_lines},
            "integrity": integrity, "app_notes": len(app_notes)}


def check(result: dict, whisper: bool) -> None:
    made = sum(result["tallies"].values())
    print(f"concurrent writes made: {made} {result['tallies']}; lost: {result['lost']}; "
          f"failed: {len(result['failures'])}; store holds {result['held']}")
    assert not [f for f in result["failures"] if "locked" in f.lower()], result["failures"][:3]
    assert result["failures"] == []
    assert result["lost"] == 0
    assert result["integrity"] == "ok"
    assert result["held"]["app moments"] == result["tallies"]["app moments"] == result["app_notes"]
    t = result["tallies"]
    assert t["app moments"] > 20 and t["cli moments"] >= 3 and t["cli records"] >= 3 and t["transcripts"] >= 2
    if whisper:
        assert t["whisper"] == 1 and result["held"]["whisper lines"] > 5


def test_writers_at_once(tmp_path):
    check(run_writers(tmp_path, 20, whisper=False), whisper=False)


@pytest.mark.slow
def test_writers_at_once_for_a_minute_with_a_whisper_transcription_finishing(tmp_path):
    check(run_writers(tmp_path, 60, whisper=True), whisper=True)
