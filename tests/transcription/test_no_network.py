"""Transcription opens no network socket: watched from inside the spawned child.

A recorder installed as the child's first audit hook (before the app's own
network guard) writes every socket event to a file; the file must stay empty
through a whole transcription. The recorder is first shown to catch a socket
in the same spawned child, so an empty file means something.
"""

from __future__ import annotations

import functools
import multiprocessing
import socket
import sys
import pytest

from desktop.transcription.models import resolve_model
from desktop.transcription.runner import Completed, Failed, TranscriptionJob
from desktop.transcription.worker import TranscriptionSettings, forbid_network


def record_socket_events(log_path: str, open_one: bool = False) -> None:
    """Runs in the child: log every socket.* / urllib audit event to log_path."""
    def hook(event: str, args: tuple) -> None:
        if event.startswith(("socket.", "urllib.")):
            with open(log_path, "a", encoding="utf-8") as log:
                log.write(f"{event} {args!r}\n")

    sys.addaudithook(hook)
    if open_one:
        socket.socket(socket.AF_INET, socket.SOCK_STREAM).close()


@pytest.mark.slow
def test_the_recorder_sees_a_socket_opened_in_the_spawned_child(tmp_path, short_call) -> None:
    log = tmp_path / "sockets.log"
    job = TranscriptionJob(short_call, resolve_model(), TranscriptionSettings(cpu_threads=2),
                           child_setup=functools.partial(record_socket_events, str(log), True))
    events = list(job.events())
    assert isinstance(events[-1], Completed)
    assert "socket.__new__" in log.read_text()


_PARENT_EVENTS: list[str] = []
_WATCHING_PARENT = [False]


def _parent_hook(event: str, args: tuple) -> None:
    if _WATCHING_PARENT[0] and event.startswith(("socket.", "urllib.")):
        _PARENT_EVENTS.append(event)


@pytest.mark.slow
def test_transcription_opens_no_socket(tmp_path, short_call) -> None:
    log = tmp_path / "sockets.log"
    sys.addaudithook(_parent_hook)  # hooks cannot be removed; this one only records while watching
    _WATCHING_PARENT[0] = True
    try:
        job = TranscriptionJob(short_call, resolve_model(), TranscriptionSettings(cpu_threads=2),
                               child_setup=functools.partial(record_socket_events, str(log)))
        events = list(job.events())
    finally:
        _WATCHING_PARENT[0] = False
    assert _PARENT_EVENTS == []
    assert isinstance(events[-1], Completed), events[-1]
    assert "information" in " ".join(s.text for s in events[-1].result.segments)
    assert not log.exists() or log.read_text() == ""


def _try_network_after_guard(conn) -> None:
    forbid_network()
    outcomes = []
    for attempt in (lambda: socket.socket(socket.AF_INET, socket.SOCK_STREAM),
                    lambda: socket.getaddrinfo("localhost", 80),
                    lambda: socket.create_connection(("127.0.0.1", 9), timeout=1)):
        try:
            attempt()
            outcomes.append("allowed")
        except Exception as exc:  # noqa: BLE001
            outcomes.append(type(exc).__name__)
    a, b = socket.socketpair(socket.AF_UNIX)  # local IPC stays possible
    a.close(), b.close()
    conn.send(outcomes)


def test_the_guard_refuses_network_sockets_in_a_spawned_child() -> None:
    ctx = multiprocessing.get_context("spawn")
    receiver, sender = ctx.Pipe(duplex=False)
    process = ctx.Process(target=_try_network_after_guard, args=(sender,))
    process.start()
    sender.close()
    outcomes = receiver.recv()
    process.join(10)
    assert outcomes == ["NetworkForbiddenError"] * 3


def test_a_model_name_without_network_is_refused_inside_the_child(tmp_path, short_call) -> None:
    # Even if a download is handed to the child by mistake, offline mode + guard stop it.
    from desktop.transcription.models import ResolvedModel
    log = tmp_path / "sockets.log"
    job = TranscriptionJob(short_call, ResolvedModel("Systran/not-cached-model", "x", "settings"),
                           TranscriptionSettings(cpu_threads=2),
                           child_setup=functools.partial(record_socket_events, str(log)))
    events = list(job.events())
    assert isinstance(events[-1], Failed)
    assert not log.exists() or "socket.connect" not in log.read_text()
