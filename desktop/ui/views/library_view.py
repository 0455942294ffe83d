"""The library: a filter box over a sortable table of calls."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QLabel, QLineEdit, QTableView, QVBoxLayout, QWidget

from desktop.ui.models.library_model import CALL_ID_ROLE, LibraryModel
from desktop.ui.style import label_look, table_look


class LibraryView(QWidget):
    call_chosen = Signal(int)

    def __init__(self, model: LibraryModel, parent=None):
        super().__init__(parent)
        self.setObjectName("library")
        self.model = model
        self.proxy = model  # the model sorts and filters itself (desktop.ui.models.library_model)
        self._chosen: int | None = None  # the call selected, kept through filtering and sorting
        self.title = label_look(QLabel("Calls"), "panelTitle")
        self.filter = QLineEdit()
        self.filter.setAccessibleName("Filter calls")
        self.filter.setObjectName("libraryFilter")
        self.filter.setPlaceholderText("Filter calls: title, rep, manager, date; a tracker: deferral>0 (Ctrl+K)")
        self.filter.setClearButtonEnabled(True)
        self.table = QTableView()
        self.table.setAccessibleName("Calls")
        self.table.setObjectName("libraryTable")
        table_look(self.table)
        self.table.setModel(self.proxy)
        self.table.setSortingEnabled(True)
        self.table.sortByColumn(3, Qt.SortOrder.DescendingOrder)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)  # uniform rows
        self.table.setAlternatingRowColors(True)
        self.table.setWordWrap(False)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(False)
        for col, width in enumerate((220, 90, 90, 80, 60, 70, 60)):
            self.table.setColumnWidth(col, width)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 0, 6)
        layout.setSpacing(4)
        layout.addWidget(self.title)
        layout.addWidget(self.filter)
        layout.addWidget(self.table, 1)
        self.filter.textChanged.connect(self._on_filter_text_changed)
        self.filter.returnPressed.connect(self._choose_first)
        self.table.activated.connect(self._on_activated)
        model.modelReset.connect(self._update_title)
        model.modelReset.connect(self._reselect)
        model.rowsInserted.connect(self._update_title)

    def select_call(self, call_id: int | None) -> None:
        self._chosen = call_id
        row = self.model.row_of(call_id) if call_id is not None else None
        if row is None:
            self.table.clearSelection()
            return
        index = self.model.index(row, 0)
        if index.isValid():
            self.table.selectRow(index.row())
            self.table.scrollTo(index)

    def _on_filter_text_changed(self, text: str) -> None:
        self.model.set_text(text)

    def _reselect(self) -> None:
        if self._chosen is not None:
            chosen = self._chosen
            self.select_call(chosen)
            self._chosen = chosen

    def focus_filter(self) -> None:
        self.filter.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.filter.selectAll()

    def _on_activated(self, index) -> None:
        self.call_chosen.emit(index.data(CALL_ID_ROLE))

    def _choose_first(self) -> None:
        if self.proxy.rowCount():
            self.call_chosen.emit(self.proxy.index(0, 0).data(CALL_ID_ROLE))

    def _update_title(self, *_args) -> None:
        self.title.setText(f"Calls · {self.model.shown_count()}")
