"""Record (or fill in) an observation: was the behavior seen in a later call or pipeline review?

Saving is one coach edit run through ``run`` (the window's history): Ctrl+Z takes it back."""

from __future__ import annotations

from datetime import date

from PySide6.QtCore import QDate
from PySide6.QtWidgets import (
    QButtonGroup, QCheckBox, QComboBox, QDateEdit, QDialog, QDialogButtonBox, QFormLayout, QHBoxLayout,
    QLabel, QPlainTextEdit, QRadioButton, QWidget,
)

from desktop.core.enums import ObservationSource, Seen
from desktop.errors import CallmarkError
from desktop.services import calls, moments
from desktop.services import coaching_edits as edits
from desktop.services.observations import ObservationRow
from desktop.ui.style import text_box_height

SOURCES = ((ObservationSource.CALL, "A later call"), (ObservationSource.PIPELINE_REVIEW, "A pipeline review"),
           (ObservationSource.ROLE_PLAY, "A role-play (practice)"))
SEEN = ((Seen.YES, "Seen"), (Seen.NO, "Not seen"), (Seen.PARTIAL, "Partly"))


class ObservationDialog(QDialog):
    """New observation for an item, or an existing one (e.g. one of the next two recordings) to fill."""

    def __init__(self, store, item_id: int, existing: ObservationRow | None = None,
                 on: date | None = None, parent: QWidget | None = None, run=None):
        super().__init__(parent)
        self.store = store
        self.run = run or (lambda op, **_kwargs: op())
        self.item_id = item_id
        self.existing = existing
        self.saved: ObservationRow | None = None
        self.setWindowTitle("Was the behavior there?")
        self.source = QComboBox()
        for value, text in SOURCES:
            self.source.addItem(text, value)
        self.seen_group = QButtonGroup(self)
        seen_row = QHBoxLayout()
        self.seen_buttons: dict[Seen, QRadioButton] = {}
        for value, text in SEEN:
            button = QRadioButton(text)
            self.seen_group.addButton(button)
            self.seen_buttons[value] = button
            seen_row.addWidget(button)
        self.when = QDateEdit()
        self.when.setCalendarPopup(True)
        self.when.setDisplayFormat("yyyy-MM-dd")
        self.call = QComboBox()
        self.call.addItem("(no recording)", None)
        for row in calls.list_calls(store):
            self.call.addItem(row.title, row.id)
        self.moment = QComboBox()
        self.call.currentIndexChanged.connect(self.on_call_changed)
        self.customer = QCheckBox("The review used what the customer said or CRM evidence")
        self.evidence = QPlainTextEdit()
        self.evidence.setPlaceholderText("What you saw or heard, in a line or two")
        self.evidence.setFixedHeight(text_box_height(self.evidence, 3, 70))  # grows with the font
        self.message = QLabel()
        self.message.setStyleSheet("color: #b42318;")

        form = QFormLayout(self)
        form.addRow("Where", self.source)
        form.addRow("The behavior was", seen_row)
        form.addRow("On", self.when)
        form.addRow("Recording", self.call)
        form.addRow("Moment in it", self.moment)
        form.addRow("", self.customer)
        form.addRow("Evidence", self.evidence)
        form.addRow(self.message)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.on_save_clicked)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)
        self.source.currentIndexChanged.connect(self.on_source_changed)
        self._load(existing, on or date.today())

    def _load(self, row: ObservationRow | None, on: date) -> None:
        day = row.observed_on if row else on
        self.when.setDate(QDate(day.year, day.month, day.day))
        if row is None:
            self.on_source_changed()
            return
        self.source.setCurrentIndex(self.source.findData(row.source))
        if row.seen is not None:
            self.seen_buttons[row.seen].setChecked(True)
        if row.call_id is not None:
            self.call.setCurrentIndex(max(0, self.call.findData(row.call_id)))
        if row.moment_id is not None:
            self.moment.setCurrentIndex(max(0, self.moment.findData(row.moment_id)))
        self.customer.setChecked(bool(row.uses_customer_evidence))
        self.evidence.setPlainText(row.evidence)
        self.on_source_changed()

    def on_source_changed(self) -> None:
        source = self.source.currentData()
        self.customer.setVisible(source == ObservationSource.PIPELINE_REVIEW)
        live_call = source == ObservationSource.CALL
        self.call.setEnabled(live_call)
        self.moment.setEnabled(live_call)

    def on_call_changed(self) -> None:
        self.moment.clear()
        self.moment.addItem("(the whole call)", None)
        call_id = self.call.currentData()
        if call_id is None:
            return
        from desktop.core.timefmt import format_ms

        for m in moments.list_moments(self.store, call_id):
            self.moment.addItem(f"{format_ms(m.start_ms)}  {m.quote[:60]}", m.id)

    def values(self) -> dict:
        checked = next((seen for seen, b in self.seen_buttons.items() if b.isChecked()), None)
        source = self.source.currentData()
        return dict(source=source, seen=checked, observed_on=self.when.date().toPython(),
                    evidence=self.evidence.toPlainText(),
                    call_id=self.call.currentData() if source == ObservationSource.CALL else None,
                    moment_id=self.moment.currentData() if source == ObservationSource.CALL else None,
                    uses_customer_evidence=self.customer.isChecked()
                    if source == ObservationSource.PIPELINE_REVIEW else None)

    def on_save_clicked(self) -> None:
        values = self.values()
        if values["seen"] is None:
            self.message.setText("Choose seen, not seen or partly.")
            return
        try:
            if self.existing is None:
                made = self.run(lambda: edits.record_observation(self.store, item_id=self.item_id, **values))
            else:
                made = self.run(lambda: edits.fill_observation(self.store, self.existing.id, **values))
        except CallmarkError as exc:
            self.message.setText(str(exc))
            return
        self.saved = made.row
        self.accept()
