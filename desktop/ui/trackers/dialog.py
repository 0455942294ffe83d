"""Edit ▸ Trackers…: list, add, edit and remove the phrase sets counted on every call.

Each save or removal is one edit on the window's undo history (Ctrl+Z in the window takes it back);
the library is then counted for it in the background, and the list shows when it is done.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QComboBox, QDialog, QFormLayout, QHBoxLayout, QLabel, QLineEdit, QListWidget,
                               QListWidgetItem, QPlainTextEdit, QPushButton, QVBoxLayout)

from desktop.errors import CallmarkError

SIDE_LABELS = (("customer", "The customer's lines"), ("rep", "The rep's lines"), ("either", "Either side's lines"))
HELP = ("One phrase a line, matched on word forms (“send over” also finds “sending over”, “sent over”). "
        "word* is any word starting so (budget*), a lone * up to three words (send * over), a/b either word. "
        "An exclusion on the same line cancels the hit. In the library filter: deferral>0 budget_owner=0.")


def _named(widget, name: str, object_name: str):
    widget.setAccessibleName(name)
    widget.setObjectName(object_name)
    return widget


class TrackersDialog(QDialog):
    def __init__(self, controller, parent=None):
        super().__init__(parent)
        self.controller = controller
        self.store = controller.store
        self.setWindowTitle("Trackers")
        self.resize(820, 520)
        self._rows = []
        self.list = _named(QListWidget(), "Trackers", "trackerList")
        self.name = _named(QLineEdit(), "Tracker name", "trackerName")
        self.side = _named(QComboBox(), "Whose lines count", "trackerSide")
        for value, text in SIDE_LABELS:
            self.side.addItem(text, value)
        self.phrases = _named(QPlainTextEdit(), "Phrases, one a line", "trackerPhrases")
        self.exclusions = _named(QPlainTextEdit(), "Exclusions, one a line", "trackerExclusions")
        for edit in (self.phrases, self.exclusions):
            edit.setTabChangesFocus(True)
        self.help = QLabel(HELP)
        self.help.setWordWrap(True)
        self.status = _named(QLabel(""), "Tracker status", "trackerStatus")
        self.status.setWordWrap(True)
        self.new_button = _named(QPushButton("New"), "New tracker", "trackerNew")
        self.save_button = _named(QPushButton("Save"), "Save tracker", "trackerSave")
        self.remove_button = _named(QPushButton("Remove"), "Remove tracker", "trackerRemove")
        self.hits_button = _named(QPushButton("Show lines…"), "Show this tracker's lines", "trackerHits")
        self.close_button = _named(QPushButton("Close"), "Close", "trackerClose")
        self.save_button.setDefault(True)

        form = QFormLayout()
        form.addRow("Name", self.name)
        form.addRow("Side", self.side)
        form.addRow("Phrases", self.phrases)
        form.addRow("Exclusions", self.exclusions)
        form.addRow(self.help)
        right = QVBoxLayout()
        right.addLayout(form, 1)
        right.addWidget(self.status)
        buttons = QHBoxLayout()
        for button in (self.new_button, self.save_button, self.remove_button, self.hits_button):
            buttons.addWidget(button)
        buttons.addStretch(1)
        buttons.addWidget(self.close_button)
        right.addLayout(buttons)
        layout = QHBoxLayout(self)
        layout.addWidget(self.list, 2)
        layout.addLayout(right, 3)

        self.list.currentRowChanged.connect(self._on_list_row_changed)
        self.new_button.clicked.connect(self.start_new)
        self.save_button.clicked.connect(self.save)
        self.remove_button.clicked.connect(self.remove)
        self.hits_button.clicked.connect(self.show_hits)
        self.close_button.clicked.connect(self.close)
        controller.counted.connect(self.reload)
        controller.window.history.changed.connect(self._on_history_changed)

    # --- the list ----------------------------------------------------------------------------------

    def reload(self) -> None:
        from desktop.services import trackers

        chosen = self.selected()
        self._rows = trackers.list_trackers(self.store)
        self.list.blockSignals(True)
        self.list.clear()
        for row in self._rows:
            counting = " · counting…" if row.pending else ""
            item = QListWidgetItem(f"{row.name} — {row.side} · {row.calls} calls, {row.hits} lines{counting}")
            item.setData(Qt.ItemDataRole.UserRole, row.id)
            self.list.addItem(item)
        self.list.blockSignals(False)
        wanted = next((i for i, r in enumerate(self._rows) if chosen and r.id == chosen.id), 0 if self._rows else -1)
        self.list.setCurrentRow(wanted)
        self._on_list_row_changed(wanted)

    def selected(self):
        row = self.list.currentRow()
        return self._rows[row] if 0 <= row < len(self._rows) else None

    def select(self, name: str) -> None:
        for i, row in enumerate(self._rows):
            if row.name == name:
                self.list.setCurrentRow(i)
                return

    def _on_list_row_changed(self, _row: int) -> None:
        row = self.selected()
        self.name.setText(row.name if row else "")
        self.side.setCurrentIndex(max(0, self.side.findData(row.side if row else "customer")))
        self.phrases.setPlainText("\n".join(row.phrases) if row else "")
        self.exclusions.setPlainText("\n".join(row.exclusions) if row else "")
        self.remove_button.setEnabled(row is not None)
        self.hits_button.setEnabled(row is not None)
        self.status.setText("")

    def _on_history_changed(self, change) -> None:
        from desktop.services.changes import TRACKERS

        if change.touches(TRACKERS) and self.isVisible():
            self.reload()

    # --- editing -------------------------------------------------------------------------------------

    def start_new(self) -> None:
        self.list.clearSelection()
        self.list.setCurrentRow(-1)
        self._on_list_row_changed(-1)
        self.name.setFocus(Qt.FocusReason.OtherFocusReason)

    def _lines(self, edit: QPlainTextEdit) -> list[str]:
        return [line.strip() for line in edit.toPlainText().splitlines() if line.strip()]

    def save(self) -> bool:
        from desktop.services import trackers

        row = self.selected()
        name, side = self.name.text(), self.side.currentData()
        phrases, exclusions = self._lines(self.phrases), self._lines(self.exclusions)
        if row is None:
            def op():
                return trackers.add(self.store, name, side, phrases, exclusions)
        else:
            def op():
                return trackers.edit(self.store, row.id, name=name, side=side, phrases=phrases, exclusions=exclusions)
        try:
            made = self.controller.window.history.run(op, raise_refusal=True)
        except CallmarkError as exc:
            self.status.setText(str(exc))
            return False
        self.reload()
        self.select(made.row.name)
        self.status.setText(f"Saved {made.row.name}; counting it over the library…" if made.row.pending
                            else f"Saved {made.row.name}.")
        return True

    def remove(self) -> None:
        from desktop.services import trackers

        row = self.selected()
        if row is None:
            return
        try:
            self.controller.window.history.run(lambda: trackers.remove(self.store, row.id), raise_refusal=True)
        except CallmarkError as exc:
            self.status.setText(str(exc))
            return
        self.reload()
        self.status.setText(f"Removed {row.name} (Undo in the window brings it back).")

    def show_hits(self) -> None:
        row = self.selected()
        if row is not None:
            self.controller.open_hits(row.name)
