"""The Call tab: the open call's details, one plain label per name and value.

Plain labels in a form, not one rich-text label holding an HTML table: Qt lays a
word-wrapped rich-text label out again for every width it is asked about, and
that table was the costliest thing in showing the window.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QFormLayout, QFrame, QLabel, QPushButton, QScrollArea, QVBoxLayout, QWidget

from desktop.ui.style import label_look


# Values the coach may want to copy. Only these: a selectable label keeps a whole text document
# behind it, and nine of them were a tenth of the window's first paint.
SELECTABLE = frozenset({"File"})


class CallInfo(QWidget):
    edit_requested = Signal()  # the coach wants to set the title, rep, manager, date or source

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("callInfo")
        # In a scroll area: on a small screen, a large scale or a large font the details scroll instead of
        # holding the whole window taller than the screen.
        content = QWidget()
        scroll = QScrollArea()
        scroll.setObjectName("callInfoScroll")
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # no Tab stop of its own: it follows the focus
        scroll.setWidget(content)
        own = QVBoxLayout(self)
        own.setContentsMargins(0, 0, 0, 0)
        own.addWidget(scroll)
        outer = QVBoxLayout(content)
        outer.setContentsMargins(0, 0, 0, 0)
        box = QWidget()
        self._form = QFormLayout(box)
        outer.addWidget(box)
        # The conversation's figures (who talked, how much, the questions), under their own heading.
        self.figures_title = label_look(QLabel("Conversation"), "panelTitle")
        self.figures_title.hide()
        self._figures_box = QWidget()
        self._figures = QFormLayout(self._figures_box)
        self._figures.setContentsMargins(10, 4, 10, 4)
        self._figures.setHorizontalSpacing(12)
        self._figures.setVerticalSpacing(2)
        self._figure_values: dict[str, QLabel] = {}
        self._figures_box.hide()
        outer.addWidget(self.figures_title)
        outer.addWidget(self._figures_box)
        self.edit_button = QPushButton("Edit details…")
        self.edit_button.setToolTip("Title, rep, manager, recorded date and source")
        self.edit_button.clicked.connect(self.edit_requested)
        outer.addWidget(self.edit_button, 0, Qt.AlignmentFlag.AlignLeft)
        outer.addStretch(1)
        self._form.setContentsMargins(10, 10, 10, 10)
        self._form.setHorizontalSpacing(12)
        self._form.setVerticalSpacing(4)
        self._values: dict[str, QLabel] = {}

    def set_rows(self, rows: list[tuple[str, str]]) -> None:
        """Show these (name, value) pairs, in this order."""
        if list(self._values) != [name for name, _ in rows]:
            while self._form.rowCount():
                self._form.removeRow(0)
            self._values = {}
            for name, _ in rows:
                key = label_look(QLabel(name), "infoKey")
                value = QLabel()
                value.setObjectName("infoValue")
                value.setWordWrap(True)  # a long title or file path wraps instead of widening the tab
                value.setTextFormat(Qt.TextFormat.PlainText)
                if name in SELECTABLE:
                    value.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
                self._form.addRow(key, value)
                self._values[name] = value
        for name, text in rows:
            self._values[name].setText(text)

    def set_figures(self, rows: list[tuple[str, str, str]] | None) -> None:
        """(name, value, why) rows; a figure that can't be told shows "—" with the reason on hover."""
        if not rows:
            self.figures_title.hide()
            self._figures_box.hide()
            return
        if list(self._figure_values) != [name for name, _, _ in rows]:
            while self._figures.rowCount():
                self._figures.removeRow(0)
            self._figure_values = {}
            for name, _, _ in rows:
                value = QLabel()
                value.setWordWrap(True)
                self._figures.addRow(label_look(QLabel(name), "infoKey"), value)
                self._figure_values[name] = value
        for name, text, why in rows:
            label = self._figure_values[name]
            label.setText(text)
            label.setToolTip(why)
        self.figures_title.show()
        self._figures_box.show()

    def figure(self, name: str) -> str | None:
        label = self._figure_values.get(name)
        return label.text() if label is not None else None

    def value(self, name: str) -> str | None:
        label = self._values.get(name)
        return label.text() if label is not None else None

    def rows(self) -> list[tuple[str, str]]:
        return [(name, label.text()) for name, label in self._values.items()]
