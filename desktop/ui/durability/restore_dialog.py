"""File ▸ Restore from backup…: choose a backup by its age and what it holds, then put it back.

The store the coach had is backed up first (``callmark-before-restore-…``), so
a restore can itself be undone by restoring that one.
"""

from __future__ import annotations

from datetime import datetime

from PySide6.QtWidgets import (QDialog, QDialogButtonBox, QLabel, QListWidget, QListWidgetItem, QVBoxLayout)

from desktop import paths
from desktop.services import backups


def describe(b: backups.Backup, now: datetime | None = None) -> str:
    held = ", ".join(f"{n} {k}" for k, n in backups.counts(b.path).items())
    kind = "" if b.automatic else "  (kept by hand or before a change)"
    return f"{b.made_at:%a %d %b %Y, %H:%M} — {backups.describe_age(b.age(now))} — {held}{kind}"


class RestoreDialog(QDialog):
    def __init__(self, folder, parent=None):
        super().__init__(parent)
        self.setWindowTitle("Restore from backup")
        self.found = backups.list_backups(folder)
        self.list = QListWidget()
        self.list.setObjectName("backupList")
        now = datetime.now()
        for b in self.found:
            self.list.addItem(QListWidgetItem(describe(b, now)))
        if self.found:
            self.list.setCurrentRow(0)
        hint = QLabel("Anything written after the backup you choose will be missing from the store. "
                      "The store as it is now is kept as a backup first, so you can come back to it.")
        hint.setWordWrap(True)
        self.empty = QLabel("There are no backups yet: Callmark makes one when it closes and every "
                            "30 minutes while you work.")
        self.empty.setWordWrap(True)
        self.empty.setVisible(not self.found)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.restore_button = self.buttons.addButton("Restore", QDialogButtonBox.ButtonRole.AcceptRole)
        self.restore_button.setEnabled(bool(self.found))
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.list, 1)
        layout.addWidget(self.empty)
        layout.addWidget(hint)
        layout.addWidget(self.buttons)
        self.resize(560, 320)

    def chosen(self) -> backups.Backup | None:
        row = self.list.currentRow()
        return self.found[row] if 0 <= row < len(self.found) else None


def restore_into_window(window, backup) -> str:
    """Close the window's hold on the store, restore, migrate, and show the restored library."""
    from db.store import open_store
    from desktop.ui.durability.damaged import show_library_again

    window.workspace.flush()
    call = window.workspace.call
    store_path = paths.store_path(window.home)
    folder = paths.backups_dir(window.home)
    window.store.close()  # its connections are made again on the next read or write
    before = backups.restore(store_path, backup.path, folder)
    open_store(store_path, folder).close()  # an older backup is brought up to the current schema
    reset = getattr(window.store, "clear_damage", None)
    if reset is not None:
        reset()
    show_library_again(window, call)
    text = f"Restored the backup from {backup.made_at:%d %b %Y, %H:%M}."
    if before is not None:
        text += f" The store it replaced is kept as {before.path.name}."
    window.show_message(text)
    return text


def restore_from_backup(window) -> None:
    dialog = RestoreDialog(paths.backups_dir(window.home), window)
    window.restore_dialog = dialog  # tests drive it from here
    if not dialog.exec():
        return
    chosen = dialog.chosen()
    if chosen is None:
        return
    try:
        restore_into_window(window, chosen)
    except Exception as exc:  # noqa: BLE001 - BackupError, OSError: one line for the coach
        window.show_message(str(exc), error=True)
