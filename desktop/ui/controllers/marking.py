"""Marking and editing moments: every change written to the store at once, and undoable.

Each change is a moments operation run through the window's history
(desktop.ui.history), so Ctrl+Z after a delete puts the moment back in the store
with its id and links. The list follows the history's ``changed`` signal, not
the commands, so an undo made later (on this call or after coming back to it)
shows the same way.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Signal

from desktop.core.enums import MomentKind
from desktop.core.timefmt import format_ms
from desktop.errors import NotFound
from desktop.services.changes import MOMENTS, Change
from desktop.services.rows import DEFAULT_SPAN_MS, text_under
from desktop.ui.models.moments_model import MomentsModel
from desktop.ui.models.transcript_model import TranscriptModel

def _moment_service():
    # Imported at the first write: the service brings SQLAlchemy, which the window does not need to
    # show a call (it is imported in the background once the window is up).
    from desktop.services import moments

    return moments


class MarkingController(QObject):
    moment_marked = Signal(int)
    moment_changed = Signal(int)  # added, edited or restored
    moment_removed = Signal(int)
    select_requested = Signal(object)  # moment id to select in the list
    message = Signal(str)

    def __init__(self, store, moments: MomentsModel, transcript: TranscriptModel,
                 mark_position: Callable[[], int], history, parent=None):
        super().__init__(parent)
        self.store = store
        self.moments = moments
        self.transcript = transcript
        self._mark_position = mark_position  # the playback clock minus the reaction delay
        self.history = history
        history.changed.connect(self.on_store_changed)
        self.call_id: int | None = None
        self.call_duration_ms = 0
        self.open_moment_id: int | None = None  # the one End applies to
        self.selected_id: int | None = None

    def set_call(self, call_id: int | None, duration_ms: int = 0) -> None:
        self.call_id = call_id
        self.call_duration_ms = duration_ms
        self.open_moment_id = None
        self.selected_id = None  # the history stays: an edit on the last call can still be undone

    # --- the list follows the store -----------------------------------------------------

    def on_store_changed(self, change: Change) -> None:
        if not change.touches(MOMENTS) or change.call_id != self.call_id or self.call_id is None:
            return
        for moment_id in change.ids:
            try:
                row = _moment_service().get_moment(self.store, moment_id)
            except NotFound:
                row = None
            if row is not None and row.call_id == self.call_id:
                self.moments.put(row)
                self.moment_changed.emit(row.id)
            elif self.moments.get(moment_id) is not None:
                self.moments.remove(moment_id)
                if self.open_moment_id == moment_id:
                    self.open_moment_id = None
                self.moment_removed.emit(moment_id)

    def _run(self, op, **kwargs) -> Change | None:
        return self.history.run(op, **kwargs)

    # --- marking --------------------------------------------------------------------------

    def mark(self, kind: str = MomentKind.OTHER.value) -> int | None:
        """A moment at the playhead minus the reaction delay, spanning the default length."""
        if self.call_id is None:
            self.message.emit("Open a call first, then mark.")
            return None
        start = max(0, int(self._mark_position()))
        end = start + DEFAULT_SPAN_MS
        if self.call_duration_ms:
            start = min(start, self.call_duration_ms)
            end = min(end, self.call_duration_ms)
        quote, speaker = text_under(self.transcript.segments(), start, end)
        call_id = self.call_id
        made = self._run(lambda: _moment_service().mark(self.store, call_id, start, end, kind=kind, quote=quote,
                                                        speaker=speaker))
        if made is None:
            return None
        moment_id = made.row.id
        self.open_moment_id = moment_id
        self.select_requested.emit(moment_id)
        self.moment_marked.emit(moment_id)
        self.message.emit(f"Marked {format_ms(start)} — Ctrl+Shift+M sets its end, Ctrl+1…5 its kind")
        return moment_id

    def end_mark(self) -> None:
        target = self.open_moment_id or self.selected_id
        moment = self.moments.get(target) if target is not None else None
        if moment is None:
            self.message.emit("Mark a moment first (Ctrl+M), then set its end.")
            return
        end = int(self._mark_position())
        if end <= moment.start_ms:
            self.message.emit(f"The end ({format_ms(max(0, end))}) must come after the start "
                              f"({format_ms(moment.start_ms)}).")
            return
        self.set_span(moment.id, moment.start_ms, end)

    def set_span(self, moment_id: int, start_ms: int, end_ms: int) -> None:
        moment = self.moments.get(moment_id)
        if moment is None or (start_ms, end_ms) == (moment.start_ms, moment.end_ms):
            return
        quote, speaker = text_under(self.transcript.segments(), start_ms, end_ms)
        changes = {"start_ms": int(start_ms), "end_ms": int(end_ms), "quote": quote, "speaker": speaker}
        if self._run(lambda: _moment_service().edit(self.store, moment_id, **changes)) is not None:
            self.select_requested.emit(moment_id)

    def set_kind(self, kind: MomentKind | str) -> None:
        target = self.selected_id or self.open_moment_id
        moment = self.moments.get(target) if target is not None else None
        if moment is None:
            self.message.emit("Select or mark a moment first, then give it a kind.")
            return
        self.edit(moment.id, "kind", MomentKind(kind).value)

    def edit(self, moment_id: int, field: str, value) -> None:
        moment = self.moments.get(moment_id)
        if moment is None or getattr(moment, field) == value:
            return
        # Typing a note is one undo step (the pauses between words each save).
        merge = ("note", moment_id) if field == "note" else None
        self._run(lambda: _moment_service().edit(self.store, moment_id, **{field: value}), merge_key=merge)

    def delete_selected(self) -> None:
        moment = self.moments.get(self.selected_id) if self.selected_id is not None else None
        if moment is None:
            self.message.emit("Select a moment to delete.")
            return
        if self._run(lambda: _moment_service().remove(self.store, moment.id)) is not None:
            self.message.emit(f"Deleted the moment at {format_ms(moment.start_ms)} — Ctrl+Z brings it back")

    def on_selection(self, moment_id: int | None) -> None:
        self.selected_id = moment_id
