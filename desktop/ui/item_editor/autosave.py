"""Save every field as the coach types: after a short pause, and at once on leaving the field.

`FieldSaver` keeps one pending value per field name, bound to the record it was
typed for (`bind`): a value typed for one item is written to that item, whatever
the editor shows by the time it is written. A keystroke restarts a ~300 ms
timer; leaving the field, switching item, hiding or closing the editor writes
what is pending straight away (`flush`), so closing mid-word keeps the word.
A write the disk refused (full: ``retry_later`` on the error) is told to the coach
once, not at every keystroke; the typing journal (desktop.ui.journal) keeps the
text and tries it again until there is room.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer, Signal

from desktop.errors import CallmarkError
from desktop.ui.journal import saver_hook as journal_hook  # typing journaled: see desktop.ui.journal

SAVE_DELAY_MS = 300


class FieldSaver(QObject):
    saved = Signal(str)  # the field just written
    failed = Signal(str, str)  # field, message

    def __init__(self, write: Callable[[object, str, object], None], delay_ms: int = SAVE_DELAY_MS,
                 parent: QObject | None = None):
        super().__init__(parent)
        self._write = write  # write(record, field, value)
        self._record: object | None = None
        self._pending: dict[tuple[object, str], object] = {}
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(delay_ms)
        self._timer.timeout.connect(self.flush)
        self._refused: set[tuple[object, str]] = set()  # writes the disk refused (told once)

    def bind(self, record: object | None) -> None:
        """From now on, fields typed belong to ``record`` (None: to nothing; typing is dropped).
        What was pending for the record before is written first."""
        if record != self._record:
            self.flush()
            self._record = record

    @property
    def record(self) -> object | None:
        return self._record

    def change(self, field: str, value: object) -> None:
        """A field changed: remember it and save after the pause."""
        if self._record is None:
            return
        self._pending[(self._record, field)] = value
        journal_hook(self, "change", field, value, self._record)
        self._timer.start()

    def save_now(self, field: str, value: object) -> None:
        """A choice (combo, spin box, date): no typing pause to wait for."""
        if self._record is None:
            return
        self._pending[(self._record, field)] = value
        self.flush()

    def has_pending(self) -> bool:
        return bool(self._pending)

    def flush(self) -> None:
        self._timer.stop()
        pending, self._pending = self._pending, {}
        for (record, field), value in pending.items():
            try:
                self._write(record, field, value)
            except (CallmarkError, ValueError) as exc:  # a refused value is reported, typing goes on
                if getattr(exc, "retry_later", False):
                    journal_hook(self, "refused", field, value, record)  # the journal tries it again
                    if (record, field) in self._refused:
                        continue
                    self._refused.add((record, field))
                self.failed.emit(field, str(exc))
            else:
                self._refused.discard((record, field))
                journal_hook(self, "saved", field, value, record)
                self.saved.emit(field)

    def discard(self) -> None:
        self._timer.stop()
        self._pending.clear()
