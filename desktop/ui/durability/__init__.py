"""What keeps the coach's work safe in the window: timed and closing backups, Restore from backup…,
a damaged store noticed and handled, a moved recording found again, Open log folder.

``install_durability(window)`` adds it all to a built main window; the menus and
dialogs behind the entries are imported when first used.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtWidgets import QApplication

from desktop import paths
from desktop.ui.actions import ActionId


class Durability(QObject):
    """The window's backups and its watch on the store; one per window."""

    backup_made = Signal(str)  # path of the new backup
    backup_failed = Signal(str)  # message
    store_damaged = Signal(str)  # what SQLite said (from any thread: delivered on the GUI thread)

    def __init__(self, window):
        super().__init__(window)
        self.window = window
        self.store_path = paths.store_path(window.home)
        self.folder = paths.backups_dir(window.home)
        self.policy = None
        self.timer = QTimer(self)
        self.timer.timeout.connect(self.timed_backup)
        self.task = None  # the timed backup running in the background, if any
        self.backup_failed.connect(lambda msg: window.show_message(msg, error=True))
        # Queued: the damage is met inside a failing query; the repair runs once that has unwound.
        self.store_damaged.connect(self._on_store_damaged, Qt.ConnectionType.QueuedConnection)
        watch = getattr(window.store, "on_damaged", None)
        if watch is not None:
            watch(self.store_damaged.emit)
        from desktop.logs import watch_store

        watch_store(window.store)  # damage met by code that caught nothing still stops the writes
        app = QApplication.instance()
        if app is not None:
            app.aboutToQuit.connect(self.backup_on_close)
        window.when_warm(self._start)  # none of this is needed for the first paint

    def _start(self) -> None:
        from desktop.ui.durability.damaged import check_in_background

        self._load_policy()
        self.timer.setInterval(max(1, self.policy.interval_minutes) * 60_000)
        self.timer.start()
        check_in_background(self.window)  # the check on open, once painted

    def _load_policy(self):
        from desktop.services.backups import BackupPolicy

        if self.policy is None:
            try:
                self.policy = BackupPolicy.load(self.window.home)
            except Exception as exc:  # noqa: BLE001 - a bad policy file is said once, the defaults apply
                self.window.show_message(str(exc), error=True)
                self.policy = BackupPolicy()
        return self.policy

    def backup_now(self):
        """A backup if anything changed since the last automatic one; None if nothing had."""
        made = self._backup()
        self._on_backup_done(made)
        return made

    def _backup(self):
        from desktop.services import backups

        if getattr(self.window.store, "damaged", None):
            return None  # never back up a damaged store over the good backups' place in the set
        return backups.backup_if_changed(self.store_path, self.folder, self._load_policy())

    def _on_backup_done(self, made) -> None:
        if made is not None:
            self.backup_made.emit(str(made.path))

    def timed_backup(self) -> None:
        """Every 30 minutes (with changes): through the one background helper, the window keeps going."""
        from desktop.ui.tasks import run_task

        if self.task is not None and self.task.running:
            return
        self.task = run_task(self._backup, self._on_backup_done, receiver=self,
                             on_error=self._on_backup_failed, name="callmark-backup")

    def _on_backup_failed(self, exc: BaseException) -> None:
        from desktop.logs import logger

        logger("backups").warning("timed backup failed: %s", type(exc).__name__)  # said in the status line
        self.backup_failed.emit(str(exc))

    def backup_on_close(self) -> None:
        if self.task is not None:
            self.task.wait(30)
        try:
            self.window.workspace.flush()
            self.backup_now()
        except Exception as exc:  # noqa: BLE001 - the app is closing: say it on stderr and in the log
            import sys

            from desktop.logs import logger

            logger("backups").warning("backup at close failed: %s", type(exc).__name__)
            print(f"callmark: {exc}", file=sys.stderr)

    def _on_store_damaged(self, detail: str) -> None:
        from desktop.ui.durability.damaged import offer_recovery

        offer_recovery(self.window, detail)


def install_durability(window) -> Durability:
    durability = Durability(window)
    window.durability = durability
    reg = window.registry

    def restore() -> None:
        from desktop.ui.durability.restore_dialog import restore_from_backup

        restore_from_backup(window)

    def open_logs() -> None:
        from desktop.ui.durability.logs import open_log_folder

        open_log_folder(window)

    reg.bind(ActionId.RESTORE_BACKUP, restore)  # their menu entries are in the window's one table
    reg.bind(ActionId.OPEN_LOG_FOLDER, open_logs)
    from desktop.ui.durability.recording import RecordingFinder

    window.recording_finder = RecordingFinder(window)
    from desktop.ui.journal import install_journal  # what an earlier run was typing is put back first

    window.journal = install_journal(window)
    return durability
