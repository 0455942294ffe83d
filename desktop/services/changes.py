"""What a write changed, and how to take it back: the value every coach edit returns.

A service *operation* (``moments.mark``, ``items.edit``, ``crm.link``, …) writes
through the store's one writer and returns a ``Change``: a label in the coach's
words ("Edit note"), the parts of the store it touched (so each view refreshes
only its own), the call and record ids, the row written, and ``undo``: a
function of the store that takes the change back and returns *its* Change —
whose ``undo`` is the redo. The GUI keeps these on one undo stack
(desktop.ui.history); the command line ignores ``undo``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

# The parts of the store a change may touch (the views listen by part).
CALLS = "calls"
MOMENTS = "moments"
ITEMS = "items"
TRANSCRIPT = "transcript"
CRM = "crm"
CYCLES = "cycles"
SESSIONS = "sessions"
OBSERVATIONS = "observations"
PARKED = "parked"  # observations parked for a later cycle
SUGGESTIONS = "suggestions"
RECORDS = "records"  # another coach's record imported (calibration)
TRACKERS = "trackers"  # a tracker added, edited or removed (its counts follow)


@dataclass(frozen=True)
class Change:
    label: str
    parts: frozenset[str]
    call_id: int | None = None
    ids: tuple[int, ...] = ()
    row: Any = field(default=None, compare=False)  # what was written, for the caller to show
    undo: Callable[[Any], Change] | None = field(default=None, compare=False, repr=False)

    def touches(self, *parts: str) -> bool:
        return any(p in self.parts for p in parts)


def change(label: str, *parts: str, call_id: int | None = None, ids=(), row=None,
           undo: Callable[[Any], Change] | None = None) -> Change:
    return Change(label, frozenset(parts), call_id, tuple(int(i) for i in ids if i is not None), row, undo)
