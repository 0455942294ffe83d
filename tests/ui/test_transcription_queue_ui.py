"""The window works through the store's queue: pause and resume, a closed window's queue kept, failed calls said."""

from __future__ import annotations

import pytest

from desktop.services import calls
from desktop.services import transcription_queue as q
from desktop.ui.actions import ActionId
from desktop.ui.transcription import install_transcription
from tests.conftest import make_tone


def status(window, call_id: int) -> str:
    model = window.library_model
    return model.call_at(model.row_of(call_id)).transcript_status


@pytest.mark.slow
def test_pause_stops_the_child_and_resume_starts_the_call_again(qtbot, make_window, store, demo_media, tmp_path):
    first = calls.add_call(store, demo_media, title="Acme discovery")[0].id
    second = calls.add_call(store, make_tone(tmp_path / "short.wav", seconds=2), title="Short")[0].id
    window = make_window()
    ctl = install_transcription(window, cpu_threads=2, parallel=1)  # one at a time: the second waits
    with qtbot.waitSignal(ctl.queue.call_started, timeout=10_000):
        assert ctl.queue.add_many([first, second]) == 2
    assert ctl.queue.running_call == first and status(window, second) == "queued"
    child = ctl.queue.run_of(first).transcription.job  # the real child process

    pause = window.registry[ActionId.PAUSE_TRANSCRIPTION]
    pause.trigger()
    assert pause.isChecked() and q.is_paused(store)
    qtbot.waitUntil(lambda: ctl.queue.running_call is None, timeout=10_000)
    assert child.outcome == "cancelled"
    assert [(e.call_id, e.state) for e in q.entries(store)] == [(first, "waiting"), (second, "waiting")]
    assert status(window, first) == "queued" and calls.get_call(store, first).transcript_status == "none"

    with qtbot.waitSignal(ctl.queue.call_started, timeout=10_000) as started:
        pause.trigger()  # resume
    assert started.args == [first] and not q.is_paused(store)

    window.close()  # the queue stays in the store; the running call waits to start again
    assert [(e.call_id, e.state) for e in q.entries(store)] == [(first, "waiting"), (second, "waiting")]
    again = make_window()
    ctl2 = install_transcription(again, cpu_threads=2, parallel=1)
    with qtbot.waitSignal(ctl2.queue.call_saved, timeout=240_000) as saved:
        pass
    assert saved.args[0] == first
    assert calls.get_call(store, first).transcript_status == "whisper" and q.entry(store, first) is None
    # The tone has no speech: it fails, and stays on the queue as failed with the reason.
    qtbot.waitUntil(lambda: q.entry(store, second).state == "failed", timeout=120_000)
    assert "no speech found" in q.entry(store, second).error and status(again, second) == "failed"


def test_a_pause_from_the_command_line_shows_in_the_window(qtbot, window, store):
    ctl = install_transcription(window)
    q.set_paused(store, True)  # as `callmark transcription pause` does
    qtbot.waitUntil(lambda: window.registry[ActionId.PAUSE_TRANSCRIPTION].isChecked(), timeout=5000)
    q.set_paused(store, False)
    qtbot.waitUntil(lambda: not window.registry[ActionId.PAUSE_TRANSCRIPTION].isChecked(), timeout=5000)
    assert not ctl.queue.paused


def test_a_call_that_cannot_be_transcribed_shows_failed_in_the_library(qtbot, window, store, tmp_path):
    ctl = install_transcription(window)
    gone = make_tone(tmp_path / "gone.wav", seconds=2)
    call = calls.add_call(store, gone, title="Gone")[0].id
    window.refresh_library()
    gone.unlink()
    with qtbot.waitSignal(ctl.queue.call_failed, timeout=10_000) as failed:
        ctl.queue.add(call)
    assert "not on this computer" in failed.args[1]
    assert status(window, call) == "failed"
    assert q.entry(store, call).state == "failed"


@pytest.mark.slow
def test_two_calls_are_transcribed_at_once_in_one_child_and_both_saved(qtbot, make_window, store, tmp_path):
    """The window's queue runs two calls together (the library shows both under way), in the same
    Whisper child, and saves each; the child goes once the queue is empty."""
    from tests.services.test_transcription_queue import _spoken

    a, b = (calls.add_call(store, path, title=path.stem)[0].id for path in _spoken(tmp_path, 2))
    window = make_window()
    ctl = install_transcription(window, cpu_threads=1, parallel=2)
    saved = []
    ctl.queue.call_saved.connect(lambda cid, _tid: saved.append(cid))
    ctl.queue.call_failed.connect(lambda cid, msg: saved.append((cid, msg)))
    ctl.queue.call_cancelled.connect(lambda cid: saved.append((cid, "cancelled")))
    assert ctl.queue.add_many([a, b]) == 2
    assert sorted(ctl.queue.running_calls) == [a, b]
    pids = {ctl.queue.run_of(c).transcription.job.pid for c in (a, b)}
    assert len(pids) == 1, "one Whisper child for both"
    qtbot.waitUntil(lambda: "%" in status(window, a) and "%" in status(window, b), timeout=60_000)
    qtbot.waitUntil(lambda: len(saved) == 2, timeout=120_000)
    assert sorted(saved, key=str) == [a, b], saved
    assert calls.get_call(store, a).transcript_status == "whisper" == calls.get_call(store, b).transcript_status
    assert q.entries(store) == [] and ctl.queue.running_calls == []
    qtbot.waitUntil(lambda: ctl.queue._whisper is None, timeout=5_000)  # noqa: SLF001 - the child went


@pytest.mark.slow
def test_closing_the_window_while_two_calls_run_leaves_both_waiting_and_no_child(qtbot, make_window, store, demo_media,
                                                                                tmp_path):
    import os

    second = calls.add_call(store, demo_media, title="Acme discovery")[0].id
    from tests.services.test_transcription_queue import _spoken

    first = calls.add_call(store, _spoken(tmp_path, 1)[0], title="Spoken")[0].id
    window = make_window()
    ctl = install_transcription(window, cpu_threads=1, parallel=2)
    assert ctl.queue.add_many([second, first]) == 2
    assert sorted(ctl.queue.running_calls) == sorted([first, second])
    job = ctl.queue.run_of(second).transcription.job
    qtbot.waitUntil(lambda: job.pid is not None, timeout=10_000)  # the thread has started the child
    pid = job.pid
    window.close()
    assert [(e.call_id, e.state) for e in q.entries(store)] == [(second, "waiting"), (first, "waiting")]
    assert calls.get_call(store, second).transcript_status == "none"
    try:
        os.kill(pid, 0)
        with open(f"/proc/{pid}/stat") as f:
            gone = f.read().split()[2] == "Z"
    except ProcessLookupError:
        gone = True
    assert gone, "the Whisper child went with the window"
