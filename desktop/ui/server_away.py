"""The team store's server can't be reached at start: say so, and offer the coach's local store."""

from __future__ import annotations

from PySide6.QtWidgets import QMessageBox


def offer_local_store(message: str, local: str) -> bool:
    """Ask whether to work in the local store instead; True to open it."""
    box = QMessageBox(QMessageBox.Icon.Warning, "Callmark", message)
    box.setInformativeText(f"Work in your local store for now ({local})? What you write there stays on "
                           "this machine; `callmark db copy --merge` brings it to the team store later.")
    box.setStandardButtons(QMessageBox.StandardButton.Open | QMessageBox.StandardButton.Close)
    box.setDefaultButton(QMessageBox.StandardButton.Open)
    return box.exec() == QMessageBox.StandardButton.Open
