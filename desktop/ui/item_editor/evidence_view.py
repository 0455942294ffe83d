"""The editor's evidence tools: cite the selected moment, a CRM field or a dated 1:1 note; remove one.

Layout only; `EvidenceController` wires it. The moment is the method's first
kind of evidence, so "Cite selected moment" is always in sight; CRM fields, 1:1
notes and removal fold away under "More evidence" to keep the inspector short.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox, QFrame, QGridLayout, QHBoxLayout, QLabel, QLineEdit, QPushButton, QToolButton, QVBoxLayout,
    QWidget,
)

from desktop.ui.item_editor.fields import CalendarButton, DueDateEdit

__all__ = ["EvidenceTools"]


class EvidenceTools(QWidget):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.selected_note = QLabel()
        self.selected_note.setObjectName("selectedMomentNote")
        self.selected_note.setWordWrap(True)
        self.selected_note.setTextFormat(Qt.TextFormat.RichText)
        self.selected_note.hide()
        self.cite_button = QPushButton("Cite selected moment")
        self.cite_button.setToolTip("Cite the moment selected in the moments list (this call or another) "
                                    "on this item")
        self.more_button = QToolButton()
        self.more_button.setText("More evidence")
        self.more_button.setCheckable(True)
        self.more_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.more_button.setArrowType(Qt.ArrowType.RightArrow)

        self.crm_field = QComboBox()
        self.crm_field.setAccessibleName("CRM field")
        self.crm_field.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.crm_field.setMinimumContentsLength(12)
        self.crm_button = QPushButton("Cite")
        self.crm_button.setToolTip("Cite this field of the call's opportunity, as of its latest import")
        self.note_text = QLineEdit()
        self.note_text.setPlaceholderText("What the 1:1 note says")
        self.note_date = DueDateEdit()
        self.note_date.setAccessibleName("1:1 note date")
        self.note_date.setFixedWidth(max(96, self.note_date.sizeHint().width()))  # a whole date, in its font
        self.note_calendar = CalendarButton(self.note_date)
        self.note_button = QPushButton("Add")
        self.note_button.setToolTip("Add the 1:1 note, with its date, as evidence")
        self.remove_pick = QComboBox()
        self.remove_pick.setAccessibleName("evidence to remove")
        self.remove_pick.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.remove_pick.setMinimumContentsLength(12)
        self.remove_button = QPushButton("Remove")

        self.more = QFrame()
        self.more.setObjectName("moreEvidence")
        grid = QGridLayout(self.more)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.setHorizontalSpacing(4)
        grid.setVerticalSpacing(3)
        grid.addWidget(QLabel("CRM"), 0, 0)
        grid.addWidget(self.crm_field, 0, 1, 1, 3)
        grid.addWidget(self.crm_button, 0, 4)
        grid.addWidget(QLabel("1:1 note"), 1, 0)
        grid.addWidget(self.note_text, 1, 1)
        grid.addWidget(self.note_date, 1, 2)
        grid.addWidget(self.note_calendar, 1, 3)
        grid.addWidget(self.note_button, 1, 4)
        grid.addWidget(QLabel("Remove"), 2, 0)
        grid.addWidget(self.remove_pick, 2, 1, 1, 3)
        grid.addWidget(self.remove_button, 2, 4)
        grid.setColumnStretch(1, 1)
        self.more.hide()
        self.more_button.toggled.connect(self._fold)

        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.cite_button)
        row.addStretch(1)
        row.addWidget(self.more_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(3)
        layout.addWidget(self.selected_note)
        layout.addLayout(row)
        layout.addWidget(self.more)
        for button in (self.cite_button, self.more_button, self.crm_button, self.note_button,
                       self.remove_button):
            button.setFocusPolicy(Qt.FocusPolicy.TabFocus)

    def _fold(self, shown: bool) -> None:
        self.more.setVisible(shown)
        self.more_button.setArrowType(Qt.ArrowType.DownArrow if shown else Qt.ArrowType.RightArrow)
