"""`callmark transcription queue|add|pause|resume|clear|run`, and a queue that outlives `kill -9` of the real app."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from desktop import paths
from tests.conftest import REPO, make_tone, run_cli


def queue(home: Path) -> dict:
    return json.loads(run_cli("transcription", "queue", "--json", home=home, check=True).stdout)


def test_queue_add_pause_resume_clear(isolated_home, tmp_path):
    for i in range(3):
        run_cli("calls", "add", str(make_tone(tmp_path / f"t{i}.wav", seconds=1 + i)), home=isolated_home, check=True)
    assert queue(isolated_home) == {"paused": False, "entries": []}
    run_cli("transcription", "add", "1", "2", home=isolated_home, check=True)
    run_cli("transcription", "add", "3", "--priority", "2", home=isolated_home, check=True)
    state = queue(isolated_home)
    assert [(e["call_id"], e["state"]) for e in state["entries"]] == [(3, "waiting"), (1, "waiting"), (2, "waiting")]
    assert json.loads(run_cli("transcription", "pause", "--json", home=isolated_home, check=True).stdout)["paused"]
    text = run_cli("transcription", "queue", home=isolated_home, check=True).stdout
    assert text.splitlines()[0] == "paused" and "T1" in text
    assert not json.loads(run_cli("transcription", "resume", "--json", home=isolated_home,
                                  check=True).stdout)["paused"]
    run_cli("transcription", "cancel", "1", home=isolated_home, check=True)
    assert [e["call_id"] for e in queue(isolated_home)["entries"]] == [3, 2]
    out = run_cli("transcription", "clear", home=isolated_home, check=True)
    assert out.stdout.strip() == "2 calls taken off the queue" and queue(isolated_home)["entries"] == []


def test_unknown_calls_are_one_line_and_nothing_queued(isolated_home, tmp_path):
    run_cli("calls", "add", str(make_tone(tmp_path / "t.wav")), home=isolated_home, check=True)
    out = run_cli("transcription", "add", "1", "7", home=isolated_home)
    assert out.returncode == 1 and out.stderr.startswith("callmark: call 7") and len(out.stderr.splitlines()) == 1
    assert queue(isolated_home)["entries"] == []
    out = run_cli("transcription", "cancel", "1", home=isolated_home)
    assert out.returncode == 1 and "not in the transcription queue" in out.stderr


def _job(db: Path):
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return con.execute("SELECT state, owner_pid FROM transcription_job WHERE call_id = 1").fetchone(), \
            con.execute("SELECT count(*) FROM transcript WHERE call_id = 1").fetchone()[0]
    finally:
        con.close()


def _start_app(home: Path) -> subprocess.Popen:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", CALLMARK_HOME=str(home))
    return subprocess.Popen([sys.executable, "-m", "desktop", "--home", str(home)], cwd=REPO, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def _wait(predicate, timeout: float, what: str):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = predicate()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


@pytest.mark.slow
def test_a_queue_interrupted_by_kill_9_of_the_app_starts_the_call_again(isolated_home, demo_media):
    run_cli("calls", "add", str(demo_media), home=isolated_home, check=True)
    run_cli("transcription", "add", "1", home=isolated_home, check=True)
    db = paths.store_path(isolated_home)
    app = _start_app(isolated_home)
    try:
        _wait(lambda: (_job(db)[0] or (None,))[0] == "running", 60, "the app to start transcribing")
        (state, owner), saved = _job(db)
        assert owner == app.pid and saved == 0
        time.sleep(2)  # the child is decoding: a transcript half done
        app.send_signal(signal.SIGKILL)
        app.wait(10)
    finally:
        if app.poll() is None:
            app.kill()
            app.wait()
    (state, owner), saved = _job(db)
    assert (state, owner, saved) == ("running", app.pid, 0)  # nothing half-written; its owner is gone

    again = _start_app(isolated_home)
    try:
        # Finished means both: the transcript saved and the call off the queue (two steps, a moment apart).
        _wait(lambda: _job(db) == (None, 1), 240, "the restarted app to finish the call")
    finally:
        again.terminate()
        again.wait(20)
    job, saved = _job(db)
    assert job is None and saved == 1  # off the queue, one whole transcript
    listed = json.loads(run_cli("calls", "list", "--json", home=isolated_home, check=True).stdout)
    assert listed[0]["transcript_status"] == "whisper"
    exported = json.loads(run_cli("transcript", "export", "1", "--format", "json", home=isolated_home,
                                  check=True).stdout)
    assert "send me some information" in " ".join(s["text"] for s in exported["segments"]).lower()
