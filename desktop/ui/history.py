"""The window's one undo history, and the one signal that says what changed in the store.

Every coach edit is a service operation returning a ``Change``
(desktop.services.changes). ``History.run(op)`` runs it, puts it on the undo
stack (Ctrl+Z / Ctrl+Shift+Z) and emits ``changed(change)``; undo and redo
emit the Change they made. A change made without undo (a transcript arriving,
a record imported) is told with ``tell``. Views refresh from ``changed``, each
only for the parts it shows, whichever path made the change; the history
stays when the coach switches calls, so an edit on the last call can still be
taken back (the message says which call it was on).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack

from desktop.errors import CallmarkError
from desktop.services.changes import Change

_MERGEABLE = 7001  # QUndoCommand.id() of commands that may merge (same merge key: one undo step)


class _ChangeCommand(QUndoCommand):
    def __init__(self, history: History, change: Change, merge_key):
        super().__init__(change.label)
        self.history = history
        self.merge_key = merge_key
        self._undo = change.undo  # takes the state back to before this command
        self._redo = None  # set by an undo: takes it forward again
        self._first = True

    def redo(self) -> None:
        if self._first:  # pushed after the operation already ran
            self._first = False
            return
        made = self.history.apply(self._redo, "Redo")
        if made is not None:
            self._undo = made.undo

    def undo(self) -> None:
        made = self.history.apply(self._undo, "Undo")
        if made is not None:
            self._redo = made.undo

    def id(self) -> int:
        return _MERGEABLE if self.merge_key is not None else -1

    def mergeWith(self, other: QUndoCommand) -> bool:  # noqa: N802 - Qt's name
        # Typing into one field is one step: the first command's undo already goes back to before it.
        return isinstance(other, _ChangeCommand) and other.merge_key == self.merge_key


class History(QObject):
    changed = Signal(object)  # Change
    message = Signal(str)  # one line for the coach: a refused edit, an undo on another call

    def __init__(self, store, parent: QObject | None = None):
        super().__init__(parent)
        self.store = store
        self.stack = QUndoStack(self)
        self.current_call: Callable[[], int | None] = lambda: None  # to say when an undo is on another call

    def run(self, op: Callable[[], Change], *, merge_key=None, raise_refusal: bool = False) -> Change | None:
        """Run one coach edit; None (and ``message``) when the store refused it — or, with
        ``raise_refusal``, the CallmarkError for the caller to show where the coach is typing."""
        try:
            made = op()
        except CallmarkError as exc:
            if raise_refusal:
                raise
            self.message.emit(str(exc))
            return None
        if made.undo is not None:
            self.stack.push(_ChangeCommand(self, made, merge_key))
        self.changed.emit(made)
        return made

    def tell(self, made: Change) -> None:
        """A change made elsewhere (no undo): the views refresh all the same."""
        self.changed.emit(made)

    def apply(self, step, verb: str) -> Change | None:
        try:
            made = step(self.store)
        except CallmarkError as exc:
            self.message.emit(f"{verb} failed: {exc}")
            return None
        self.changed.emit(made)
        here = self.current_call()
        if made.call_id is not None and here is not None and made.call_id != here:
            self.message.emit(f"{verb}: {made.label.lower()} on call {made.call_id} (not the one open)")
        return made

    def undo(self) -> None:
        self.stack.undo()

    def redo(self) -> None:
        self.stack.redo()
