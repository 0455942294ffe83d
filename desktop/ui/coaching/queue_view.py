"""The coaching queue for one manager: the moments worth bringing into the next session.

Ranked by the service (desktop.services.coaching_queue): suggestions matching
the cycle's focus first, then by label weight, then the newest call. Each row
says why, on which call, for which rep; Enter opens the call a second before
the moment. Accepting or dismissing a suggestion (here or in the workspace)
takes it off: the view refreshes on the store's one change signal.
"""

from __future__ import annotations

from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from desktop.services import coaching_queue
from desktop.services.changes import CALLS, CYCLES, SUGGESTIONS, TRANSCRIPT
from desktop.ui.coaching.library_table import LEAD_IN_MS, KeyTable, RowsModel, at

COLUMNS = (
    ("Focus", lambda e: "★" if e.focus else ""),
    ("Label", lambda e: e.label.replace("_", " ")),
    ("Call", lambda e: e.title),
    ("Rep", lambda e: e.rep or "—"),
    ("At", lambda e: at(e.start_ms)),
    ("Date", lambda e: (e.recorded_at or "")[:10]),
    ("Quote", lambda e: f"“{e.quote}”"),
    ("Reason", lambda e: e.reason),
)
REP_COLUMN = 3
SHOWN = 200  # the first ones are what the next session can use; the rest wait their turn


class QueueView(QWidget):
    """``play_at(call_id, ms)`` opens a call and plays from ``ms``; ``run(op)`` runs a coach edit."""

    def __init__(self, store, run, play_at, parent: QWidget | None = None):
        super().__init__(parent)
        self.store, self.run, self.play_at = store, run, play_at
        self.manager: str | None = None
        self.summary = QLabel()
        self.summary.setObjectName("queueSummary")
        self.summary.setWordWrap(True)
        self.model = RowsModel(COLUMNS, self)
        self.table = KeyTable(self.model, "Coaching queue", keys="ad")
        self.table.setToolTip("Enter: open the call at the moment · A: accept · D: dismiss")
        for col, width in enumerate((48, 150, 160, 110, 56, 90, 280)):
            self.table.setColumnWidth(col, width)
        self.open_button = QPushButton("Open at the moment (Enter)")
        self.accept_button = QPushButton("Accept (A)")
        self.dismiss_button = QPushButton("Dismiss (D)")
        for button, name in ((self.open_button, "Open the call at the moment"),
                             (self.accept_button, "Accept the suggestion"),
                             (self.dismiss_button, "Dismiss the suggestion")):
            button.setAccessibleName(name)
        buttons = QHBoxLayout()
        for b in (self.open_button, self.accept_button, self.dismiss_button):
            buttons.addWidget(b)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addWidget(self.table, 1)
        layout.addLayout(buttons)
        self.table.opened.connect(self.open_entry)
        self.table.key_pressed.connect(lambda key, e: self.decide(e, "accepted" if key == "a" else "dismissed"))
        self.open_button.clicked.connect(lambda: self.open_entry(self.table.current_row()))
        self.accept_button.clicked.connect(lambda: self.decide(self.table.current_row(), "accepted"))
        self.dismiss_button.clicked.connect(lambda: self.decide(self.table.current_row(), "dismissed"))

    def show_manager(self, manager: str | None) -> None:
        self.manager = manager
        self.refresh()

    def refresh(self) -> None:
        at = self.table.currentIndex().row()
        entries = coaching_queue.queue(self.store, self.manager, limit=SHOWN) if self.manager else []
        self.model.set_rows(entries)
        focus = sum(e.focus for e in entries)
        calls = len({e.call for e in entries})
        self.summary.setText(
            f"<b>{self.manager}</b>: {'the first ' if len(entries) == SHOWN else ''}{len(entries)} moments to review "
            f"on {calls} calls"
            + (f", {focus} matching the cycle's focus (★) first" if focus else "")
            + " · Enter opens the call a second before the moment" if self.manager else "Choose a manager.")
        if entries:
            self.table.selectRow(min(max(at, 0), len(entries) - 1))

    def on_store_changed(self, change) -> None:
        if change.touches(SUGGESTIONS, CALLS, CYCLES, TRANSCRIPT):
            self.refresh()

    def open_entry(self, entry) -> None:
        if entry is not None:
            self.play_at(entry.call, max(0, entry.start_ms - LEAD_IN_MS))

    def decide(self, entry, verdict: str) -> None:
        if entry is None:
            return
        from desktop.services import suggestions

        self.run(lambda: suggestions.decide(self.store, entry.call, [entry.finding_id], verdict))
