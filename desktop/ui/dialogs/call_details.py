"""The call's details the coach sets: title, rep, manager (completed from the people already known),
recorded date and source. Asked when a recording is added from the window, and from the Call tab."""

from __future__ import annotations

from PySide6.QtCore import QDateTime, Qt
from PySide6.QtWidgets import (QCheckBox, QComboBox, QCompleter, QDateTimeEdit, QDialog, QDialogButtonBox,
                               QFormLayout, QLabel, QLineEdit, QVBoxLayout)

from desktop.core.enums import CallSource, Role

SOURCE_LABELS = {"": "—", "zoom": "Zoom", "teams": "Microsoft Teams", "dialer": "Dialer", "other": "Other"}


class CallDetailsDialog(QDialog):
    def __init__(self, call, known: dict[Role, list[str]], *, added: bool = False, parent=None):
        super().__init__(parent)
        self.call = call
        self.setWindowTitle("Who is on this call?" if added else "Call details")
        self.setMinimumWidth(460)
        self.title = QLineEdit(call.title)
        self.rep = self._person(call.rep, known.get(Role.REP, []), "The rep on the call")
        self.manager = self._person(call.manager, known.get(Role.MANAGER, []),
                                    "The sales manager you coach about this call")
        self.has_date = QCheckBox("Known")
        self.recorded = QDateTimeEdit()
        self.recorded.setCalendarPopup(True)
        self.recorded.setDisplayFormat("yyyy-MM-dd HH:mm")
        when = QDateTime.fromString((call.recorded_at or "")[:16].replace(" ", "T"), "yyyy-MM-ddTHH:mm")
        self.has_date.setChecked(when.isValid())
        self.recorded.setDateTime(when if when.isValid() else QDateTime.currentDateTime())
        self.recorded.setEnabled(when.isValid())
        self.has_date.toggled.connect(self.recorded.setEnabled)
        self.source = QComboBox()
        for value in ("", *(s.value for s in CallSource)):
            self.source.addItem(SOURCE_LABELS.get(value, value.title()), value)
        self.source.setCurrentIndex(max(0, self.source.findData(call.source or "")))
        form = QFormLayout()
        form.addRow("Title", self.title)
        form.addRow("Rep", self.rep)
        form.addRow("Manager", self.manager)
        form.addRow("Recorded", self.recorded)
        form.addRow("", self.has_date)
        form.addRow("Source", self.source)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        if added:
            hint = QLabel("The manager is who the coaching items on this call are for.")
            hint.setWordWrap(True)
            layout.addWidget(hint)
        layout.addLayout(form)
        layout.addWidget(buttons)
        self.rep.setFocus() if added else self.title.setFocus()

    @staticmethod
    def _person(name: str | None, known: list[str], placeholder: str) -> QLineEdit:
        field = QLineEdit(name or "")
        field.setPlaceholderText(placeholder)
        completer = QCompleter(known, field)
        completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        completer.setFilterMode(Qt.MatchFlag.MatchContains)
        field.setCompleter(completer)
        return field

    def changes(self) -> dict:
        """Only what differs from the call as it is."""
        recorded = self.recorded.dateTime().toString("yyyy-MM-ddTHH:mm") if self.has_date.isChecked() else ""
        now = {"title": self.title.text().strip(), "rep": self.rep.text().strip(),
               "manager": self.manager.text().strip(), "recorded_at": recorded,
               "source": self.source.currentData() or ""}
        was = {"title": self.call.title, "rep": self.call.rep or "", "manager": self.call.manager or "",
               "recorded_at": (self.call.recorded_at or "")[:16].replace(" ", "T"), "source": self.call.source or ""}
        return {k: v for k, v in now.items() if v != was[k]}
