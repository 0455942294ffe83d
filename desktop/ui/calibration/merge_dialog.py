"""Write the merged wording of a calibrated item: what both coaches agree the item says."""

from __future__ import annotations

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QFormLayout, QLabel, QPlainTextEdit, QVBoxLayout

from desktop.ui.style import text_box_height

FIELDS = (("consequence", "Still unknown"), ("behavior_text", "Behavior"), ("practice_task", "Practice"))


class MergeDialog(QDialog):
    def __init__(self, wording: dict[str, str], parent=None):
        super().__init__(parent)
        self.setWindowTitle("Merged wording")
        self.setMinimumWidth(560)
        hint = QLabel("Start from both coaches' words (yours where you wrote them) and write what you agree.")
        hint.setWordWrap(True)
        self.edits: dict[str, QPlainTextEdit] = {}
        form = QFormLayout()
        for key, title in FIELDS:
            edit = QPlainTextEdit(wording.get(key, ""))
            edit.setTabChangesFocus(True)
            edit.setFixedHeight(text_box_height(edit, 3, 64))  # grows with the font
            self.edits[key] = edit
            form.addRow(title, edit)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(hint)
        layout.addLayout(form)
        layout.addWidget(buttons)

    def fields(self) -> dict[str, str]:
        return {key: edit.toPlainText().strip() for key, edit in self.edits.items()}
