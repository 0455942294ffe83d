"""The transcription queue, kept in the store: it survives closing the app, a crash and `kill -9`.

Each queued call is a row (db.models.queue): waiting, running or failed. A
runner (the window, or `callmark calls import --transcribe` /
`callmark transcription run`) claims waiting calls in one statement that also
checks no other process is running one, so there is one Whisper child at a
time even across processes; that child transcribes a few calls at once
(runner.WhisperWorker). A running row names its process; when that
process is gone (closed, crashed, killed), the call goes back to waiting and
starts again from the beginning. Nothing half-done is kept: the transcript is
saved in one transaction only when the child has finished (services.transcription).

Order: higher priority first, then the order queued. Pausing stops the call
being transcribed (it starts again on resume) and starts no other.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path

from db.store import Store
from desktop.errors import CallmarkError, NotFound

PAUSED_KEY = "transcription.queue_paused"
WAITING, RUNNING, FAILED = "waiting", "running", "failed"


@dataclass(frozen=True)
class QueueEntry:
    call_id: int
    title: str
    state: str
    priority: int
    position: int
    attempts: int
    error: str | None
    owner_pid: int | None

    def to_json(self) -> dict:
        return asdict(self)


_SELECT = ("SELECT j.call_id, c.title, j.state, j.priority, j.position, j.attempts, j.error, j.owner_pid "
           'FROM transcription_job j JOIN "call" c ON c.id = j.call_id ')
_ORDER = (" ORDER BY CASE j.state WHEN 'running' THEN 0 WHEN 'waiting' THEN 1 ELSE 2 END, "
          "j.priority DESC, j.position, j.id")


# --- reading (plain sqlite3: the library asks for every call's place) --------------------------------


def entries(store: Store) -> list[QueueEntry]:
    """The queue in the order it runs: the running call, then waiting ones, failed ones last."""
    return [QueueEntry(*r) for r in store.reader().execute(_SELECT + _ORDER)]


def entry(store: Store, call_id: int) -> QueueEntry | None:
    row = store.reader().execute(_SELECT + "WHERE j.call_id = ?", (int(call_id),)).fetchone()
    return QueueEntry(*row) if row else None


def states(store: Store) -> dict[int, str]:
    """call id -> waiting / running / failed, for the library's status column."""
    return dict(store.reader().execute("SELECT call_id, state FROM transcription_job"))


def is_paused(store: Store) -> bool:
    import json

    row = store.reader().execute("SELECT value FROM setting WHERE key = ?", (PAUSED_KEY,)).fetchone()
    return bool(row and json.loads(row[0]))


# --- telling ---------------------------------------------------------------------------------------


def enqueue(store: Store, call_ids: Iterable[int], *, priority: int = 0) -> list[int]:
    """Queue calls at the end (a failed one is queued again). Returns the calls newly waiting.

    A call already waiting or running keeps its place; an unknown call raises NotFound, before anything
    is written.
    """
    from sqlalchemy import func, select

    from db.models import Call, QueueState, TranscriptionJob

    ids = list(dict.fromkeys(int(c) for c in call_ids))
    added: list[int] = []
    with store.write() as session:
        known = set(session.scalars(select(Call.id).where(Call.id.in_(ids)))) if ids else set()
        missing = [c for c in ids if c not in known]
        if missing:
            raise NotFound(f"call {missing[0]}: no such call in this library")
        position = session.scalar(select(func.max(TranscriptionJob.position))) or 0
        existing = {j.call_id: j for j in session.scalars(
            select(TranscriptionJob).where(TranscriptionJob.call_id.in_(ids)))}
        for call_id in ids:
            job = existing.get(call_id)
            position += 1
            if job is None:
                session.add(TranscriptionJob(call_id=call_id, state=QueueState.WAITING, priority=priority,
                                             position=position, attempts=0))
            elif job.state is QueueState.FAILED:
                job.state, job.error, job.position, job.priority = QueueState.WAITING, None, position, priority
            else:
                continue
            added.append(call_id)
    return added


def cancel(store: Store, call_id: int) -> bool:
    """Take a call off the queue (its runner stops the child within half a second). False if not queued."""
    from sqlalchemy import delete

    from db.models import TranscriptionJob

    with store.write() as session:
        return session.execute(delete(TranscriptionJob).where(TranscriptionJob.call_id == int(call_id))).rowcount > 0


def clear(store: Store) -> int:
    """Empty the queue (a call being transcribed is stopped, nothing of it kept). Returns how many left it."""
    from sqlalchemy import delete

    from db.models import TranscriptionJob

    with store.write() as session:
        return session.execute(delete(TranscriptionJob)).rowcount


def set_paused(store: Store, paused: bool) -> None:
    from desktop.services.people import set_setting

    with store.write() as session:
        set_setting(session, PAUSED_KEY, bool(paused))


def set_priority(store: Store, call_id: int, priority: int) -> None:
    _update(store, call_id, priority=int(priority))


def move_to_front(store: Store, call_id: int) -> None:
    """Next among the calls of its priority."""
    first = store.reader().execute("SELECT min(position) FROM transcription_job").fetchone()[0] or 0
    _update(store, call_id, position=first - 1)


def _update(store: Store, call_id: int, **values) -> None:
    from sqlalchemy import update

    from db.models import TranscriptionJob

    with store.write() as session:
        done = session.execute(update(TranscriptionJob).where(TranscriptionJob.call_id == int(call_id))
                               .values(**values)).rowcount
    if not done:
        raise NotFound(f"call {call_id}: is not in the transcription queue")


# --- running ---------------------------------------------------------------------------------------


def process_alive(pid: int | None) -> bool:
    """A process that still runs (a zombie, killed but not yet reaped, counts as gone)."""
    if not pid:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
        return stat.rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return True


def recover(store: Store) -> list[int]:
    """Calls left running by a process that is gone go back to waiting, at their place. Returns them."""
    running = store.reader().execute(
        "SELECT call_id, owner_pid FROM transcription_job WHERE state = 'running'").fetchall()
    dead = [cid for cid, pid in running if not process_alive(pid)]
    if dead:
        _release(store, dead)
    return dead


def release(store: Store, call_id: int) -> None:
    """Put a running call back to waiting (the window closed mid-call: it starts again next time)."""
    _release(store, [call_id])


def _release(store: Store, call_ids: list[int]) -> None:
    from sqlalchemy import update

    from db.models import QueueState, TranscriptionJob

    with store.write() as session:
        session.execute(update(TranscriptionJob).where(TranscriptionJob.call_id.in_(call_ids),
                                                       TranscriptionJob.state == QueueState.RUNNING)
                        .values(state=QueueState.WAITING, owner_pid=None, started_at=None))


def claim_next(store: Store, owner_pid: int | None = None, slots: int = 1) -> int | None:
    """Mark the next waiting call running for this process and return it; None when paused, empty, this
    process already runs `slots` calls, or another process is transcribing (one Whisper child at a time:
    the calls a process runs at once all go to its one child)."""
    from sqlalchemy import text

    from db.base import utcnow

    recover(store)
    if is_paused(store):
        return None
    pid = owner_pid or os.getpid()
    with store.write() as session:
        # One statement: nobody else can slip a running call in between the check and the claim.
        picked = session.execute(text(
            "UPDATE transcription_job SET state = 'running', owner_pid = :pid, started_at = :now, "
            "attempts = attempts + 1 WHERE id = (SELECT id FROM transcription_job WHERE state = 'waiting' "
            "ORDER BY priority DESC, position, id LIMIT 1) "
            "AND NOT EXISTS (SELECT 1 FROM transcription_job WHERE state = 'running' "
            "AND (owner_pid IS NULL OR owner_pid <> :pid)) "
            "AND (SELECT count(*) FROM transcription_job WHERE state = 'running') < :slots "
            "RETURNING call_id"),
            {"pid": pid, "now": utcnow(), "slots": max(1, int(slots))}).fetchone()
    return picked[0] if picked else None


def finish(store: Store, call_id: int, *, error: str | None = None) -> None:
    """Done: the call leaves the queue. Failed: it stays, failed, with the one-line reason."""
    from sqlalchemy import delete, update

    from db.models import QueueState, TranscriptionJob

    with store.write() as session:
        where = TranscriptionJob.call_id == int(call_id)
        if error is None:
            session.execute(delete(TranscriptionJob).where(where))
        else:
            session.execute(update(TranscriptionJob).where(where).values(
                state=QueueState.FAILED, error=error, owner_pid=None))


def still_wanted(store: Store, call_id: int) -> bool:
    """The call is still this runner's to finish: on the queue, running, and the queue not paused."""
    row = store.reader().execute("SELECT state FROM transcription_job WHERE call_id = ?", (int(call_id),)).fetchone()
    return bool(row and row[0] == RUNNING) and not is_paused(store)


@dataclass(frozen=True)
class QueueOutcome:
    call_id: int
    outcome: str  # transcribed / failed / stopped (paused or taken off the queue)
    detail: str | None = None
    lines: int = 0

    def to_json(self) -> dict:
        return asdict(self)


def run_queue(store: Store, *, cpu_threads: int = 0, on_event: Callable | None = None,
              stop: threading.Event | None = None, parallel: int | None = None) -> Iterator[QueueOutcome]:
    """Transcribe waiting calls until the queue is empty, paused, or run by someone else; yields each
    call's outcome as it ends.

    One Whisper child does the work, the model loaded once, `parallel` calls at once (by default
    runner.parallel_calls(): measured faster than one call on every thread, with the same words).
    `on_event(call_id, event)` sees each call's runner events, one call at a time (a CLI draws its bar
    from them).
    """
    import queue as queues

    from desktop.services import transcription as service
    from desktop.transcription.runner import WhisperWorker, parallel_calls

    stop = stop or threading.Event()
    slots = max(1, parallel or parallel_calls())
    told = threading.Lock()
    ended: queues.Queue = queues.Queue()
    running: dict[int, threading.Thread] = {}
    worker: WhisperWorker | None = None

    def tell(call_id: int, event) -> None:
        with told:
            on_event(call_id, event)

    def work(run) -> None:
        try:
            ended.put(run_one(store, run, on_event=tell if on_event is not None else None, stop=stop))
        except BaseException as exc:  # noqa: BLE001 - run_one has put the call back; say why it stopped
            ended.put(QueueOutcome(run.plan.call_id, "stopped", str(exc) or type(exc).__name__))

    try:
        while True:
            while not stop.is_set() and len(running) < slots:
                call_id = claim_next(store, slots=slots)
                if call_id is None:
                    break
                try:
                    plan = service.plan_for_call(store, call_id, cpu_threads=cpu_threads)
                except Exception as exc:  # noqa: BLE001 - ModelNotFoundError, a missing file: failed, with why
                    finish(store, call_id, error=str(exc))
                    yield QueueOutcome(call_id, FAILED, str(exc))
                    continue
                if worker is not None and worker.model.location != plan.model.location:
                    if running:  # another model: this call waits until the calls under way are done
                        release(store, call_id)
                        break
                    worker.close()
                    worker = None
                if worker is None:
                    worker = WhisperWorker(plan.model, plan.settings, slots=slots,
                                           allow_network=plan.allow_network)
                thread = threading.Thread(target=work, args=(service.CallTranscription(store, plan, worker=worker),),
                                          name=f"queue-call-{call_id}", daemon=True)
                running[call_id] = thread
                thread.start()
            if not running:
                return
            outcome = ended.get()
            running.pop(outcome.call_id).join()
            yield outcome
    finally:
        stop.set()  # Ctrl+C or the caller stopped early: the calls under way go back to waiting
        for thread in running.values():
            thread.join(timeout=10)
        if worker is not None:
            worker.close()


def run_one(store: Store, run, *, on_event: Callable | None = None,
            stop: threading.Event | None = None) -> QueueOutcome:
    """One claimed call: the child is stopped if the call leaves the queue or the queue is paused."""
    call_id = run.plan.call_id
    stop = stop or threading.Event()

    def wanted() -> bool:
        # Asked by the runner between its reads of the child, on this thread: no watcher thread.
        return not stop.is_set() and still_wanted(store, call_id)

    try:
        for event in run.events(keep_going=wanted):
            if on_event is not None:
                on_event(call_id, event)
    except BaseException:
        run.cancel()
        release(store, call_id)  # Ctrl+C: the call starts again next time
        raise
    if run.transcript is not None:
        finish(store, call_id)
        return QueueOutcome(call_id, "transcribed", lines=len(run.transcript.segments))
    if run.cancelled:
        release(store, call_id)  # paused or stopped: back to waiting, if it is still on the queue
        return QueueOutcome(call_id, "stopped", "paused or taken off the queue; nothing was kept")
    message = run.error or f"call {call_id}: transcription failed"
    finish(store, call_id, error=message)
    return QueueOutcome(call_id, FAILED, message)


class QueueError(CallmarkError):
    """A queue command that cannot be done as asked; the message says why."""
