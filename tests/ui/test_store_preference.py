"""Choosing the team store in the app's preferences: kept in the data folder, opened at the next start."""

from __future__ import annotations

import stat

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QDialogButtonBox

from desktop import paths
from desktop.app import start
from desktop.ui.controllers import commands


def _fill_and_accept(text: str, seen: list) -> None:
    dialog = QApplication.activeModalWidget()
    if dialog is None:  # not up yet
        QTimer.singleShot(50, lambda: _fill_and_accept(text, seen))
        return
    seen.append(dialog.store.text())
    dialog.store.setText(text)
    dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Ok).click()


def test_the_store_chosen_in_preferences_opens_at_the_next_start(qtbot, pg_store_url, isolated_home):
    app, window, store = start(home=str(isolated_home))
    qtbot.addWidget(window)
    assert store.dialect == "sqlite"
    seen: list[str] = []
    QTimer.singleShot(50, lambda: _fill_and_accept(pg_store_url, seen))
    commands.edit_preferences(window)
    window.close()
    store.close()
    assert seen == [""]  # nothing chosen before: this computer's store
    kept = isolated_home / paths.STORE_CHOICE_FILENAME
    assert kept.read_text().strip() == pg_store_url and stat.S_IMODE(kept.stat().st_mode) == 0o600

    app, window, store = start(home=str(isolated_home))
    qtbot.addWidget(window)
    try:
        assert store.dialect == "postgresql" and store.url == pg_store_url
        QTimer.singleShot(50, lambda: _fill_and_accept("", seen))  # back to this computer's store
        commands.edit_preferences(window)
    finally:
        window.close()
        store.close()
    assert seen[-1] == pg_store_url and not kept.exists()
    assert paths.chosen_store(None, isolated_home) is None
