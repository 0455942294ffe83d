"""The main window. (A plain library list for now; the replay workspace grows here.)"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QLabel, QListWidget, QMainWindow, QSplitter

from desktop.services import calls


class MainWindow(QMainWindow):
    def __init__(self, store, home: Path):
        super().__init__()
        self.store = store
        self.home = home
        self.setWindowTitle("Callmark")
        self.resize(1280, 800)
        self.library = QListWidget()
        self.detail = QLabel("Open a call from the library.")
        split = QSplitter()
        split.addWidget(self.library)
        split.addWidget(self.detail)
        self.setCentralWidget(split)
        self.refresh()

    def refresh(self) -> None:
        self.library.clear()
        for row in calls.list_calls(self.store):
            self.library.addItem(f"{row.title}  ·  {row.rep or ''}")

    def open_call(self, call_id: int) -> None:
        row = calls.get_call(self.store, call_id)
        self.detail.setText(row.title)

    def open_media_file(self, path: Path) -> None:
        row, _ = calls.add_call(self.store, path)
        self.refresh()
        self.open_call(row.id)

    def restore_last_call(self) -> None:
        rows = calls.list_calls(self.store)
        if rows:
            self.open_call(rows[0].id)


def build_main_window(store, home: Path) -> MainWindow:
    return MainWindow(store, home)
