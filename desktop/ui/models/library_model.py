"""The library: every call as a row (plain CallRow data), sortable and filterable by text."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QSortFilterProxyModel, Qt

from desktop.core.timefmt import format_ms
from desktop.services.rows import CallRow
from desktop.ui.models.row_table import RowTableModel

COLUMNS = ("Title", "Rep", "Manager", "Date", "Duration", "Transcript", "Moments")
CALL_ID_ROLE = Qt.ItemDataRole.UserRole + 1
SORT_ROLE = Qt.ItemDataRole.UserRole + 2

TRANSCRIPT_WORDS = {"none": "—", "whisper": "Whisper", "import": "imported", "edited": "edited"}


def short_duration(ms: int) -> str:
    seconds = int(ms) // 1000
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"


class LibraryModel(RowTableModel):
    columns = COLUMNS

    def __init__(self, parent=None):
        super().__init__(parent)
        self._rows: list[CallRow] = []

    def set_calls(self, rows: list[CallRow]) -> None:
        self.beginResetModel()
        self._rows = list(rows)
        self.endResetModel()

    def call_at(self, row: int) -> CallRow:
        return self._rows[row]

    def row_of(self, call_id: int) -> int | None:
        for i, call in enumerate(self._rows):
            if call.id == call_id:
                return i
        return None

    def update_call(self, call: CallRow) -> None:
        row = self.row_of(call.id)
        if row is None:
            self.beginInsertRows(QModelIndex(), len(self._rows), len(self._rows))
            self._rows.append(call)
            self.endInsertRows()
        else:
            self._rows[row] = call
            self.dataChanged.emit(self.index(row, 0), self.index(row, len(COLUMNS) - 1))

    def row_count(self) -> int:
        return len(self._rows)

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        call = self._rows[index.row()]
        col = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return self._display(call, col)
        if role == SORT_ROLE:
            return (call.title.lower(), (call.rep or "").lower(), (call.manager or "").lower(),
                    call.recorded_at or "", call.duration_ms, call.transcript_status, call.moment_count)[col]
        if role == CALL_ID_ROLE:
            return call.id
        if role == Qt.ItemDataRole.ToolTipRole and col == 0:
            return call.media_path or "known by its hash only (no media file on this computer)"
        if role == Qt.ItemDataRole.TextAlignmentRole and col in (4, 6):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    @staticmethod
    def _display(call: CallRow, col: int) -> str:
        if col == 0:
            return call.title
        if col == 1:
            return call.rep or ""
        if col == 2:
            return call.manager or ""
        if col == 3:
            return (call.recorded_at or "")[:10]
        if col == 4:
            return short_duration(call.duration_ms)
        if col == 5:
            return TRANSCRIPT_WORDS.get(call.transcript_status, call.transcript_status)
        return str(call.moment_count)


class LibraryFilter(QSortFilterProxyModel):
    """Filters on title, rep and manager together; every word typed must appear."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self._words: list[str] = []
        self.setSortRole(SORT_ROLE)
        self.setDynamicSortFilter(True)

    def set_text(self, text: str) -> None:
        words = text.lower().split()
        if hasattr(self, "beginFilterChange"):  # Qt 6.10+, where invalidateRowsFilter() is deprecated
            self.beginFilterChange()
            self._words = words
            self.endFilterChange(QSortFilterProxyModel.Direction.Rows)
        else:
            self._words = words
            self.invalidateRowsFilter()

    def filterAcceptsRow(self, source_row, source_parent) -> bool:  # noqa: N802
        if not self._words:
            return True
        call = self.sourceModel().call_at(source_row)
        haystack = " ".join(filter(None, (call.title, call.rep, call.manager, call.recorded_at,
                                          call.source))).lower()
        return all(word in haystack for word in self._words)


__all__ = ["CALL_ID_ROLE", "COLUMNS", "LibraryFilter", "LibraryModel", "format_ms", "short_duration"]
