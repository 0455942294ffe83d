"""File ▸ Export record…, Import record…, Export packet…: the entries, without the dialogs behind them.

The dialogs (and the services, templates and SQLAlchemy they bring) are
imported when the coach first picks an entry, not when the window is built.
"""

from __future__ import annotations

import importlib

from PySide6.QtGui import QAction

ENTRIES = (
    ("Export record…", "Your moments and items on this call, for another coach", "export_record"),
    ("Import record…", "Add another coach's record (checked first; all or nothing)", "import_record"),
    ("Export packet…", "The manager's session packet, previewed with every redaction", "export_packet"),
)


def _run(name: str, window) -> None:
    getattr(importlib.import_module("desktop.ui.exchange.dialogs"), name)(window)


def install_exchange_menu(window) -> list[QAction]:
    """Add Export record…, Import record… and Export packet… to the window's File menu."""
    made = []
    for text, tip, name in ENTRIES:
        action = QAction(window)  # not QAction(text, window): its overloads build QIcon's enums
        action.setText(text)
        action.setStatusTip(tip)
        action.triggered.connect(lambda _checked=False, n=name: _run(n, window))
        made.append(action)
    file_menu = next((a.menu() for a in window.menuBar().actions()
                      if a.menu() is not None and a.text().replace("&", "") == "File"), None)
    if file_menu is None:
        file_menu = window.menuBar().addMenu("&File")
    anchor = next((a for a in file_menu.actions() if a.isSeparator()), None)
    for action in made:
        file_menu.insertAction(anchor, action) if anchor else file_menu.addAction(action)
    if anchor is not None:
        file_menu.insertSeparator(made[0])
    return made
