"""File ▸ Media folders…: the folders on this computer where recordings live.

They belong to this computer (kept in its data folder, not in a team store):
a call whose recording is not where it was added is looked for in them by
SHA-256. The index of their files is refreshed in the background when a call
needs it.
"""

from __future__ import annotations

from PySide6.QtWidgets import (QDialog, QDialogButtonBox, QHBoxLayout, QLabel, QListWidget, QPushButton,
                               QVBoxLayout)

from desktop.errors import CallmarkError
from desktop.ui.style import label_look


class MediaFoldersDialog(QDialog):
    def __init__(self, machine, parent=None):
        super().__init__(parent)
        self.machine = machine
        self.changed = False
        self.setWindowTitle("Media folders")
        self.setMinimumWidth(520)
        intro = QLabel(f"Folders on this computer ({machine.name}) where your recordings live. A call whose "
                       "recording is not where it was added is looked for here, by its SHA-256. Other "
                       "computers keep their own folders.")
        intro.setWordWrap(True)
        self.folders = QListWidget()
        self.folders.setObjectName("mediaFolderList")
        self.folders.setAccessibleName("Media folders on this computer")
        self.add_button = QPushButton("Add folder…")
        self.add_button.setAccessibleName("Add a media folder")
        self.add_button.clicked.connect(self.choose_folder)
        self.remove_button = QPushButton("Remove")
        self.remove_button.setAccessibleName("Remove the selected media folder")
        self.remove_button.clicked.connect(self.remove_selected)
        self.problem = QLabel("")
        label_look(self.problem, "problem")
        self.problem.setWordWrap(True)
        self.problem.setAccessibleName("Problem with a media folder")
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.accept)
        side = QVBoxLayout()
        side.addWidget(self.add_button)
        side.addWidget(self.remove_button)
        side.addStretch(1)
        middle = QHBoxLayout()
        middle.addWidget(self.folders, 1)
        middle.addLayout(side)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(middle)
        layout.addWidget(self.problem)
        layout.addWidget(buttons)
        self.folders.currentRowChanged.connect(lambda row: self.remove_button.setEnabled(row >= 0))
        self._show(self._read(machine.media_folders))

    def _read(self, get):
        try:
            return get()
        except CallmarkError as exc:
            self.problem.setText(str(exc))
            return None

    def _show(self, folders) -> None:
        if folders is None:
            return
        self.folders.clear()
        self.folders.addItems([str(f) for f in folders])
        self.remove_button.setEnabled(self.folders.currentRow() >= 0)

    def choose_folder(self) -> None:
        from PySide6.QtWidgets import QFileDialog

        folder = QFileDialog.getExistingDirectory(self, "Add a media folder")
        if folder:
            self.add_folder(folder)

    def add_folder(self, folder) -> bool:
        self.problem.setText("")
        folders = self._read(lambda: self.machine.add_media_folder(folder))
        self._show(folders)
        self.changed |= folders is not None
        return folders is not None

    def remove_selected(self) -> None:
        item = self.folders.currentItem()
        if item is None:
            return
        self.problem.setText("")
        folders = self._read(lambda: self.machine.remove_media_folder(item.text()))
        self._show(folders)
        self.changed |= folders is not None
