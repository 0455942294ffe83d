"""Panels other parts of Callmark add to the workspace's right-hand inspector.

A panel is a QWidget made by a factory from a ``WorkspaceContext``; it follows
the open call through ``call_changed`` and the coach's selection through
``moment_selected``, and moves the playhead with ``seek``. Register before the
main window is built (e.g. at import time of your module, imported by
``desktop.app``). Panels are made after the window's first paint (or when
their tab is first shown), so a panel may start with a call already open: read
``context.call_id`` when made, then follow ``call_changed``::

    from desktop.ui.panels import register_panel

    def coaching_panel(context):
        return CoachingItemEditor(context.store, context)

    register_panel("Coaching item", coaching_panel)
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtWidgets import QLabel, QWidget


class WorkspaceContext(QObject):
    """What a panel may know and do: the store, the data folder, the open call."""

    call_changed = Signal(object)  # the new call id (int), or None when no call is open
    moment_selected = Signal(object)  # a moment id (int), or None when nothing is selected
    moments_changed = Signal()  # a moment of the open call was added, edited or deleted
    store_changed = Signal(object)  # any Change written to the store (desktop.services.changes), by any path

    def __init__(self, store, home: Path, seek: Callable[[int], None] | None = None,
                 parent: QObject | None = None):
        super().__init__(parent)
        self.store = store
        self.home = Path(home)
        self._seek = seek
        self._play: Callable[[], None] | None = None
        self._call_id: int | None = None
        self._moment_id: int | None = None
        self._told_call: int | None = None  # the call panels were last told about
        self.history = None  # the window's History: a panel runs its edits through it (undo, one signal)

    def use_history(self, history) -> None:
        self.history = history
        history.changed.connect(self.store_changed)

    def run(self, op, **kwargs):
        """Run a service operation as one coach edit (undoable, told to every view)."""
        if self.history is None:  # a panel shown on its own (no window): the edit is still written
            return op()
        return self.history.run(op, **kwargs)

    @property
    def call_id(self) -> int | None:
        return self._call_id

    @property
    def moment_id(self) -> int | None:
        return self._moment_id

    def seek(self, ms: int) -> None:
        """Move the playhead of the open call to ``ms``."""
        if self._seek is not None:
            self._seek(int(ms))

    def play_from(self, ms: int) -> None:
        """Play the open call from ``ms`` (a moment heard again from the panel that cites it)."""
        self.seek(ms)
        if self._play is not None:
            self._play()

    # --- called by the workspace, not by panels ----------------------------------

    def set_seek(self, seek: Callable[[int], None], play: Callable[[], None] | None = None) -> None:
        self._seek = seek
        self._play = play

    def set_call(self, call_id: int | None, *, defer: bool = False) -> None:
        """Follow a newly opened call. ``defer``: tell the panels once the workspace is painted
        (their reloads would otherwise hold up the first paint of a long call); anything a panel
        must hear after it (a moment selected, moments changed) tells them first."""
        if call_id != self._call_id:
            self._call_id = call_id
            self._moment_id = None
        if defer:
            QTimer.singleShot(0, self, self.flush_call)
        else:
            self.flush_call()

    def flush_call(self) -> None:
        """Emit ``call_changed`` now if the panels have not been told about the open call yet."""
        if self._told_call != self._call_id:
            self._told_call = self._call_id
            self.call_changed.emit(self._call_id)

    def select_moment(self, moment_id: int | None) -> None:
        self.flush_call()
        if moment_id != self._moment_id:
            self._moment_id = moment_id
            self.moment_selected.emit(moment_id)


PanelFactory = Callable[[WorkspaceContext], QWidget]


@dataclass(frozen=True)
class PanelSpec:
    name: str
    factory: PanelFactory | str  # a callable, or "package.module:name" imported when the panel is made
    order: int
    tab: str | None = None  # a short tab label, so every tab reads whole in a narrow inspector

    @property
    def label(self) -> str:
        return self.tab or self.name

    def resolve(self) -> PanelFactory:
        if not isinstance(self.factory, str):
            return self.factory
        module, _, attr = self.factory.partition(":")
        return getattr(importlib.import_module(module), attr)


_PANELS: dict[str, PanelSpec] = {}


def register_panel(name: str, factory: PanelFactory | str, *, order: int = 100, tab: str | None = None) -> None:
    """Add a tab to the inspector; a second registration under the same name replaces the first.

    ``factory`` may be "package.module:name": the module is imported when the panel is first made,
    so registering costs nothing at start-up."""
    if not name.strip():
        raise ValueError("a panel needs a name (it is the tab's title)")
    kept = _PANELS.get(name)
    _PANELS[name] = PanelSpec(name, factory, order, tab or (kept.tab if kept else None))


class PendingPanel(QLabel):
    """Stands in a panel's tab until the tab is first shown; the main window then makes the real one.

    Making every panel at start-up (each one reading the store) held up the window's first paint.
    """

    def __init__(self, spec: PanelSpec, parent: QWidget | None = None):
        super().__init__(parent)
        self.spec = spec

    def make(self, context: WorkspaceContext) -> QWidget:
        try:
            return self.spec.resolve()(context)
        except Exception as exc:  # noqa: BLE001 - an outermost handler: one broken panel must not stop the window
            import logging

            logging.getLogger(__name__).error("the %s panel could not start", self.spec.name, exc_info=exc)
            widget = QLabel(f"The {self.spec.name} panel could not start: {exc}")
            widget.setWordWrap(True)
            return widget


class Slots:
    """An owner that is just its slots: ``{ActionId: callable}``."""

    def __init__(self, slots: dict):
        self.slots = slots

    def action_slots(self) -> dict:
        return dict(self.slots)


class PanelCommands:
    """The owner of the window commands a panel answers (see desktop.ui.actions): the panel is made
    when the first of them is given. ``slots`` maps an ActionId to the panel's method name."""

    def __init__(self, window, panel: str, slots: dict):
        self.window, self.panel, self.slots = window, panel, slots

    def action_slots(self) -> dict:
        return {action_id: (lambda m=method: getattr(self.window.panel(self.panel), m)())
                for action_id, method in self.slots.items()}


def unregister_panel(name: str) -> None:
    _PANELS.pop(name, None)


def registered_panels() -> list[PanelSpec]:
    return sorted(_PANELS.values(), key=lambda p: (p.order, p.name))


# The panels Callmark ships, by name only: each module (and what it brings, SQLAlchemy included) is
# imported when its panel is made, after the window's first paint. Importing a module registers it
# again with its own factory, which replaces these.
register_panel("Coaching item", "desktop.ui.item_editor:_panel", order=10, tab="Item")
register_panel("Opportunity", "desktop.ui.crm:_panel", order=30, tab="CRM")
register_panel("Calibration", "desktop.ui.calibration:_panel", order=40)
register_panel("Coaching", "desktop.ui.coaching:CoachingPanel", order=200, tab="Cycle")
