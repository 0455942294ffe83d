"""The missing-recording banner's "Find recording…": search a folder for the same SHA-256, relink, reopen.

The button sits just under the workspace's banner and shows only while the open
call's file is not where the store says. The search (hashing possibly large
files) runs on a thread; what it finds is relinked and the call opened again.
"""

from __future__ import annotations


from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import QPushButton

from desktop.ui.actions import ActionId
from desktop.ui.tasks import current_task, run_task


class RecordingFinder(QObject):
    searching = Signal(str)  # progress, in words

    def __init__(self, window):
        super().__init__(window)
        self.window = window
        self.task = None  # the search running (desktop.ui.tasks)
        action = window.registry[ActionId.FIND_RECORDING]
        self.button = QPushButton(action.text())
        self.button.setObjectName("findRecording")
        self.button.setToolTip(action.statusTip())
        self.button.hide()
        self.button.clicked.connect(action.trigger)
        layout = window.view.layout()
        layout.insertWidget(layout.indexOf(window.view.banner) + 1, self.button, 0, Qt.AlignmentFlag.AlignLeft)
        window.registry.bind(ActionId.FIND_RECORDING, self.choose_folder)
        action.setEnabled(False)
        window.workspace.call_opened.connect(self.on_call_opened)
        self.searching.connect(window.show_message)

    def on_call_opened(self, call) -> None:
        from desktop.services.relink import recording_missing

        missing = recording_missing(call)
        self.button.setVisible(missing)
        self.window.registry[ActionId.FIND_RECORDING].setEnabled(missing)
        if missing:
            banner = self.window.view.banner
            said = banner.text() if not banner.isHidden() and banner.text() else ""
            if not said:  # the player says it first when it is up; else say it here
                where = f"is not at {call.media_path}" if call.media_path else "is not on this computer"
                said = f"⚠ This call's recording {where}. The transcript and your moments still work."
            self.window.view.show_error(f"{said}  “Find recording…” looks for it in a folder.")

    def choose_folder(self) -> None:
        from PySide6.QtWidgets import QFileDialog

        folder = QFileDialog.getExistingDirectory(self.window, "Find the recording in…")
        if folder:
            self.search(folder)

    def search(self, folder):
        """Look for the open call's recording in ``folder`` off the GUI thread; the task is returned
        (``wait`` to block on it)."""
        call = self.window.workspace.call
        if call is None or (self.task is not None and self.task.running):
            return None
        store = self.window.store

        def look():
            from desktop.services.relink import relink_by_search

            task = current_task()
            return relink_by_search(store, call.id, folder, progress=lambda n, _p: task.report(n))

        self.button.setEnabled(False)
        self.task = run_task(look, self._on_found, receiver=self, on_error=lambda exc: self._on_failed(str(exc)),
                             on_progress=lambda n: self.searching.emit(f"Looking for the recording… {n} files checked"),
                             name="callmark-find-recording")
        return self.task

    def _on_found(self, row) -> None:
        self.button.setEnabled(True)
        self.window.refresh_library()
        self.window.open_call(row.id)
        self.window.show_message(f"Found the recording at {row.media_path}; the call is linked to it again.")

    def _on_failed(self, message: str) -> None:
        self.button.setEnabled(True)
        self.window.show_message(message, error=True)
