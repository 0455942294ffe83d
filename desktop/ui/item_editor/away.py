"""Fields typed while the team store's server was away: kept, and saved once it is back.

The editor keeps the coach's text on screen whatever happens; this keeps the
value too, per item and field, with the version the coach was editing, and
tries again every few seconds. A newer save of the same field (typed once the
server is back) replaces the kept one, so an old value never lands over a new one.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer, Signal

from db.server import StoreUnreachable
from desktop.errors import CallmarkError
from desktop.services import items

RETRY_MS = 3000


class UnsavedWhileAway(QObject):
    saved = Signal(object)  # the ItemRow as saved, once the server is back
    failed = Signal(str)  # a kept value the store refused once back (a conflict, a bad value)

    def __init__(self, store, parent: QObject | None = None, retry_ms: int = RETRY_MS):
        super().__init__(parent)
        self.store = store
        self._kept: dict[tuple[int, str], tuple[object, int | None]] = {}
        self._timer = QTimer(self)
        self._timer.setInterval(retry_ms)
        self._timer.timeout.connect(self.retry)

    def keep(self, item_id: int, field: str, value, version: int | None) -> None:
        self._kept[(item_id, field)] = (value, version)
        if not self._timer.isActive():
            self._timer.start()

    def forget(self, item_id: int, field: str) -> None:
        self._kept.pop((item_id, field), None)

    def pending(self) -> int:
        return len(self._kept)

    def retry(self) -> None:
        for (item_id, field), (value, version) in list(self._kept.items()):
            try:
                row = items.update_item(self.store, item_id, expected_version=version, **{field: value})
            except StoreUnreachable:
                return  # still away: the timer tries again
            except CallmarkError as exc:
                self._kept.pop((item_id, field), None)
                self.failed.emit(str(exc))
                continue
            self._kept.pop((item_id, field), None)
            # The other kept fields of this item were typed on the same version: they follow it.
            for key, (other, seen) in list(self._kept.items()):
                if key[0] == item_id and seen == version:
                    self._kept[key] = (other, row.version)
            version = row.version
            self.saved.emit(row)
        if not self._kept:
            self._timer.stop()


def keep_or_raise(away: UnsavedWhileAway, item_id: int, field: str, value, version: int | None,
                  save: Callable[[], object]):
    """Run `save`; with the server away, keep the value for later and say so in one line."""
    try:
        result = save()
    except StoreUnreachable as exc:
        away.keep(item_id, field, value, version)
        raise CallmarkError(f"{exc}. Your text is kept here and saved when the server is back.") from None
    away.forget(item_id, field)
    return result
