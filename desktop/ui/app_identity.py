"""How the desktop knows the window is Callmark's: its desktop entry's name and the app icon."""

from __future__ import annotations

from PySide6.QtGui import QGuiApplication, QIcon

from desktop import paths

DESKTOP_ENTRY = "callmark"  # packaging/callmark.desktop, as install-desktop.sh installs it


def name_the_desktop_entry(app: QGuiApplication) -> None:
    # Wayland compositors match the window to its entry (menu icon, "Open with", grouping) by this name.
    app.setDesktopFileName(DESKTOP_ENTRY)


def set_app_icon(app: QGuiApplication) -> None:
    """The installed icon theme's Callmark icon, else the icons the package ships (an uninstalled run)."""
    shipped = QIcon()
    for size in (16, 32, 48, 64, 128, 256):
        shipped.addFile(str(paths.ICONS / "hicolor" / f"{size}x{size}" / "apps" / "callmark.png"))
    app.setWindowIcon(QIcon.fromTheme(DESKTOP_ENTRY, shipped))
