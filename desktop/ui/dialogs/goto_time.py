"""Go to a typed time: accepts what a coach types (39.876, 00:39.876, 1:02:03, 75s)."""

from __future__ import annotations

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QLineEdit, QVBoxLayout

from desktop.core.timefmt import format_ms, parse_time
from desktop.ui.style import label_look


class GoToTimeDialog(QDialog):
    def __init__(self, current_ms: int, duration_ms: int, parent=None):
        super().__init__(parent)
        self.setWindowTitle("Go to time")
        self.duration_ms = duration_ms
        self.field = QLineEdit(format_ms(max(0, current_ms)))
        self.field.setAccessibleName("Time to go to")
        self.field.selectAll()
        self.problem = QLabel("")
        label_look(self.problem, "problem")
        self.problem.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel(f"Time in the call (up to {format_ms(duration_ms)}), e.g. 12:30 or 75s:"))
        layout.addWidget(self.field)
        layout.addWidget(self.problem)
        layout.addWidget(buttons)
        self.ms: int | None = None

    def accept(self) -> None:
        try:
            ms = parse_time(self.field.text())
        except ValueError as exc:
            self.problem.setText(str(exc))
            return
        if self.duration_ms and ms > self.duration_ms:
            self.problem.setText(f"{format_ms(ms)} is past the end of the call ({format_ms(self.duration_ms)}).")
            return
        self.ms = ms
        super().accept()
