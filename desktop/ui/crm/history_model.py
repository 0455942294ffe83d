"""The opportunity's next-step history as a small table, with the call's date as a divider row."""

from __future__ import annotations

from datetime import datetime

from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt
from PySide6.QtGui import QBrush, QColor, QFont

from desktop.services.crm import HistoryEntry
from desktop.ui.style import theme

COLUMNS = ("As of", "Stage", "Next step", "Step date")
CALL_ROW_TINT = "#FFF4C2"  # the workspace's current-line colour (light theme): "this is where the call sits"
AFTER_CALL_TINT = "#EEF6EE"  # light theme; both come from the palette's theme when drawn


class HistoryModel(QAbstractTableModel):
    """Rows: history entries in date order, and one "call" row where the call falls."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self._rows: list[HistoryEntry | datetime] = []

    def set_history(self, history: list[HistoryEntry], call_at: datetime | None) -> None:
        self.beginResetModel()
        rows: list[HistoryEntry | datetime] = []
        placed = call_at is None
        for entry in history:
            if not placed and entry.after_call:
                rows.append(call_at)
                placed = True
            rows.append(entry)
        if not placed:
            rows.append(call_at)
        self._rows = rows
        self.endResetModel()

    def is_call_row(self, row: int) -> bool:
        return isinstance(self._rows[row], datetime)

    def rowCount(self, parent=QModelIndex()) -> int:  # noqa: N802 - Qt's name
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent=QModelIndex()) -> int:  # noqa: N802
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):  # noqa: N802
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return COLUMNS[section]
        return None

    def data(self, index: QModelIndex, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        row = self._rows[index.row()]
        col = index.column()
        if isinstance(row, datetime):
            if role == Qt.ItemDataRole.DisplayRole:
                return (f"{row:%Y-%m-%d}", "the call", f"{row:%H:%M} UTC", "")[col]
            if role == Qt.ItemDataRole.BackgroundRole:
                return QBrush(QColor(theme().current_line))
            if role == Qt.ItemDataRole.FontRole:
                font = QFont()
                font.setItalic(True)
                return font
            return None
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            values = (f"{row.as_of:%Y-%m-%d}", row.stage or "—", row.next_step or "—",
                      row.next_step_date.isoformat() if row.next_step_date else "—")
            if role == Qt.ItemDataRole.ToolTipRole:
                source = f"\nfrom {row.source_file}" if row.source_file else ""
                return f"{values[col]}\n\nAs of {row.as_of:%Y-%m-%d %H:%M} UTC{source}"
            return values[col]
        if role == Qt.ItemDataRole.BackgroundRole and row.after_call:
            return QBrush(QColor(theme().after_call))
        return None
