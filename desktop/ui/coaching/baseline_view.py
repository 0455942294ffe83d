"""The cycle's baseline read from the calls (days 1–15), and the coaching weeks beside it to compare.

Each pattern across the manager's calls dated in the window: calls it appears
in, times, the reps, examples (Enter on an example opens its call a second
before the moment). From the compare phase (day 76 on) the same table for the
coaching weeks (days 31–75) stands beside the baseline. "Pick as focus…"
proposes a behavior from the behavior library and an indicator tied to the
pattern; the coach edits both before saving (one undoable edit).
"""

from __future__ import annotations

from datetime import date

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from desktop.core.adoption import proposed_focus
from desktop.core.cycles import Phase
from desktop.errors import CallmarkError
from desktop.services import coaching_queue, cycles, patterns
from desktop.services.changes import CALLS, CYCLES, SUGGESTIONS, TRANSCRIPT
from desktop.ui.coaching.library_table import LEAD_IN_MS, KeyTable, RowsModel, at

PATTERN_COLUMNS = (
    ("Pattern", lambda p: p.pattern.replace("_", " ")),
    ("Calls", lambda p: p.calls),
    ("Times", lambda p: p.count),
    ("Reps", lambda p: ", ".join(sorted(p.reps)) or "—"),
)
EXAMPLE_COLUMNS = (("Call", lambda e: e["title"]), ("Rep", lambda e: e["rep"] or "—"),
                   ("At", lambda e: at(e["start_ms"])), ("Date", lambda e: e["date"]))


class PatternTable(QGroupBox):
    """One window's table and the examples of the pattern picked in it."""

    def __init__(self, title: str, name: str, parent: QWidget | None = None):
        super().__init__(title, parent)
        self.titles: dict[int, tuple[str, str | None, str]] = {}  # call -> (title, rep, date)
        examples = ("Examples", lambda p: " · ".join(f"{self.titles.get(e['call'], ('?',))[0]} {at(e['start_ms'])}"
                                                     for e in p.examples))
        self.model = RowsModel((*PATTERN_COLUMNS, examples), self)
        self.table = KeyTable(self.model, f"{name} patterns")
        for col, width in enumerate((150, 46, 50, 170)):
            self.table.setColumnWidth(col, width)
        self.examples_model = RowsModel(EXAMPLE_COLUMNS, self)
        self.examples = KeyTable(self.examples_model, f"{name} examples")
        self.examples.setToolTip("Enter: open the call a second before the example")
        self.examples.setColumnWidth(0, 220)
        self.examples.setMaximumHeight(130)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table, 3)
        layout.addWidget(QLabel("Examples (Enter opens the call a second before):"))
        layout.addWidget(self.examples, 1)
        self.table.selectionModel().currentRowChanged.connect(lambda *_: self.show_examples())
        self.table.opened.connect(lambda _p: (self.examples.setFocus(), self.examples.select_first()))

    def set_patterns(self, rows, titles: dict[int, tuple[str, str | None, str]]) -> None:
        self.titles = titles
        self.model.set_rows(rows)
        self.table.select_first()
        self.show_examples()

    def picked(self):
        return self.table.current_row()

    def show_examples(self) -> None:
        p = self.picked()
        unknown = ("?", None, "")
        self.examples_model.set_rows([{**e, "title": self.titles.get(e["call"], unknown)[0],
                                       "rep": self.titles.get(e["call"], unknown)[1],
                                       "date": self.titles.get(e["call"], unknown)[2]}
                                      for e in (p.examples if p else [])])


class FocusDialog(QDialog):
    """The behavior and the indicator proposed for a pattern, editable before they are saved."""

    def __init__(self, pattern: str, needs_reason: bool, parent: QWidget | None = None, follows=None):
        super().__init__(parent)
        self.setWindowTitle(f"Focus from the baseline: {pattern.replace('_', ' ')}")
        self.resize(620, 340)
        behavior, indicator = proposed_focus(pattern, follows)  # follows: tracker name -> the label it follows
        self.behavior = QPlainTextEdit(behavior)
        self.behavior.setAccessibleName("Focus behavior")
        self.indicator = QPlainTextEdit(indicator)
        self.indicator.setAccessibleName("Indicator")
        self.reason = QLineEdit()
        self.reason.setAccessibleName("Why change the focus now")
        self.reason.setPlaceholderText("The cycle is under way: say why the focus changes")
        self.reason.setVisible(needs_reason)
        self.problem = QLabel()
        self.problem.setObjectName("focusProblem")
        self.problem.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel)
        buttons.button(QDialogButtonBox.StandardButton.Save).setAccessibleName("Save the focus")
        buttons.button(QDialogButtonBox.StandardButton.Cancel).setAccessibleName("Cancel")
        form = QFormLayout(self)
        form.addRow("Behavior", self.behavior)
        form.addRow("Indicator", self.indicator)
        form.addRow(QLabel(f"Adoption is read from the detector <b>{pattern}</b> on later calls."))
        if needs_reason:
            form.addRow("Reason", self.reason)
        form.addRow(self.problem)
        form.addRow(buttons)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)


class BaselineView(QWidget):
    """``run(op, raise_refusal=True)`` runs a coach edit; ``play_at(call, ms)`` opens a call there."""

    def __init__(self, store, run, play_at, parent: QWidget | None = None):
        super().__init__(parent)
        self.store, self.run, self.play_at = store, run, play_at
        self.cycle = None
        self.on: date | None = None
        self.heading = QLabel()
        self.heading.setObjectName("baselineHeading")
        self.heading.setWordWrap(True)
        self.baseline = PatternTable("Baseline, days 1–15", "Baseline")
        self.coaching = PatternTable("Coaching weeks, days 31–75", "Coaching weeks")
        self.pick_button = QPushButton("Pick as focus…")
        self.pick_button.setAccessibleName("Pick the pattern as the cycle's focus")
        tables = QHBoxLayout()
        tables.addWidget(self.baseline, 1)
        tables.addWidget(self.coaching, 1)
        row = QHBoxLayout()
        row.addWidget(self.pick_button)
        row.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addWidget(self.heading)
        layout.addLayout(tables, 1)
        layout.addLayout(row)
        for table in (self.baseline, self.coaching):
            table.examples.opened.connect(self.open_example)
        self.pick_button.clicked.connect(lambda: self.pick_focus())
        self.baseline.table.selectionModel().currentRowChanged.connect(lambda *_: self.follow_pattern())
        self.last_dialog: FocusDialog | None = None

    def show_cycle(self, cycle_id: int | None, on: date | None = None) -> None:
        self.on = on
        self.cycle = cycles.get_cycle(self.store, cycle_id, on) if cycle_id is not None else None
        self.refresh()

    def _titles(self, rows) -> dict[int, tuple[str, str | None, str]]:
        ids = sorted({e["call"] for p in rows for e in p.examples})
        if not ids:
            return {}
        marks = ",".join("?" * len(ids))
        return {i: (t, r, str(d or "")[:10]) for i, t, r, d in self.store.reader().execute(
            f'SELECT c.id, c.title, p.name, c.recorded_at FROM "call" c LEFT JOIN person p ON p.id = c.rep_id '
            f"WHERE c.id IN ({marks})", ids)}

    def refresh(self) -> None:
        c = self.cycle
        self.pick_button.setEnabled(c is not None)
        if c is None:
            self.heading.setText("No cycle for this manager yet.")
            self.baseline.set_patterns([], {})
            self.coaching.setVisible(False)
            return
        self.cycle = c = cycles.get_cycle(self.store, c.id, self.on)
        rows = coaching_queue.baseline(self.store, c.id)
        compare = c.now.phase in (Phase.COMPARE, Phase.ENDED)
        weeks = coaching_queue.baseline(self.store, c.id, window="coaching") if compare else []
        # Side by side, row for row: the coaching weeks in the baseline's order, new patterns after.
        place = {p.pattern: n for n, p in enumerate(rows)}
        weeks.sort(key=lambda p: place.get(p.pattern, len(place)))
        self.baseline.set_patterns(rows, self._titles(rows + weeks))
        self.coaching.set_patterns(weeks, self.baseline.titles)
        self.coaching.setVisible(compare)
        self.follow_pattern()
        self.heading.setText(
            f"<b>{c.manager}</b> — day {c.now.day}: {c.now.label}. "
            f"Focus: <i>{c.focus_behavior or 'not chosen yet'}</i>"
            + ("<br>Compare: the coaching weeks stand beside the baseline." if compare else ""))

    def follow_pattern(self) -> None:
        """The coaching weeks show the pattern picked in the baseline: compared row to row."""
        p = self.baseline.picked()
        model = self.coaching.model
        for n in range(model.rowCount()):
            if p is not None and model.row(n).pattern == p.pattern:
                self.coaching.table.selectRow(n)
                return

    def on_store_changed(self, change) -> None:
        if self.cycle is not None and change.touches(SUGGESTIONS, CALLS, CYCLES, TRANSCRIPT):
            self.refresh()

    def open_example(self, example) -> None:
        if example is not None:
            self.play_at(example["call"], max(0, example["start_ms"] - LEAD_IN_MS))

    def pick_focus(self, answer=None) -> bool:
        """Propose a behavior and an indicator for the picked pattern; ``answer(dialog)`` fills the dialog
        in tests (else the coach does)."""
        from desktop.core import cycles as method
        from desktop.services import adoption

        p = self.baseline.picked()
        if self.cycle is None or p is None:
            return False
        c = self.cycle
        needs = bool(c.focus_behavior) and not method.can_change_focus(c.start_date, c.as_of).allowed
        dialog = self.last_dialog = FocusDialog(p.pattern, needs, self, follows=patterns.follows(self.store))
        while (answer(dialog) if answer else dialog.exec()) == QDialog.DialogCode.Accepted:
            try:
                self.run(lambda: adoption.set_focus_from_pattern(
                    self.store, c.id, p.pattern, dialog.behavior.toPlainText(), dialog.indicator.toPlainText(),
                    on=c.as_of, reason=dialog.reason.text() or None), raise_refusal=True)
            except CallmarkError as exc:
                dialog.problem.setText(str(exc))
                if answer:
                    return False
                continue
            self.refresh()
            return True
        return False
