"""The one way to run work off the GUI thread: ``run_task(func, next_func)``.

``func`` runs on a thread of its own and never touches a widget. Its result is
handed to ``next_func(result)`` on the GUI thread; an error to
``on_error(exc)`` there (or, without one, logged with its traceback). Both are
skipped when ``receiver`` — the widget or object that asked — has been deleted
meanwhile, or when the task was cancelled: a window closed mid-work is never
called back.

Progress: a generator function's yields are handed to ``on_progress(value)`` on
the GUI thread (its ``return`` value is the result), and cancelling stops it at
its next yield. A plain function reports through ``current_task().report(v)``
and looks at ``current_task().cancelled``; Qt-free code it calls takes a plain
callback, so the method never depends on this module.

The Whisper child process keeps its own runner (desktop.transcription.runner):
it is a process, not a thread.
"""

from __future__ import annotations

import inspect
import logging
import threading
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject, Signal

log = logging.getLogger(__name__)
_local = threading.local()


class TaskCancelled(Exception):
    """Raised inside a task's thread to stop it (by ``Task.report`` once cancelled)."""


class _Relay(QObject):
    """Lives on the GUI thread; signals emitted from a task's thread are queued to it."""

    finished = Signal(object, object, object)  # task, result, error
    progressed = Signal(object, object)  # task, value

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self.finished.connect(self._on_finished)
        self.progressed.connect(self._on_progressed)

    @staticmethod
    def _on_finished(task: Task, result, error) -> None:
        task._deliver(result, error)

    @staticmethod
    def _on_progressed(task: Task, value) -> None:
        task._deliver_progress(value)


_relay: _Relay | None = None


def _the_relay() -> _Relay:
    global _relay
    if _relay is None:
        _relay = _Relay(QCoreApplication.instance())  # dies with the application, not before
    return _relay


def _alive(receiver: QObject | None) -> bool:
    if receiver is None:
        return True
    from shiboken6 import isValid

    return isValid(receiver)


class Task:
    """One piece of background work; ``run_task`` makes and starts it."""

    def __init__(self, func: Callable[[], Any], next_func: Callable[[Any], object] | None = None, *,
                 receiver: QObject | None = None, on_error: Callable[[BaseException], object] | None = None,
                 on_progress: Callable[[Any], object] | None = None, name: str = "callmark-task"):
        self.func, self.next_func = func, next_func
        self.receiver, self.on_error, self.on_progress = receiver, on_error, on_progress
        self.name = name
        self._cancelled = threading.Event()
        self._thread: threading.Thread | None = None
        self.done = False  # delivered on the GUI thread
        self.result: Any = None  # set on the task's thread before delivery: ``wait`` then read them
        self.error: BaseException | None = None

    # --- on the GUI thread -------------------------------------------------------------

    def start(self) -> Task:
        relay = _the_relay()  # made here, on the GUI thread
        self._relay = relay
        self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)
        self._thread.start()
        return self

    def cancel(self) -> None:
        """Nobody is called back after this; a generator stops at its next yield."""
        self._cancelled.set()

    @property
    def cancelled(self) -> bool:
        return self._cancelled.is_set()

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def wait(self, seconds: float = 30) -> bool:
        """Block until the thread is done (closing the window, tests). True if it is."""
        if self._thread is not None:
            self._thread.join(seconds)
            return not self._thread.is_alive()
        return True

    def _deliver(self, result, error) -> None:
        self.done = True
        if self.cancelled or not _alive(self.receiver):
            return
        if error is not None:
            if self.on_error is not None:
                self.on_error(error)
            else:
                log.error("background work %s failed", self.name, exc_info=error)
        elif self.next_func is not None:
            self.next_func(result)

    def _deliver_progress(self, value) -> None:
        if self.on_progress is not None and not self.cancelled and _alive(self.receiver):
            self.on_progress(value)

    # --- on the task's thread ------------------------------------------------------------

    def report(self, value) -> None:
        """Hand ``value`` to ``on_progress``; raises TaskCancelled once the task was cancelled."""
        if self.cancelled:
            raise TaskCancelled
        if self.on_progress is not None:
            self._emit(self._relay.progressed, self, value)

    def _run(self) -> None:
        _local.task = self
        result = error = None
        try:
            if inspect.isgeneratorfunction(self.func):
                result = self._drain(self.func())
            else:
                result = self.func()
        except TaskCancelled:
            return
        except BaseException as exc:  # noqa: BLE001 - handed to the GUI thread, which says what went wrong
            error = exc
        finally:
            _local.task = None
        self.result, self.error = result, error
        self._emit(self._relay.finished, self, result, error)

    def _drain(self, gen):
        while True:
            if self.cancelled:
                gen.close()
                raise TaskCancelled
            try:
                value = next(gen)
            except StopIteration as stop:
                return stop.value
            self.report(value)

    @staticmethod
    def _emit(signal, *args) -> None:
        try:
            signal.emit(*args)
        except RuntimeError:
            pass  # the application is gone (closed mid-work): nobody to tell


def current_task() -> Task | None:
    """The task running on this thread (None on the GUI thread)."""
    return getattr(_local, "task", None)


def run_task(func: Callable[[], Any], next_func: Callable[[Any], object] | None = None, *,
             receiver: QObject | None = None, on_error: Callable[[BaseException], object] | None = None,
             on_progress: Callable[[Any], object] | None = None, name: str = "callmark-task") -> Task:
    """Run ``func()`` off the GUI thread and ``next_func(result)`` back on it (see the module)."""
    return Task(func, next_func, receiver=receiver, on_error=on_error, on_progress=on_progress,
                name=name).start()
