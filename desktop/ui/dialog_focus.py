"""Keyboard focus in every dialog, in one place: Tab crosses a dialog's buttons in the order they are
shown, and closing the dialog (Esc) gives the focus back to the control that had it when it opened.

Qt leaves the second to the window manager, which reactivates the window but not always the control (and
a headless or minimal one does neither): a coach who pressed Ctrl+G while typing a note would have to find
the note again. And a button box lays its buttons out in the platform's order (Restore Defaults at the
left, Cancel after OK) but Tab visits them in the order they were added. Only focus changes are watched
(``focusChanged``), and only the open dialogs' own events.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtWidgets import QAbstractButton, QApplication, QDialog, QDialogButtonBox, QWidget
from shiboken6 import isValid


class DialogFocus(QObject):
    def __init__(self, app: QApplication):
        super().__init__(app)
        self._before: dict[QDialog, QWidget] = {}
        self._last: QWidget | None = None
        app.focusChanged.connect(self.on_app_focus_changed)

    @classmethod
    def install(cls, app: QApplication | None = None) -> DialogFocus:
        app = app or QApplication.instance()
        existing = app.findChild(DialogFocus)
        return existing if existing is not None else cls(app)

    def on_app_focus_changed(self, _old: QWidget | None, new: QWidget | None) -> None:
        # Opening a dialog moves the focus from the control to nothing (the window deactivated), then
        # into the dialog: the control is the last one focused before.
        if new is None:
            return
        before, self._last = self._last, new
        dialog = new.window()
        if (not isinstance(dialog, QDialog) or not dialog.isVisible() or dialog in self._before or before is None
                or not isValid(before) or before.window() is dialog):
            return
        self._before[dialog] = before
        buttons_in_shown_order(dialog)
        dialog.installEventFilter(self)
        dialog.destroyed.connect(lambda *_: self._before.pop(dialog, None))

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 - Qt's name
        if event.type() == QEvent.Type.Hide and watched in self._before:
            watched.removeEventFilter(self)
            widget = self._before.pop(watched)
            QTimer.singleShot(0, lambda: _give_back(widget))
        return False


def _give_back(widget: QWidget) -> None:
    if not isValid(widget) or not widget.isVisible() or not widget.isEnabled():
        return
    focused = QApplication.focusWidget()
    if focused is not None and focused.window() is not widget.window() and focused.window().isVisible():
        return  # the coach has moved on to another window meanwhile
    widget.window().activateWindow()
    widget.setFocus(Qt.FocusReason.ActiveWindowFocusReason)


def buttons_in_shown_order(dialog: QWidget) -> None:
    """Tab through each button box of ``dialog`` from left to right, as its buttons stand."""
    for box in dialog.findChildren(QDialogButtonBox):
        layout = box.layout()
        if layout is None:
            continue
        shown = [layout.itemAt(i).widget() for i in range(layout.count())]
        shown = [b for b in shown if isinstance(b, QAbstractButton) and not b.isHidden()]
        if box.orientation() == Qt.Orientation.Vertical:
            continue  # top to bottom already
        for first, second in zip(shown, shown[1:]):
            QWidget.setTabOrder(first, second)
