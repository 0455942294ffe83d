"""The open call's moments as a table; edits are requested, the marking controller writes them."""

from __future__ import annotations

import bisect

from PySide6.QtCore import QModelIndex, Qt, Signal

from desktop.core.enums import MomentKind
from desktop.core.timefmt import format_ms
from desktop.services.rows import MomentRow
from desktop.ui.style import kind_colour
from desktop.ui.models.row_table import RowTableModel

COLUMNS = ("Time", "Kind", "Speaker", "Quote", "Note")
TIME, KIND, SPEAKER, QUOTE, NOTE = range(5)
MOMENT_ID_ROLE = Qt.ItemDataRole.UserRole + 1
KIND_ROLE = Qt.ItemDataRole.UserRole + 2
_DISPLAY, _EDIT, _DECORATION, _TOOLTIP = (int(r) for r in (
    Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole, Qt.ItemDataRole.DecorationRole,
    Qt.ItemDataRole.ToolTipRole))
_ANSWERED = frozenset({_DISPLAY, _EDIT, _DECORATION, _TOOLTIP, int(MOMENT_ID_ROLE), int(KIND_ROLE)})


class MomentsModel(RowTableModel):
    columns = COLUMNS

    edit_requested = Signal(int, str, object)  # moment id, field, new value

    def __init__(self, parent=None):
        super().__init__(parent)
        self._rows: list[MomentRow] = []

    def set_moments(self, rows: list[MomentRow]) -> None:
        self.beginResetModel()
        self._rows = sorted(rows, key=lambda m: (m.start_ms, m.id))
        self.endResetModel()

    def moments(self) -> list[MomentRow]:
        return self._rows

    def moment_at(self, row: int) -> MomentRow:
        return self._rows[row]

    def row_of(self, moment_id: int) -> int | None:
        for i, m in enumerate(self._rows):
            if m.id == moment_id:
                return i
        return None

    def get(self, moment_id: int) -> MomentRow | None:
        row = self.row_of(moment_id)
        return None if row is None else self._rows[row]

    def put(self, moment: MomentRow) -> int:
        """Insert or replace one moment, keeping time order; returns its row."""
        old = self.row_of(moment.id)
        if old is not None:
            keys = [(m.start_ms, m.id) for i, m in enumerate(self._rows) if i != old]
            if bisect.bisect_left(keys, (moment.start_ms, moment.id)) == old:
                self._rows[old] = moment  # same place: an edit, keep the selection
                self.dataChanged.emit(self.index(old, 0), self.index(old, len(COLUMNS) - 1))
                return old
            self.beginRemoveRows(QModelIndex(), old, old)
            del self._rows[old]
            self.endRemoveRows()
        keys = [(m.start_ms, m.id) for m in self._rows]
        row = bisect.bisect_left(keys, (moment.start_ms, moment.id))
        self.beginInsertRows(QModelIndex(), row, row)
        self._rows.insert(row, moment)
        self.endInsertRows()
        return row

    def remove(self, moment_id: int) -> None:
        row = self.row_of(moment_id)
        if row is not None:
            self.beginRemoveRows(QModelIndex(), row, row)
            del self._rows[row]
            self.endRemoveRows()

    def before(self, ms: int) -> MomentRow | None:
        earlier = [m for m in self._rows if m.start_ms < ms - 250]  # 250: a second press goes further back
        return earlier[-1] if earlier else None

    def after(self, ms: int) -> MomentRow | None:
        later = [m for m in self._rows if m.start_ms > ms + 50]
        return later[0] if later else None

    # --- Qt --------------------------------------------------------------------------

    def row_count(self) -> int:
        return len(self._rows)

    def flags(self, index):
        base = super().flags(index)
        if index.column() in (KIND, NOTE):
            return base | Qt.ItemFlag.ItemIsEditable
        return base

    def data(self, index, role=_DISPLAY):
        # Asked per visible cell for every role Qt knows (a dozen per cell, each paint): the roles
        # not answered here return at once, and roles compare as plain ints.
        if role not in _ANSWERED or not index.isValid():
            return None
        m = self._rows[index.row()]
        col = index.column()
        if role == _DISPLAY or role == _EDIT:
            if col == TIME:
                return f"{format_ms(m.start_ms)} – {format_ms(m.end_ms)}"
            if col == KIND:
                return m.kind if role == _EDIT else MomentKind(m.kind).label
            if col == SPEAKER:
                return m.speaker or ""
            if col == QUOTE:
                return m.quote
            return m.note or ""
        if role == MOMENT_ID_ROLE:
            return m.id
        if role == KIND_ROLE:
            return m.kind
        if role == _DECORATION:
            return kind_colour(m.kind) if col == KIND else None
        if col in (QUOTE, NOTE):  # the tooltip
            return m.quote if col == QUOTE else (m.note or "")
        return None

    def setData(self, index, value, role=Qt.ItemDataRole.EditRole) -> bool:  # noqa: N802
        if not index.isValid() or role != Qt.ItemDataRole.EditRole:
            return False
        m = self._rows[index.row()]
        if index.column() == KIND:
            if value == m.kind:
                return False
            self.edit_requested.emit(m.id, "kind", MomentKind(value).value)
            return True
        if index.column() == NOTE:
            text = str(value or "").strip() or None
            if text == m.note:
                return False
            self.edit_requested.emit(m.id, "note", text)
            return True
        return False
