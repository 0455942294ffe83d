"""Composition root: paths -> store -> services -> main window."""

from __future__ import annotations

import sys
from pathlib import Path

from desktop import paths


def first_run_demo(store) -> int | None:
    """On an empty library, add the demo call so a new coach sees a real call straight away."""
    from desktop.services import calls

    if calls.list_calls(store) or not paths.DEMO_MEDIA.exists():
        return None
    call, _ = calls.add_call(
        store, paths.DEMO_MEDIA, title="Discovery - Acme Logistics (demo)", rep="Riley Rep",
        manager="Morgan Manager", source="dialer", recorded_at="2026-11-20T15:00:00Z",
    )
    return call.id


def run(home: str | None = None, file: str | None = None, quit_after: float | None = None,
        screenshot: str | None = None) -> int:
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication, QMessageBox

    from db.store import StoreError, open_store
    from desktop.errors import CallmarkError

    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName(paths.APP_NAME)
    app.setOrganizationName(paths.APP_NAME)
    try:
        folder = paths.data_home(home)
        store = open_store(paths.store_path(folder), paths.backups_dir(folder))
    except (StoreError, OSError) as exc:
        print(f"callmark: {exc}", file=sys.stderr)
        QMessageBox.critical(None, "Callmark", str(exc)) if not _offscreen() else None
        return 1
    import desktop.ui.crm  # noqa: F401 - registers the Opportunity panel and File ▸ Import CRM export…
    import desktop.ui.coaching  # noqa: F401 - registers the Coaching panel (opens the Coaching window)
    import desktop.ui.calibration  # noqa: F401 - registers the Calibration panel (blind review, Compare with…)
    from desktop.ui.main_window import build_main_window

    try:
        demo_id = first_run_demo(store)
        window = build_main_window(store, folder)
        from desktop.ui.transcription import install_transcription

        transcription = install_transcription(window)
        if file:
            window.open_media_file(Path(file))
        elif demo_id is not None:
            window.open_call(demo_id)
            transcription.queue.add(demo_id)  # a new coach sees a real Whisper transcript within seconds
        else:
            window.restore_last_call()
    except CallmarkError as exc:
        print(f"callmark: {exc}", file=sys.stderr)
        return 1
    window.show()
    if screenshot:
        QTimer.singleShot(int((quit_after or 2) * 1000) - 200, lambda: window.grab().save(screenshot))
    if quit_after:
        QTimer.singleShot(int(quit_after * 1000), app.quit)
    code = app.exec()
    store.close()
    return code


def _offscreen() -> bool:
    import os

    return os.environ.get("QT_QPA_PLATFORM") == "offscreen"
