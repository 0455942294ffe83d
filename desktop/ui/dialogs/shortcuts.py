"""Every action with its key; the coach picks one, presses a new key, and it is stored (if free)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QHeaderView,
    QKeySequenceEdit,
    QLabel,
    QLineEdit,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
)

from desktop.ui.actions import ActionId, ActionRegistry, ShortcutConflict, native
from desktop.ui.style import label_look

ACTIONS = list(ActionId)


class ShortcutsDialog(QDialog):
    def __init__(self, registry: ActionRegistry, parent=None):
        super().__init__(parent)
        self.registry = registry
        self.setWindowTitle("Keyboard shortcuts")
        self.resize(720, 620)
        self.search = QLineEdit()
        self.search.setAccessibleName("Find an action")
        self.search.setPlaceholderText("Filter actions")
        self.search.setClearButtonEnabled(True)
        self.table = QTableWidget(len(ACTIONS), 3)
        self.table.setAccessibleName("Actions and their keys")
        self.table.setHorizontalHeaderLabels(["Action", "Key", "What it does"])
        self.table.verticalHeader().hide()
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.horizontalHeader().setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        self.table.setColumnWidth(0, 200)
        self.table.setColumnWidth(1, 150)
        self.key_edit = QKeySequenceEdit()
        self.key_edit.setAccessibleName("New key for the selected action")
        self.key_edit.setMaximumSequenceLength(1)
        self.assign = QPushButton("Assign")
        self.clear = QPushButton("No key")
        self.reset = QPushButton("Reset to default")
        self.message = QLabel("")
        label_look(self.message, "problem")
        self.message.setWordWrap(True)
        row = QHBoxLayout()
        row.addWidget(QLabel("New key:"))
        row.addWidget(self.key_edit, 1)
        row.addWidget(self.assign)
        row.addWidget(self.clear)
        row.addWidget(self.reset)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.search)
        layout.addWidget(self.table, 1)
        layout.addLayout(row)
        layout.addWidget(self.message)
        layout.addWidget(QLabel("Only the keys you change are stored; the rest follow Callmark's defaults."))
        layout.addWidget(buttons)
        self.assign.clicked.connect(self._on_assign)
        self.clear.clicked.connect(lambda: self.change(self.current_action(), None))
        self.reset.clicked.connect(self._on_reset)
        self.search.textChanged.connect(self._filter)
        self.table.currentCellChanged.connect(lambda *_: self._on_row())
        self._fill()
        self.table.selectRow(0)

    def _fill(self) -> None:
        for row, action_id in enumerate(ACTIONS):
            keys = ", ".join(native(k) for k in self.registry.keys(action_id))
            name = QTableWidgetItem(action_id.text)
            name.setData(Qt.ItemDataRole.UserRole, action_id.name)
            key = QTableWidgetItem(keys or "—")
            if self.registry.is_overridden(action_id):
                font = key.font()
                font.setBold(True)
                key.setFont(font)
                key.setToolTip("Changed by you")
            self.table.setItem(row, 0, name)
            self.table.setItem(row, 1, key)
            self.table.setItem(row, 2, QTableWidgetItem(action_id.description))

    def current_action(self) -> ActionId:
        return ACTIONS[max(0, self.table.currentRow())]

    def select_action(self, action_id: ActionId) -> None:
        self.table.selectRow(ACTIONS.index(action_id))

    def change(self, action_id: ActionId, seq: QKeySequence | str | None) -> bool:
        """Assign a key; a conflict is refused and said in the dialog. True if stored."""
        try:
            self.registry.set_key(action_id, seq)
        except ShortcutConflict as exc:
            self.message.setText(str(exc))
            return False
        keys = ", ".join(native(k) for k in self.registry.keys(action_id)) or "no key"
        self.message.setText(f"“{action_id.text}” is now {keys}.")
        self._fill()
        return True

    def _on_assign(self) -> None:
        seq = self.key_edit.keySequence()
        if seq.isEmpty():
            self.message.setText("Click in the key field and press the new key first.")
            return
        self.change(self.current_action(), seq)

    def _on_reset(self) -> None:
        action_id = self.current_action()
        try:
            self.registry.reset(action_id)
        except ShortcutConflict as exc:
            self.message.setText(str(exc))
            return
        self.message.setText(f"“{action_id.text}” is back to its default key.")
        self._fill()

    def _on_row(self) -> None:
        self.key_edit.clear()
        keys = self.registry.keys(self.current_action())
        if keys:
            self.key_edit.setKeySequence(keys[0])

    def _filter(self, text: str) -> None:
        needle = text.lower()
        for row, action_id in enumerate(ACTIONS):
            keys = " ".join(native(k) for k in self.registry.keys(action_id)).lower()
            hay = f"{action_id.text} {action_id.description} {keys}".lower()
            self.table.setRowHidden(row, bool(needle) and needle not in hay)
