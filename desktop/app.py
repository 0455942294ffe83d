"""Composition root: paths -> store -> services -> main window.

Start-up is ordered for the coach's first look: the window is built and the
call opened with plain reads (no SQLAlchemy, no panels, no transcription), the
window is painted, and only then does the rest come in: SQLAlchemy and the
services are imported on a background thread, and once they are in, the
transcription controller and the inspector's panels are made on the GUI
thread. A key pressed before that (a mark, Ctrl+I) still works: it imports
what it needs at once.
"""

from __future__ import annotations

import gc
import sys
from pathlib import Path

from desktop import paths


# The window's keys that the transcription controller answers (desktop.ui.transcription.controller).
TRANSCRIPTION_ACTIONS = ("TRANSCRIBE", "TRANSCRIBE_ALL", "CANCEL_TRANSCRIPTION", "SEARCH_LIBRARY", "EDIT_LINE",
                         "SPEAKERS", "TRANSCRIPT_VERSIONS", "IMPORT_TRANSCRIPT", "EXPORT_TRANSCRIPT",
                         "TRANSCRIPTION_SETTINGS")


def first_run_demo(store) -> int | None:
    """On an empty library, add the demo call so a new coach sees a real call straight away."""
    # Whether the library is empty, not the list itself: a 10,000-call library took a sixth of a second.
    if store.reader().execute('SELECT 1 FROM "call" LIMIT 1').fetchone() or not paths.DEMO_MEDIA.exists():
        return None
    from desktop.services.calls import add_call

    call, _ = add_call(
        store, paths.DEMO_MEDIA, title="Discovery - Acme Logistics (demo)", rep="Riley Rep",
        manager="Morgan Manager", source="dialer", recorded_at="2026-11-20T15:00:00Z",
    )
    return call.id


def start(home: str | None = None, file: str | None = None, call_id: int | None = None):
    """Make the application and the main window with a call open (not yet shown).

    Returns (app, window, store). Raises StoreError/OSError for a store that can't be opened and
    CallmarkError for a call that can't be opened; the caller says so.
    """
    # Start-up makes some forty thousand objects that live as long as the window (modules, Qt
    # wrappers, the call's rows). The cyclic collector would walk them again and again while they
    # are made (a tenth of the time to the first paint): it waits until start-up is done, and
    # then leaves them aside until the warm-up is in.
    collecting = gc.isenabled()
    gc.disable()
    try:
        app, window, store = _start(home, file, call_id)
    finally:
        gc.freeze()
        if collecting:
            gc.enable()
    window.when_warm(gc.unfreeze)  # from then on they are collected like any other
    return app, window, store


def _start(home: str | None, file: str | None, call_id: int | None):
    from desktop.ui.qt_import import import_qt

    import_qt()  # before any other Qt import: see there
    from PySide6.QtWidgets import QApplication

    from db.store import open_store
    from desktop.ui.main_window import build_main_window

    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName(paths.APP_NAME)
    app.setOrganizationName(paths.APP_NAME)
    folder = paths.data_home(home)
    store = open_store(paths.store_path(folder), paths.backups_dir(folder))
    demo_id = first_run_demo(store)
    window = build_main_window(store, folder)

    installed = []

    def install_transcription() -> None:
        if installed:
            return
        from desktop.ui.transcription import install_transcription as install

        installed.append(install(window))
        if demo_id is not None:
            installed[0].queue.add(demo_id)  # a new coach sees a real Whisper transcript within seconds

    def early(action) -> None:
        # A transcription key pressed before the warm-up brought the controller in: bring it in
        # now and press the key again, so the controller (connected just now) hears it.
        if not installed:
            install_transcription()
            action.trigger()

    window.when_warm(install_transcription)
    from desktop.ui.actions import ActionId

    for name in TRANSCRIPTION_ACTIONS:
        action = window.registry[getattr(ActionId, name)]
        action.triggered.connect(lambda _checked=False, a=action: early(a))
    if file:
        window.open_media_file(Path(file))
    elif call_id is not None:
        window.open_call(call_id)
    elif demo_id is not None:
        window.open_call(demo_id)
    else:
        window.restore_last_call()
    return app, window, store


def run(home: str | None = None, file: str | None = None, quit_after: float | None = None,
        screenshot: str | None = None, call_id: int | None = None) -> int:
    # Qt is first imported inside start(), where the cyclic collector waits (see there).
    from db.store import StoreError
    from desktop.errors import CallmarkError

    try:
        app, window, store = start(home, file, call_id)
    except (StoreError, OSError) as exc:
        print(f"callmark: {exc}", file=sys.stderr)
        if not _offscreen():
            from PySide6.QtWidgets import QApplication, QMessageBox

            QApplication.instance() or QApplication(sys.argv[:1])
            QMessageBox.critical(None, "Callmark", str(exc))
        return 1
    except CallmarkError as exc:
        print(f"callmark: {exc}", file=sys.stderr)
        return 1
    window.show()
    from PySide6.QtCore import QTimer

    if screenshot:
        QTimer.singleShot(int((quit_after or 2) * 1000) - 200, window, lambda: window.grab().save(screenshot))
    if quit_after:
        QTimer.singleShot(int(quit_after * 1000), app.quit)
    code = app.exec()
    store.close()
    return code


def _offscreen() -> bool:
    import os

    return os.environ.get("QT_QPA_PLATFORM") == "offscreen"
