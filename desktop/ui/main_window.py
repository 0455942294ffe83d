"""The main window: the library on the left, the workspace for the open call on the right.

``build_main_window(store, home)`` is the one place the parts are made and
connected; the window itself lays out, restores its state, accepts dropped
recordings and, when closed, writes any edit still in progress.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QByteArray, QEvent, QObject, QSize, Qt, QTimer
from PySide6.QtWidgets import QApplication, QLabel, QMainWindow, QSplitter, QWidget

from desktop.errors import CallmarkError
from desktop.services import rows
from desktop.ui.actions import ActionId, ActionRegistry, TypingShortcutFilter
from desktop.ui.controllers.marking import MarkingController
from desktop.ui.controllers.playback import PlaybackController
from desktop.ui.controllers.waveform_loader import WaveformLoader
from desktop.ui.controllers.workspace import WorkspaceController
from desktop.ui.history import History
from desktop.ui.models.library_model import LibraryModel
from desktop.ui.models.moments_model import MomentsModel
from desktop.ui.models.transcript_model import TranscriptModel
from desktop.ui.panels import PendingPanel, WorkspaceContext, registered_panels
from desktop.ui.settings import PlaybackPreferences, SettingsKey, qsettings
from desktop.ui.views.library_view import LibraryView
from desktop.ui.views.workspace_view import WorkspaceView
from desktop.ui.warmup import Warmup

MEDIA_SUFFIXES = {".mp3", ".m4a", ".wav", ".ogg", ".opus", ".oga", ".mp4", ".m4v", ".webm", ".mkv", ".mov",
                  ".flac", ".aac"}


class MainWindow(QMainWindow):
    def __init__(self, store, home: Path):
        super().__init__()
        self.store = store
        self.home = Path(home)
        self.setObjectName("mainWindow")
        self.setWindowTitle("Callmark")
        self.setAcceptDrops(True)
        self.resize(first_run_size(QApplication.primaryScreen()))

        # Before the actions: destroyed after them would make its last signals reach deleted actions.
        self.history = History(store, self)  # the one undo history and the store's change signal
        self.undo_stack = self.history.stack
        self.registry = ActionRegistry(self)
        for action in self.registry.actions():
            self.addAction(action)  # window-wide keys even for actions not in a menu
        self.typing_filter = TypingShortcutFilter(self.registry)
        self.prefs = PlaybackPreferences.load()

        self.library_model = LibraryModel(self)
        self.transcript_model = TranscriptModel(self)
        self.moments_model = MomentsModel(self)
        self.library = LibraryView(self.library_model)
        self.view = WorkspaceView(self.registry, self.moments_model)
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.setObjectName("mainSplitter")
        self.splitter.addWidget(self.library)
        self.splitter.addWidget(self.view)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([250, 1110])
        self.setCentralWidget(self.splitter)
        self.status = QLabel()
        self.statusBar().addWidget(self.status, 1)

        self.playback = PlaybackController(self, auto_rewind_ms=self.prefs.auto_rewind_ms)
        self.context = WorkspaceContext(store, self.home, parent=self)
        self.context.use_history(self.history)
        self.marking = MarkingController(
            store, self.moments_model, self.transcript_model,
            lambda: self.playback.mark_ms(self.prefs.reaction_delay_ms), self.history, self)
        self.waveforms = WaveformLoader(self.home, self)
        self.workspace = WorkspaceController(
            store, self.view, self.playback, self.marking, self.transcript_model, self.moments_model,
            self.waveforms, self.context, self.prefs, self)
        self.workspace.apply_preferences(self.prefs)
        self._add_panels()
        self._closing = False
        self._splitters_restored = False
        # What showing a call does not need comes in after the first paint (desktop.ui.warmup).
        self.warmup = Warmup(store, self)
        self.warmup.ready.connect(self._on_warm)
        self._warm_callbacks: list = []
        # The recording and the waveform are opened after the first paint (both would hold it up);
        # a window not shown by the time the event loop runs opens them then.
        self.playback.hold_loads()
        self.waveforms.hold()
        self._first_paint = _FirstPaint(self.view, self._after_first_paint)
        QTimer.singleShot(0, self, self._unless_shown)

    # --- building ---------------------------------------------------------------------------

    def _add_panels(self) -> None:
        # Each panel is made after the window's first paint, one per turn of the event loop, or
        # at once when its tab is shown or a key needs it: making them all (each reading the store)
        # held up the first paint. Panels may add menu entries, so they are still all made soon.
        tabs = self.view.inspector
        for spec in registered_panels():
            i = tabs.addTab(PendingPanel(spec), spec.label)
            tabs.tabBar().setTabData(i, spec.name)  # found by name, whatever its short label
            tabs.setTabToolTip(i, spec.name)
        tabs.currentChanged.connect(self._make_panel_at)

    def _make_panel_at(self, index: int) -> QWidget | None:
        tabs = self.view.inspector
        pending = tabs.widget(index)
        if not isinstance(pending, PendingPanel):
            return pending
        widget = pending.make(self.context)
        tabs.blockSignals(True)  # the swap itself is not the coach changing tabs
        try:
            current = tabs.currentIndex()
            tabs.insertTab(index, widget, pending.spec.label)
            tabs.tabBar().setTabData(index, pending.spec.name)
            tabs.setTabToolTip(index, pending.spec.name)
            tabs.removeTab(index + 1)
            tabs.setCurrentIndex(current)
        finally:
            tabs.blockSignals(False)
        pending.deleteLater()
        return widget

    def panel(self, name: str) -> QWidget | None:
        """The inspector panel registered under that name, made now if it was still waiting."""
        tabs = self.view.inspector
        for i in range(tabs.count()):
            if name in (tabs.tabBar().tabData(i), tabs.tabText(i)):
                return self._make_panel_at(i)
        return None

    def _make_next_panel(self) -> None:
        tabs = self.view.inspector
        waiting = [i for i in range(tabs.count()) if isinstance(tabs.widget(i), PendingPanel)]
        if waiting:
            self._make_panel_at(waiting[0])
            QTimer.singleShot(0, self, self._make_next_panel)

    def make_all_panels(self) -> None:
        for i in range(self.view.inspector.count()):
            self._make_panel_at(i)

    def _unless_shown(self) -> None:
        if not self.isVisible() and self._first_paint.waiting:
            self._remember_last_call()
            self.playback.release_loads()
            self.waveforms.release()

    def _after_first_paint(self) -> None:
        QTimer.singleShot(0, self, self._painted)  # once the whole window is painted, not inside the paint

    def _painted(self) -> None:
        self._remember_last_call()
        self.playback.release_loads()  # VLC opens the recording now (a play key before this opens it at once)
        self.waveforms.release()
        if self.waveforms.busy:  # the waveform first: the warm-up would share the interpreter with it
            once = Qt.ConnectionType.SingleShotConnection  # this first waveform only, not every later one
            self.waveforms.loaded.connect(self._start_warmup, once)
            self.waveforms.failed.connect(self._start_warmup, once)
            QTimer.singleShot(3000, self, self._start_warmup)  # a long first decode does not hold it up
        else:
            QTimer.singleShot(0, self, self._start_warmup)

    def _start_warmup(self, *_args) -> None:
        self.warmup.start()  # once: later calls do nothing

    def when_warm(self, callback) -> None:
        """Run ``callback`` on the GUI thread once the warm-up imports are in (at once if they are)."""
        if self.warmup.finished:
            callback()
        else:
            self._warm_callbacks.append(callback)

    def _on_warm(self) -> None:
        self.warmup.finished = True
        callbacks, self._warm_callbacks = self._warm_callbacks, []
        for callback in callbacks:
            callback()
        self._make_next_panel()

    def install(self) -> None:
        """Things that need the window to exist: the key filter, the style, restored state."""
        app = QApplication.instance()
        self.typing_filter.follow_focus(app)
        self.restore_layout()
        self.refresh_library()

    # --- library --------------------------------------------------------------------------------

    def refresh_library(self) -> None:
        self.library_model.set_calls(rows.list_calls(self.store))
        if self.workspace.call is not None:
            self.library.select_call(self.workspace.call.id)

    def open_call(self, call_id: int) -> None:
        try:
            self.workspace.open_call(int(call_id))
        except CallmarkError as exc:
            self.show_message(str(exc))
            return

    def open_media_file(self, path: str | Path) -> int | None:
        """Add a recording to the library (the same file twice is the same call) and open it."""
        from desktop.services.calls import add_call

        try:
            row, created = add_call(self.store, Path(path))
        except (CallmarkError, OSError) as exc:  # MediaError, a file that can't be read: one line
            self.show_message(str(exc), error=True)
            return None
        self.library_model.update_call(row)
        self.open_call(row.id)
        self.show_message(f"Added {row.title} to the library." if created else f"Opened {row.title}.")
        if created and not (row.rep and row.manager):
            self.edit_call_details(row.id, added=True)  # who is on it: the items it feeds are for its manager
        return row.id

    def edit_call_details(self, call_id: int | None = None, *, added: bool = False):
        """Ask for the call's title, rep, manager, date and source (not blocking: the dialog is returned
        and saves, as one undoable edit, when the coach presses Save)."""
        from desktop.core.enums import Role
        from desktop.services import calls
        from desktop.ui.dialogs.call_details import CallDetailsDialog

        call_id = call_id if call_id is not None else (self.workspace.call.id if self.workspace.call else None)
        if call_id is None:
            return None
        call = rows.get_call(self.store, call_id)
        known = {role: calls.known_people(self.store, role) for role in (Role.REP, Role.MANAGER)}
        dialog = CallDetailsDialog(call, known, added=added, parent=self)

        def save() -> None:
            wanted = dialog.changes()
            if wanted:
                self.history.run(lambda: calls.edit(self.store, call_id, **wanted))

        dialog.accepted.connect(save)
        dialog.open()
        self.last_dialog = dialog  # tests answer it
        return dialog

    def play_moment(self, moment_id: int) -> None:
        """Open the moment's call (if it is not the one open) and play from the moment's start."""
        from desktop.services import moments

        try:
            moment = moments.get_moment(self.store, int(moment_id))
        except CallmarkError as exc:
            self.show_message(str(exc))
            return
        if self.workspace.call is None or self.workspace.call.id != moment.call_id:
            self.open_call(moment.call_id)
        self.workspace.select_moment(moment.id)
        self.workspace.seek(moment.start_ms)
        self.playback.play()

    def on_store_changed(self, change) -> None:
        from desktop.services.changes import CALLS

        if change.touches(CALLS) and change.call_id is not None:
            try:
                call = rows.get_call(self.store, change.call_id)
            except CallmarkError:
                return
            self.library_model.update_call(call)
            if self.workspace.call is not None and self.workspace.call.id == call.id:
                self.workspace.call = call
                self.workspace.call_updated.emit(call)
                self.setWindowTitle(f"{call.title} — Callmark")

    def restore_last_call(self) -> None:
        last = qsettings().value(SettingsKey.LAST_CALL.value)
        try:
            wanted = int(last) if last is not None else None
        except (TypeError, ValueError):
            wanted = None
        if wanted is not None and self.library_model.row_of(wanted) is not None:
            self.open_call(wanted)
        elif self.library_model.rowCount():
            self.open_call(self.library_model.call_at(0).id)

    def on_call_opened(self, call) -> None:
        self.setWindowTitle(f"{call.title} — Callmark")
        self.library_model.update_call(call)
        self.library.select_call(call.id)
        if not self._first_paint.waiting:
            self._remember_last_call()
        # else once the window is painted (_painted), or at close: writing the settings file
        # held up the first paint of the call the app starts on.

    def _remember_last_call(self) -> None:
        call = self.workspace.call
        if call is not None:
            qsettings().setValue(SettingsKey.LAST_CALL.value, call.id)

    # --- messages ---------------------------------------------------------------------------------

    def show_message(self, text: str, error: bool = False) -> None:
        self.status.setText(text)
        if error and self.isVisible() and QApplication.platformName() != "offscreen":
            from PySide6.QtWidgets import QMessageBox  # here: made at start-up it built five enum types

            QMessageBox.warning(self, "Callmark", text)

    # --- layout state ---------------------------------------------------------------------------

    def set_writing(self, on: bool) -> None:
        """Room to write the coaching item: the item editor takes the moments' and most of the
        transcript's width (the library steps aside too), and everything comes back after."""
        view = self.view
        if on and not view.writing:
            self._library_before_writing = not self.library.isHidden()
            editor = self.panel("Coaching item")
            view.inspector.setCurrentWidget(editor)
            self.library.hide()
            view.set_writing(True)
        elif not on and view.writing:
            view.set_writing(False)
            if getattr(self, "_library_before_writing", True):
                self.library.show()
        self.registry[ActionId.WRITING_ROOM].setChecked(view.writing)

    def reset_layout(self) -> None:
        """Every panel back at its first-run width, and the saved layout forgotten."""
        self.set_writing(False)
        s = qsettings()
        for key in (SettingsKey.MAIN_SPLITTER, SettingsKey.WORK_SPLITTER, SettingsKey.SIDE_SPLITTER):
            s.remove(key.value)
        self.library.show()
        self.registry[ActionId.TOGGLE_LIBRARY].setChecked(True)
        self.splitter.setSizes([250, max(600, self.width() - 250)])
        self.view.reset_layout()
        self.show_message("The layout is back as on the first start.")

    def restore_layout(self) -> None:
        self._restore((SettingsKey.GEOMETRY, self.restoreGeometry), (SettingsKey.WINDOW_STATE, self.restoreState))
        self.fit_on_screen()
        s = qsettings()
        visible = s.value(SettingsKey.LIBRARY_VISIBLE.value, True)
        shown = str(visible).lower() not in ("false", "0")
        self.library.setVisible(shown)
        self.registry[ActionId.TOGGLE_LIBRARY].setChecked(shown)

    def fit_on_screen(self) -> None:
        """A window restored from a larger screen (or a second monitor since unplugged) is brought inside
        the screen it is on, so the Mark button, the inspector and the status bar can be reached."""
        screen = self.screen() or QApplication.primaryScreen()
        if screen is None or self.isMaximized() or self.isFullScreen():
            return
        area = screen.availableGeometry()
        frame = self.frameGeometry()
        extra_w, extra_h = frame.width() - self.width(), frame.height() - self.height()
        width = min(self.width(), area.width() - extra_w)
        height = min(self.height(), area.height() - extra_h)
        if (width, height) != (self.width(), self.height()):
            self.resize(width, height)
        frame = self.frameGeometry()
        x = min(max(frame.x(), area.x()), area.right() - frame.width() + 1)
        y = min(max(frame.y(), area.y()), area.bottom() - frame.height() + 1)
        if (x, y) != (frame.x(), frame.y()):
            self.move(x, y)

    def _restore(self, *pairs) -> None:
        s = qsettings()
        for key, restore in pairs:
            value = s.value(key.value)
            if isinstance(value, QByteArray) and not value.isEmpty():
                restore(value)

    def _restore_splitters(self) -> None:
        # Once shown: before that the splitters have no real width and rescale what they get.
        self._restore((SettingsKey.MAIN_SPLITTER, self.splitter.restoreState),
                      (SettingsKey.WORK_SPLITTER, self.view.splitter.restoreState),
                      (SettingsKey.SIDE_SPLITTER, self.view.side.restoreState))

    def showEvent(self, event) -> None:  # noqa: N802
        super().showEvent(event)
        if not self._splitters_restored:
            self._splitters_restored = True
            QTimer.singleShot(0, self, self._restore_splitters)

    def save_layout(self) -> None:
        self.set_writing(False)  # the writing room is for now: the layout kept is the coach's usual one
        s = qsettings()
        s.setValue(SettingsKey.GEOMETRY.value, self.saveGeometry())
        s.setValue(SettingsKey.WINDOW_STATE.value, self.saveState())
        s.setValue(SettingsKey.MAIN_SPLITTER.value, self.splitter.saveState())
        s.setValue(SettingsKey.WORK_SPLITTER.value, self.view.splitter.saveState())
        s.setValue(SettingsKey.SIDE_SPLITTER.value, self.view.side.saveState())
        s.setValue(SettingsKey.LIBRARY_VISIBLE.value, not self.library.isHidden())
        if self.workspace.call is not None:
            s.setValue(SettingsKey.LAST_CALL.value, self.workspace.call.id)
        s.sync()

    # --- Qt events ---------------------------------------------------------------------------------

    def closeEvent(self, event) -> None:  # noqa: N802
        # Every change is already in the store except an edit being typed: write it now.
        self.workspace.flush()
        self.workspace.remember_position()
        self.save_layout()
        if not self._closing:
            self._closing = True
            self.typing_filter.stop_following(QApplication.instance())
            self.playback.release()
            self.waveforms.wait(3000)
            # Their background reads end before the store can be closed (each made only when first needed).
            for name in ("suggestions", "trackers", "recording_finder"):
                part = getattr(self, name, None)
                if part is not None:
                    part.shutdown()
            self.warmup.wait(30)
        super().closeEvent(event)

    def dragEnterEvent(self, event) -> None:  # noqa: N802
        if any(Path(u.toLocalFile()).suffix.lower() in MEDIA_SUFFIXES for u in event.mimeData().urls()):
            event.acceptProposedAction()

    def dropEvent(self, event) -> None:  # noqa: N802
        files = [Path(u.toLocalFile()) for u in event.mimeData().urls() if u.isLocalFile()]
        files = [f for f in files if f.suffix.lower() in MEDIA_SUFFIXES]
        event.acceptProposedAction()
        # After the drop returns: probing and hashing take a moment, the drag source should not wait.
        QTimer.singleShot(0, self, lambda: [self.open_media_file(f) for f in files])


def first_run_size(screen) -> QSize:
    """The window's size on a first start: the screen's free area (less the window manager's frame),
    up to 1600×1000."""
    want = QSize(1600, 1000)
    if screen is None:
        return want
    area = screen.availableGeometry()
    # Leave room for the window manager's frame and title bar.
    return QSize(min(want.width(), area.width() - 16), min(want.height(), area.height() - 48))


class _FirstPaint(QObject):
    """Calls ``then`` once, when ``widget`` first paints (and stops watching)."""

    def __init__(self, widget: QWidget, then):
        super().__init__(widget)
        self._then = then
        self.waiting = True
        self._widget = widget
        widget.installEventFilter(self)

    def eventFilter(self, obj, event) -> bool:  # noqa: N802
        if event.type() == QEvent.Type.Paint and self._then is not None:
            then, self._then = self._then, None
            self.waiting = False
            self._widget.removeEventFilter(self)
            then()
        return False


def build_main_window(store, home: Path) -> MainWindow:
    from desktop.ui.controllers.commands import wire_commands

    window = MainWindow(store, home)
    wire_commands(window)
    from desktop.ui.durability import install_durability  # backups, a damaged store, a moved recording

    install_durability(window)
    from desktop.ui.folder_import import install_folder_import  # File ▸ Import folder…, Watch a folder…

    install_folder_import(window)
    from desktop.ui.trackers import install_trackers  # Edit ▸ Trackers…, the library's tracker columns

    install_trackers(window)
    window.workspace.call_opened.connect(window.on_call_opened)
    window.workspace.call_updated.connect(window.library_model.update_call)
    window.workspace.message.connect(window.show_message)
    window.history.message.connect(window.show_message)
    window.history.changed.connect(window.on_store_changed)
    window.view.call_info.edit_requested.connect(window.edit_call_details)
    from desktop.ui.actions import SUGGESTIONS
    from desktop.ui.controllers.suggestions import suggestions_controller

    found = suggestions_controller(window)  # made now: the call the window opens on shows its suggestions
    window.registry.adopt(SUGGESTIONS, found)
    found.message.connect(window.show_message)
    window.when_warm(found.run_over_library)  # every transcript read once, in the background
    window.history.current_call = lambda: window.workspace.call.id if window.workspace.call else None
    window.library.call_chosen.connect(window.open_call)
    from desktop.ui.dialog_focus import DialogFocus  # Tab through a dialog's buttons; Esc: the focus back

    DialogFocus.install()
    window.install()
    return window
