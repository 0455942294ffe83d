"""A damaged store in the window: on opening, or when SQLite reports it while the coach works.

Writes have already stopped (the store refuses them once damaged). The coach is
told what happened and where the file went, and chooses: restore the newest
good backup (its age, and that anything after it is missing), or salvage what
can be read. Without a screen (offscreen checks) the choice is the backup if
there is one, else the salvage, and the message goes to stderr.
"""

from __future__ import annotations

import os
import sys

from desktop import paths


def show_library_again(window, call) -> None:
    """After the store's file was replaced: the library read again, and the call that was open
    opened again if the new store has it (else the first call)."""
    window.refresh_library()
    ids = [window.library_model.call_at(r).id for r in range(window.library_model.rowCount())]
    if call is not None and call.id in ids:
        window.open_call(call.id)
    elif ids:
        window.open_call(ids[0])


RESTORE, SALVAGE, LATER = "restore", "salvage", "later"


def _offscreen() -> bool:
    return os.environ.get("QT_QPA_PLATFORM") == "offscreen"


def ask(report, parent=None) -> str:
    """The coach's choice for a damaged store; without a screen, the default."""
    text = report.message()
    if _offscreen():
        print(f"callmark: {text}", file=sys.stderr)
        return RESTORE if report.backup is not None else SALVAGE
    from PySide6.QtWidgets import QMessageBox

    box = QMessageBox(QMessageBox.Icon.Warning, "Callmark: the store is damaged", text, parent=parent)
    restore = None
    if report.backup is not None:
        restore = box.addButton("Restore the backup", QMessageBox.ButtonRole.AcceptRole)
    salvage = box.addButton("Salvage what can be read", QMessageBox.ButtonRole.ActionRole)
    # On opening the coach may quit instead; while working, the store is already set aside.
    later = box.addButton("Quit", QMessageBox.ButtonRole.RejectRole) if parent is None else None
    box.setDefaultButton(restore or salvage)
    box.exec()
    clicked = box.clickedButton()
    if later is not None and clicked is later:
        return LATER
    return RESTORE if clicked is restore else SALVAGE


def repair(home, report, choice: str) -> str:
    """Put a store back in place after a damaged one was set aside; returns what was done, in words."""
    from db.store import open_store
    from desktop.services import backups, damage

    store_path = paths.store_path(home)
    folder = paths.backups_dir(home)
    if choice == RESTORE and report.backup is not None:
        backups.restore(store_path, report.backup.path, folder)
        done = (f"Restored the backup from {report.backup.made_at:%d %b %Y, %H:%M}; "
                f"the damaged store is kept as {report.damaged.name}.")
    else:
        found = damage.recover(report.damaged, store_path)
        kept = found.kept.get("moment", 0)
        done = (f"Salvaged what could be read from the damaged store ({kept} moments); "
                f"it is kept as {report.damaged.name}.")
    open_store(store_path, folder).close()  # an older backup is brought to the current schema
    return done


def open_for_window(home):
    """The window's store; a damaged one is set aside and replaced as the coach chooses first."""
    from db.store import DamagedStoreError, open_store
    from desktop.services import damage

    store_path, folder = paths.store_path(home), paths.backups_dir(home)
    try:
        return open_store(store_path, folder, check=False)  # the full check runs once the window is up
    except DamagedStoreError as exc:
        report = damage.set_aside(exc.path, folder, exc.detail)
        choice = ask(report)
        if choice == LATER:
            raise
        print(f"callmark: {repair(home, report, choice)}", file=sys.stderr) if _offscreen() else None
        return open_store(store_path, folder)


def check_in_background(window) -> None:
    """SQLite's quick_check of the open store (its own read-only connection), off the GUI thread through
    the one background helper; damage is reported to the store."""
    from db.store import quick_check
    from desktop.ui.tasks import run_task

    store = window.store
    if getattr(store, "dialect", "sqlite") != "sqlite":
        return  # a team store is the server's to check: SQLite's quick_check has no file to read

    def then(verdict: list[str]) -> None:
        if verdict != ["ok"]:
            store.mark_damaged("; ".join(verdict[:3]))

    window.quick_check_thread = run_task(lambda: quick_check(store.path), then, receiver=window,
                                         name="callmark-quick-check")


def offer_recovery(window, detail: str, choose=None) -> str | None:
    """The store went bad while open: set it aside, then restore or salvage as the coach chooses.

    Returns the message shown, or None if the coach chose to wait (writes stay stopped).
    """
    from desktop.services import damage

    store = window.store
    if getattr(window, "_repairing", False):
        return None
    window._repairing = True
    try:
        call = window.workspace.call
        store.close()
        report = damage.set_aside(store.path, paths.backups_dir(window.home), detail)
        window.damage_report = report
        window.show_message(report.message())
        choice = (choose or (lambda r: ask(r, window)))(report)
        if choice == LATER:
            return None
        try:
            done = repair(window.home, report, choice)
        except Exception as exc:  # noqa: BLE001 - RecoverError, BackupError: one line for the coach
            window.show_message(str(exc), error=True)
            return None
        store.clear_damage()
        show_library_again(window, call)
        window.show_message(done)
        return done
    finally:
        window._repairing = False
