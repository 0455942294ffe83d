"""The review: what the rule proposes and why, the baseline beside the current evidence, the coach's call.

The decision is one coach edit run through ``run`` (the window's history): Ctrl+Z takes it back."""

from __future__ import annotations

from datetime import date

from PySide6.QtWidgets import (
    QButtonGroup, QDialog, QDialogButtonBox, QGroupBox, QHBoxLayout, QLabel, QListWidget, QPlainTextEdit,
    QRadioButton, QVBoxLayout, QWidget,
)

from desktop.core.enums import ReviewDecision
from desktop.errors import CallmarkError
from desktop.services import coaching_edits as edits
from desktop.services import observations
from desktop.services.observations import ObservationRow
from desktop.ui.style import text_box_height

WORDS = {ReviewDecision.CONTINUE: "Continue the behavior", ReviewDecision.ADAPT: "Adapt the practice",
         ReviewDecision.REPLACE: "Replace the behavior"}


def _line(row: ObservationRow) -> str:
    where = row.call_title or str(row.source).replace("_", " ")
    text = f"{row.observed_on:%d %b}  {row.seen_label:<9} {where}"
    return f"{text} — {row.evidence}" if row.evidence else text


class ReviewDialog(QDialog):
    def __init__(self, store, item_id: int, cycle_id: int | None, on: date | None = None,
                 parent: QWidget | None = None, run=None):
        super().__init__(parent)
        self.store = store
        self.run = run or (lambda op, **_kwargs: op())
        self.item_id = item_id
        self.on = on or date.today()
        self.saved = None
        self.setWindowTitle("Review: continue, adapt or replace?")
        self.resize(820, 560)
        self.proposal = observations.propose_review(store, item_id, self.on)
        proposed = QLabel(f"<b>The rule proposes:</b> "
                          f"{WORDS.get(self.proposal.decision, 'wait for more evidence')}<br>"
                          f"<i>{self.proposal.reason}</i>")
        proposed.setObjectName("proposal")
        proposed.setWordWrap(True)

        compare = QHBoxLayout()
        self.baseline = QListWidget()
        self.current = QListWidget()
        if cycle_id is not None:
            side = observations.compare(store, cycle_id, self.on)
            base_box = QGroupBox(f"Baseline (days 1–30): seen in {side.baseline_seen[0]} of "
                                 f"{side.baseline_seen[1]}")
            base_layout = QVBoxLayout(base_box)
            notes = QLabel(side.baseline_notes or "(no baseline notes)")
            notes.setWordWrap(True)
            base_layout.addWidget(notes)
            base_layout.addWidget(self.baseline)
            self.baseline.addItems([_line(r) for r in side.baseline])
            now_box = QGroupBox(f"Now (from day 31): seen in {side.current_seen[0]} of {side.current_seen[1]}")
            QVBoxLayout(now_box).addWidget(self.current)
            self.current.addItems([_line(r) for r in side.current])
            compare.addWidget(base_box)
            compare.addWidget(now_box)

        self.group = QButtonGroup(self)
        choice = QHBoxLayout()
        self.buttons: dict[ReviewDecision, QRadioButton] = {}
        for decision, text in WORDS.items():
            button = QRadioButton(text)
            self.buttons[decision] = button
            self.group.addButton(button)
            choice.addWidget(button)
        if self.proposal.decision is not None:
            self.buttons[self.proposal.decision].setChecked(True)
        self.rationale = QPlainTextEdit()
        self.rationale.setPlaceholderText("Why (required when you decide otherwise than proposed)")
        self.rationale.setFixedHeight(text_box_height(self.rationale, 3, 70))  # grows with the font
        self.message = QLabel()
        self.message.setStyleSheet("color: #b42318;")
        box = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel)
        box.accepted.connect(self.on_save_clicked)
        box.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(proposed)
        layout.addLayout(compare, 1)
        layout.addLayout(choice)
        layout.addWidget(self.rationale)
        layout.addWidget(self.message)
        layout.addWidget(box)

    def on_save_clicked(self) -> None:
        decision = next((d for d, b in self.buttons.items() if b.isChecked()), None)
        if decision is None:
            self.message.setText("Choose continue, adapt or replace.")
            return
        try:
            rationale = self.rationale.toPlainText()
            self.saved = self.run(lambda: edits.decide_review(self.store, self.item_id, decision, rationale,
                                                              self.on)).row
        except CallmarkError as exc:
            self.message.setText(str(exc))
            return
        self.accept()
