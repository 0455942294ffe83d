"""Help ▸ Open log folder: the folder of Callmark's log, in the desktop's file manager."""

from __future__ import annotations

from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices


def open_log_folder(window) -> str:
    from desktop.logs import log_dir

    folder = log_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    except OSError as exc:
        window.show_message(f"{folder}: the log folder can't be made ({exc.strerror or exc})", error=True)
        return str(folder)
    if not QDesktopServices.openUrl(QUrl.fromLocalFile(str(folder))):
        window.show_message(f"The log is in {folder}")
    return str(folder)
