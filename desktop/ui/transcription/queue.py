"""Transcription in the GUI: a worker thread per run turns job events into signals; the store's queue runs calls,
a few at once in one Whisper child.

The child process does the work (desktop.transcription.runner); the thread here
only reads its messages, so the coach keeps working. Workers never touch
widgets: everything reaches the window as queued signals.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from PySide6.QtCore import QObject, QThread, QTimer, Signal

from desktop.errors import CallmarkError
from desktop.services import transcription as service
from desktop.services import transcription_queue as queue_service
from desktop.services.transcripts import SegmentRow
from desktop.transcription.progress import format_eta
from desktop.transcription.runner import (
    Cancelled,
    Failed,
    Progress,
    SegmentDecoded,
    Started,
    WhisperWorker,
    parallel_calls,
)


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
        self.transcription.cancel()  # stops this call in the child at once; the thread then sees Cancelled

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
        """What the library's transcript column shows: `queued` or `42% · 0:12 left`."""
        if not self.running:
            return "queued"
        left = f" · {format_eta(self.eta_s)} left" if self.eta_s is not None else ""
        return f"{int(self.fraction * 100)}%{left}"


class TranscriptionQueue(QObject):
    """The store's transcription queue (desktop.services.transcription_queue), worked through by this window.

    The queue itself is rows in the store, so it outlives the window: closing it, a crash or a killed
    process leaves the waiting calls waiting, and the calls being transcribed start again next time.
    This object runs up to `parallel` calls at once (runner.parallel_calls() by default), each read
    by a worker thread, all in one Whisper child that lives while there is work; it keeps the
    running calls' progress and streamed lines in memory, and looks at the store every second for
    what a `callmark transcription ...` command changed meanwhile (calls queued, cancelled, a pause).
    """

    changed = Signal(int)  # a call's place or progress changed (see `entry`)
    segment_decoded = Signal(int, object)  # call id, SegmentRow
    call_started = Signal(int)
    call_saved = Signal(int, int)  # call id, transcript id
    call_cancelled = Signal(int)
    call_failed = Signal(int, str)
    paused_changed = Signal(bool)
    idle = Signal()

    POLL_MS = 1000

    def __init__(self, store, parent: QObject | None = None, *, cpu_threads: int = 0, parallel: int | None = None):
        super().__init__(parent)
        self.store = store
        self.cpu_threads = cpu_threads
        self.slots = max(1, parallel or parallel_calls())
        self._running: dict[int, QueuedCall] = {}  # the calls this window is transcribing now, in start order
        self._workers: dict[int, TranscriptionWorker] = {}
        self._whisper: WhisperWorker | None = None  # the one child, while there is work
        self._finished_workers: list[TranscriptionWorker] = []
        self._states: dict[int, str] = {}
        self._paused = queue_service.is_paused(store)
        self._closing = False
        self._timer = QTimer(self)
        self._timer.setInterval(self.POLL_MS)
        self._timer.timeout.connect(self.sync)
        self._timer.start()
        QTimer.singleShot(0, self, self.sync)  # what a previous run left queued starts now

    # --- asking -------------------------------------------------------------------------------

    def entry(self, call_id: int) -> QueuedCall | None:
        """The call's place: running here (with progress), waiting, or None (not queued, or failed)."""
        if call_id in self._running:
            return self._running[call_id]
        state = self._states.get(call_id)
        if state is None or state == queue_service.FAILED:
            return None
        return QueuedCall(call_id, running=False)  # waiting, or running in another Callmark

    def failed_reason(self, call_id: int) -> str | None:
        found = queue_service.entry(self.store, call_id)
        return found.error if found is not None and found.state == queue_service.FAILED else None

    def pending(self) -> list[int]:
        """Running and waiting calls, in the order they go."""
        return [e.call_id for e in queue_service.entries(self.store) if e.state != queue_service.FAILED]

    @property
    def running_calls(self) -> list[int]:
        return list(self._workers)

    @property
    def running_call(self) -> int | None:
        """The first of the calls being transcribed here (None: none)."""
        return next(iter(self._workers), None)

    def run_of(self, call_id: int) -> TranscriptionWorker | None:
        return self._workers.get(call_id)

    @property
    def paused(self) -> bool:
        return self._paused

    def is_busy(self) -> bool:
        return bool(self.pending())

    # --- telling --------------------------------------------------------------------------------

    def add(self, call_id: int, *, priority: int = 0) -> bool:
        """Queue a call (a call already queued stays where it is). False if it was already there."""
        call_id = int(call_id)
        added = bool(queue_service.enqueue(self.store, [call_id], priority=priority))
        self.sync()
        return added

    def add_many(self, call_ids, *, priority: int = 0) -> int:
        added = queue_service.enqueue(self.store, list(call_ids), priority=priority)
        self.sync()
        return len(added)

    def cancel(self, call_id: int) -> None:
        """Stop a running call at once, or take a waiting one off the queue."""
        queue_service.cancel(self.store, call_id)
        worker = self._workers.get(call_id)
        if worker is not None:
            self._stop(worker)  # the thread then says cancelled
            return
        self.call_cancelled.emit(call_id)
        self.sync()

    def cancel_all(self) -> None:
        """Empty the queue; the running calls are stopped and nothing of them kept."""
        gone = [c for c in self._states if c not in self._workers]
        queue_service.clear(self.store)
        for call_id in gone:
            self.call_cancelled.emit(call_id)
        for worker in list(self._workers.values()):
            self._stop(worker)
        self.sync()

    def pause(self) -> None:
        """Stop transcribing now; the calls being transcribed start again on resume."""
        queue_service.set_paused(self.store, True)
        self.sync()

    def resume(self) -> None:
        queue_service.set_paused(self.store, False)
        self.sync()

    def shutdown(self, wait_ms: int = 5000) -> None:
        """On closing the window: stop the child and wait for the threads. The queue stays in the store;
        the calls that were running wait at their place to start again."""
        self._closing = True
        self._timer.stop()
        for worker in list(self._workers.values()):
            worker.cancel()
        if self._whisper is not None:
            self._whisper.kill()
        for worker in [*self._workers.values(), *self._finished_workers]:
            worker.wait(wait_ms)
        for call_id in list(self._running):
            queue_service.release(self.store, call_id)
        self._close_whisper()

    # --- running --------------------------------------------------------------------------------

    def sync(self) -> None:
        """Catch up with the store: stop calls no longer wanted, start the next, tell what changed."""
        if self._closing:
            return
        paused = queue_service.is_paused(self.store)
        if paused != self._paused:
            self._paused = paused
            self.paused_changed.emit(paused)
        for call_id, worker in list(self._workers.items()):
            if not queue_service.still_wanted(self.store, call_id):
                self._stop(worker)  # cancelled, cleared or paused from elsewhere
        self._refresh_states()
        self._next()

    def _stop(self, worker: TranscriptionWorker) -> None:
        """Stop one call. The last call under way takes the child with it, at once: nothing else is lost."""
        others = [w for w in self._workers.values() if w is not worker and not w.transcription.cancelled]
        worker.cancel()
        if not others and self._whisper is not None:
            self._whisper.kill()
            self._close_whisper()

    def _refresh_states(self) -> None:
        states = queue_service.states(self.store)
        changed = {c for c in states.keys() | self._states.keys() if states.get(c) != self._states.get(c)}
        self._states = states
        for call_id in sorted(changed):
            self.changed.emit(call_id)

    def _next(self) -> None:
        while not self._closing and len(self._workers) < self.slots:
            call_id = queue_service.claim_next(self.store, slots=self.slots)
            if call_id is None:
                if not self._workers:
                    self._close_whisper()  # no work: the child and its model go
                    if not any(s == queue_service.WAITING for s in self._states.values()) or self._paused:
                        self.idle.emit()
                return
            try:
                plan = service.plan_for_call(self.store, call_id, cpu_threads=self.cpu_threads)
            except (CallmarkError, OSError) as exc:  # ModelNotFoundError, a missing file: one line, then go on
                queue_service.finish(self.store, call_id, error=str(exc))
                self._refresh_states()
                self.call_failed.emit(call_id, str(exc))
                continue
            whisper = self._whisper_for(plan)
            if whisper is None:  # another model than the calls under way: it waits for them
                queue_service.release(self.store, call_id)
                return
            self._start(call_id, service.CallTranscription(self.store, plan, worker=whisper))

    def _whisper_for(self, plan) -> WhisperWorker | None:
        whisper = self._whisper
        if whisper is not None and whisper.model.location != plan.model.location:
            if self._workers:
                return None
            self._close_whisper()
            whisper = None
        if whisper is None or whisper.gone:
            whisper = self._whisper = WhisperWorker(plan.model, plan.settings, slots=self.slots,
                                                    allow_network=plan.allow_network)
        return whisper

    def _close_whisper(self) -> None:
        whisper, self._whisper = self._whisper, None
        if whisper is not None:
            whisper.close()  # idle (or killed): it ends at once

    def _start(self, call_id: int, run: service.CallTranscription) -> None:
        worker = TranscriptionWorker(run, self)
        worker.segment_decoded.connect(self._on_segment)
        worker.progressed.connect(self._on_progress)
        worker.saved.connect(self._on_saved)
        worker.cancelled.connect(self._on_cancelled)
        worker.failed.connect(self._on_failed)
        worker.finished.connect(lambda w=worker: self._reap(w))
        self._workers[call_id] = worker
        self._running[call_id] = QueuedCall(call_id, running=True)
        self._refresh_states()
        self.call_started.emit(call_id)
        self.changed.emit(call_id)
        worker.start()

    def _on_segment(self, call_id: int, row: SegmentRow) -> None:
        running = self._running.get(call_id)
        if running is not None:
            running.segments.append(row)
            self.segment_decoded.emit(call_id, row)

    def _on_progress(self, call_id: int, fraction: float, eta_s) -> None:
        running = self._running.get(call_id)
        if running is not None:
            running.fraction, running.eta_s = fraction, eta_s
            self.changed.emit(call_id)

    def _on_saved(self, call_id: int, transcript_id: int) -> None:
        queue_service.finish(self.store, call_id)
        self._end(call_id)
        self.call_saved.emit(call_id, transcript_id)
        self._after()

    def _on_cancelled(self, call_id: int) -> None:
        self._end(call_id)
        if queue_service.entry(self.store, call_id) is not None:
            if not self._closing:
                queue_service.release(self.store, call_id)  # paused: it starts again on resume
            self._refresh_states()
            self.changed.emit(call_id)
        else:
            self.call_cancelled.emit(call_id)
        self._after()

    def _on_failed(self, call_id: int, message: str) -> None:
        queue_service.finish(self.store, call_id, error=message)
        self._end(call_id)
        self.call_failed.emit(call_id, message)
        self._after()

    def _after(self) -> None:
        if not self._closing:
            self.sync()

    def _end(self, call_id: int) -> None:
        worker = self._workers.pop(call_id, None)
        if worker is not None:
            self._finished_workers.append(worker)
        self._running.pop(call_id, None)
        self._refresh_states()
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
