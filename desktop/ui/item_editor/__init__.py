"""The coaching-item editor: a workspace panel beside the moments.

`ItemEditor(store, context)` is the panel; `context` is the workspace's
`WorkspaceContext` (or anything with `call_id`, `moment_id`, `seek(ms)` and the
`call_changed` / `moment_selected` signals). Importing this package registers
it as the "Coaching item" panel.
"""

from __future__ import annotations

from PySide6.QtWidgets import QApplication, QTabWidget, QVBoxLayout, QWidget

from desktop.ui.item_editor.controller import ItemEditorController
from desktop.ui.item_editor.view import ItemEditorView

__all__ = ["ItemEditor", "PANEL_NAME", "commands", "register"]

PANEL_NAME = "Coaching item"
MIN_WIDTH = 120


class ItemEditor(QWidget):
    """The panel: view + controller, and a flush whenever it goes away (Ctrl+I reaches it through
    ``commands``, its owner in the window's action registry)."""

    def __init__(self, store, context=None, parent: QWidget | None = None):
        super().__init__(parent)
        self.view = ItemEditorView()
        self.controller = ItemEditorController(store, context, self.view, self)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.view)
        # The inspector column may be dragged narrow: the form scrolls rather than holding it wide.
        self.setMinimumWidth(MIN_WIDTH)
        self.view.new_button.setToolTip("Start a coaching item from the selected moment (Ctrl+I)")
        app = QApplication.instance()
        if app is not None:
            app.aboutToQuit.connect(self.controller.flush)

    def new_item_from_moment(self):
        self.bring_forward()
        return self.controller.new_item_from_moment()

    def bring_forward(self) -> None:
        """Show this panel's tab if the inspector is showing another one."""
        widget = self.parentWidget()
        while widget is not None and not isinstance(widget, QTabWidget):
            widget = widget.parentWidget()
        if isinstance(widget, QTabWidget) and widget.indexOf(self) >= 0:
            widget.setCurrentWidget(self)

    def flush(self) -> None:
        self.controller.flush()

    def hideEvent(self, event) -> None:  # noqa: N802 - Qt's name
        self.controller.flush()  # the window closing hides its children first
        super().hideEvent(event)

    def closeEvent(self, event) -> None:  # noqa: N802
        self.controller.flush()
        super().closeEvent(event)


def commands(window):
    """The owner of Ctrl+I (New coaching item) in the window: this panel, made when first needed, with
    the room to write it (the window's writing room)."""
    from desktop.ui.actions import ActionId
    from desktop.ui.panels import Slots

    def new_item():
        window.set_writing(True)
        return window.panel(PANEL_NAME).new_item_from_moment()

    return Slots({ActionId.NEW_ITEM: new_item})


def _panel(context) -> ItemEditor:
    return ItemEditor(context.store, context)


def register() -> None:
    from desktop.ui.panels import register_panel

    register_panel(PANEL_NAME, _panel, order=10)


register()
