"""The parent side of transcription: start the child, turn its messages into events.

Qt-free. The GUI wraps `TranscriptionJob.events()` in a QObject that emits
signals; the CLI iterates it and draws a `ProgressBar`. A job ends in exactly
one of three ways, stated by `job.outcome` and by the last event:
`Completed` (carries the full `TranscriptionResult`), `Cancelled` or `Failed`.
Segments seen before a cancel or failure are a preview, never a result; so are
the first seconds' lines (`SegmentDecoded.preview`), which the real pass replaces.
"""

from __future__ import annotations

import itertools
import multiprocessing
import os
import queue
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path

from desktop.errors import CallmarkError
from desktop.transcription.models import ResolvedModel
from desktop.transcription.segments import Segment
from desktop.transcription.worker import TranscriptionSettings, run_worker


class TranscriptionError(CallmarkError):
    """The child reported an error or died; the message says what went wrong."""


class TranscriptionCancelled(Exception):
    """The job was cancelled; nothing it produced is a result."""


class JobOutcome(StrEnum):
    PENDING = "pending"
    RUNNING = "running"
    COMPLETED = "completed"
    CANCELLED = "cancelled"
    FAILED = "failed"


@dataclass(frozen=True, slots=True)
class TranscriptionResult:
    """A complete transcript: only ever built from a child that said "done"."""

    media_path: str
    model: str
    language: str | None
    duration_ms: int
    segments: list[Segment]
    elapsed_s: float


# ---- events, in the order they arrive

@dataclass(frozen=True, slots=True)
class Started:
    language: str | None
    duration_ms: int | None
    language_probability: float


@dataclass(frozen=True, slots=True)
class SegmentDecoded:
    """A line to show as it is decoded. `preview`: from the first seconds, decoded on their own to show
    soonest; the real pass replaces it (its own lines over the preview's span come in the result, not
    as events), and `index` is then -1."""

    index: int
    segment: Segment
    preview: bool = False


@dataclass(frozen=True, slots=True)
class Progress:
    fraction: float  # share of the recording's duration done, 0..1
    done_ms: int
    duration_ms: int | None
    eta_s: float | None  # None until there is enough to estimate


@dataclass(frozen=True, slots=True)
class Completed:
    result: TranscriptionResult


@dataclass(frozen=True, slots=True)
class Cancelled:
    segments_seen: int


@dataclass(frozen=True, slots=True)
class Failed:
    message: str


Event = Started | SegmentDecoded | Progress | Completed | Cancelled | Failed


def estimate_eta(elapsed_s: float, fraction: float) -> float | None:
    """Seconds left, assuming the rest goes at the pace so far."""
    if fraction <= 0.01 or elapsed_s <= 0:
        return None
    return max(0.0, elapsed_s * (1.0 - fraction) / fraction)



def parallel_calls(cpus: int | None = None) -> int:
    """How many recordings one Whisper child transcribes at once: one per core, up to four.

    Measured on two cores (tests/benchmarks/bench_batch.py): two recordings at once, a thread each,
    took 0.38 of the time of the same recordings one after another on both threads, with the very
    same words; a small model's work is too fine-grained for two threads to share one recording well.
    """
    return max(1, min(4, cpus if cpus is not None else (os.cpu_count() or 1)))


class WhisperWorker:
    """One Whisper child: the model loaded once, up to `slots` recordings transcribed at once.

    `submit` hands it a recording and returns the job's id and the queue its messages arrive on
    (a None there: the child is gone). A reader thread here routes the child's messages by job.
    Qt-free; safe to use from several threads.
    """

    def __init__(self, model: ResolvedModel, settings: TranscriptionSettings | None = None, *, slots: int = 1,
                 allow_network: bool = False, child_setup: Callable[[], None] | None = None) -> None:
        settings = settings or TranscriptionSettings()
        if settings.cpu_threads == 0:  # CTranslate2 would give every recording all the cores
            from dataclasses import replace

            settings = replace(settings, cpu_threads=max(1, (os.cpu_count() or 1) // max(1, slots)))
        self.model = model
        self.settings = settings
        self.slots = max(1, slots)
        self.allow_network = allow_network
        self.child_setup = child_setup
        self._lock = threading.Lock()
        self._starting = threading.Lock()
        self._ids = itertools.count(1)
        self._queues: dict[int, queue.Queue] = {}
        self._process: multiprocessing.process.BaseProcess | None = None
        self._commands = None
        self._reader: threading.Thread | None = None
        self._gone = False
        self._load_error: str | None = None

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    @property
    def gone(self) -> bool:
        """The child has ended (killed, crashed or closed): a new worker is needed."""
        return self._gone

    @property
    def busy(self) -> int:
        """Recordings submitted and not yet ended."""
        with self._lock:
            return len(self._queues)

    def start(self) -> None:
        if self.model.needs_network and not self.allow_network:
            raise TranscriptionError(f"the model {self.model.location!r} must be downloaded, "
                                     "but network is not allowed")
        ctx = multiprocessing.get_context("spawn")
        # Two one-way os.pipes: no socket involved, either way.
        receiver, sender = ctx.Pipe(duplex=False)
        commands_in, commands_out = ctx.Pipe(duplex=False)
        process = ctx.Process(
            target=run_worker, name="callmark-transcribe", daemon=True,
            args=(commands_in, sender, self.model.location, self.settings.to_dict(), self.slots,
                  self.allow_network, self.child_setup))
        with self._lock:
            if self._process is not None:
                raise RuntimeError("a WhisperWorker starts once")
            process.start()
            self._process, self._commands = process, commands_out
        sender.close()  # so the child's death reads as end-of-file here
        commands_in.close()
        self._reader = threading.Thread(target=self._read, args=(receiver,), name="whisper-worker-reader",
                                        daemon=True)
        self._reader.start()

    def submit(self, media_path: str | Path, settings: TranscriptionSettings | None = None) -> tuple[int, queue.Queue]:
        """Start transcribing a recording; its messages (each a dict, then None if the child dies) arrive
        on the returned queue. The model's settings (compute type, threads) are the worker's own."""
        with self._starting:  # two first submits from two threads start one child
            if self._process is None:
                self.start()
        job = next(self._ids)
        inbox: queue.Queue = queue.Queue()
        with self._lock:
            gone = self._gone
            if not gone:
                self._queues[job] = inbox
                try:
                    self._commands.send({"type": "job", "job": job, "media": str(media_path),
                                         "settings": (settings or self.settings).to_dict()})
                except OSError:
                    gone = True
                    self._queues.pop(job, None)
        if gone:
            if self._load_error:
                inbox.put({"type": "error", "message": self._load_error})
            inbox.put(None)
        return job, inbox

    def cancel(self, job: int) -> None:
        """Stop one recording (the child stops it at its next line); its queue gets nothing more."""
        with self._lock:
            self._queues.pop(job, None)
            if not self._gone and self._commands is not None:
                try:
                    self._commands.send({"type": "cancel", "job": job})
                except OSError:
                    pass

    def ended(self, job: int) -> None:
        """The job's caller has seen its last message."""
        with self._lock:
            self._queues.pop(job, None)

    def close(self, timeout_s: float = 5.0) -> None:
        """Ask the child to end (recordings under way stop), then make sure it has."""
        with self._lock:
            commands, process = self._commands, self._process
        if commands is not None:
            try:
                commands.send({"type": "close"})
            except OSError:
                pass
        if process is not None:
            process.join(timeout=timeout_s)
            stop_process(process)
        if commands is not None:
            commands.close()

    def kill(self) -> None:
        """End the child at once: every recording under way ends as if the child had died."""
        with self._lock:
            self._gone = True  # no job goes to it from now on
        if self._process is not None:
            stop_process(self._process)

    def exit_code(self) -> int | None:
        return self._process.exitcode if self._process is not None else None

    def _read(self, receiver) -> None:
        while True:
            try:
                message = receiver.recv()
            except Exception:  # noqa: BLE001 - EOF, a closed pipe, or a message cut off by a kill
                break
            job = message.get("job")
            with self._lock:
                if job is None and message.get("type") == "error":
                    self._load_error = message["message"]  # every job hears it at the end of file, next
                    targets = []
                else:
                    targets = [self._queues[job]] if job in self._queues else []
                    if message.get("type") in ("done", "error", "cancelled"):
                        self._queues.pop(job, None)
            for inbox in targets:
                inbox.put(message)
        with self._lock:
            self._gone = True
            targets = list(self._queues.values())
            self._queues.clear()
        for inbox in targets:
            if self._load_error:
                inbox.put({"type": "error", "message": self._load_error})
            inbox.put(None)
        receiver.close()


@dataclass
class TranscriptionJob:
    """One recording transcribed in a spawned child process.

    Without `worker`, the job has a child of its own, which `cancel` kills at once. With one (the
    queue's, transcribing several calls at once), the job is one of its recordings and `cancel` stops
    only that one. `child_setup` is an optional picklable callable run first in a child of the job's
    own (tests use it to watch the child's sockets).
    """

    media_path: str | Path
    model: ResolvedModel
    settings: TranscriptionSettings = field(default_factory=TranscriptionSettings)
    allow_network: bool = False
    child_setup: Callable[[], None] | None = None
    worker: WhisperWorker | None = None

    outcome: JobOutcome = field(default=JobOutcome.PENDING, init=False)
    segments: list[Segment] = field(default_factory=list, init=False)
    result: TranscriptionResult | None = field(default=None, init=False)
    error: str | None = field(default=None, init=False)

    def __post_init__(self) -> None:
        self._lock = threading.Lock()
        self._own_worker = self.worker is None
        self._job: int | None = None
        self._inbox: queue.Queue | None = None
        self._cancel_requested = False
        self._started_at = 0.0
        self._decode_started_at: float | None = None
        self._preview_end_ms = -1

    # ---- control

    def start(self) -> None:
        if self.model.needs_network and not self.allow_network:
            raise TranscriptionError(f"the model {self.model.location!r} must be downloaded, "
                                     "but network is not allowed")
        path = Path(self.media_path)
        if not path.is_file():
            raise TranscriptionError(f"{path}: no such recording")
        with self._lock:
            if self.outcome is not JobOutcome.PENDING:
                raise RuntimeError("a TranscriptionJob runs once")
            if self.worker is None:
                self.worker = WhisperWorker(self.model, self.settings, allow_network=self.allow_network,
                                            child_setup=self.child_setup)
            self.outcome = JobOutcome.RUNNING
            self._started_at = time.monotonic()
            self._job, self._inbox = self.worker.submit(path, self.settings)

    def cancel(self) -> None:
        """Stop at once (a child of the job's own is killed). Safe from any thread; no-op once ended."""
        with self._lock:
            if self.outcome not in (JobOutcome.PENDING, JobOutcome.RUNNING):
                return
            self._cancel_requested = True
            if self.outcome is JobOutcome.PENDING:
                self.outcome = JobOutcome.CANCELLED
                return
            worker, job = self.worker, self._job
        if worker is None:
            return
        if self._own_worker:
            worker.kill()
        elif job is not None:
            worker.cancel(job)

    @property
    def pid(self) -> int | None:
        return self.worker.pid if self.worker is not None else None

    # ---- results

    def events(self, poll_s: float = 0.1, *, keep_going: Callable[[], bool] | None = None,
               check_s: float = 0.5) -> Iterator[Event]:
        """Start if needed and yield events until the job ends (the last is terminal).

        keep_going: asked about every ``check_s`` while waiting for the child (the queue asks
        whether its call is still wanted); False cancels the job, as ``cancel`` would. It is
        asked on the caller's thread, so watching needs no thread of its own.
        """
        if self.outcome is JobOutcome.PENDING:
            self.start()
        if self.outcome is JobOutcome.CANCELLED:
            yield Cancelled(0)
            return
        inbox = self._inbox
        assert inbox is not None
        checked = time.monotonic()
        try:
            while True:
                if keep_going is not None and time.monotonic() - checked >= check_s:
                    checked = time.monotonic()
                    if not keep_going():
                        self.cancel()
                if self._cancel_requested:
                    yield self._end_cancelled()
                    return
                try:
                    message = inbox.get(timeout=poll_s)
                except queue.Empty:
                    continue
                if message is None:  # the child is gone
                    if self._cancel_requested:
                        yield self._end_cancelled()
                    else:
                        self.worker.close(timeout_s=1.0)  # reaped, so its exit code is known
                        code = self.worker.exit_code()
                        yield self._end_failed(f"{self.media_path}: the transcription process "
                                               f"stopped unexpectedly (exit code {code})")
                    return
                if message.get("type") == "cancelled":
                    yield self._end_cancelled()
                    return
                event = self._on_message(message)
                if event is not None:
                    yield event
                    if isinstance(event, (Completed, Failed, Cancelled)):
                        return
        finally:
            if self.outcome is JobOutcome.RUNNING:  # the caller stopped iterating early
                self.cancel()
                self._end_cancelled()
            if self.worker is not None and self._job is not None:
                self.worker.ended(self._job)
            self._reap()

    def run(self, on_event: Callable[[Event], None] | None = None) -> TranscriptionResult:
        """Block until done. Returns the complete result; raises if cancelled or failed."""
        for event in self.events():
            if on_event is not None:
                on_event(event)
        if self.outcome is JobOutcome.COMPLETED and self.result is not None:
            return self.result
        if self.outcome is JobOutcome.CANCELLED:
            raise TranscriptionCancelled(f"{self.media_path}: transcription cancelled")
        raise TranscriptionError(self.error or "transcription failed")

    # ---- internals

    def _on_message(self, message: dict) -> Event | None:
        kind = message.get("type")
        now = time.monotonic()
        if kind == "info":
            self._decode_started_at = now
            return Started(message["language"], message["duration_ms"],
                           message["language_probability"])
        if kind == "preview":
            segment = Segment.from_dict(message["segment"])
            self._preview_end_ms = max(self._preview_end_ms, segment.end_ms)
            return SegmentDecoded(-1, segment, preview=True)
        if kind == "segment":
            segment = Segment.from_dict(message["segment"])
            self.segments.append(segment)
            if segment.start_ms < self._preview_end_ms:
                return None  # the preview shows these seconds already (a line across its end, too: no line twice)
            return SegmentDecoded(len(self.segments) - 1, segment)
        if kind == "progress":
            duration = message["duration_ms"]
            done = message["done_ms"]
            fraction = min(1.0, done / duration) if duration else 0.0
            origin = self._decode_started_at or self._started_at
            return Progress(fraction, done, duration, estimate_eta(now - origin, fraction))
        if kind == "done":
            with self._lock:
                if self._cancel_requested:
                    return self._end_cancelled()
                self.result = TranscriptionResult(
                    media_path=str(self.media_path), model=self.model.label,
                    language=message["language"], duration_ms=message["duration_ms"],
                    segments=list(self.segments), elapsed_s=now - self._started_at)
                self.outcome = JobOutcome.COMPLETED
            return Completed(self.result)
        if kind == "error":
            return self._end_failed(message["message"])
        return None

    def _end_cancelled(self) -> Cancelled:
        if self._own_worker and self.worker is not None:
            self.worker.kill()
        with self._lock:
            if self.outcome is JobOutcome.RUNNING:
                self.outcome = JobOutcome.CANCELLED
        return Cancelled(len(self.segments))

    def _end_failed(self, message: str) -> Failed:
        with self._lock:
            self.outcome = JobOutcome.FAILED
            self.error = message
        return Failed(message)

    def _reap(self) -> None:
        """A child of the job's own ends with the job (asked to; killed if it lingers)."""
        if self._own_worker and self.worker is not None:
            self.worker.close()


def stop_process(process: multiprocessing.process.BaseProcess) -> None:
    """SIGTERM, then SIGKILL if it lingers; always joined so no zombie is left."""
    if process.is_alive():
        process.terminate()
        process.join(timeout=1.0)
    if process.is_alive():
        process.kill()
    process.join(timeout=5.0)
