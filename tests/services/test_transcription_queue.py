"""The transcription queue in the store: order, priority, pause, one running call, recovery from a dead process."""

from __future__ import annotations

import subprocess
import sys

import pytest

from db.store import open_store
from desktop import paths
from desktop.errors import NotFound
from desktop.services import calls
from desktop.services import transcription_queue as q
from tests.conftest import make_tone


@pytest.fixture
def three(store, tmp_path) -> list[int]:
    return [calls.add_call(store, make_tone(tmp_path / f"c{i}.wav", seconds=1 + i))[0].id for i in range(3)]


def test_calls_run_by_priority_then_order_one_at_a_time(store, three):
    a, b, c = three
    assert q.enqueue(store, [a, b]) == [a, b]
    assert q.enqueue(store, [c], priority=5) == [c]
    assert q.enqueue(store, [a]) == []  # already waiting: keeps its place
    assert [e.call_id for e in q.entries(store)] == [c, a, b]
    q.move_to_front(store, b)
    assert [e.call_id for e in q.entries(store)] == [c, b, a]

    assert q.claim_next(store) == c
    assert q.claim_next(store) is None  # one call at a time
    assert q.entry(store, c).state == "running" and q.entry(store, c).attempts == 1
    q.finish(store, c)
    assert q.entry(store, c) is None  # done calls leave the queue
    assert q.claim_next(store) == b
    q.finish(store, b, error="b.wav: cannot decode the recording")
    assert q.entry(store, b).state == "failed" and "cannot decode" in q.entry(store, b).error
    assert [e.call_id for e in q.entries(store)] == [a, b]  # failed ones last
    assert q.enqueue(store, [b]) == [b] and q.entry(store, b).state == "waiting"


def test_pause_holds_the_queue_and_resume_lets_it_go(store, three):
    q.enqueue(store, three)
    q.set_paused(store, True)
    assert q.is_paused(store) and q.claim_next(store) is None
    q.set_paused(store, False)
    assert q.claim_next(store) == three[0]
    assert not q.still_wanted(store, three[1])
    assert q.still_wanted(store, three[0])
    q.set_paused(store, True)
    assert not q.still_wanted(store, three[0])  # the runner stops its child


def test_cancel_and_clear(store, three):
    q.enqueue(store, three)
    assert q.cancel(store, three[1]) and not q.cancel(store, three[1])
    assert [e.call_id for e in q.entries(store)] == [three[0], three[2]]
    assert q.clear(store) == 2 and q.entries(store) == []
    with pytest.raises(NotFound, match="call 999"):
        q.enqueue(store, [three[0], 999])
    assert q.entries(store) == []  # nothing written for the good one either


def test_a_call_left_running_by_a_dead_process_starts_again(store, three):
    q.enqueue(store, three)
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    assert q.claim_next(store, owner_pid=gone.pid) == three[0]
    assert q.entry(store, three[0]).owner_pid == gone.pid
    assert q.claim_next(store) == three[0]  # the dead owner's call, claimed again from the start
    assert q.entry(store, three[0]).attempts == 2


def test_the_queue_outlives_the_store_being_closed(store, three, isolated_home):
    q.enqueue(store, three[:2], priority=1)
    q.set_paused(store, True)
    store.close()
    again = open_store(paths.store_path(paths.data_home(isolated_home)))
    try:
        assert [e.call_id for e in q.entries(again)] == three[:2] and q.is_paused(again)
    finally:
        again.close()


@pytest.mark.slow
def test_pausing_stops_the_call_being_transcribed_and_it_waits_again(store, demo_media):
    """The runner's watch (asked between its reads of the Whisper child) stops a paused call at once."""
    from desktop.services import transcription as service

    call_id = calls.add_call(store, demo_media, title="Demo")[0].id
    q.enqueue(store, [call_id])
    assert q.claim_next(store) == call_id
    seen = []

    def on_event(cid, event):
        seen.append(type(event).__name__)
        if len(seen) == 1:
            q.set_paused(store, True)  # as `callmark transcription pause` would, from anywhere

    run = service.CallTranscription(store, service.plan_for_call(store, call_id, cpu_threads=2))
    outcome = q.run_one(store, run, on_event=on_event)
    assert outcome.outcome == "stopped", (outcome, seen)
    assert "nothing was kept" in outcome.detail
    assert seen[-1] == "Cancelled" and "Saved" not in seen
    assert q.states(store) == {call_id: q.WAITING}  # back to waiting, for the resume
    assert run.transcript is None


def test_one_process_claims_up_to_its_slots_and_no_other_process_claims_at_all(store, three):
    a, b, c = three
    q.enqueue(store, three)
    other = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])  # another Callmark, alive
    try:
        assert q.claim_next(store, slots=2) == a
        assert q.claim_next(store, owner_pid=other.pid, slots=2) is None  # one Whisper child at a time
        assert q.claim_next(store, slots=2) == b
        assert q.claim_next(store, slots=2) is None  # both slots taken
        q.finish(store, a)
        assert q.claim_next(store, slots=2) == c
        q.finish(store, b)
        q.finish(store, c)
        q.enqueue(store, [a])
        assert q.claim_next(store, owner_pid=other.pid, slots=2) == a
        assert q.claim_next(store, slots=2) is None  # now the other process has the child
    finally:
        other.kill()
        other.wait()


def _spoken(tmp_path, n: int):
    from tests.transcription.conftest import speak

    lines = ["Just send me some information and I will take a look.",
             "Our finance director signs off on anything over twenty thousand.",
             "Would you like to see a demo next week?"]
    return [speak(" ".join(lines[i:] + lines[:i]), tmp_path / f"spoken{i}.wav") for i in range(n)]


@pytest.mark.slow
def test_the_queue_transcribes_two_calls_at_once_in_one_child_and_saves_each(store, tmp_path):
    """Three calls, two slots: the first two are under way together in the same Whisper child, the
    third starts when a slot frees, and every call's transcript is saved whole."""
    from desktop.services import transcripts

    ids = [calls.add_call(store, path, title=path.stem)[0].id for path in _spoken(tmp_path, 3)]
    q.enqueue(store, ids)
    order: list[tuple[int, str]] = []
    outcomes = list(q.run_queue(store, cpu_threads=1, parallel=2,
                                on_event=lambda cid, event: order.append((cid, type(event).__name__))))
    assert sorted(o.call_id for o in outcomes) == ids
    assert all(o.outcome == "transcribed" and o.lines > 0 for o in outcomes), outcomes
    started = [cid for cid, name in order if name == "Started"]
    first_done = next(i for i, (_cid, name) in enumerate(order) if name == "Completed")
    assert set(started[:2]) == set(ids[:2]) and order.index((ids[1], "Started")) < first_done, order
    assert q.entries(store) == []
    for call_id in ids:
        text = " ".join(s.text for s in transcripts.current_transcript(store, call_id).segments).lower()
        assert "send me some information" in text and "demo next week" in text


@pytest.mark.slow
def test_a_broken_recording_fails_alone_while_the_other_call_in_the_child_is_saved(store, tmp_path):
    """Two calls share the Whisper child: the one whose file cannot be decoded fails with its file named,
    and the other goes on to its transcript."""
    good, bad = _spoken(tmp_path, 2)
    ids = [calls.add_call(store, path, title=path.stem)[0].id for path in (bad, good)]
    bad.write_bytes(b"not a recording any more " * 400)  # the file went bad on disk after it was added
    q.enqueue(store, ids)
    outcomes = {o.call_id: o for o in q.run_queue(store, cpu_threads=1, parallel=2)}
    broken, fine = outcomes[ids[0]], outcomes[ids[1]]
    assert fine.outcome == "transcribed" and fine.lines > 0
    assert broken.outcome == "failed" and bad.name in broken.detail, broken
    assert q.entry(store, ids[0]).state == "failed" and q.entry(store, ids[1]) is None
