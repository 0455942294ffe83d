"""CRM evidence in the workspace: the Opportunity panel and File ▸ Import CRM export….

Importing this package registers the "Opportunity" panel; ``commands`` is the
owner of the import command in the action registry.
"""

from __future__ import annotations

from desktop.ui.crm.panel import CrmPanel

__all__ = ["CrmPanel", "PANEL_NAME", "register", "commands"]

PANEL_NAME = "Opportunity"


def commands(window):
    """The owner of File ▸ Import CRM export… (the Opportunity panel, made when first needed)."""
    from desktop.ui.actions import ActionId
    from desktop.ui.panels import PanelCommands

    return PanelCommands(window, PANEL_NAME, {ActionId.IMPORT_CRM: "choose_and_import"})


def _panel(context) -> CrmPanel:
    return CrmPanel(context.store, context)


def register() -> None:
    from desktop.ui.panels import register_panel

    register_panel(PANEL_NAME, _panel, order=30)


register()
