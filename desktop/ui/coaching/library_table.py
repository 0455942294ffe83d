"""Plain rows in a table the coach drives with the keyboard: Enter opens the row at its moment.

``RowsModel`` shows a list of plain rows through one function per column;
``KeyTable`` is a QTableView that turns Enter (and the keys a view asks for)
into signals, so each view wires keys to services without a widget per row.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import QModelIndex, Qt, Signal
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView

from desktop.ui.models.row_table import RowTableModel

LEAD_IN_MS = 1000  # open a moment from a second before it, to hear what led to it


def at(ms: int | None) -> str:
    """A moment's place as a coach reads it: 0:30, 1:02:07 (the milliseconds are the detector's, not theirs)."""
    if ms is None:
        return "—"
    s = int(ms) // 1000
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60}:{s % 60:02d}"


class RowsModel(RowTableModel):
    def __init__(self, columns: Sequence[tuple[str, Callable[[object], object]]], parent=None):
        super().__init__(parent)
        self.columns = tuple(title for title, _ in columns)
        self._cells = tuple(cell for _, cell in columns)
        self.rows: list = []

    def row_count(self) -> int:
        return len(self.rows)

    def set_rows(self, rows: list) -> None:
        self.beginResetModel()
        self.rows = list(rows)
        self.endResetModel()

    def row(self, n: int):
        return self.rows[n] if 0 <= n < len(self.rows) else None

    def data(self, index: QModelIndex, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        row = self.rows[index.row()]
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            value = self._cells[index.column()](row)
            return "" if value is None else str(value)
        return None


class KeyTable(QTableView):
    """Enter emits ``opened(row)``; a key in ``keys`` emits ``key_pressed(key text, row)``."""

    opened = Signal(object)
    key_pressed = Signal(str, object)

    def __init__(self, model: RowsModel, name: str, keys: str = "", parent=None):
        super().__init__(parent)
        self.setModel(model)
        self.keys = keys.lower()
        self.setObjectName(name)
        self.setAccessibleName(name)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setAlternatingRowColors(True)
        self.verticalHeader().setVisible(False)
        self.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)  # uniform rows
        self.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 10)
        self.horizontalHeader().setStretchLastSection(True)
        self.setWordWrap(False)
        self.doubleClicked.connect(lambda index: self.opened.emit(model.row(index.row())))

    def current_row(self):
        index = self.currentIndex()
        return self.model().row(index.row()) if index.isValid() else None

    def select_first(self) -> None:
        if self.model().rowCount():
            self.selectRow(0)

    def keyPressEvent(self, event) -> None:  # noqa: N802 - Qt's name
        row = self.current_row()
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and row is not None:
            self.opened.emit(row)
            return
        text = event.text().lower()
        if text and text in self.keys and event.modifiers() in (Qt.KeyboardModifier.NoModifier,
                                                                 Qt.KeyboardModifier.ShiftModifier):
            if row is not None:
                self.key_pressed.emit(text, row)
            return
        super().keyPressEvent(event)
