"""Preferences: skip step, reaction delay taken off marks, auto-rewind on resume; the store to open."""

from __future__ import annotations

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QFormLayout, QLabel, QLineEdit, QSpinBox, QVBoxLayout

from desktop.ui.settings import PlaybackPreferences
from desktop.ui.style import label_look


def _ms_box(value: int, low: int, high: int, step: int) -> QSpinBox:
    box = QSpinBox()
    box.setRange(low, high)
    box.setSingleStep(step)
    box.setSuffix(" ms")
    box.setValue(value)
    return box


class PreferencesDialog(QDialog):
    def __init__(self, prefs: PlaybackPreferences, parent=None, store_choice: str | None = None):
        super().__init__(parent)
        self.setWindowTitle("Preferences")
        self.skip = _ms_box(prefs.skip_ms, 500, 60000, 500)
        self.delay = _ms_box(prefs.reaction_delay_ms, 0, 3000, 50)
        self.rewind = _ms_box(prefs.auto_rewind_ms, 0, 10000, 250)
        form = QFormLayout()
        form.addRow("Skip back / forward by", self.skip)
        form.addRow("Reaction delay taken off a mark", self.delay)
        form.addRow("Back up when resuming", self.rewind)
        hint = QLabel("A mark lands where you heard the moment, not where you pressed the key: the "
                      "reaction delay is taken off (0 marks exactly at the playhead). Resuming backs up "
                      "a little so you hear the lead-in again (0 turns it off).")
        hint.setWordWrap(True)
        label_look(hint, "hint")
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
                                   | QDialogButtonBox.StandardButton.RestoreDefaults)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        buttons.button(QDialogButtonBox.StandardButton.RestoreDefaults).clicked.connect(self._defaults)
        # The store: this computer's file (empty), or a team store on a server. Read at the next start.
        self.store = QLineEdit(store_choice or "")
        self.store.setPlaceholderText("this computer's store")
        self.store.setToolTip("postgresql://coach@host/callmark for the team store; empty for this computer's")
        store_form = QFormLayout()
        store_form.addRow("Store (from the next start)", self.store)
        store_hint = QLabel("A team store is a PostgreSQL server your team shares (see “For a team” in the "
                            "README); keep its password in ~/.pgpass rather than here.")
        store_hint.setWordWrap(True)
        label_look(store_hint, "hint")
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(hint)
        layout.addLayout(store_form)
        layout.addWidget(store_hint)
        layout.addWidget(buttons)

    def _defaults(self) -> None:
        d = PlaybackPreferences()
        self.skip.setValue(d.skip_ms)
        self.delay.setValue(d.reaction_delay_ms)
        self.rewind.setValue(d.auto_rewind_ms)

    def preferences(self) -> PlaybackPreferences:
        return PlaybackPreferences(self.skip.value(), self.delay.value(), self.rewind.value())

    def store_choice(self) -> str | None:
        return self.store.text().strip() or None
