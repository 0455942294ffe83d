"""Calibration in the workspace: the "Calibration" inspector tab and the side-by-side window.

Blind review by default: the tab says how many other coaches marked the open
call, never what they marked, until the coach chooses "Compare with…".
Importing this package registers the tab.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QFileDialog, QLabel, QMenu, QPushButton, QVBoxLayout, QWidget

from desktop.core.words import plural
from desktop.errors import CallmarkError
from desktop.exchange.record import RecordError
from desktop.services import calibration as cal
from desktop.services.changes import ITEMS, MOMENTS, RECORDS, change
from desktop.ui.panels import WorkspaceContext, register_panel

__all__ = ["CalibrationPanel", "open_calibration_window", "PANEL_NAME"]

PANEL_NAME = "Calibration"
_windows: list = []  # open calibration windows, kept alive while shown


def open_calibration_window(store, calibration_id: int, *, home: Path | None = None, play_span=None,
                            parent: QWidget | None = None):
    from desktop.ui.calibration.window import CalibrationWindow

    window = CalibrationWindow(store, calibration_id, home=home, play_span=play_span, parent=parent)
    _windows.append(window)
    window.destroyed.connect(lambda *_: _windows.remove(window) if window in _windows else None)
    window.show()
    return window


class CalibrationPanel(QWidget):
    """The inspector tab: import another coach's record, then compare when you choose to."""

    def __init__(self, context: WorkspaceContext):
        super().__init__()
        self.context = context
        self.summary = QLabel("Open a call to calibrate it with another coach.")
        self.summary.setWordWrap(True)
        self.import_button = QPushButton("Import another coach's record…")
        self.compare_button = QPushButton("Compare with…")
        self.compare_menu = QMenu(self)
        self.compare_button.setMenu(self.compare_menu)
        self.message = QLabel()
        self.message.setWordWrap(True)
        layout = QVBoxLayout(self)
        for widget in (self.summary, self.import_button, self.compare_button, self.message):
            layout.addWidget(widget)
        layout.addStretch(1)
        self.import_button.clicked.connect(self.on_import_clicked)
        context.call_changed.connect(self.on_call_changed)
        if hasattr(context, "store_changed"):
            context.store_changed.connect(self.on_store_changed)
        self.on_call_changed(context.call_id)

    def on_store_changed(self, change) -> None:
        # A record imported from File ▸ Import record (or anywhere else): say what this call now holds.
        if change.touches(RECORDS, MOMENTS) and change.call_id in (None, self.context.call_id):
            self._show(self.context.call_id)

    def on_call_changed(self, call_id) -> None:
        self.message.clear()
        self._show(call_id)

    def _show(self, call_id) -> None:
        self.compare_menu.clear()
        coaches = cal.other_coaches(self.context.store, call_id) if call_id is not None else []
        for name in coaches:
            self.compare_menu.addAction(name, lambda n=name: self.compare(n))
        self.import_button.setEnabled(call_id is not None)
        self.compare_button.setEnabled(bool(coaches))
        if call_id is None:
            self.summary.setText("Open a call to calibrate it with another coach.")
        elif coaches:
            self.summary.setText(f"Blind review: {', '.join(coaches)} marked this call too. Their marks stay "
                                 "hidden until you choose Compare with….")
        else:
            self.summary.setText("No other coach's marks on this call. Import their record to calibrate.")

    def on_import_clicked(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Import another coach's record", "",
                                              "Coaching records (*.callmark.json *.json)")
        if path:
            self.import_record(path)

    def import_record(self, path: str | Path) -> None:
        call_id = self.context.call_id
        try:
            result = cal.import_theirs(self.context.store, call_id, path)
        except (CallmarkError, RecordError) as exc:
            self.message.setText(str(exc))
            return
        tell = getattr(self.context, "history", None)
        if tell is not None:
            tell.tell(change(f"Import {result.coach}'s record", RECORDS, MOMENTS, ITEMS, call_id=call_id))
        self._show(call_id)
        held = result.moments_added + result.moments_updated + result.moments_unchanged
        if result.moments_added:
            what = f"is in ({plural(result.moments_added, 'moment')})"
        else:
            what = f"was already in ({plural(held, 'moment')}, nothing new)"
        self.message.setText(f"{result.coach}'s record {what}, hidden until you compare.")

    def compare(self, coach: str):
        view = cal.compare(self.context.store, self.context.call_id, coach)
        return open_calibration_window(self.context.store, view.id, home=self.context.home,
                                       play_span=self.play_span)

    def play_span(self, start_ms: int, end_ms: int) -> None:
        """Play the union of both spans in the workspace's player, looped, from its start."""
        playback = getattr(self.context.parent(), "playback", None)
        if playback is None:
            self.context.seek(start_ms)
            return
        if playback.player.loop != (start_ms, end_ms):
            playback.toggle_loop(start_ms, end_ms)
        playback.seek(start_ms)
        playback.play()


def _panel(context: WorkspaceContext) -> CalibrationPanel:
    return CalibrationPanel(context)


register_panel(PANEL_NAME, _panel, order=40)
