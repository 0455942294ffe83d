"""The desktop knows the window as Callmark's: its entry's name, and the app icon."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication

from desktop.ui.app_identity import name_the_desktop_entry, set_app_icon
from tests.conftest import REPO


def test_the_window_names_its_desktop_entry_and_carries_the_icon(qapp):
    name_the_desktop_entry(qapp)
    assert (REPO / "packaging" / f"{qapp.desktopFileName()}.desktop").is_file()
    set_app_icon(qapp)
    icon = QApplication.windowIcon()
    assert not icon.isNull()
    assert icon.pixmap(48, 48).width() == 48
