"""Suggestions beside the moments: what the detection pass proposes, filterable by family, with how
often the coach has taken each label so far."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (QAbstractItemView, QComboBox, QHBoxLayout, QHeaderView, QLabel, QTableView,
                               QVBoxLayout, QWidget)

from desktop.ui.models.suggestions_model import LABEL, QUOTE, REASON, TIME, SuggestionsModel
from desktop.ui.style import FAMILY_LETTERS, FAMILY_NAMES, label_look, table_look


class SuggestionsPanel(QWidget):
    suggestion_activated = Signal(object)  # the Finding: play from just before it
    selection_changed = Signal(object)  # the Finding picked, or None

    def __init__(self, model: SuggestionsModel, parent=None):
        super().__init__(parent)
        self.setObjectName("suggestionsPanel")
        self.model = model
        self.title = label_look(QLabel("Suggestions"), "panelTitle")
        self.family = QComboBox()
        self.family.setAccessibleName("Show suggestions of")
        self.family.addItem("All families", None)
        for family, name in FAMILY_NAMES.items():
            self.family.addItem(f"{FAMILY_LETTERS[family]}  {name}", family)
        self.table = QTableView()
        self.table.setObjectName("suggestions")
        self.table.setAccessibleName("Suggestions")
        table_look(self.table)
        self.table.setModel(model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        self.table.setWordWrap(False)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        fm = self.table.fontMetrics()
        self.table.setColumnWidth(LABEL, fm.horizontalAdvance("M  rep question leading") + 16)
        self.table.setColumnWidth(TIME, fm.horizontalAdvance("00:00.000") + 16)
        self.table.setColumnWidth(QUOTE, 240)
        self.table.setColumnWidth(REASON, 280)
        self.record = label_look(QLabel(), "hint")
        self.record.setWordWrap(True)
        self.title.setWordWrap(True)  # a long title (why there are none, a large font) wraps, never cut
        top = QHBoxLayout()
        top.addWidget(self.title, 1)
        top.addWidget(self.family)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        layout.addLayout(top)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.record)
        self.family.currentIndexChanged.connect(self._on_family)
        self.table.activated.connect(lambda index: self.suggestion_activated.emit(model.suggestion(index.row()).finding))
        self.table.doubleClicked.connect(
            lambda index: self.suggestion_activated.emit(model.suggestion(index.row()).finding))
        self.table.selectionModel().currentRowChanged.connect(self._on_current)
        model.modelReset.connect(self._update_title)

    def _on_family(self, _index: int) -> None:
        family = self.family.currentData()
        self.model.set_families(None if family is None else {family})

    def _on_current(self, current, _previous) -> None:
        self.selection_changed.emit(self.model.suggestion(current.row()).finding if current.isValid() else None)

    def selected(self):
        index = self.table.currentIndex()
        return self.model.suggestion(index.row()) if index.isValid() else None

    def select(self, finding_id: str | None) -> None:
        row = None if finding_id is None else self.model.row_of(finding_id)
        if row is None:
            self.table.clearSelection()
            return
        self.table.selectRow(row)
        self.table.scrollTo(self.model.index(row, 0))

    def show_record(self, tallies) -> None:
        """The coach's own verdicts so far, label by label ("deferral: 14 accepted, 2 dismissed")."""
        self.record.setText("Your verdicts: " + "; ".join(str(t) for t in tallies) if tallies else "")
        self.record.setVisible(bool(tallies))

    def show_reason(self, why: str | None) -> None:
        """Why a call has no suggestions (no transcript, no roles): said, never guessed."""
        self._why = why
        self._update_title()

    def _update_title(self, *_args) -> None:
        total = len(self.model.all())
        open_ = sum(1 for s in self.model.all() if s.verdict is None)
        why = getattr(self, "_why", None)
        if total:
            # the count held together: where the title wraps beside the family filter it breaks after the dot
            self.title.setText(f"Suggestions · {open_}\u00a0open\u00a0of\u00a0{total}")
        else:
            self.title.setText(f"Suggestions — none: {why}" if why else "Suggestions — none on this call")
