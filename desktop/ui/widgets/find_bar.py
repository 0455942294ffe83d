"""Find in transcript: a slim bar with the query, previous/next and a match count."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QLineEdit, QToolButton, QWidget

from desktop.ui.style import find_bar_sheet


class FindBar(QWidget):
    query_changed = Signal(str)
    next_requested = Signal()
    previous_requested = Signal()
    closed = Signal()

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("findBar")
        self.setStyleSheet(find_bar_sheet())
        self.field = QLineEdit()
        self.field.setPlaceholderText("Find in transcript")
        self.field.setClearButtonEnabled(True)
        self.count = QLabel("")
        self.count.setObjectName("findCount")
        self.previous = QToolButton(text="↑", toolTip="Previous match (Shift+Enter)")
        self.next = QToolButton(text="↓", toolTip="Next match (Enter)")
        self.close_button = QToolButton(text="✕", toolTip="Close (Esc)")
        row = QHBoxLayout(self)
        row.setContentsMargins(6, 3, 6, 3)
        row.addWidget(self.field, 1)
        row.addWidget(self.count)
        row.addWidget(self.previous)
        row.addWidget(self.next)
        row.addWidget(self.close_button)
        self.field.textChanged.connect(self.query_changed)
        self.field.returnPressed.connect(self._on_return)
        self.previous.clicked.connect(self.previous_requested)
        self.next.clicked.connect(self.next_requested)
        self.close_button.clicked.connect(self.close_bar)
        self.hide()

    def open_bar(self) -> None:
        self.show()
        self.field.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.field.selectAll()

    def close_bar(self) -> None:
        self.hide()
        self.closed.emit()

    def set_count(self, current: int, total: int) -> None:
        if not self.field.text().strip():
            self.count.setText("")
        elif total == 0:
            self.count.setText("no match")
        else:
            self.count.setText(f"{current} of {total}")

    def _on_return(self) -> None:
        from PySide6.QtWidgets import QApplication

        if QApplication.keyboardModifiers() & Qt.KeyboardModifier.ShiftModifier:
            self.previous_requested.emit()
        else:
            self.next_requested.emit()

    def keyPressEvent(self, event) -> None:  # noqa: N802
        if event.key() == Qt.Key.Key_Escape:
            self.close_bar()
            return
        super().keyPressEvent(event)
