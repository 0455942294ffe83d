"""The open call's suggestions as a table: label, time, quote, reason, and the coach's verdict."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, Qt

from desktop.core.timefmt import format_ms
from desktop.ui.models.row_table import RowTableModel
from desktop.ui.style import FAMILY_LETTERS, family_colour

TIME, LABEL, QUOTE, REASON, VERDICT = range(5)
FINDING_ROLE = Qt.ItemDataRole.UserRole + 1  # the Finding
VERDICTS = {None: "", "accepted": "✓ accepted", "dismissed": "✗ dismissed"}


class SuggestionsModel(RowTableModel):
    columns = ("Time", "Suggestion", "Quote", "Why", "Verdict")

    def __init__(self, parent=None):
        super().__init__(parent)
        self._all: list = []  # desktop.services.suggestions.Suggestion, in time order
        self._rows: list = []
        self._families: set[str] | None = None  # None: every family

    # --- content ------------------------------------------------------------------------

    def set_suggestions(self, rows) -> None:
        self.beginResetModel()
        self._all = list(rows)
        self._rows = self._shown()
        self.endResetModel()

    def set_families(self, families: set[str] | None) -> None:
        self.beginResetModel()
        self._families = families
        self._rows = self._shown()
        self.endResetModel()

    def _shown(self) -> list:
        return [s for s in self._all if self._families is None or s.finding.family in self._families]

    def row_count(self) -> int:
        return len(self._rows)

    def suggestion(self, row: int):
        return self._rows[row]

    def all(self) -> list:
        return list(self._all)

    def row_of(self, finding_id: str) -> int | None:
        return next((i for i, s in enumerate(self._rows) if s.finding.id == finding_id), None)

    def data(self, index: QModelIndex, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        s = self._rows[index.row()]
        f, col = s.finding, index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            if col == LABEL:
                return f"{FAMILY_LETTERS.get(f.family, '?')}  {f.label.replace('_', ' ')}"
            if col == TIME:
                return format_ms(f.start_ms)
            if col == QUOTE:
                return f.quote
            if col == REASON:
                return f.reason
            if col == VERDICT:
                return VERDICTS.get(s.verdict, s.verdict or "")
        if role == Qt.ItemDataRole.ToolTipRole and col in (QUOTE, REASON, LABEL):
            return f"{f.label} · {f.speaker or 'unknown speaker'}\n“{f.quote}”\n{f.reason}"
        if role == Qt.ItemDataRole.ForegroundRole and col == LABEL:
            return family_colour(f.family)
        if role == Qt.ItemDataRole.AccessibleTextRole:
            return f"{f.label.replace('_', ' ')} at {format_ms(f.start_ms)}: {f.quote}"
        if role == FINDING_ROLE:
            return f
        return None
