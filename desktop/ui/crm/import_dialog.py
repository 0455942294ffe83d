"""File ▸ Import CRM export…: read the export off the GUI thread, show what would change, then write.

Nothing is written until the coach presses Import; the preview is the same
plan `callmark crm import --dry-run` prints.
"""

from __future__ import annotations

import zoneinfo
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox, QDialog, QDialogButtonBox, QFormLayout, QHBoxLayout, QLabel, QLineEdit,
    QPlainTextEdit, QPushButton, QVBoxLayout,
)

from desktop.errors import CallmarkError
from desktop.exchange.crm_plan import ImportPlan, date_order_lines, date_order_name, preview_lines
from desktop.services import crm as crm_service
from desktop.services import crm_imports
from desktop.ui.tasks import run_task
from desktop.ui.style import theme

CRM_CHOICES = (("Detect from the headers", None), ("Salesforce", "salesforce"), ("HubSpot", "hubspot"))
DATE_CHOICES = (("Detect (else month/day)", None), ("Month/day (US)", False), ("Day/month", True))
CSV_FILTER = "CRM exports (*.csv *.txt *.tsv);;All files (*)"


class ImportDialog(QDialog):
    """Preview an export, optionally map the next-step date column, then import it."""

    preview_ready = Signal(object)  # ImportPlan, or None when the export was refused

    def __init__(self, store, path: str | Path, parent=None, run=None):
        super().__init__(parent)
        self.store = store
        self._run = run or (lambda op: op())  # the panel's: the import is one coach edit (undo)
        self.path = Path(path)
        self.plan: ImportPlan | None = None
        self.result: crm_service.ImportResult | None = None
        self._parsed = None
        self._request = 0
        self._remembered = crm_service.remembered_columns(store)
        self.setWindowTitle("Import CRM export")
        self.resize(720, 520)

        heading = QLabel(f"<b>{self.path.name}</b>")
        folder = QLabel(str(self.path.parent))
        folder.setObjectName("fieldCaption")
        self.crm_choice = QComboBox()
        for text, value in CRM_CHOICES:
            self.crm_choice.addItem(text, value)
        self.date_choice = QComboBox()
        for text, value in DATE_CHOICES:
            self.date_choice.addItem(text, value)
        # Day/month order: shown as read, with a one-click flip before anything is written.
        self.date_order = QLabel()
        self.date_order.setObjectName("dateOrder")
        self.date_order.setWordWrap(True)
        self.flip_dates = QPushButton()
        self.flip_dates.setObjectName("flipDates")
        self.flip_dates.hide()
        self.time_zone = QComboBox()
        self.time_zone.addItem(crm_service.zone_name(None), None)
        for name in sorted(zoneinfo.available_timezones()):
            self.time_zone.addItem(name, name)
        self.time_zone.setToolTip("the zone of Last Modified Date times written without one")
        self.date_column = QLineEdit(self._remembered.get("next_step_date", ""))
        self.date_column.setPlaceholderText("optional: the export's column with the next step's date")
        self.refresh_button = QPushButton("Preview again")
        column_row = QHBoxLayout()
        column_row.addWidget(self.date_column, 1)
        column_row.addWidget(self.refresh_button)
        form = QFormLayout()
        form.addRow("CRM", self.crm_choice)
        date_row = QHBoxLayout()
        date_row.addWidget(self.date_choice, 1)
        date_row.addWidget(self.flip_dates)
        form.addRow("Dates", date_row)
        form.addRow("", self.date_order)
        form.addRow("Time zone", self.time_zone)
        form.addRow("Next-step date column", column_row)

        self.summary = QLabel("Reading the export…")
        self.summary.setObjectName("importSummary")
        self.summary.setWordWrap(True)
        self.error = QLabel()
        self.error.setObjectName("importError")
        self.error.setWordWrap(True)
        self.error.setStyleSheet(f"color: {theme().severity['error']};")
        self.error.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.error.hide()
        self.changes = QPlainTextEdit()
        self.changes.setReadOnly(True)
        self.changes.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.import_button = self.buttons.addButton("Import", QDialogButtonBox.ButtonRole.AcceptRole)
        self.import_button.setEnabled(False)

        layout = QVBoxLayout(self)
        layout.addWidget(heading)
        layout.addWidget(folder)
        layout.addLayout(form)
        layout.addWidget(self.summary)
        layout.addWidget(self.error)
        layout.addWidget(self.changes, 1)
        layout.addWidget(self.buttons)

        self.buttons.rejected.connect(self.reject)
        self.import_button.clicked.connect(self.on_import_clicked)
        self.refresh_button.clicked.connect(self.preview)
        self.date_column.returnPressed.connect(self.preview)
        self.crm_choice.currentIndexChanged.connect(self.preview)
        self.date_choice.currentIndexChanged.connect(self.preview)
        self.time_zone.currentIndexChanged.connect(self.preview)
        self.flip_dates.clicked.connect(self.on_flip_dates_clicked)
        self.preview()

    # --- reading and planning -----------------------------------------------------------

    def _columns(self) -> dict[str, str] | None:
        """The mapping typed here; None means 'as remembered' (the field unchanged)."""
        text = self.date_column.text().strip()
        if text == self._remembered.get("next_step_date", ""):
            return None
        others = {k: v for k, v in self._remembered.items() if k != "next_step_date"}
        return {**others, **({"next_step_date": text} if text else {})}

    def preview(self) -> None:
        self._request += 1
        self._parsed = self.plan = None
        self.import_button.setEnabled(False)
        self.summary.setText("Reading the export…")
        self.error.hide()
        args = (self.path, self.crm_choice.currentData(), self._columns(),
                self.date_choice.currentData())
        number, remembered = self._request, dict(self._remembered)

        def failed(exc: BaseException) -> None:
            # A CallmarkError names the file and the problem; anything else is still said, in one line.
            text = str(exc) if isinstance(exc, CallmarkError) else f"{args[0]}: could not read the export ({exc})"
            self.on_reader_failed(text, number)

        # A big export must not freeze the window: it is read off the GUI thread.
        run_task(lambda: crm_service.read_export(*args, remembered=remembered),
                 lambda parsed: self.on_reader_done(parsed, number), receiver=self, on_error=failed,
                 name="callmark-crm-read")

    def on_reader_done(self, parsed, number: int) -> None:
        if number != self._request:
            return  # an older preview the coach has since changed
        try:
            plan = crm_service.preview_import(self.store, self.path, parsed=parsed,
                                              time_zone=self._zone())
        except CallmarkError as exc:
            self.on_reader_failed(str(exc), number)
            return
        self._parsed, self.plan = parsed, plan
        s = plan.summary()
        label = crm_service.CRM_LABELS.get(plan.crm, "CRM")
        self.summary.setText(f"<b>{label} export</b> — {s['created']} to create, "
                             f"{s['updated']} to update, {s['unchanged']} unchanged. "
                             "Nothing is written until you press Import.")
        self._show_date_order(plan)
        lines = preview_lines(plan) or ["No opportunity would change."]
        if plan.warnings:
            lines += ["", "Notes:"] + [f"• {w}" for w in plan.warnings]
        if plan.errors:
            lines += ["", "Errors:"] + [f"• {e}" for e in plan.errors]
        self.changes.setPlainText("\n".join(lines))
        self.import_button.setEnabled(not plan.errors and bool(parsed.rows))
        self.preview_ready.emit(plan)

    def _zone(self):
        return crm_service.parse_time_zone(self.time_zone.currentData())

    def _show_date_order(self, plan: ImportPlan) -> None:
        lines = date_order_lines(plan, flip="with the button beside Dates")
        self.date_order.setText("\n".join(lines))
        self.date_order.setVisible(bool(lines))
        self.flip_dates.setVisible(bool(lines))
        if plan.day_first is not None:
            self.flip_dates.setText(f"Read as {date_order_name(not plan.day_first)}")

    def on_flip_dates_clicked(self) -> None:
        if self.plan is None or self.plan.day_first is None:
            return
        self.date_choice.setCurrentIndex(self.date_choice.findData(not self.plan.day_first))

    def on_reader_failed(self, message: str, number: int) -> None:
        if number != self._request:
            return
        self.summary.setText("This export can't be imported; nothing was written.")
        self.error.setText(message)
        self.error.show()
        self.changes.setPlainText("")
        self.preview_ready.emit(None)

    # --- writing --------------------------------------------------------------------------

    def on_import_clicked(self) -> None:
        if self._parsed is None:
            return
        try:
            parsed, zone = self._parsed, self._zone()
            self.result = self._run(lambda: crm_imports.import_export(self.store, self.path, parsed=parsed,
                                                                      time_zone=zone)).row
            columns = self._columns()
            if columns is not None:
                crm_service.remember_columns(
                    self.store, {"next_step_date": columns.get("next_step_date", "")})
        except CallmarkError as exc:
            self.on_reader_failed(str(exc), self._request)
            return
        self.accept()
