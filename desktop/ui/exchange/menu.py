"""File ▸ Export record…, Import record…, Export packet…: the owner of those commands.

The entries are in the window's menus from the start (``desktop.ui.controllers.commands``);
this owner, and the dialogs, services, templates and SQLAlchemy behind it, come in when the
coach first picks one of them.
"""

from __future__ import annotations

import importlib

from desktop.ui.actions import ActionId


class ExchangeCommands:
    """Answers the record and packet commands with the dialogs of ``desktop.ui.exchange.dialogs``."""

    def __init__(self, window):
        self.window = window

    def _run(self, name: str) -> None:
        getattr(importlib.import_module("desktop.ui.exchange.dialogs"), name)(self.window)

    def action_slots(self) -> dict:
        return {ActionId.EXPORT_RECORD: lambda: self._run("export_record"),
                ActionId.IMPORT_RECORD: lambda: self._run("import_record"),
                ActionId.EXPORT_PACKET: lambda: self._run("export_packet")}
