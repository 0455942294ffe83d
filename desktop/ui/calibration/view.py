"""The side-by-side layout: figures on top, the two-lane timeline, the rows, and for the selected row
the two coaches' items in two columns with the words that differ highlighted, plus the agree choice."""

from __future__ import annotations

from html import escape

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (QAbstractItemView, QButtonGroup, QGridLayout, QHBoxLayout, QHeaderView, QLabel,
                               QPushButton, QRadioButton, QSplitter, QTableView, QTextBrowser, QVBoxLayout, QWidget)

from desktop.core.timefmt import format_ms
from desktop.services import calibration as cal
from desktop.ui.calibration.timeline import TwoLaneTimeline
from desktop.ui.models.row_table import RowTableModel
from desktop.ui.style import label_look, table_look, theme

ITEM_FIELDS = (("consequence", "Still unknown"), ("behavior_text", "Behavior"), ("practice_task", "Practice"))
COLUMNS = ("#", "Mine", "Theirs", "Start diff", "Agreed")


def _when(moment) -> str:
    if moment is None:
        return "—"
    seconds = moment.start_ms // 1000
    return f"{seconds // 60}:{seconds % 60:02d}  {moment.kind.replace('_', ' ')}"


class RowsModel(RowTableModel):
    """The calibration's rows (pairs and moments only one coach marked) with each row's choice."""

    columns = COLUMNS

    def __init__(self, parent=None):
        super().__init__(parent)
        self.rows: list[cal.Row] = []
        self.choices: dict[str, str] = {}

    def set_rows(self, rows: list[cal.Row], choices: dict[str, str]) -> None:
        self.beginResetModel()
        self.rows, self.choices = list(rows), dict(choices)
        self.endResetModel()

    def set_choice(self, index: int, choice: str) -> None:
        self.choices[self.rows[index].key] = choice
        cell = self.index(index, len(COLUMNS) - 1)
        self.dataChanged.emit(cell, cell)

    def row_count(self) -> int:
        return len(self.rows)

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        row = self.rows[index.row()]
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            if column == 0:
                return str(index.row() + 1)
            if column == 1:
                return _when(row.mine)
            if column == 2:
                return _when(row.theirs)
            if column == 3:
                return "one coach" if row.start_diff_ms is None else f"{row.start_diff_ms / 1000:+.1f} s"
            return self.choices.get(row.key, "—")
        if role == Qt.ItemDataRole.ForegroundRole:
            if column == 1 and row.mine:
                return QColor(theme().mine)
            if column == 2 and row.theirs:
                return QColor(theme().theirs)
            if column == 3 and row.start_diff_ms is None:
                return QColor(theme().alone)
        return None


def item_html(moment, other, coach: str, colour: str) -> str:
    """One coach's column: the moment, then the item with the words the other coach wrote otherwise marked."""
    head = f"<h3 style='color:{colour};margin:0'>{escape(coach)}</h3>"
    if moment is None:
        return head + "<p><i>Not marked.</i></p>"
    quote = f"<p style='margin:4px 0'><i>“{escape(moment.quote)}”</i></p>" if moment.quote else ""
    note = (f"<p style='margin:4px 0'><b style='color:{theme().muted_text}'>Note</b><br>{escape(moment.note)}</p>"
            if moment.note else "")
    parts = [head, f"<p style='margin:2px 0;color:{theme().muted_text}'>{escape(format_ms(moment.start_ms))} – "
                   f"{escape(format_ms(moment.end_ms))} · {escape(moment.kind.replace('_', ' '))}</p>", quote, note]
    item, other_item = moment.item or {}, (other.item if other else None) or {}
    if not item:
        return "".join(parts) + "<p><i>No coaching item from this moment.</i></p>"
    for key, title in ITEM_FIELDS:
        text = item.get(key) or ""
        runs = cal.word_diff(text, other_item.get(key) or "")[0] if other is not None else [(text, False)]
        body = " ".join(f"<span style='background:{theme().difference}'>{escape(t)}</span>" if differs else escape(t)
                        for t, differs in runs if t) or "<i>not written</i>"
        if key == "behavior_text" and item.get("behavior_change"):
            body = f"<b>{escape(item['behavior_change'])}:</b> " + body
        parts.append(f"<p style='margin:6px 0 0'><b style='color:{theme().muted_text}'>{title}</b><br>{body}</p>")
    return "".join(parts)


class SideBySideView(QWidget):
    """Lays out the calibration; `CalibrationController` fills and wires it."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("calibrationView")
        self.title = label_look(QLabel(), "callTitle")
        self.figures = QLabel()
        self.figures.setObjectName("calibrationFigures")
        self.figures.setTextFormat(Qt.TextFormat.RichText)
        self.timeline = TwoLaneTimeline()
        self.rows_model = RowsModel(self)
        self.table = QTableView()
        table_look(self.table)
        self.table.setModel(self.rows_model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.verticalHeader().hide()
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)

        self.mine_column = QTextBrowser()
        self.theirs_column = QTextBrowser()
        for column in (self.mine_column, self.theirs_column):
            column.setOpenLinks(False)
        self.play_button = QPushButton("Play both spans")
        self.choice_buttons: dict[str, QRadioButton] = {c: QRadioButton(c.capitalize()) for c in cal.CHOICES}
        self.choice_group = QButtonGroup(self)
        for button in self.choice_buttons.values():
            self.choice_group.addButton(button)
        self.agree_button = QPushButton("Save agreed items")
        self.report_button = QPushButton("Save report…")
        self.status = QLabel()
        self.status.setWordWrap(True)

        detail = QWidget()
        grid = QGridLayout(detail)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.addWidget(self.mine_column, 0, 0)
        grid.addWidget(self.theirs_column, 0, 1)
        choices = QHBoxLayout()
        choices.addWidget(self.play_button)
        choices.addSpacing(16)
        choices.addWidget(QLabel("Agree:"))
        for button in self.choice_buttons.values():
            choices.addWidget(button)
        choices.addStretch(1)
        grid.addLayout(choices, 1, 0, 1, 2)

        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self.table)
        split.addWidget(detail)
        split.setStretchFactor(1, 2)
        split.setSizes([600, 800])

        bottom = QHBoxLayout()
        bottom.addWidget(self.status, 1)
        bottom.addWidget(self.report_button)
        bottom.addWidget(self.agree_button)

        layout = QVBoxLayout(self)
        layout.addWidget(self.title)
        layout.addWidget(self.figures)
        layout.addWidget(self.timeline)
        layout.addWidget(split, 1)
        layout.addLayout(bottom)

    def show_figures(self, view: cal.CalibrationView) -> None:
        def fig(value, fmt="{:.2f}"):
            return "—" if value is None else fmt.format(value)

        r = view.result
        cells = [("Matched", f"{r.matched} of {r.mine_count} / {r.theirs_count}"),
                 ("Moment agreement", fig(r.moment_agreement)), ("Kind κ", fig(r.kind_kappa)),
                 ("Behavior change agreement", fig(r.behavior_change_agreement)),
                 ("Mean start offset", fig(r.mean_start_offset_ms and r.mean_start_offset_ms / 1000, "{:+.1f} s")
                  if r.mean_start_offset_ms is not None else "—"),
                 ("Tolerance", f"{view.tolerance_ms / 1000:g} s")]
        muted = theme().muted_text
        self.figures.setText("&nbsp;&nbsp;&nbsp;".join(
            f"<span style='color:{muted}'>{escape(name)}</span> <b>{escape(value)}</b>" for name, value in cells))
        agreed = f" · agreed by {escape(view.agreed_by)}" if view.agreed_by else ""
        self.title.setText(f"<b>Calibration:</b> {escape(view.call_title)} — "
                           f"<span style='color:{theme().mine}'>{escape(view.mine_coach)}</span> and "
                           f"<span style='color:{theme().theirs}'>{escape(view.theirs_coach)}</span>{agreed}")

    def show_row(self, view: cal.CalibrationView, index: int | None) -> None:
        row = view.rows[index] if index is not None and 0 <= index < len(view.rows) else None
        self.mine_column.setHtml(item_html(row.mine, row.theirs, view.mine_coach, theme().mine) if row else "")
        self.theirs_column.setHtml(item_html(row.theirs, row.mine, view.theirs_coach, theme().theirs) if row else "")
        self.play_button.setEnabled(row is not None)
        for choice, button in self.choice_buttons.items():
            allowed = row is not None and not (choice == "mine" and row.mine is None) \
                and not (choice == "theirs" and row.theirs is None) and view.agreed_at is None
            button.setEnabled(allowed)
        chosen = self.rows_model.choices.get(row.key) if row else None
        self.choice_group.setExclusive(False)
        for choice, button in self.choice_buttons.items():
            button.setChecked(choice == chosen)
        self.choice_group.setExclusive(True)
