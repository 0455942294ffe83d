"""What leaves the machine, from the GUI: File ▸ Export record…, Import record…, Export packet….

The three commands are the window's (ActionId.EXPORT_RECORD…, owned by
`desktop.ui.exchange.menu.ExchangeCommands`); the dialogs call the same services
as `callmark record` and `callmark packet`.
The first export asks who the coach is (name and email, kept in the store).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import (QCheckBox, QDialog, QDialogButtonBox, QFileDialog, QFormLayout, QHBoxLayout,
                               QLabel, QLineEdit, QListWidget, QMessageBox, QSplitter, QTextBrowser,
                               QVBoxLayout, QWidget)

from desktop.core.words import file_name, plural
from desktop.errors import CallmarkError
from desktop.services import packets, records
from desktop.ui.exchange.pdf import print_html

RECORD_FILTER = "Coaching records (*.callmark.json);;JSON (*.json);;All files (*)"


class WhoAreYouDialog(QDialog):
    """Asked once, before the first export: the name (and email) that goes on records and packets."""

    def __init__(self, parent: QWidget | None = None, name: str = "", email: str = "") -> None:
        super().__init__(parent)
        self.setWindowTitle("Who are you?")
        self.name = QLineEdit(name)
        self.email = QLineEdit(email)
        self.name.setPlaceholderText("Dana Coach")
        self.email.setPlaceholderText("dana@example.com (optional)")
        form = QFormLayout()
        form.addRow(QLabel("Your name goes on every record and packet you export, and your moments "
                           "and items are kept under it."))
        form.addRow("Name", self.name)
        form.addRow("Email", self.email)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)
        self.setLayout(form)


def ensure_local_coach(window) -> bool:
    """True once the local coach is known; asks on first use."""
    if records.whoami(window.store) is not None:
        return True
    dialog = WhoAreYouDialog(window)
    while dialog.exec():
        try:
            records.set_whoami(window.store, dialog.name.text(), dialog.email.text())
            return True
        except CallmarkError as exc:  # say it and ask again
            QMessageBox.warning(window, "Callmark", str(exc))
    return False


def _open_call_id(window) -> int | None:
    call = getattr(window.workspace, "call", None)
    if call is None:
        window.show_message("Open a call first.")
        return None
    return call.id


def export_record(window) -> Path | None:
    call_id = _open_call_id(window)
    if call_id is None or not ensure_local_coach(window):
        return None
    options = QDialog(window)
    options.setWindowTitle("Export record")
    transcript = QCheckBox("Include the transcript")
    scrub = QCheckBox("Redact emails, phone and card numbers")
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
    buttons.accepted.connect(options.accept)
    buttons.rejected.connect(options.reject)
    layout = QVBoxLayout(options)
    for widget in (QLabel("Your moments and items on this call, for another coach."), transcript, scrub, buttons):
        layout.addWidget(widget)
    if not options.exec():
        return None
    try:
        result = records.export_record(window.store, call_id, with_transcript=transcript.isChecked(),
                                       redact_pii=scrub.isChecked())
        path, _ = QFileDialog.getSaveFileName(window, "Export record", _suggested(window, ".callmark.json"),
                                              RECORD_FILTER)
        if not path:
            return None
        saved = records.save_record(result, path)
    except (CallmarkError, OSError) as exc:  # ExportError, a folder that can't be written: one line
        window.show_message(str(exc), error=True)
        return None
    note = f" Left out: {'; '.join(result.left_out)}." if result.left_out else ""
    counts = f"{plural(len(result.record.moments), 'moment')} and {plural(len(result.record.items), 'item')}"
    window.show_message(f"Exported {counts} to {saved}.{note}")
    return saved


def import_record(window, path: str | None = None) -> records.ImportResult | None:
    if path is None:
        path, _ = QFileDialog.getOpenFileName(window, "Import record", "", RECORD_FILTER)
        if not path:
            return None
    try:
        result = records.import_record(window.store, path)
    except (CallmarkError, OSError) as exc:  # RecordError names the file, the JSON path and the problem
        window.show_message(str(exc), error=True)
        return None
    window.refresh_library()
    from desktop.services.changes import ITEMS, MOMENTS, RECORDS, change

    window.history.tell(change(f"Import {result.coach}'s record", RECORDS, MOMENTS, ITEMS, call_id=result.call_id))
    hidden = " They stay hidden until you compare (blind review)." if result.hidden_for_blind_review else ""
    window.show_message(f"Imported {plural(result.moments_added, 'moment')} and {plural(result.items_added, 'item')} from "
                        f"{result.coach}.{hidden}")
    return result


class PacketPreview(QDialog):
    """The packet as the manager will read it (without audio), and every redaction, before export."""

    def __init__(self, store, call_id: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.store, self.call_id = store, call_id
        self.setWindowTitle("Export packet")
        self.resize(980, 760)
        self.browser = QTextBrowser()
        self.browser.setOpenLinks(False)
        self.redactions = QListWidget()
        self.redactions.setWordWrap(True)
        self.redact = QCheckBox("Redact emails, phone and card numbers (mutes them in the clips too)")
        self.redact.setChecked(True)
        self.clips = QCheckBox("Embed audio clips")
        self.clips.setChecked(True)
        self.pdf = QCheckBox("Also write a PDF for printing")
        self.redact.toggled.connect(self.refresh)
        self.clips.toggled.connect(self.refresh)
        side = QWidget()
        side_layout = QVBoxLayout(side)
        side_layout.addWidget(QLabel("Redactions and notes"))
        side_layout.addWidget(self.redactions)
        splitter = QSplitter()
        splitter.addWidget(self.browser)
        splitter.addWidget(side)
        splitter.setSizes([680, 300])
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save
                                        | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        options = QHBoxLayout()
        for box in (self.redact, self.clips, self.pdf):
            options.addWidget(box)
        layout = QVBoxLayout(self)
        layout.addWidget(splitter, 1)
        layout.addLayout(options)
        layout.addWidget(self.buttons)
        self.build: packets.PacketBuild | None = None
        self.refresh()

    def refresh(self) -> None:
        self.build = packets.build_packet(self.store, self.call_id, clips=self.clips.isChecked(),
                                          redact_pii=self.redact.isChecked())
        self.browser.setHtml(print_html(self.build.preview_html()))  # the style Qt's text engine reads
        self.redactions.clear()
        for where, found in self.build.redactions:
            self.redactions.addItem(f"{where}: {found.original} → {found.kind.placeholder}")
        if self.build.data.redacted and not self.build.redactions:
            self.redactions.addItem("No personal details found.")
        if not self.build.data.redacted:
            self.redactions.addItem("Not redacted: the packet may hold customers' personal details.")
        for note in self.build.left_out + self.build.clip_problems:
            self.redactions.addItem(note)
        self.buttons.button(QDialogButtonBox.StandardButton.Save).setEnabled(bool(self.build.data.items))


def _suggested(window, suffix: str) -> str:
    """A name from the open call and its date, e.g. discovery-acme-logistics-2026-11-20-packet.html."""
    call = window.workspace.call
    return file_name(call.title, call.recorded_at, suffix) if call is not None else f"call{suffix}"


def export_packet(window) -> Path | None:
    call_id = _open_call_id(window)
    if call_id is None or not ensure_local_coach(window):
        return None
    try:
        preview = PacketPreview(window.store, call_id, window)
    except CallmarkError as exc:  # no coach, no items: one line
        window.show_message(str(exc), error=True)
        return None
    if not preview.exec():
        return None
    path, _ = QFileDialog.getSaveFileName(window, "Export packet", _suggested(window, "-packet.html"),
                                          "HTML (*.html)")
    if not path:
        return None
    try:
        build = preview.build
        if preview.pdf.isChecked():
            from desktop.ui.exchange.pdf import write_pdf

            write_pdf(Path(path).with_suffix(".pdf"), build.html(), f"Coaching session: {build.data.call_title}")
        saved = packets.write_html(build, path)
    except (CallmarkError, OSError) as exc:  # ExportError: nothing half-written, say so
        window.show_message(str(exc), error=True)
        return None
    window.show_message(f"Packet written to {saved}.")
    return saved
