"""The calibration window: wires the side-by-side view to the calibration service and to playback."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QFileDialog, QMainWindow, QWidget

from desktop.core.words import file_name
from desktop.errors import CallmarkError
from desktop.services import calibration as cal
from desktop.services import calls
from desktop.ui.calibration.view import SideBySideView

PlaySpan = Callable[[int, int], None]  # play [start, end) of the open call


class CalibrationController(QObject):
    """Keeps each choice as the coaches make it; saves the agreed items; plays a row's two spans."""

    def __init__(self, store, view: SideBySideView, calibration_id: int, play_span: PlaySpan | None = None,
                 parent: QObject | None = None):
        super().__init__(parent)
        self.store, self.view, self.play_span = store, view, play_span
        self.calibration: cal.CalibrationView = cal.open_calibration(store, calibration_id)
        self.selected: int | None = None
        view.table.selectionModel().selectionChanged.connect(lambda *_: self.on_table_selection())
        view.timeline.row_clicked.connect(self.select_row)
        view.play_button.clicked.connect(self.on_play_clicked)
        for choice, button in view.choice_buttons.items():
            button.clicked.connect(lambda _checked=False, c=choice: self.on_choice(c))
        view.agree_button.clicked.connect(self.on_agree_clicked)
        view.report_button.clicked.connect(self.on_report_clicked)
        self.refresh()
        if self.calibration.rows:
            self.select_row(0)

    def refresh(self) -> None:
        c = self.calibration
        self.view.show_figures(c)
        self.view.timeline.set_rows(c.rows, c.duration_ms, c.mine_coach, c.theirs_coach)
        self.view.rows_model.set_rows(c.rows, {k: v.get("choice", "") for k, v in c.decisions.items()})
        self.view.agree_button.setEnabled(c.agreed_at is None)
        self._say_progress()

    def select_row(self, index: int | None) -> None:
        self.selected = index
        if index is not None and self.view.table.currentIndex().row() != index:
            self.view.table.selectRow(index)
        self.view.timeline.select_row(index)
        self.view.show_row(self.calibration, index)

    def on_table_selection(self) -> None:
        rows = self.view.table.selectionModel().selectedRows()
        if rows and rows[0].row() != self.selected:
            self.select_row(rows[0].row())

    def on_play_clicked(self) -> None:
        if self.selected is None:
            return
        start, end = self.calibration.rows[self.selected].play_span
        if self.play_span is not None:
            self.play_span(start, end)
        self.view.timeline.set_position(start)

    def on_choice(self, choice: str) -> None:
        if self.selected is None:
            return
        if choice == "merged":
            self.write_merged(self.selected)  # the coaches write the merged wording first
            return
        self._decide(self.selected, choice, None)

    def write_merged(self, index: int):
        """Open an editor on the merged wording (mine where I wrote it, theirs where I did not); saving it
        makes the row's choice "merged" with that wording."""
        from desktop.ui.calibration.merge_dialog import MergeDialog

        row = self.calibration.rows[index]
        kept = (self.calibration.decisions.get(row.key) or {}).get("fields")
        dialog = MergeDialog(kept or cal.merged_wording(row), self.view)
        dialog.accepted.connect(lambda: self._decide(index, "merged", dialog.fields()))
        dialog.open()
        self.last_dialog = dialog  # tests answer it
        return dialog

    def _decide(self, index: int, choice: str, fields: dict | None) -> None:
        row = self.calibration.rows[index]
        try:
            cal.set_decision(self.store, self.calibration.id, row.key, choice, fields)
        except CallmarkError as exc:
            self.view.status.setText(str(exc))
            return
        self.calibration.decisions[row.key] = {"choice": choice, **({"fields": fields} if fields else {})}
        self.view.rows_model.set_choice(index, choice)
        self._say_progress()

    def on_agree_clicked(self) -> None:
        try:
            done = cal.agree(self.store, self.calibration.id)
        except CallmarkError as exc:
            self.view.status.setText(str(exc))
            return
        self.calibration = cal.open_calibration(self.store, self.calibration.id)
        self.refresh()
        self.view.show_row(self.calibration, self.selected)
        def n(count: int, what: str) -> str:
            return f"{count} {what}{'' if count == 1 else 's'}"

        self.view.status.setText(f"Agreed by {self.calibration.agreed_by}: saved {n(len(done.item_ids), 'calibrated item')}"
                                 f" and {n(len(done.moment_ids), 'agreed moment')}; {done.dropped} dropped.")

    def on_report_clicked(self) -> None:
        c = self.calibration
        suggested = file_name(c.call_title, None, f"-calibration-{c.mine_coach}-{c.theirs_coach}.html".lower()
                              .replace(" ", "-"))
        path, _ = QFileDialog.getSaveFileName(self.view, "Save calibration report", suggested, "HTML (*.html)")
        if path:
            self.save_report(path)

    def save_report(self, path: str | Path) -> None:
        from desktop.services.calibration_report import write_report
        from desktop.exchange.safe_write import ExportError

        try:
            write_report(path, self.calibration)
            self.view.status.setText(f"Report saved: {path}")
        except ExportError as exc:
            self.view.status.setText(str(exc))

    def _say_progress(self) -> None:
        c = self.calibration
        if c.agreed_at:
            self.view.status.setText(f"Agreed by {c.agreed_by} on {c.agreed_at[:16].replace('T', ' ')}.")
            return
        left = sum(1 for r in c.rows if r.key not in c.decisions)
        self.view.status.setText("Every row has a choice: save the agreed items." if not left else
                                 f"{left} of {len(c.rows)} rows still to agree (mine, theirs, merged or drop).")


class CalibrationWindow(QMainWindow):
    def __init__(self, store, calibration_id: int, *, home: Path | None = None, play_span: PlaySpan | None = None,
                 parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("calibrationWindow")
        self.setWindowTitle("Calibration — Callmark")
        self.resize(1400, 860)
        self.view = SideBySideView()
        self.setCentralWidget(self.view)
        self.controller = CalibrationController(store, self.view, calibration_id, play_span, self)
        self.waveforms = None
        if home is not None:
            self._load_peaks(store, Path(home))

    def _load_peaks(self, store, home: Path) -> None:
        from desktop.ui.controllers.waveform_loader import WaveformLoader

        call = calls.get_call(store, self.controller.calibration.call_id)
        self.waveforms = WaveformLoader(home, self)
        self.waveforms.loaded.connect(lambda _sha, peaks: self.view.timeline.set_peaks(peaks))
        self.waveforms.request(call.media_path, call.media_sha256)
