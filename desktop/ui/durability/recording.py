"""A call whose recording is not where the store says: say where it was, look for it, let the coach point to it.

Opening such a call still shows its transcript and marks; playback is off and
the waveform empty, and the banner says in one line where the recording was
(the path, on which machine). Then, in order:
- this machine's media folders are searched by SHA-256 in the background (an
  index cached on this machine, refreshed by size and mtime: desktop.services.media_index);
- "Find recording…" searches a folder the coach picks;
- "Locate recording…" takes the one file the coach picks, if its SHA-256 matches.
What is found is remembered on this machine only and the call opened again.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QPushButton, QWidget

from desktop.ui.actions import ActionId
from desktop.ui.tasks import current_task, run_task

# What can't be done without the recording; marking, notes and items still work from the transcript.
PLAYBACK_ACTIONS = (ActionId.PLAY_PAUSE, ActionId.SKIP_BACK, ActionId.SKIP_FORWARD, ActionId.SLOWER,
                    ActionId.FASTER, ActionId.BACK_TO_START, ActionId.LOOP_MOMENT)


def missing_line(call, searched: bool = False) -> str:
    """The banner's one line for a call whose recording is not on this computer (``searched``: nor in
    its media folders)."""
    from desktop.services.this_machine import where_it_was

    looked = ", and it is in none of this computer's media folders" if searched else ""
    return (f"⚠ This call's recording is not on this computer: {where_it_was(call)}{looked}. The transcript "
            "and your moments still work.  “Find recording…” looks in a folder, “Locate recording…” takes the file.")


class RecordingFinder(QObject):
    searching = Signal(str)  # progress, in words

    def __init__(self, window):
        super().__init__(window)
        self.window = window
        self.task = None  # the search running (desktop.ui.tasks)
        self.lookup = None  # the look in this machine's media folders (desktop.ui.tasks)
        self.bar = QWidget()
        self.bar.setObjectName("recordingMissingBar")
        row = QHBoxLayout(self.bar)
        row.setContentsMargins(0, 0, 0, 0)
        self.button = self._button(ActionId.FIND_RECORDING, "findRecording", "Find recording in a folder")
        self.locate_button = self._button(ActionId.LOCATE_RECORDING, "locateRecording", "Locate recording file")
        self.folders_button = self._button(ActionId.MEDIA_FOLDERS, "mediaFolders", "Media folders of this computer")
        for b in (self.button, self.locate_button, self.folders_button):
            row.addWidget(b)
        row.addStretch(1)
        self.bar.hide()
        layout = window.view.layout()
        layout.insertWidget(layout.indexOf(window.view.banner) + 1, self.bar, 0, Qt.AlignmentFlag.AlignLeft)
        reg = window.registry
        reg.bind(ActionId.FIND_RECORDING, self.choose_folder)
        reg.bind(ActionId.LOCATE_RECORDING, self.choose_file)
        reg.bind(ActionId.MEDIA_FOLDERS, self.edit_media_folders)
        reg[ActionId.FIND_RECORDING].setEnabled(False)
        reg[ActionId.LOCATE_RECORDING].setEnabled(False)
        window.workspace.call_opened.connect(self.on_call_opened)
        self.searching.connect(window.show_message)


    def shutdown(self) -> None:
        """The window is closing: the search ends, the media folders' index stops at its next file."""
        if self.task is not None:
            self.task.wait(5)
        if self.lookup is not None:
            self.lookup.cancel()
            self.lookup.wait(5)
    def _button(self, action_id: ActionId, name: str, accessible: str) -> QPushButton:
        action = self.window.registry[action_id]
        button = QPushButton(action.text())
        button.setObjectName(name)
        button.setToolTip(action.statusTip())
        button.setAccessibleName(accessible)
        button.setAccessibleDescription(action.statusTip())
        button.clicked.connect(action.trigger)
        return button

    @property
    def machine(self):
        from desktop.services.this_machine import machine_of

        return machine_of(self.window.store)

    def on_call_opened(self, call) -> None:
        from desktop.services.relink import recording_missing

        missing = recording_missing(call)
        for widget in (self.bar, self.button, self.locate_button, self.folders_button):
            widget.setVisible(missing)
        reg = self.window.registry
        for action_id in (ActionId.FIND_RECORDING, ActionId.LOCATE_RECORDING):
            reg[action_id].setEnabled(missing)
        for action_id in PLAYBACK_ACTIONS:
            reg[action_id].setEnabled(not missing)
        if missing:
            self.window.view.show_error(missing_line(call))  # the waveform loader says why it is empty
            self.look_in_media_folders(call)

    # --- this machine's media folders -------------------------------------------------------------

    def look_in_media_folders(self, call):
        """Search this machine's media folders for the call's recording, off the GUI thread; the task
        is returned (``wait`` to block on it), None when there are no media folders."""
        from desktop.errors import CallmarkError

        try:
            folders = self.machine.media_folders()
        except CallmarkError as exc:  # this machine's settings unreadable: said, the call stays open
            self.window.show_message(str(exc), error=True)
            return None
        if not folders or (self.lookup is not None and self.lookup.running):
            return None
        store, call_id = self.window.store, call.id

        def look():
            from desktop.services.media_index import find_in_media_folders

            task = current_task()
            return find_in_media_folders(store, call_id, progress=lambda n, _hashed, _p: task.report(n))

        self.lookup = run_task(look, lambda row: self._on_looked(call_id, row), receiver=self,
                               on_error=self._on_lookup_failed,
                               on_progress=lambda n: self.searching.emit(
                                   f"Looking in this computer's media folders… {n} recordings checked"),
                               name="callmark-media-folders")
        return self.lookup

    def _on_looked(self, call_id: int, row) -> None:
        from desktop.services.relink import recording_missing

        self.lookup = None
        opened = self.window.workspace.call
        if opened is None:
            return
        if opened.id != call_id:  # the coach went on to another call meanwhile: look for that one now
            if recording_missing(opened):
                self.look_in_media_folders(opened)
            return
        if row is None:
            self.window.view.show_error(missing_line(opened, searched=True))
            self.window.show_message("This call's recording is in none of this computer's media folders.")
            return
        self._reopen(row, f"Found the recording in your media folders at {row.media_path}.")

    def _on_lookup_failed(self, exc: BaseException) -> None:
        self.lookup = None
        self.window.show_message(str(exc), error=True)

    def edit_media_folders(self) -> None:
        from desktop.ui.dialogs.media_folders import MediaFoldersDialog

        dialog = MediaFoldersDialog(self.machine, self.window)
        dialog.exec()
        if dialog.changed:
            self.folders_changed()

    def folders_changed(self) -> None:
        """Look for the open call's missing recording in the folders now; else index them in the
        background, so the next call that needs them is found without waiting for the hashing."""
        call = self.window.workspace.call
        if call is not None and not self.bar.isHidden():
            self.look_in_media_folders(call)
        elif self.lookup is None or not self.lookup.running:
            machine = self.machine

            def index():
                from desktop.services.media_index import refresh_index

                task = current_task()
                return refresh_index(machine, progress=lambda n, _hashed, _p: task.report(n))[1]

            self.lookup = run_task(index, self._on_indexed, receiver=self, on_error=self._on_lookup_failed,
                                   name="callmark-media-folders")
        return self.lookup

    def _on_indexed(self, done) -> None:
        self.lookup = None
        self.window.show_message(f"This computer's media folders hold {done.files} recordings "
                                 f"({done.hashed} newly indexed).")
        call = self.window.workspace.call
        if call is not None and not self.bar.isHidden():  # a call opened meanwhile needs its recording
            self.look_in_media_folders(call)

    # --- a folder or a file the coach picks ----------------------------------------------------------

    def choose_folder(self) -> None:
        from PySide6.QtWidgets import QFileDialog

        folder = QFileDialog.getExistingDirectory(self.window, "Find the recording in…")
        if folder:
            self.search(folder)

    def choose_file(self) -> None:
        from PySide6.QtWidgets import QFileDialog

        from desktop.ui.controllers.commands import MEDIA_FILTER

        file, _ = QFileDialog.getOpenFileName(self.window, "Locate this call's recording", "", MEDIA_FILTER)
        if file:
            self.locate(file)

    def search(self, folder):
        """Look for the open call's recording in ``folder`` off the GUI thread; the task is returned
        (``wait`` to block on it)."""
        store = self.window.store

        def look(call):
            from desktop.services.relink import relink_by_search

            task = current_task()
            return relink_by_search(store, call.id, folder, progress=lambda n, _p: task.report(n))

        return self._run(look, lambda n: f"Looking for the recording… {n} files checked")

    def locate(self, file):
        """Take ``file`` as the open call's recording if its SHA-256 matches (hashed off the GUI thread);
        the task is returned."""
        store = self.window.store

        def check(call):
            from desktop.services.relink import relink

            task = current_task()
            return relink(store, call.id, file, progress=lambda done, total: task.report((done, total)))

        return self._run(check, lambda p: f"Checking the file… {100 * p[0] // max(p[1], 1)}%")

    def _run(self, work, saying):
        call = self.window.workspace.call
        if call is None or (self.task is not None and self.task.running):
            return None
        for b in (self.button, self.locate_button):
            b.setEnabled(False)
        self.task = run_task(lambda: work(call), self._on_found, receiver=self,
                             on_error=lambda exc: self._on_failed(str(exc)),
                             on_progress=lambda p: self.searching.emit(saying(p)), name="callmark-find-recording")
        return self.task

    def _on_found(self, row) -> None:
        self._reopen(row, f"Found the recording at {row.media_path}; the call is linked to it again.")

    def _reopen(self, row, message: str) -> None:
        for b in (self.button, self.locate_button):
            b.setEnabled(True)
        self.window.refresh_library()
        self.window.open_call(row.id)
        self.window.show_message(message)

    def _on_failed(self, message: str) -> None:
        for b in (self.button, self.locate_button):
            b.setEnabled(True)
        self.window.show_message(message, error=True)
