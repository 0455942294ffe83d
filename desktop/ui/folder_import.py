"""File ▸ Import folder…, a folder dropped on the window, and the watched folder: many calls at once.

The import itself is desktop.services.folder_import, run through the one
background helper (desktop.ui.tasks: its events are the task's progress); the window shows a progress bar in the
status bar and, at the end, the summary (added / skipped / failed, each with
its reason). The watched folder is off until the coach picks one; it is kept
in the store (it belongs with the coach's library, not the window) and looked
at every few seconds, new files only once they have stopped changing.
"""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtCore import QEvent, QObject, QTimer, Signal
from PySide6.QtWidgets import QApplication

from desktop.ui.actions import ActionId
from desktop.ui.tasks import run_task

WATCHED_FOLDER_KEY = "import.watched_folder"  # a store setting: the folder's path, or absent
WATCH_INTERVAL_MS = 15_000


class FolderImportController(QObject):
    """The window's folder imports: one at a time; a second asked for meanwhile waits its turn."""

    import_finished = Signal(object)  # ImportSummary (or None if the folder could not be read)

    def __init__(self, window):
        super().__init__(window)
        self.window = window
        self.store = window.store
        self.last_summary = None
        self._worker = None  # (the task, the FolderImport) while an import runs
        self._waiting: list[tuple[Path, bool]] = []
        self._watched_run = False
        self._bar = None
        self._stop = None
        self.watch_timer = QTimer(self)
        self.watch_timer.setInterval(WATCH_INTERVAL_MS)
        self.watch_timer.timeout.connect(self.look_at_watched_folder)
        reg = window.registry  # the File menu's entries are in the window's one table
        reg.bind(ActionId.IMPORT_FOLDER, self.choose_folder)
        reg.bind(ActionId.WATCH_FOLDER, self.choose_watched_folder)
        window.installEventFilter(self)  # a folder dropped on the window (the window takes files itself)

    @property
    def bar(self):
        """The status bar's progress bar, made on the first import (nothing extra to build at start-up)."""
        if self._bar is None:
            from PySide6.QtWidgets import QProgressBar, QToolButton

            self._bar = QProgressBar()
            self._bar.setObjectName("importProgress")
            self._bar.setMaximumWidth(260)
            self._bar.setTextVisible(True)
            self._bar.hide()
            self._stop = QToolButton()
            self._stop.setText("Stop import")
            self._stop.setObjectName("stopImport")
            self._stop.hide()
            self._stop.clicked.connect(self.cancel)
            self.window.statusBar().addPermanentWidget(self._bar)
            self.window.statusBar().addPermanentWidget(self._stop)
        return self._bar

    @property
    def stop(self):
        self.bar  # noqa: B018 - made together
        return self._stop

    # --- asking ------------------------------------------------------------------------------

    @property
    def busy(self) -> bool:
        return self._worker is not None

    def watched_folder(self) -> Path | None:
        row = self.store.reader().execute("SELECT value FROM setting WHERE key = ?", (WATCHED_FOLDER_KEY,)).fetchone()
        value = json.loads(row[0]) if row and row[0] else None
        return Path(value) if value else None

    # --- telling -----------------------------------------------------------------------------

    def import_folder(self, folder: str | Path, *, watched: bool = False) -> None:
        """Start importing (or queue behind the import running now)."""
        folder = Path(folder)
        if self._worker is not None:
            if (folder, watched) not in self._waiting:
                self._waiting.append((folder, watched))
            return
        from desktop.services.folder_import import FolderImport, settled_time

        run = FolderImport(self.store, folder, known_paths_skip=watched,
                           settled_before=settled_time() if watched else None)
        from desktop.services.folder_import import ImportEntry, ImportProgress

        def on_event(event) -> None:
            if isinstance(event, ImportProgress):
                self._on_progress(event.done, event.total, str(event.path or ""))
            elif isinstance(event, ImportEntry):
                self._on_entry(event)

        def every_event():
            yield from run.events()

        def failed(exc: BaseException) -> None:
            self._on_failed(str(exc))  # FolderImportError, OSError: the folder itself; one line
            self._on_finished()

        self._watched_run = watched
        if not watched:
            self.bar.setRange(0, 0)  # busy until the folder is walked
            self.bar.setFormat("Looking through the folder…")
            self.bar.show()
            self.stop.show()
        task = run_task(every_event, lambda _r: self._on_finished(), receiver=self, on_error=failed,
                        on_progress=on_event, name="callmark-folder-import")
        self._worker = (task, run)

    def cancel(self) -> None:
        """Stop after the file being read now; the calls added so far stay (each one whole)."""
        self._waiting.clear()
        if self._worker is not None:
            self._worker[1].cancel()

    def set_watched_folder(self, folder: str | Path | None) -> None:
        """Watch this folder from now on (None: stop watching). Looks at it at once."""
        from desktop.services.people import set_setting

        value = str(Path(folder).expanduser().resolve()) if folder else None
        with self.store.write() as session:
            set_setting(session, WATCHED_FOLDER_KEY, value)
        self.start_watching()

    def start_watching(self) -> None:
        folder = self.watched_folder()
        if folder is None:
            self.watch_timer.stop()
            self.window.registry[ActionId.WATCH_FOLDER].setText(ActionId.WATCH_FOLDER.text)
            return
        self.window.registry[ActionId.WATCH_FOLDER].setText(f"Watching {folder.name}…")
        self.watch_timer.start()
        self.look_at_watched_folder()

    def look_at_watched_folder(self) -> None:
        folder = self.watched_folder()
        if folder is None or not folder.is_dir() or self._worker is not None:
            return  # a folder on a drive not plugged in: looked at again next time
        self.import_folder(folder, watched=True)

    def shutdown(self, wait_ms: int = 5000) -> None:
        self.watch_timer.stop()
        self.cancel()
        if self._worker is not None:
            self._worker[0].wait(wait_ms / 1000)

    # --- dialogs -----------------------------------------------------------------------------

    def choose_folder(self) -> None:
        from PySide6.QtWidgets import QFileDialog

        folder = QFileDialog.getExistingDirectory(self.window, "Import a folder of recordings")
        if folder:
            self.import_folder(folder)

    def choose_watched_folder(self) -> None:
        current = self.watched_folder()
        if current is not None:
            from PySide6.QtWidgets import QMessageBox

            answer = QMessageBox.question(
                self.window, "Watched folder", f"Callmark is watching {current}.\nStop watching it?")
            if answer == QMessageBox.StandardButton.Yes:
                self.set_watched_folder(None)
                self.window.show_message(f"Stopped watching {current}.")
            return
        from PySide6.QtWidgets import QFileDialog

        folder = QFileDialog.getExistingDirectory(self.window, "Watch a folder for new recordings")
        if folder:
            self.set_watched_folder(folder)
            self.window.show_message(f"Watching {folder}: new recordings are added as they arrive.")

    # --- the worker's events -----------------------------------------------------------------

    def _on_progress(self, done: int, total: int, path: str) -> None:
        if self._watched_run and total and not self.bar.isVisible():
            self.bar.show()
        self.bar.setRange(0, max(total, 1))
        self.bar.setValue(done)
        self.bar.setFormat(f"Importing {min(done + 1, total)} of {total}…" if path else f"{done} of {total}")

    def _on_entry(self, entry) -> None:
        if entry.outcome == "added" and entry.call_id is not None:
            from desktop.services.rows import get_call

            self.window.library_model.update_call(get_call(self.store, entry.call_id))

    def _on_failed(self, message: str) -> None:
        self.window.show_message(message, error=True)

    def _on_finished(self) -> None:
        worker, self._worker = self._worker, None
        summary = worker[1].summary if worker is not None else None
        self.bar.hide()
        self.stop.hide()
        if summary is not None and (summary.entries or not self._watched_run):
            self.last_summary = summary
            if not (self._watched_run and not summary.added and not summary.failed):
                self._tell(summary)
            self.import_finished.emit(summary)
        if self._waiting:
            folder, watched = self._waiting.pop(0)
            self.import_folder(folder, watched=watched)

    def _tell(self, summary) -> None:
        where = Path(summary.folder).name or summary.folder
        self.window.show_message(f"{where}: {summary.counts()}.")
        if self._watched_run or QApplication.platformName() == "offscreen" or not self.window.isVisible():
            return
        from PySide6.QtWidgets import QMessageBox

        box = QMessageBox(QMessageBox.Icon.Information, "Import folder", f"{where}: {summary.counts()}.",
                          parent=self.window)
        box.setDetailedText(summary_text(summary))
        box.open()

    # --- drops and menus ---------------------------------------------------------------------

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 - Qt's name
        kind = event.type()
        if kind == QEvent.Type.Close and watched is self.window:
            self.shutdown()
            return False
        if kind in (QEvent.Type.DragEnter, QEvent.Type.Drop) and watched is self.window:
            folders = [Path(u.toLocalFile()) for u in event.mimeData().urls() if u.isLocalFile()]
            folders = [f for f in folders if f.is_dir()]
            if not folders:
                return False  # files: the window adds and opens them itself
            event.acceptProposedAction()
            if kind == QEvent.Type.Drop:
                # After the drop returns: the drag source should not wait for the folder walk.
                QTimer.singleShot(0, self, lambda: [self.import_folder(f) for f in folders])
            return True
        return False


def summary_text(summary) -> str:
    """Every file with what happened to it, for the summary's details."""
    lines = []
    for e in summary.entries:
        reason = f": {e.reason}" if e.reason else ""
        lines.append(f"{e.outcome}  {e.path}{reason}")
    return "\n".join(lines)


def install_folder_import(window) -> FolderImportController:
    """Add folder import to a main window (once); the watched folder starts after the warm-up."""
    existing = getattr(window, "folder_import", None)
    if isinstance(existing, FolderImportController):
        return existing
    controller = FolderImportController(window)
    window.folder_import = controller
    window.when_warm(controller.start_watching)
    return controller
