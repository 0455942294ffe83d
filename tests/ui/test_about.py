"""Help ▸ About Callmark: the package's one version, and those of Qt, libvlc, faster-whisper and SQLite."""

from __future__ import annotations

import sqlite3
from importlib.metadata import version

import vlc
from PySide6.QtCore import QTimer, qVersion
from PySide6.QtWidgets import QApplication

from desktop.ui.actions import ActionId
from desktop.ui.dialogs.about import AboutDialog


def _help_menu(window):
    return next(a.menu() for a in window.menuBar().actions() if a.text().replace("&", "") == "Help")


def test_help_about_shows_every_version(qtbot, window):
    about = window.registry[ActionId.ABOUT]
    assert about in _help_menu(window).actions()
    seen = {}

    def read_and_close():
        dialog = QApplication.activeModalWidget()
        seen["dialog"] = isinstance(dialog, AboutDialog)
        if isinstance(dialog, AboutDialog):
            seen["title"] = dialog.windowTitle()
            seen["values"] = {name: label.text() for name, label in dialog.values.items()}
            seen["rows"] = dict(dialog.rows)
            dialog.copy_button.click()
            dialog.reject()

    QTimer.singleShot(200, read_and_close)
    about.trigger()  # modal: returns once read_and_close has closed it
    assert seen["dialog"], "Help ▸ About did not open the About dialog"
    assert seen["title"] == "About Callmark"
    assert seen["rows"]["Callmark"] == version("callmark")
    values = seen["values"]
    assert values["Qt"].startswith(qVersion())
    assert values["libvlc"] == vlc.libvlc_get_version().decode() and values["libvlc"].startswith("3.")
    assert values["faster-whisper"] == version("faster-whisper")
    assert values["SQLite"] == sqlite3.sqlite_version
    copied = QApplication.clipboard().text()
    assert f"Callmark: {version('callmark')}" in copied and f"SQLite: {sqlite3.sqlite_version}" in copied
