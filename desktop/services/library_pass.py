"""The passes over a whole library, read in a child process: detection, and counting a tracker.

Reading thousands of transcripts is pure Python work. On a thread of the window's process it
shares the interpreter with the GUI thread, and each of its garbage collections (tens of
milliseconds over the window's heap) holds the GUI still. In a child process the window's side
is only this loop: take each call's answer and write it to the cache through the store's one
writer. The child only reads (the cache is checked against its fingerprint on every read, so an
answer made from a transcript edited meanwhile is simply made again).

A tracker's count works the same way: the child reads the candidate lines and finds the hits, the
window's process only gathers them and writes them in the count's one transaction at the end.

Stopping the generator (the task cancelled, the window closing) stops the child.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Iterator
from pathlib import Path

from db.store import Store
from desktop.errors import CallmarkError
from desktop.transcription.runner import stop_process

#: below this many calls the child's start-up (about a second) costs more than it saves
CHILD_FROM = 200


def _child(conn, store_path: str, ids: list[int]) -> None:
    """In the child: the answer for each call, sent as plain strings (nothing written here)."""
    import os

    from desktop.services import suggestions

    if hasattr(os, "nice"):
        os.nice(10)  # background work: the window (and the coach's playback) get the processor first
    store = Store(Path(store_path))
    try:
        for call_id in ids:
            try:
                result = suggestions.compute(store, call_id)
            except Exception as exc:  # noqa: BLE001 - the parent says what went wrong, with the call
                conn.send(("error", call_id, str(exc) or type(exc).__name__))
                return
            if result.ran:
                findings, figures = suggestions.cache_json(result)
                conn.send(("ran", call_id, result.transcript_id, result.fingerprint, findings, figures,
                           len(result.findings)))
            else:
                conn.send(("same", call_id, len(result.findings)))
        conn.send(("done",))
    finally:
        store.close()
        conn.close()


def _start(target, name: str, args: tuple):
    """``target(conn, *args)`` in a fresh child process; the receiving end of its pipe and the process."""
    ctx = multiprocessing.get_context("spawn")
    receiver, sender = ctx.Pipe(duplex=False)
    process = ctx.Process(target=target, name=name, daemon=True, args=(sender, *args))
    process.start()
    sender.close()  # the child's end: its death reads as end-of-file here
    return receiver, process


#: results written to the cache together: one transaction (and one wait for the disk) for many calls
WRITE_EVERY = 25


def refresh_in_child(store: Store, ids: list[int]) -> Iterator:
    """Yield LibraryProgress for each call as the child reads it; the results go to the cache here."""
    from desktop.services.suggestions import LibraryProgress, save_caches

    receiver, process = _start(_child, "callmark-suggestions", (str(store.path), list(ids)))
    total = len(ids)
    rows: list[tuple] = []
    steps: list[LibraryProgress] = []
    try:
        for done in range(1, total + 1):
            try:
                message = receiver.recv()
            except EOFError:
                raise CallmarkError(f"{store.path}: the pass over the library stopped after {done - 1} of "
                                    f"{total} calls (its process ended)") from None
            kind = message[0]
            if kind == "error":
                raise CallmarkError(f"call {message[1]}: suggestions not made: {message[2]}")
            if kind == "ran":
                _, call_id, transcript_id, print_, findings, figures, found = message
                rows.append((call_id, transcript_id, print_, findings, figures))
                steps.append(LibraryProgress(done, total, call_id, True, found))
            else:
                _, call_id, found = message
                steps.append(LibraryProgress(done, total, call_id, False, found))
            if len(rows) >= WRITE_EVERY or done == total or not receiver.poll():
                if rows:  # written before the progress that reports them
                    save_caches(store, rows)
                    rows = []
                yield from steps
                steps = []
    finally:
        receiver.close()
        stop_process(process)  # the one way a child is stopped (Whisper's too)


def _count_child(conn, store_path: str, tracker_id: int) -> None:
    """In the child: one tracker's hits, a batch of plain rows every few calls (nothing written here)."""
    import os

    from desktop.services import trackers

    if hasattr(os, "nice"):
        os.nice(10)
    store = Store(Path(store_path))
    try:
        try:
            for step in trackers.read_hits(store, tracker_id):
                conn.send(("hits", *step))
        except Exception as exc:  # noqa: BLE001 - the parent says what went wrong, with the store
            conn.send(("error", str(exc) or type(exc).__name__))
            return
        conn.send(("done",))
    finally:
        store.close()
        conn.close()


def count_in_child(store: Store, tracker_id: int) -> Iterator[tuple[int, int, list[tuple]]]:
    """(calls read, calls to read, hit rows found since the last step), as the child finds them."""
    receiver, process = _start(_count_child, "callmark-trackers", (str(store.path), int(tracker_id)))
    try:
        while True:
            try:
                message = receiver.recv()
            except EOFError:
                raise CallmarkError(f"{store.path}: the tracker count stopped (its process ended)") from None
            if message[0] == "done":
                return
            if message[0] == "error":
                raise CallmarkError(f"{store.path}: tracker {tracker_id} not counted: {message[1]}")
            yield message[1], message[2], message[3]
    finally:
        receiver.close()
        stop_process(process)


#: the window is told of progress at most this often: a status line redrawn 5,000 times is work for nothing
PROGRESS_EVERY_S = 0.1


def paced(steps: Iterator, seconds: float = PROGRESS_EVERY_S):
    """The steps at most one per `seconds` (and always the last); returns how many calls were read anew
    (steps without ``ran``, a tracker count's, count none)."""
    import time

    ran, last, step, shown = 0, float("-inf"), None, True
    for step in steps:
        ran += getattr(step, "ran", 0)
        now = time.monotonic()
        shown = now - last >= seconds
        if shown:
            last = now
            yield step
    if step is not None and not shown:
        yield step
    return ran
