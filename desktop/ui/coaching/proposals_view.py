"""Observations proposed from later calls: the coach confirms or corrects each with one key.

One row per later call of the manager's team where the cycle's item indicator
(tied to a detector) had an occasion: seen / not seen / partly, with the
moment as evidence. Enter opens the call a second before the moment; C keeps
the proposal as it is, Y / N / P keep it as seen / not seen / partly. Only
what the coach keeps counts, in the review rule and the adoption indicator.
"""

from __future__ import annotations

from datetime import date

from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from desktop.core.enums import Seen
from desktop.services import adoption
from desktop.services.changes import CALLS, CYCLES, ITEMS, OBSERVATIONS, SUGGESTIONS, TRANSCRIPT
from desktop.ui.coaching.library_table import LEAD_IN_MS, KeyTable, RowsModel, at

COLUMNS = (
    ("Proposed", lambda p: p.seen_label),
    ("Call", lambda p: p.title),
    ("Date", lambda p: p.recorded_on.isoformat() if p.recorded_on else ""),
    ("Rep", lambda p: p.rep or "—"),
    ("At", lambda p: at(p.start_ms)),
    ("For", lambda p: f"next recording (obs. {p.fills})" if p.fills else f"item {p.item_id}"),
    ("Evidence", lambda p: p.evidence),
)
KEYS = {"c": None, "y": Seen.YES, "n": Seen.NO, "p": Seen.PARTIAL}


class ProposalsView(QWidget):
    def __init__(self, store, run, play_at, parent: QWidget | None = None):
        super().__init__(parent)
        self.store, self.run, self.play_at = store, run, play_at
        self.cycle_id: int | None = None
        self.on: date | None = None
        self.summary = QLabel()
        self.summary.setObjectName("proposalsSummary")
        self.summary.setWordWrap(True)
        self.model = RowsModel(COLUMNS, self)
        self.table = KeyTable(self.model, "Proposed observations", keys="cynp")
        self.table.setToolTip("Enter: listen · C: confirm as proposed · Y seen · N not seen · P partly")
        for col, width in enumerate((80, 200, 95, 120, 70, 150)):
            self.table.setColumnWidth(col, width)
        self.buttons = {}
        row = QHBoxLayout()
        for key, text, name in (("open", "Listen (Enter)", "Open the call at the moment"),
                                ("c", "Confirm (C)", "Confirm as proposed"), ("y", "Seen (Y)", "Confirm as seen"),
                                ("n", "Not seen (N)", "Confirm as not seen"), ("p", "Partly (P)", "Confirm as partly")):
            button = self.buttons[key] = QPushButton(text)
            button.setAccessibleName(name)
            row.addWidget(button)
            if key == "open":
                button.clicked.connect(lambda: self.open_proposal(self.table.current_row()))
            else:
                button.clicked.connect(lambda _c=False, k=key: self.keep(self.table.current_row(), k))
        row.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addWidget(self.table, 1)
        layout.addLayout(row)
        self.table.opened.connect(self.open_proposal)
        self.table.key_pressed.connect(lambda key, p: self.keep(p, key))

    def show_cycle(self, cycle_id: int | None, on: date | None = None) -> None:
        self.cycle_id, self.on = cycle_id, on
        self.refresh()

    def refresh(self) -> None:
        at = self.table.currentIndex().row()
        rows = adoption.proposed(self.store, self.cycle_id, self.on) if self.cycle_id is not None else []
        self.model.set_rows(rows)
        if self.cycle_id is None:
            self.summary.setText("No cycle for this manager yet.")
        elif rows:
            self.summary.setText(f"{len(rows)} proposed observations wait for you: listen (Enter), then keep "
                                 "each as proposed (C) or correct it (Y seen · N not seen · P partly). "
                                 "Only what you keep counts.")
        else:
            self.summary.setText("Nothing to confirm: no later call with an occasion for an indicator tied to a "
                                 "detector (pick a focus in the Baseline tab to tie one).")
        if rows:
            self.table.selectRow(min(max(at, 0), len(rows) - 1))

    def on_store_changed(self, change) -> None:
        if self.cycle_id is not None and change.touches(OBSERVATIONS, SUGGESTIONS, CALLS, CYCLES, ITEMS,
                                                        TRANSCRIPT):
            self.refresh()

    def open_proposal(self, p) -> None:
        if p is not None:
            self.play_at(p.call, max(0, (p.start_ms or 0) - LEAD_IN_MS))

    def keep(self, p, key: str) -> None:
        if p is None or self.cycle_id is None:
            return
        cycle_id, on = self.cycle_id, self.on
        self.run(lambda: adoption.confirm(self.store, cycle_id, p.item_id, p.call, KEYS[key], on))
