"""Trackers in the window: their columns in the library, Edit ▸ Trackers…, and counting in the background.

``install_trackers(window)`` makes the controller with the window: once the warm-up is in it gives the
library a column per tracker and counts, in the background (the one task helper), what is due — the
shipped trackers after an upgrade, a tracker just added or edited. A changed transcript has already
been recounted by the service (its call only); the controller just shows that call's new counts.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from desktop.ui.actions import TRACKERS, ActionId

LEAD_IN_MS = 1000  # play from a second before the hit, to hear what led to it
PAUSE_S = 0.003  # the count rests this long every ~10 ms: the filter and the keys stay quick meanwhile


class TrackersController(QObject):
    message = Signal(str)
    counted = Signal()  # a library recount finished (the dialog and the hits list refresh)

    def __init__(self, window):
        super().__init__(window)
        self.window = window
        self.store = window.store
        self._task = None
        self._again = False  # a change came while counting: count again when it ends
        self._closed = False
        self._said = ""  # the progress line last shown, cleared when the count ends
        self._shown = False
        self.dialog = None
        self.hits_dialog = None

    def action_slots(self) -> dict:
        return {ActionId.TRACKERS: self.open_dialog}

    # --- the library's columns -------------------------------------------------------------------------

    def show_columns(self) -> None:
        """Every tracker as a library column with each call's counts."""
        from desktop.services import trackers

        if self._closed:
            return
        rows = trackers.list_trackers(self.store)
        self.window.library_model.set_trackers([(r.id, r.key, r.name) for r in rows],
                                               trackers.counts_by_call(self.store))
        self._shown = True

    def start(self) -> None:
        """After the warm-up: the columns, then whatever is due counted in the background."""
        self.show_columns()
        self.count_pending()

    def on_store_changed(self, change) -> None:
        from desktop.services.changes import SUGGESTIONS, TRACKERS as TRACKER_PART, TRANSCRIPT

        if not self._shown or self._closed:
            return
        if change.touches(TRACKER_PART):
            self.show_columns()
            self.count_pending()
        elif change.call_id is not None and change.touches(TRANSCRIPT, SUGGESTIONS):
            self.refresh_call(change.call_id)

    def refresh_call(self, call_id: int) -> None:
        from desktop.services import trackers

        counts = trackers.counts_by_call(self.store, call_id).get(int(call_id), {})
        self.window.library_model.set_call_counts(int(call_id), counts)

    # --- counting in the background ------------------------------------------------------------------------

    @property
    def counting(self) -> bool:
        return self._task is not None and self._task.running

    def count_pending(self) -> None:
        from desktop.ui.tasks import run_task

        if self._closed:
            return
        if self.counting:
            self._again = True
            return
        store = self.store

        def due():
            from desktop.services import trackers
            from desktop.services.library_pass import paced

            hits = 0
            # A long library is read in a child process; the status line hears at most ten steps a second.
            for step in paced(trackers.recount_library(store, pause_s=PAUSE_S)):
                hits = step.hits
                yield step
            return hits

        def progress(step) -> None:
            if step.total:  # a library with no transcript yet has nothing to count: nothing to say
                self._said = f"Counting tracker {step.tracker}… {step.done:,} of {step.total:,} calls"
                self.window.show_message(self._said)

        self._task = run_task(due, self._on_counted, receiver=self, on_progress=progress,
                              on_error=lambda exc: self.message.emit(f"Trackers: {exc}"),
                              name="callmark-trackers-library")

    def _on_counted(self, _hits) -> None:
        self._task = None
        if self._closed:
            return
        if self._said and self.window.status.text() == self._said:
            self.window.show_message("")  # the count is done: its last step is no news any more
        self._said = ""
        self.show_columns()
        self.counted.emit()
        if self._again:
            self._again = False
            self.count_pending()

    def wait(self, seconds: float = 30) -> bool:
        """For tests and the close: True once no count is running."""
        return self._task is None or self._task.wait(seconds)

    def shutdown(self, seconds: float = 10) -> None:
        """The window is closing: the count stops at its next step, before the store closes."""
        self._closed = True
        if self._task is not None:
            self._task.cancel()
            self._task.wait(seconds)
        self._task = None

    # --- dialogs and playing a hit ---------------------------------------------------------------------

    def open_dialog(self):
        from desktop.ui.trackers.dialog import TrackersDialog

        if self.dialog is None:
            self.dialog = TrackersDialog(self, self.window)
        self.dialog.reload()
        self.dialog.show()
        self.dialog.raise_()
        return self.dialog

    def open_hits(self, tracker_name: str):
        from desktop.ui.trackers.hits import TrackerHitsDialog

        if self.hits_dialog is None:
            self.hits_dialog = TrackerHitsDialog(self, self.window)
        self.hits_dialog.show_tracker(tracker_name)
        self.hits_dialog.show()
        self.hits_dialog.raise_()
        return self.hits_dialog

    def play_hit(self, call_id: int, start_ms: int) -> None:
        """Open the hit's call (if it is not the one open) and play from a second before the line."""
        workspace = self.window.workspace
        if workspace.call is None or workspace.call.id != call_id:
            self.window.open_call(call_id)
        if workspace.call is None or workspace.call.id != call_id:
            return  # the call could not be opened; the window said why
        workspace.seek(max(0, int(start_ms) - LEAD_IN_MS))
        self.window.playback.play()

    def run(self, op):
        """A tracker edit through the window's undo history (None and a message when refused)."""
        return self.window.history.run(op)


def trackers_controller(window) -> TrackersController:
    return TrackersController(window)


def install_trackers(window) -> TrackersController:
    """Made with the window: the columns and the count come once the warm-up is in."""
    controller = trackers_controller(window)
    window.registry.adopt(TRACKERS, controller)
    window.trackers = controller
    controller.message.connect(window.show_message)
    window.history.changed.connect(controller.on_store_changed)
    window.when_warm(controller.start)
    return controller
