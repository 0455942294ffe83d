"""CRM evidence in the workspace: the Opportunity panel and File ▸ Import CRM export….

Importing this package registers the "Opportunity" panel. The panel puts
"Import CRM export…" in the window's File menu once the menus exist (through
the action registry's IMPORT_CRM entry when it has one, else its own action).
"""

from __future__ import annotations

from PySide6.QtCore import QTimer
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMainWindow

from desktop.ui.crm.panel import CrmPanel

__all__ = ["CrmPanel", "PANEL_NAME", "register", "install_import_action"]

PANEL_NAME = "Opportunity"
IMPORT_TEXT = "Import CRM export…"


def install_import_action(window: QMainWindow, panel: CrmPanel) -> QAction:
    """Put Import CRM export… in the File menu (after Open recording…), wired to the panel."""
    registry = getattr(window, "registry", None)
    action = None
    try:
        from desktop.ui.actions import ActionId

        action_id = getattr(ActionId, "IMPORT_CRM", None)
        if registry is not None and action_id is not None:
            action = registry[action_id]
    except ImportError:
        pass
    if action is None:
        action = QAction(IMPORT_TEXT, window)
        action.setObjectName("action_import_crm")
        action.setStatusTip("Preview a Salesforce or HubSpot opportunity export, then import it")
    action.triggered.connect(lambda _checked=False: panel.choose_and_import())
    file_menu = next((a.menu() for a in window.menuBar().actions()
                      if a.menu() is not None and a.text().replace("&", "") == "File"), None)
    if file_menu is not None and action not in file_menu.actions():
        entries = file_menu.actions()
        after = next((i for i, a in enumerate(entries) if a.objectName() == "action_open_file"), None)
        before = entries[after + 1] if after is not None and after + 1 < len(entries) else None
        file_menu.insertAction(before, action) if before is not None else file_menu.addAction(action)
    return action


def _panel(context) -> CrmPanel:
    panel = CrmPanel(context.store, context)
    window = context.parent()
    if isinstance(window, QMainWindow):
        # The menus are built after the panels: add ours once the window is wired.
        QTimer.singleShot(0, panel, lambda: install_import_action(window, panel))  # dies with the panel
    return panel


def register() -> None:
    from desktop.ui.panels import register_panel

    register_panel(PANEL_NAME, _panel, order=30)


register()
