"""The coaching screens: cycles, sessions, observations, reviews and the indicator dashboard.

Importing this package adds a "Coaching" tab to the workspace inspector: it
shows the open call's manager's cycle phase and opens the Coaching window for
that manager. `open_coaching(store, manager)` opens the window from anywhere.
"""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QPushButton, QVBoxLayout, QWidget

from desktop.services.changes import CALLS, CYCLES, SESSIONS
from desktop.ui.actions import ActionId
from desktop.ui.panels import WorkspaceContext, register_panel

__all__ = ["open_coaching", "CoachingPanel"]

_windows: list = []  # open Coaching windows, kept alive while shown


def open_coaching(store, manager: str | None = None, parent: QWidget | None = None, notify=None, play=None,
                  run=None, changed=None, actions=()):
    """``run``/``changed``: the workspace's history and change signal (the window's edits are undoable
    there and it refreshes from every change); ``actions``: the window's Undo and Redo, to answer here."""
    from desktop.ui.coaching.cycle_view import CoachingWindow

    window = CoachingWindow(store, manager, parent=parent, notify=notify, play=play, run=run, changed=changed,
                            actions=actions)
    _windows.append(window)
    window.destroyed.connect(lambda *_: _windows.remove(window) if window in _windows else None)
    window.show()
    return window


class CoachingPanel(QWidget):
    """The inspector tab: where the open call's manager is in their cycle, and a way in."""

    def __init__(self, context: WorkspaceContext):
        super().__init__()
        self.context = context
        self.manager: str | None = None
        self.summary = QLabel("Open a call to see its manager's coaching cycle.")
        self.summary.setWordWrap(True)
        self.open_button = QPushButton("Open coaching…")
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addWidget(self.open_button)
        layout.addStretch(1)
        self.open_button.clicked.connect(self.on_open_clicked)
        context.call_changed.connect(self.on_call_changed)
        if hasattr(context, "store_changed"):
            context.store_changed.connect(self.on_store_changed)
        self.on_call_changed(context.call_id)

    def on_store_changed(self, change) -> None:
        # A cycle made, a focus set, a session held (here or in the Coaching window): show it now.
        if change.touches(CYCLES, SESSIONS, CALLS):
            self.on_call_changed(self.context.call_id)

    def on_call_changed(self, call_id) -> None:
        from desktop.services import cycles, items

        self.manager = items.call_manager(self.context.store, call_id) if call_id is not None else None
        cycle = cycles.current_cycle(self.context.store, self.manager) if self.manager and \
            self.manager in cycles.managers_with_cycles(self.context.store) else None
        if cycle is None:
            self.summary.setText(f"{self.manager or 'This call has no manager'}: no coaching cycle yet."
                                 if call_id is not None else "Open a call to see its manager's coaching cycle.")
        else:
            self.summary.setText(f"<b>{cycle.manager}</b> — day {cycle.now.day}: {cycle.now.label}<br>"
                                 f"{cycle.now.asks}<br><i>Focus: {cycle.focus_behavior or 'not chosen yet'}</i>")

    def on_open_clicked(self):
        history = getattr(self.context, "history", None)
        main = self.context.parent()
        registry = getattr(main, "registry", None)
        actions = [registry[ActionId.UNDO], registry[ActionId.REDO]] if registry is not None else []
        if history is None:  # a panel on its own: the window writes and tells nobody
            return open_coaching(self.context.store, self.manager, self.window(),
                                 play=getattr(main, "play_moment", None))
        return open_coaching(self.context.store, self.manager, self.window(), play=getattr(main, "play_moment", None),
                             run=self.context.run, changed=self.context.store_changed, actions=actions)


register_panel("Coaching", CoachingPanel, order=200)
