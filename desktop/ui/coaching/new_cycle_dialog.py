"""New cycle…: the manager, day 1 and the conversation model of a 90-day cycle."""

from __future__ import annotations

from datetime import date

from PySide6.QtCore import QDate
from PySide6.QtWidgets import QComboBox, QDateEdit, QDialog, QDialogButtonBox, QFormLayout, QLabel, QLineEdit, QWidget

from desktop.core.enums import ConversationModel


def _qdate(day: date) -> QDate:
    return QDate(day.year, day.month, day.day)


class NewCycleDialog(QDialog):
    def __init__(self, manager: str = "", parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle("New 90-day cycle")
        self.manager = QLineEdit(manager)
        self.start = QDateEdit(_qdate(date.today()))
        self.start.setCalendarPopup(True)
        self.start.setDisplayFormat("yyyy-MM-dd")
        self.model = QComboBox()
        for m in ConversationModel:
            self.model.addItem(m.upper(), m)
        form = QFormLayout(self)
        form.addRow("Manager", self.manager)
        form.addRow("Start (day 1)", self.start)
        form.addRow("Conversation model", self.model)
        form.addRow(QLabel("Weekly sessions are planned over days 31–75."))
        box = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        box.accepted.connect(self.accept)
        box.rejected.connect(self.reject)
        form.addRow(box)
