"""A crash while typing: the real app process is killed (SIGKILL) in the middle of a note or an item
field, typed without a pause (so autosave never had its pause); started again, it puts back what was
typed, all but at most the last second, and says so."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time

from db.store import open_store
from desktop import paths
from desktop.services import calls, items, moments
from desktop.ui.journal import journal_path
from tests.conftest import REPO, make_tone

TEXT = ("Ask what they will review and who else needs to be involved before sending anything; "
        "then agree the date of the next call with the customer, in the call, not by email.")
KEY_MS = 40


def _child(*args: str, **kw) -> subprocess.Popen:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    return subprocess.Popen([sys.executable, "-m", "tests.ui.typing_child", *args], cwd=REPO, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


def type_and_kill(home, call_id: int, moment_id: int, target: str, keys: int) -> tuple[int, float]:
    """Start the app typing; SIGKILL it once ``keys`` keys were typed. Returns (keys seen, when)."""
    proc = _child(str(home), str(call_id), target, str(moment_id), TEXT)
    typed, stamps, said = 0, {}, []
    try:
        for line in proc.stdout:
            said.append(line.strip())
            if line.startswith("typed "):
                typed = int(line.split()[1])
                stamps[typed] = time.monotonic()
                if typed >= keys:
                    break
        os.kill(proc.pid, signal.SIGKILL)
        killed_at = time.monotonic()
        proc.wait(30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == -signal.SIGKILL, proc.stderr.read()
    # Keys typed more than a second before the kill: these must all come back.
    settled = max((n for n, t in stamps.items() if killed_at - t >= 1.0), default=0)
    assert typed >= keys, said[-5:]
    return typed, settled


def report(home, call_id: int) -> dict:
    proc = _child(str(home), str(call_id), "report")
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    return json.loads(out.strip().splitlines()[-1])


def test_kill_9_while_typing_loses_at_most_the_last_second(tmp_path):
    home = paths.data_home(tmp_path / "home")
    store = open_store(paths.store_path(home))
    call, _ = calls.add_call(store, make_tone(tmp_path / "call.wav", seconds=20), title="Kill test")
    first = moments.add_moment(store, call.id, 1000, end_ms=3000)
    second = moments.add_moment(store, call.id, 6000, end_ms=8000)
    item = items.create_item(store, [second.id], consequence="The rep doesn't know who reviews it.")
    third = moments.add_moment(store, call.id, 12000, end_ms=14000)
    store.close()
    rounds = [("note", first.id, "SELECT note FROM moment WHERE id = ?"),
              ("item", second.id, "SELECT behavior_text FROM coaching_item WHERE id = ?"),
              ("note", third.id, "SELECT note FROM moment WHERE id = ?")]
    rnd = random.Random(22)
    survived = 0
    for target, moment_id, query in rounds:
        keys = rnd.randint(40, 110)
        typed, settled = type_and_kill(home, call.id, moment_id, target, keys)
        assert journal_path(home).exists(), (typed, settled, sorted(os.listdir(home)))  # in the journal
        said = report(home, call.id)  # the real app, started again
        assert said["restored"] and said["restored"].startswith("Callmark stopped while you were typing; put back ")
        assert ("your note on the moment at" if target == "note" else "the behavior text of coaching item") \
            in said["restored"]
        st = open_store(paths.store_path(home))
        try:
            ident = moment_id if target == "note" else item.id
            got = st.reader().execute(query, (ident,)).fetchone()[0] or ""
        finally:
            st.close()
        assert TEXT.startswith(got.strip()) or TEXT.startswith(got), (got, typed)
        assert len(got) >= settled, f"lost more than the last second: kept {len(got)} of {typed} keys"
        assert not journal_path(home).exists()  # replayed once, then gone
        survived += 1
        print(f"kill {survived} ({target}): {typed} keys typed, {len(got)} kept, {settled} typed over a second "
              "before the kill")
    print(f"kills survived: {survived} of {len(rounds)}")
    assert survived == len(rounds)
