"""Marking and editing moments: every change written to the store at once, and undoable.

Each change is a QUndoCommand whose redo/undo call the moments service, so
Ctrl+Z after a delete puts the moment back in the store with its id and links.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack

from desktop.core.enums import MomentKind
from desktop.core.timefmt import format_ms
from desktop.errors import CallmarkError
from desktop.services.rows import DEFAULT_SPAN_MS, MomentRow, text_under
from desktop.ui.models.moments_model import MomentsModel
from desktop.ui.models.transcript_model import TranscriptModel

NOTE_MERGE_ID = 1001


def _moment_service():
    # Imported at the first write: the service brings SQLAlchemy, which the window does not need to
    # show a call (it is imported in the background once the window is up).
    from desktop.services import moments

    return moments


class _MomentCommand(QUndoCommand):
    """do()/revert() talk to the store. The first do() runs before the push, so a refused
    change (e.g. a span past the end) raises to the caller and never reaches the stack."""

    def __init__(self, ctl: MarkingController, text: str):
        super().__init__(text)
        self.ctl = ctl
        self.done_once = False

    def redo(self) -> None:
        if self.done_once:
            self.done_once = False
            return
        self._guard(self.do)

    def undo(self) -> None:
        self._guard(self.revert)

    def _guard(self, step) -> None:
        # Qt swallows exceptions raised inside redo/undo: say what went wrong instead.
        try:
            step()
        except CallmarkError as exc:
            self.ctl.message.emit(str(exc))


class MarkCommand(_MomentCommand):
    def __init__(self, ctl, call_id: int, start_ms: int, end_ms: int, kind: str, quote: str, speaker):
        super().__init__(ctl, f"Mark at {format_ms(start_ms)}")
        self.args = (call_id, start_ms, end_ms, kind, quote, speaker)
        self.saved: dict | None = None
        self.moment_id: int | None = None

    def do(self) -> None:
        if self.saved is None:
            call_id, start, end, kind, quote, speaker = self.args
            row = _moment_service().add_moment(self.ctl.store, call_id, start, end, kind=kind, quote=quote,
                                            speaker=speaker)
        else:
            row = _moment_service().restore_moment(self.ctl.store, self.saved)
        self.moment_id = row.id
        self.ctl.show(row)

    def revert(self) -> None:
        self.saved = _moment_service().delete_moment(self.ctl.store, self.moment_id)
        self.ctl.hide(self.moment_id)


class DeleteCommand(_MomentCommand):
    def __init__(self, ctl, moment: MomentRow):
        super().__init__(ctl, f"Delete moment at {format_ms(moment.start_ms)}")
        self.moment_id = moment.id
        self.saved: dict | None = None

    def do(self) -> None:
        self.saved = _moment_service().delete_moment(self.ctl.store, self.moment_id)
        self.ctl.hide(self.moment_id)

    def revert(self) -> None:
        self.ctl.show(_moment_service().restore_moment(self.ctl.store, self.saved))


class EditCommand(_MomentCommand):
    def __init__(self, ctl, moment: MomentRow, new: dict, text: str):
        super().__init__(ctl, text)
        self.moment_id = moment.id
        self.old = {k: getattr(moment, k) for k in new}
        self.new = dict(new)

    def do(self) -> None:
        self.ctl.show(_moment_service().update_moment(self.ctl.store, self.moment_id, **self.new))

    def revert(self) -> None:
        self.ctl.show(_moment_service().update_moment(self.ctl.store, self.moment_id, **self.old))

    def id(self) -> int:
        return NOTE_MERGE_ID if set(self.new) == {"note"} else -1

    def mergeWith(self, other: QUndoCommand) -> bool:  # noqa: N802 - typing a note is one undo step
        if not isinstance(other, EditCommand) or other.moment_id != self.moment_id:
            return False
        self.new = dict(other.new)
        return True


class MarkingController(QObject):
    moment_marked = Signal(int)
    moment_changed = Signal(int)  # added, edited or restored
    moment_removed = Signal(int)
    select_requested = Signal(object)  # moment id to select in the list
    message = Signal(str)

    def __init__(self, store, moments: MomentsModel, transcript: TranscriptModel,
                 mark_position: Callable[[], int], undo_stack: QUndoStack, parent=None):
        super().__init__(parent)
        self.store = store
        self.moments = moments
        self.transcript = transcript
        self._mark_position = mark_position  # the playback clock minus the reaction delay
        self.undo_stack = undo_stack
        self.call_id: int | None = None
        self.call_duration_ms = 0
        self.open_moment_id: int | None = None  # the one End applies to
        self.selected_id: int | None = None

    def set_call(self, call_id: int | None, duration_ms: int = 0) -> None:
        self.call_id = call_id
        self.call_duration_ms = duration_ms
        self.open_moment_id = None
        self.selected_id = None
        self.undo_stack.clear()  # undo belongs to the call on screen

    # --- used by the commands --------------------------------------------------------

    def show(self, row: MomentRow) -> None:
        if row.call_id == self.call_id:
            self.moments.put(row)
            self.moment_changed.emit(row.id)

    def hide(self, moment_id: int) -> None:
        self.moments.remove(moment_id)
        if self.open_moment_id == moment_id:
            self.open_moment_id = None
        self.moment_removed.emit(moment_id)

    def _push(self, command: _MomentCommand) -> bool:
        try:
            command.do()
        except CallmarkError as exc:
            self.message.emit(str(exc))
            return False
        command.done_once = True
        self.undo_stack.push(command)
        return True

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
        command = MarkCommand(self, self.call_id, start, end, kind, quote, speaker)
        if not self._push(command):
            return None
        self.open_moment_id = command.moment_id
        self.select_requested.emit(command.moment_id)
        self.moment_marked.emit(command.moment_id)
        self.message.emit(f"Marked {format_ms(start)} — Ctrl+Shift+M sets its end, Ctrl+1…5 its kind")
        return command.moment_id

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
        if self._push(EditCommand(self, moment, changes, f"Move moment to {format_ms(int(start_ms))}")):
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
        label = {"kind": "Change kind", "note": "Edit note"}.get(field, f"Edit {field}")
        self._push(EditCommand(self, moment, {field: value}, label))

    def delete_selected(self) -> None:
        moment = self.moments.get(self.selected_id) if self.selected_id is not None else None
        if moment is None:
            self.message.emit("Select a moment to delete.")
            return
        self._push(DeleteCommand(self, moment))
        self.message.emit(f"Deleted the moment at {format_ms(moment.start_ms)} — Ctrl+Z brings it back")

    def on_selection(self, moment_id: int | None) -> None:
        self.selected_id = moment_id
