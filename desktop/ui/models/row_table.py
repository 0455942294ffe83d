"""A table model over a plain list of rows with fixed column titles (the shared Qt plumbing)."""

from __future__ import annotations

from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt


class RowTableModel(QAbstractTableModel):
    """Subclasses set `columns` and return their row count from `row_count()`."""

    columns: tuple[str, ...] = ()

    def row_count(self) -> int:
        raise NotImplementedError

    def rowCount(self, parent=QModelIndex()) -> int:  # noqa: N802
        return 0 if parent.isValid() else self.row_count()

    def columnCount(self, parent=QModelIndex()) -> int:  # noqa: N802
        return 0 if parent.isValid() else len(self.columns)

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):  # noqa: N802
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self.columns[section]
        return None
