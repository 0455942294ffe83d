"""Across the library, for one manager: the coaching queue, the cycle's baseline, observations to confirm.

A window of its own beside the workspace (one manager at a time: a coaching
tool, never a leaderboard). Opening a row plays the call in the workspace
from a second before the moment; edits run through the window's one history
(Ctrl+Z there undoes them) and every tab refreshes on the store's one change
signal, whichever path made the change.
"""

from __future__ import annotations

from datetime import date

from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QMainWindow, QTabWidget, QVBoxLayout, QWidget

from desktop.services.changes import CALLS, CYCLES
from desktop.ui.actions import ActionId
from desktop.ui.coaching.baseline_view import BaselineView
from desktop.ui.coaching.proposals_view import ProposalsView
from desktop.ui.coaching.queue_view import QueueView

QUEUE_TAB, BASELINE_TAB, PROPOSALS_TAB = range(3)


def managers(store) -> list[str]:
    """Everyone who manages a call in the library, alphabetically."""
    names = store.reader().execute('SELECT DISTINCT p.name FROM "call" c JOIN person p ON p.id = c.manager_id')
    return sorted((n for (n,) in names if n), key=str.lower)


class LibraryWindow(QMainWindow):
    def __init__(self, store, run, play_at, manager: str | None = None, on: date | None = None,
                 parent: QWidget | None = None):
        super().__init__(parent)
        self.store, self.on = store, on
        self.setObjectName("libraryCoachingWindow")
        self.setWindowTitle("Across the library — Callmark")
        self._placed = False
        self._stale = False  # a change came while the window was closed
        self.resize(1440, 860)  # showEvent keeps it inside smaller screens
        self.manager_box = QComboBox()
        self.manager_box.setAccessibleName("Manager")
        self.manager_box.setMinimumWidth(220)
        self.cycle_box = QComboBox()
        self.cycle_box.setAccessibleName("Cycle")
        self.cycle_box.setMinimumWidth(240)
        bar = QHBoxLayout()
        for text, widget in (("Manager", self.manager_box), ("Cycle", self.cycle_box)):
            label = QLabel(text)
            label.setBuddy(widget)
            bar.addWidget(label)
            bar.addWidget(widget)
        bar.addStretch(1)
        self.queue = QueueView(store, run, play_at)
        self.baseline = BaselineView(store, run, play_at)
        self.proposals = ProposalsView(store, run, play_at)
        self.tabs = QTabWidget()
        self.tabs.setAccessibleName("Across the library")
        self.tabs.addTab(self.queue, "Coaching queue")
        self.tabs.addTab(self.baseline, "Baseline")
        self.tabs.addTab(self.proposals, "Observations to confirm")
        central = QWidget()
        layout = QVBoxLayout(central)
        layout.addLayout(bar)
        layout.addWidget(self.tabs, 1)
        self.setCentralWidget(central)
        self.manager_box.currentTextChanged.connect(self.on_manager_changed)
        self.cycle_box.currentIndexChanged.connect(lambda _i: self.on_cycle_chosen())
        self.reload(manager)

    def showEvent(self, event) -> None:  # noqa: N802 - Qt's name
        # At most the screen: on a 1280×720 laptop the window must not run off its edges.
        screen = self.screen().availableGeometry() if self.screen() is not None else None
        if screen is not None and not self.isMaximized():
            self.resize(min(self.width(), screen.width() - 16), min(self.height(), screen.height() - 48))
            if not self._placed:  # the first time: in the middle of the screen, over the workspace
                self._placed = True
                self.move(screen.center() - self.rect().center())
        if self._stale:
            self._stale = False
            self.reload(self.manager_box.currentText())
        super().showEvent(event)

    def reload(self, wanted: str | None = None) -> None:
        names = managers(self.store)
        self.manager_box.blockSignals(True)
        self.manager_box.clear()
        self.manager_box.addItems(names)
        if wanted in names:
            self.manager_box.setCurrentText(wanted)
        self.manager_box.blockSignals(False)
        self.on_manager_changed(self.manager_box.currentText())

    def on_manager_changed(self, name: str) -> None:
        self.queue.show_manager(name or None)
        from desktop.ui.coaching.cycle_tabs import fill_cycle_box

        fill_cycle_box(self.cycle_box, self.store, name, self.on, with_day=True)
        self.on_cycle_chosen()

    def on_cycle_chosen(self) -> None:
        cycle_id = self.cycle_box.currentData()
        self.baseline.show_cycle(cycle_id, self.on)
        self.proposals.show_cycle(cycle_id, self.on)

    def on_store_changed(self, change) -> None:
        if not self.isVisible():  # closed: nothing to read now, everything when shown again
            self._stale = True
            return
        if change.touches(CYCLES, CALLS):  # a cycle or a call's manager: who and which cycle may differ
            names = managers(self.store)
            if names != [self.manager_box.itemText(i) for i in range(self.manager_box.count())]:
                self.reload(self.manager_box.currentText())
                return
            if change.touches(CYCLES):
                self.on_manager_changed(self.manager_box.currentText())
                return
        for view in (self.queue, self.baseline, self.proposals):
            view.on_store_changed(change)


class LibraryCommands:
    """Answers the three commands (made when one is first given): one window, shown on its tab."""

    def __init__(self, window):
        self.main = window
        self.view: LibraryWindow | None = None

    def action_slots(self) -> dict:
        return {ActionId.COACHING_QUEUE: lambda: self.show(QUEUE_TAB),
                ActionId.CYCLE_BASELINE: lambda: self.show(BASELINE_TAB),
                ActionId.PROPOSED_OBSERVATIONS: lambda: self.show(PROPOSALS_TAB)}

    def play_at(self, call_id: int, ms: int) -> None:
        main = self.main
        if main.workspace.call is None or main.workspace.call.id != call_id:
            main.open_call(call_id)
        main.workspace.seek(int(ms))
        main.playback.play()

    def show(self, tab: int) -> LibraryWindow:
        from desktop.services import items

        call = self.main.workspace.call
        manager = items.call_manager(self.main.store, call.id) if call is not None else None
        if self.view is None:
            context = self.main.context
            self.view = LibraryWindow(self.main.store, context.run, self.play_at, manager, parent=self.main)
            context.store_changed.connect(self.view.on_store_changed)
            # Undo and redo work from here too: the edits made here are on the window's one history.
            reg = self.main.registry
            self.view.addActions([reg[ActionId.UNDO], reg[ActionId.REDO]])
        elif manager:
            self.view.reload(manager)
        self.view.tabs.setCurrentIndex(tab)
        self.view.show()
        self.view.raise_()
        self.view.activateWindow()
        return self.view


def library_commands(window) -> LibraryCommands:
    return LibraryCommands(window)
