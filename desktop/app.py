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

import sys
from pathlib import Path

from desktop import paths


def first_run_demo(store) -> int | None:
    """On an empty library, add the demo call so a new coach sees a real call straight away."""
    if store.dialect != "sqlite":  # a team store's library is the team's: no demo call added to it
        return None
    # Whether the library is empty, not the list itself: a 10,000-call library took a sixth of a second.
    if store.reader().execute('SELECT 1 FROM "call" LIMIT 1').fetchone() or not paths.DEMO_MEDIA.exists():
        return None
    from desktop.services.calls import add_call

    call, _ = add_call(
        store, paths.DEMO_MEDIA, title="Discovery - Acme Logistics (demo)", rep="Riley Rep",
        manager="Morgan Manager", source="dialer", recorded_at="2026-11-20T15:00:00Z",
    )
    return call.id


def start(home: str | None = None, file: str | None = None, call_id: int | None = None,
          store: str | None = None):
    """Make the application and the main window with a call open (not yet shown).

    Returns (app, window, store). Raises StoreError/OSError for a store that can't be opened and
    CallmarkError for a call that can't be opened; the caller says so.
    """
    from PySide6.QtWidgets import QApplication

    from desktop.ui.durability.damaged import open_for_window
    from desktop.ui.main_window import build_main_window

    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName(paths.APP_NAME)
    app.setOrganizationName(paths.APP_NAME)
    from desktop.ui.app_identity import name_the_desktop_entry, set_app_icon

    name_the_desktop_entry(app)
    from desktop.ui.style import follow_colour_scheme

    follow_colour_scheme(app)  # the desktop's dark mode, where the style would paint light
    folder = paths.data_home(home)
    chosen = paths.chosen_store(store, folder)
    if chosen:  # another store file or a team store (desktop/store_choice.py)
        from desktop.store_choice import open_chosen

        store = open_chosen(chosen, folder)
    else:
        store = open_for_window(folder)  # a damaged store is set aside and a backup offered first
    from desktop.services.this_machine import attach

    attach(store, folder)  # where recordings are on this machine: kept in its data folder
    demo_id = first_run_demo(store)
    window = build_main_window(store, folder)

    def install_transcription() -> None:
        # Made by its first command if the coach gives one before this (the registry's owner).
        from desktop.ui.actions import TRANSCRIPTION

        controller = window.registry.owner(TRANSCRIPTION)
        if demo_id is not None:
            controller.queue.add(demo_id)  # a new coach sees a real Whisper transcript within seconds

    window.when_warm(install_transcription)
    window.when_warm(lambda: set_app_icon(app))  # after the first paint: it reads the icon files
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
        screenshot: str | None = None, call_id: int | None = None, store: str | None = None) -> int:
    # Qt is first imported inside start(), where the cyclic collector waits (see there).
    from db.store import StoreError
    from desktop.errors import CallmarkError

    try:
        app, window, store = start(home, file, call_id, store)
    except (StoreError, OSError) as exc:
        print(f"callmark: {exc}", file=sys.stderr)
        if not _offscreen():
            from PySide6.QtWidgets import QApplication, QMessageBox

            QApplication.instance() or QApplication(sys.argv[:1])
            from db.server import StoreUnreachable

            if isinstance(exc, StoreUnreachable):  # the team store's server is away
                from desktop.ui.server_away import offer_local_store

                local = str(paths.store_path(paths.data_home(home)))
                if offer_local_store(str(exc), local):
                    return run(home, file, quit_after, screenshot, call_id, store=local)
                return 1
            QMessageBox.critical(None, "Callmark", str(exc))
        return 1
    except CallmarkError as exc:
        print(f"callmark: {exc}", file=sys.stderr)
        return 1
    window.show()
    from desktop.logs import logger

    # when it shows, not once warm: a window closed (or --quit-after) before the warm-up imports are in still says so
    logger("app").info("window opened (schema %s)", store.revision())
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
