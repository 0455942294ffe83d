"""One tracker's lines across the library, in one list; opening a line plays its call from a second before."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QAbstractItemView, QComboBox, QDialog, QHBoxLayout, QHeaderView, QLabel, QPushButton,
                               QTableView, QVBoxLayout)

from desktop.core.timefmt import format_ms
from desktop.core.words import plural
from desktop.ui.models.row_table import RowTableModel
from desktop.ui.style import table_look


class HitsModel(RowTableModel):
    columns = ("Call", "Time", "Speaker", "Side", "Line")

    def __init__(self, parent=None):
        super().__init__(parent)
        self.hits = []

    def set_hits(self, hits) -> None:
        self.beginResetModel()
        self.hits = list(hits)
        self.endResetModel()

    def row_count(self) -> int:
        return len(self.hits)

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        hit = self.hits[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return (hit.call_title, format_ms(hit.start_ms), hit.speaker or "", hit.role, hit.quote)[index.column()]
        if role == Qt.ItemDataRole.ToolTipRole and index.column() == 4:
            return f"found: {hit.matched}"
        return None


class TrackerHitsDialog(QDialog):
    def __init__(self, controller, parent=None):
        super().__init__(parent)
        self.controller = controller
        self.store = controller.store
        self.setWindowTitle("Tracker lines")
        self.resize(900, 480)
        self.tracker = QComboBox()
        self.tracker.setAccessibleName("Tracker")
        self.tracker.setObjectName("hitsTracker")
        self.summary = QLabel("")
        self.summary.setObjectName("hitsSummary")
        self.model = HitsModel(self)
        self.table = QTableView()
        self.table.setAccessibleName("Lines the tracker found")
        self.table.setObjectName("hitsTable")
        table_look(self.table)
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.table.verticalHeader().setDefaultSectionSize(24)
        self.table.horizontalHeader().setStretchLastSection(True)
        for col, width in enumerate((200, 80, 90, 70)):
            self.table.setColumnWidth(col, width)
        self.play_button = QPushButton("Play from a second before")
        self.play_button.setAccessibleName("Play the line from a second before")
        self.play_button.setObjectName("hitsPlay")
        self.close_button = QPushButton("Close")
        self.close_button.setAccessibleName("Close")
        self.close_button.setObjectName("hitsClose")
        top = QHBoxLayout()
        top.addWidget(QLabel("Tracker"))
        top.addWidget(self.tracker, 1)
        top.addWidget(self.summary, 2)
        bottom = QHBoxLayout()
        bottom.addWidget(self.play_button)
        bottom.addStretch(1)
        bottom.addWidget(self.close_button)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.table, 1)
        layout.addLayout(bottom)
        self.tracker.currentIndexChanged.connect(self._on_tracker_changed)
        self.table.activated.connect(self._on_table_activated)
        self.play_button.clicked.connect(self.play_selected)
        self.close_button.clicked.connect(self.close)
        controller.counted.connect(self.reload)

    def show_tracker(self, name: str) -> None:
        from desktop.services import trackers

        self.tracker.blockSignals(True)
        self.tracker.clear()
        for row in trackers.list_trackers(self.store):
            self.tracker.addItem(row.name, row.name)
        self.tracker.blockSignals(False)
        self.tracker.setCurrentIndex(max(0, self.tracker.findData(name)))
        self.reload()

    def reload(self) -> None:
        from desktop.services import trackers

        name = self.tracker.currentData()
        if name is None:
            self.model.set_hits([])
            self.summary.setText("")
            return
        try:
            hits = trackers.tracker_hits(self.store, name)
        except Exception as exc:  # noqa: BLE001 - a tracker removed meanwhile: say so, show nothing
            self.model.set_hits([])
            self.summary.setText(str(exc))
            return
        self.model.set_hits(hits)
        calls = len({h.call_id for h in hits})
        due = " (still counting)" if self.controller.counting else ""
        self.summary.setText(f"{plural(len(hits), 'line')} on {plural(calls, 'call')}{due}")
        if hits:
            self.table.selectRow(0)

    def _on_tracker_changed(self, _index: int) -> None:
        self.reload()

    def _on_table_activated(self, index) -> None:
        self.play_row(index.row())

    def play_selected(self) -> None:
        rows = self.table.selectionModel().selectedRows()
        if rows:
            self.play_row(rows[0].row())

    def play_row(self, row: int) -> None:
        hit = self.model.hits[row]
        self.controller.play_hit(hit.call_id, hit.start_ms)
