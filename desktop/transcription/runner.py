"""The parent side of transcription: start the child, turn its messages into events.

Qt-free. The GUI wraps `TranscriptionJob.events()` in a QObject that emits
signals; the CLI iterates it and draws a `ProgressBar`. A job ends in exactly
one of three ways, stated by `job.outcome` and by the last event:
`Completed` (carries the full `TranscriptionResult`), `Cancelled` or `Failed`.
Segments seen before a cancel or failure are a preview, never a result; so are
the first seconds' lines (`SegmentDecoded.preview`), which the real pass replaces.
"""

from __future__ import annotations

import multiprocessing
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path

from desktop.errors import CallmarkError
from desktop.transcription.models import ResolvedModel
from desktop.transcription.segments import Segment
from desktop.transcription.worker import TranscriptionSettings, run_child


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


@dataclass
class TranscriptionJob:
    """One recording transcribed in a spawned child process.

    `child_setup` is an optional picklable callable run first in the child
    (tests use it to watch the child's sockets).
    """

    media_path: str | Path
    model: ResolvedModel
    settings: TranscriptionSettings = field(default_factory=TranscriptionSettings)
    allow_network: bool = False
    child_setup: Callable[[], None] | None = None

    outcome: JobOutcome = field(default=JobOutcome.PENDING, init=False)
    segments: list[Segment] = field(default_factory=list, init=False)
    result: TranscriptionResult | None = field(default=None, init=False)
    error: str | None = field(default=None, init=False)

    def __post_init__(self) -> None:
        self._lock = threading.Lock()
        self._process: multiprocessing.process.BaseProcess | None = None
        self._conn = None
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
        ctx = multiprocessing.get_context("spawn")
        receiver, sender = ctx.Pipe(duplex=False)  # os.pipe: no socket involved
        process = ctx.Process(
            target=run_child, name="callmark-transcribe", daemon=True,
            args=(sender, str(path), self.model.location, self.settings.to_dict(),
                  self.allow_network, self.child_setup))
        with self._lock:
            if self.outcome is not JobOutcome.PENDING:
                raise RuntimeError("a TranscriptionJob runs once")
            self.outcome = JobOutcome.RUNNING
            self._started_at = time.monotonic()
            process.start()
            self._process, self._conn = process, receiver
        sender.close()  # so the child's death reads as end-of-file here

    def cancel(self) -> None:
        """Kill the child at once. Safe from any thread; no-op once the job has ended."""
        with self._lock:
            if self.outcome not in (JobOutcome.PENDING, JobOutcome.RUNNING):
                return
            self._cancel_requested = True
            if self.outcome is JobOutcome.PENDING:
                self.outcome = JobOutcome.CANCELLED
                return
            process = self._process
        if process is not None:
            stop_process(process)

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

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
        conn = self._conn
        assert conn is not None
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
                    if not conn.poll(poll_s):
                        continue
                    message = conn.recv()
                except Exception:  # noqa: BLE001 - EOF, a closed pipe, or a message cut off by a kill
                    message = None
                if message is None:
                    if self._cancel_requested:
                        yield self._end_cancelled()
                    else:
                        code = self._process.exitcode if self._process else None
                        yield self._end_failed(f"{self.media_path}: the transcription process "
                                               f"stopped unexpectedly (exit code {code})")
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
            conn.close()

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
            if segment.end_ms <= self._preview_end_ms:
                return None  # the preview shows these seconds already
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
            self._reap()
            return Completed(self.result)
        if kind == "error":
            return self._end_failed(message["message"])
        return None

    def _end_cancelled(self) -> Cancelled:
        if self._process is not None:
            stop_process(self._process)
        with self._lock:
            if self.outcome is JobOutcome.RUNNING:
                self.outcome = JobOutcome.CANCELLED
        return Cancelled(len(self.segments))

    def _end_failed(self, message: str) -> Failed:
        with self._lock:
            self.outcome = JobOutcome.FAILED
            self.error = message
        self._reap()
        return Failed(message)

    def _reap(self) -> None:
        if self._process is not None:
            self._process.join(timeout=5)
            if self._process.is_alive():
                stop_process(self._process)


def stop_process(process: multiprocessing.process.BaseProcess) -> None:
    """SIGTERM, then SIGKILL if it lingers; always joined so no zombie is left."""
    if process.is_alive():
        process.terminate()
        process.join(timeout=1.0)
    if process.is_alive():
        process.kill()
    process.join(timeout=5.0)
