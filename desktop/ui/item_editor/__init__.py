"""The coaching-item editor: a workspace panel beside the moments.

`ItemEditor(store, context)` is the panel; `context` is the workspace's
`WorkspaceContext` (or anything with `call_id`, `moment_id`, `seek(ms)` and the
`call_changed` / `moment_selected` signals). Importing this package registers
it as the "Coaching item" panel.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QApplication, QTabWidget, QVBoxLayout, QWidget

from desktop.ui.item_editor.controller import ItemEditorController
from desktop.ui.item_editor.view import ItemEditorView

__all__ = ["ItemEditor", "NEW_ITEM_KEY", "PANEL_NAME", "register"]

PANEL_NAME = "Coaching item"
NEW_ITEM_KEY = "Ctrl+I"
MIN_WIDTH = 120


class ItemEditor(QWidget):
    """The panel: view + controller, the Ctrl+I action, and a flush whenever it goes away."""

    def __init__(self, store, context=None, parent: QWidget | None = None):
        super().__init__(parent)
        self.view = ItemEditorView()
        self.controller = ItemEditorController(store, context, self.view, self)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.view)
        # The inspector column may be dragged narrow: the form scrolls rather than holding it wide.
        self.setMinimumWidth(MIN_WIDTH)
        self.new_item_action = self._new_item_action(context)
        self.view.new_button.setToolTip(f"Start a coaching item from the selected moment "
                                        f"({self.new_item_action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)})")
        app = QApplication.instance()
        if app is not None:
            app.aboutToQuit.connect(self.controller.flush)

    def _new_item_action(self, context) -> QAction:
        """Ctrl+I through the workspace's action registry when it has the entry, else our own action
        on the window, so the key works whichever inspector tab is showing."""
        host = context.parent() if context is not None and isinstance(context.parent(), QWidget) else None
        registry = getattr(host, "registry", None)
        try:
            from desktop.ui.actions import ActionId

            action_id = getattr(ActionId, "NEW_ITEM", None)
        except ImportError:
            action_id = None
        if registry is not None and action_id is not None:
            action = registry[action_id]
        else:
            action = QAction("New coaching item from moment", self)
            action.setObjectName("action_new_item")
            action.setShortcut(QKeySequence(NEW_ITEM_KEY))
            action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
            (host or self).addAction(action)
        action.triggered.connect(self.new_item_from_moment)
        return action

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


def _panel(context) -> ItemEditor:
    return ItemEditor(context.store, context)


def register() -> None:
    from desktop.ui.panels import register_panel

    register_panel(PANEL_NAME, _panel, order=10)


register()
