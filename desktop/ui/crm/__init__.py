"""CRM evidence in the workspace: the Opportunity panel and File ▸ Import CRM export….

Importing this package registers the "Opportunity" panel; ``commands`` is the
owner of the import command in the action registry.
"""

from __future__ import annotations

from desktop.ui.crm.panel import CrmPanel

__all__ = ["CrmPanel", "PANEL_NAME", "register", "commands"]

PANEL_NAME = "Opportunity"


class _CrmCommands:
    """The owner of File ▸ Import CRM export…: the Opportunity panel, made when first needed."""

    def __init__(self, window):
        self.window = window

    def action_slots(self) -> dict:
        from desktop.ui.actions import ActionId

        return {ActionId.IMPORT_CRM: lambda: self.window.panel(PANEL_NAME).choose_and_import()}


def commands(window) -> _CrmCommands:
    return _CrmCommands(window)


def _panel(context) -> CrmPanel:
    return CrmPanel(context.store, context)


def register() -> None:
    from desktop.ui.panels import register_panel

    register_panel(PANEL_NAME, _panel, order=30)


register()
