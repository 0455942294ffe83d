"""Link a call to an opportunity: suggestions from the call title, or any CRM id typed in."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog, QDialogButtonBox, QLabel, QLineEdit, QListWidget, QListWidgetItem, QVBoxLayout,
)

from desktop.errors import CallmarkError
from desktop.services import crm as crm_service
from desktop.ui.style import theme


def suggestion_text(s) -> str:
    o = s.opportunity
    return f"{o.name}  ·  {o.account or 'no account'}  ·  {o.stage or 'no stage'}  ({o.external_id})"


class LinkDialog(QDialog):
    def __init__(self, store, call_id: int, parent=None, run=None):
        super().__init__(parent)
        self.store = store
        self.call_id = call_id
        self._run = run or (lambda op: op())  # the panel's: the link is one coach edit (undo)
        self.linked: crm_service.OpportunityInfo | None = None
        self.setWindowTitle("Link the call to an opportunity")
        self.resize(560, 360)
        self.suggestions = QListWidget()
        found = crm_service.suggest_links(store, call_id)
        for s in found:
            item = QListWidgetItem(suggestion_text(s))
            item.setToolTip(s.reason)
            item.setData(Qt.ItemDataRole.UserRole, s.opportunity.external_id)
            self.suggestions.addItem(item)
        hint = ("Suggested from the call title:" if found else
                "No opportunity's name or account appears in the call title.")
        self.id_field = QLineEdit()
        self.id_field.setPlaceholderText("Opportunity id, e.g. 0065g00000XyZ1A or a HubSpot record id")
        self.error = QLabel()
        self.error.setWordWrap(True)
        self.error.setStyleSheet(f"color: {theme().severity['error']};")
        self.error.hide()
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.link_button = buttons.addButton("Link", QDialogButtonBox.ButtonRole.AcceptRole)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel(hint))
        layout.addWidget(self.suggestions, 1)
        layout.addWidget(QLabel("Or type the opportunity's id:"))
        layout.addWidget(self.id_field)
        layout.addWidget(self.error)
        layout.addWidget(buttons)
        self.suggestions.currentItemChanged.connect(
            lambda item, _old: item and self.id_field.setText(item.data(Qt.ItemDataRole.UserRole)))
        self.suggestions.itemDoubleClicked.connect(lambda _item: self.link())
        self.link_button.clicked.connect(self.link)
        buttons.rejected.connect(self.reject)
        if found:
            self.suggestions.setCurrentRow(0)
        self.suggestions.setVisible(bool(found))

    def link(self) -> None:
        try:
            ref = self.id_field.text()
            self.linked = self._run(lambda: crm_service.link(self.store, self.call_id, ref)).row
        except CallmarkError as exc:
            self.error.setText(str(exc))
            self.error.show()
            return
        self.accept()
