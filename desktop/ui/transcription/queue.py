"""Transcription in the GUI: a worker thread per run turns job events into signals; a queue runs calls in turn.

The child process does the work (desktop.transcription.runner); the thread here
only reads its messages, so the coach keeps working. Workers never touch
widgets: everything reaches the window as queued signals.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from PySide6.QtCore import QObject, QThread, Signal

from desktop.errors import CallmarkError
from desktop.services import transcription as service
from desktop.services.transcripts import SegmentRow
from desktop.transcription.progress import format_eta
from desktop.transcription.runner import Cancelled, Failed, Progress, SegmentDecoded, Started


class TranscriptionWorker(QThread):
    """Runs one `CallTranscription` and re-emits its events as signals (queued to the GUI thread)."""

    started_decoding = Signal(int, object)  # call id, language (or None)
    segment_decoded = Signal(int, object)  # call id, SegmentRow
    progressed = Signal(int, float, object)  # call id, share of the duration done, seconds left (or None)
    saved = Signal(int, int)  # call id, transcript id
    cancelled = Signal(int)
    failed = Signal(int, str)  # call id, one line naming the file

    def __init__(self, run: service.CallTranscription, parent: QObject | None = None):
        super().__init__(parent)
        self.transcription = run
        self.call_id = run.plan.call_id

    def cancel(self) -> None:
        self.transcription.cancel()  # kills the child at once; the thread then sees Cancelled

    def run(self) -> None:  # noqa: D401 - QThread's entry point, on the worker thread
        cid = self.call_id
        ended = False
        for event in self.transcription.events():
            if isinstance(event, SegmentDecoded):
                s = event.segment
                words = [w.to_dict() for w in s.words] if s.words else None
                self.segment_decoded.emit(cid, SegmentRow(s.start_ms, s.end_ms, s.speaker, s.text, words))
            elif isinstance(event, Progress):
                self.progressed.emit(cid, float(event.fraction), event.eta_s)
            elif isinstance(event, Started):
                self.started_decoding.emit(cid, event.language)
            elif isinstance(event, service.Saved):
                ended = True
                self.saved.emit(cid, event.transcript.id)
            elif isinstance(event, Cancelled):
                ended = True
                self.cancelled.emit(cid)
            elif isinstance(event, Failed):
                ended = True
                self.failed.emit(cid, event.message)
        if not ended:
            self.failed.emit(cid, self.transcription.error or "transcription stopped")


@dataclass
class QueuedCall:
    call_id: int
    fraction: float = 0.0
    eta_s: float | None = None
    running: bool = False
    segments: list[SegmentRow] = field(default_factory=list)  # streamed so far (a preview, never saved)

    def status_text(self) -> str:
        """What the library's transcript column shows: `42% · 0:12 left`."""
        if not self.running:
            return "queued"
        left = f" · {format_eta(self.eta_s)} left" if self.eta_s is not None else ""
        return f"{int(self.fraction * 100)}%{left}"


class TranscriptionQueue(QObject):
    """Calls transcribed one after another. Planning (model, file checks) happens when a call's turn comes."""

    changed = Signal(int)  # a call's place or progress changed (see `entry`)
    segment_decoded = Signal(int, object)  # call id, SegmentRow
    call_started = Signal(int)
    call_saved = Signal(int, int)  # call id, transcript id
    call_cancelled = Signal(int)
    call_failed = Signal(int, str)
    idle = Signal()

    def __init__(self, store, parent: QObject | None = None, *, cpu_threads: int = 0):
        super().__init__(parent)
        self.store = store
        self.cpu_threads = cpu_threads
        self._entries: dict[int, QueuedCall] = {}
        self._order: list[int] = []
        self._worker: TranscriptionWorker | None = None
        self._finished_workers: list[TranscriptionWorker] = []

    # --- asking -------------------------------------------------------------------------------

    def entry(self, call_id: int) -> QueuedCall | None:
        return self._entries.get(call_id)

    def pending(self) -> list[int]:
        return list(self._order)

    @property
    def running_call(self) -> int | None:
        return self._worker.call_id if self._worker is not None else None

    def is_busy(self) -> bool:
        return bool(self._order)

    # --- telling --------------------------------------------------------------------------------

    def add(self, call_id: int) -> bool:
        """Queue a call (a call already queued stays where it is). False if it was already there."""
        call_id = int(call_id)
        if call_id in self._entries:
            return False
        self._entries[call_id] = QueuedCall(call_id)
        self._order.append(call_id)
        self.changed.emit(call_id)
        self._next()
        return True

    def cancel(self, call_id: int) -> None:
        """Stop a running call at once (its child is killed), or take a waiting one off the queue."""
        if self._worker is not None and self._worker.call_id == call_id:
            self._worker.cancel()
            return
        if call_id in self._entries:
            self._drop(call_id)
            self.call_cancelled.emit(call_id)
            self._next()

    def cancel_all(self) -> None:
        for call_id in [c for c in self._order if c != self.running_call]:
            self._drop(call_id)
            self.call_cancelled.emit(call_id)
        if self._worker is not None:
            self._worker.cancel()

    def shutdown(self, wait_ms: int = 5000) -> None:
        """On closing the window: kill the child and wait for the thread (nothing is saved)."""
        self.cancel_all()
        for worker in [self._worker, *self._finished_workers]:
            if worker is not None:
                worker.wait(wait_ms)

    # --- running --------------------------------------------------------------------------------

    def _next(self) -> None:
        if self._worker is not None or not self._order:
            if not self._order:
                self.idle.emit()
            return
        call_id = self._order[0]
        try:
            plan = service.plan_for_call(self.store, call_id, cpu_threads=self.cpu_threads)
        except (CallmarkError, OSError) as exc:  # ModelNotFoundError, a missing file: one line, then go on
            self._drop(call_id)
            self.call_failed.emit(call_id, str(exc))
            self._next()
            return
        worker = TranscriptionWorker(service.CallTranscription(self.store, plan), self)
        worker.segment_decoded.connect(self._on_segment)
        worker.progressed.connect(self._on_progress)
        worker.saved.connect(self._on_saved)
        worker.cancelled.connect(self._on_cancelled)
        worker.failed.connect(self._on_failed)
        worker.finished.connect(lambda w=worker: self._reap(w))
        self._worker = worker
        entry = self._entries[call_id]
        entry.running = True
        self.call_started.emit(call_id)
        self.changed.emit(call_id)
        worker.start()

    def _on_segment(self, call_id: int, row: SegmentRow) -> None:
        entry = self._entries.get(call_id)
        if entry is not None:
            entry.segments.append(row)
            self.segment_decoded.emit(call_id, row)

    def _on_progress(self, call_id: int, fraction: float, eta_s) -> None:
        entry = self._entries.get(call_id)
        if entry is not None:
            entry.fraction, entry.eta_s = fraction, eta_s
            self.changed.emit(call_id)

    def _on_saved(self, call_id: int, transcript_id: int) -> None:
        self._end(call_id)
        self.call_saved.emit(call_id, transcript_id)
        self._next()

    def _on_cancelled(self, call_id: int) -> None:
        self._end(call_id)
        self.call_cancelled.emit(call_id)
        self._next()

    def _on_failed(self, call_id: int, message: str) -> None:
        self._end(call_id)
        self.call_failed.emit(call_id, message)
        self._next()

    def _end(self, call_id: int) -> None:
        if self._worker is not None and self._worker.call_id == call_id:
            self._finished_workers.append(self._worker)
            self._worker = None
        self._drop(call_id)

    def _drop(self, call_id: int) -> None:
        self._entries.pop(call_id, None)
        if call_id in self._order:
            self._order.remove(call_id)
        self.changed.emit(call_id)

    def _reap(self, worker: TranscriptionWorker) -> None:
        if worker in self._finished_workers and worker.isFinished():
            self._finished_workers.remove(worker)
            worker.deleteLater()


def describe(entry: QueuedCall | None, duration_ms: int) -> str:
    """The workspace bar's words for a call's place in the queue."""
    if entry is None:
        return ""
    if not entry.running:
        return "Waiting to transcribe…"
    left = f" · {format_eta(entry.eta_s)} left" if entry.eta_s is not None else ""
    of = f" ({format_eta(entry.fraction * duration_ms / 1000)} of {format_eta(duration_ms / 1000)})" \
        if duration_ms else ""
    return f"Transcribing on this computer… {int(entry.fraction * 100)}%{of}{left}"
