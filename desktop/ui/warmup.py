"""After the window's first paint: bring in what showing a call did not need, without freezing it.

Showing a call needs only Qt and plain sqlite3 reads. Everything else
(SQLAlchemy and the models, the services the panels use, the record format)
costs well over a second to import, so it is imported on a plain thread once
the window is painted; the GUI thread keeps answering keys meanwhile (imports
hand the interpreter back every few milliseconds). When the thread is done,
``ready`` is emitted on the GUI thread and the window makes its panels.

Importing a module here only defines classes (no module makes a widget when
imported); a QWidget must be made on the GUI thread, so the panels themselves
are made there afterwards, one per turn of the event loop.
"""

from __future__ import annotations

import importlib
import logging

from PySide6.QtCore import QObject, Signal

log = logging.getLogger(__name__)

MODULES = (
    "sqlalchemy.orm",
    "db.models",
    "desktop.services.calls",
    "desktop.services.moments",
    "desktop.services.transcripts",
    "desktop.services.items",
    "desktop.services.parking",
    "desktop.services.crm",
    "desktop.services.cycles",
    "desktop.services.coaching_sessions",
    "desktop.services.transcription",
    "desktop.services.transcript_io",
    "desktop.services.calibration",
    "desktop.services.records",
    # The panels' modules: classes only at import (no widget is made until the GUI thread makes one).
    "desktop.ui.item_editor",
    "desktop.ui.crm",
    "desktop.ui.calibration",
    "desktop.ui.coaching",
    "desktop.ui.transcription",
)


class Warmup(QObject):
    ready = Signal()

    def __init__(self, store, parent: QObject | None = None):
        super().__init__(parent)
        self.store = store
        self.started = False
        self.finished = False
        self._task = None

    def start(self) -> None:
        if self.started:
            return
        self.started = True
        from desktop.ui.tasks import run_task

        self._task = run_task(self._import_all, self._done, receiver=self, on_error=self._failed,
                              name="callmark-warmup")

    def _import_all(self) -> None:  # on the task's thread
        for name in MODULES:
            importlib.import_module(name)
        from sqlalchemy.orm import configure_mappers

        configure_mappers()  # the first query would otherwise do it on the GUI thread
        with self.store.read():
            pass  # the engine and its first connection (pragmas) made here too

    def _done(self, _result=None) -> None:
        self.ready.emit()

    def _failed(self, exc: BaseException) -> None:
        # Nothing is lost: whatever failed is imported again where it is needed (and fails there).
        log.error("warm-up import failed; it will be retried where it is needed", exc_info=exc)
        self.ready.emit()

    def wait(self, seconds: float = 30) -> bool:
        """Block until the imports are done (tests, and closing straight after opening)."""
        return self._task.wait(seconds) if self._task is not None else True
