"""Help ▸ About Callmark: the one version number and the versions of what it runs on.

``AboutCommand`` is the owner of the command in the action registry (made when first given).
"""

from __future__ import annotations

import PySide6
from PySide6.QtCore import Qt, qVersion
from PySide6.QtGui import QGuiApplication, QPixmap
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QFormLayout, QHBoxLayout, QLabel, QVBoxLayout

from desktop import paths
from desktop.versions import callmark_version, component_versions


def about_versions() -> list[tuple[str, str]]:
    """Every line of the dialog's table: Callmark first, then Qt and the rest."""
    return [("Callmark", callmark_version()), ("Qt", f"{qVersion()} (PySide6 {PySide6.__version__})"),
            *component_versions()]


def about_text(rows: list[tuple[str, str]]) -> str:
    """The same as plain lines, for Copy (a coach pastes them into a report of a problem)."""
    return "\n".join(f"{name}: {value}" for name, value in rows)


class AboutDialog(QDialog):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.setWindowTitle("About Callmark")
        self.setMinimumWidth(440)
        self.rows = about_versions()
        icon = QLabel()
        icon.setPixmap(QPixmap(str(paths.ICONS / "hicolor" / "64x64" / "apps" / "callmark.png")))
        icon.setAlignment(Qt.AlignmentFlag.AlignTop)
        title = QLabel(f"<b>Callmark {self.rows[0][1]}</b><br>Replay sales calls beside their transcript, "
                       "mark the moment, coach one behavior.<br>Everything stays on this computer.")
        title.setWordWrap(True)
        self.table = QFormLayout()
        self.values: dict[str, QLabel] = {}
        for name, value in self.rows[1:]:
            label = QLabel(value)
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            self.values[name] = label
            self.table.addRow(f"{name}:", label)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.copy_button = buttons.addButton("Copy versions", QDialogButtonBox.ButtonRole.ActionRole)
        self.copy_button.clicked.connect(self.copy)
        buttons.rejected.connect(self.reject)
        top = QHBoxLayout()
        top.addWidget(icon)
        text = QVBoxLayout()
        text.addWidget(title)
        text.addLayout(self.table)
        top.addLayout(text, 1)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(buttons)

    def copy(self) -> None:
        QGuiApplication.clipboard().setText(about_text(self.rows))


class AboutCommand:
    """Answers Help ▸ About Callmark."""

    def __init__(self, window):
        self.window = window

    def action_slots(self) -> dict:
        from desktop.ui.actions import ActionId

        return {ActionId.ABOUT: lambda: AboutDialog(self.window).exec()}
