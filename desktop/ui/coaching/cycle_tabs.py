"""The Coaching window's tabs, laid out: the widgets are made here and set on the window (``self``),
which wires their slots (desktop.ui.coaching.cycle_view)."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QAbstractItemView, QComboBox, QFormLayout, QHBoxLayout, QLabel, QLineEdit, QListWidget, QPlainTextEdit,
    QProgressBar, QPushButton, QTableWidget, QVBoxLayout, QWidget,
)

from desktop.core.cycles import CYCLE_DAYS
from desktop.core.enums import ConversationModel
from desktop.services import cycles


def cycle_tab(self) -> QWidget:
    """Phase, model, focus, baseline and what is parked."""
    page = QWidget()
    self.phase_label = QLabel()
    self.phase_label.setObjectName("phaseLabel")
    self.progress = QProgressBar()
    self.progress.setRange(0, CYCLE_DAYS)
    self.progress.setFormat("day %v of 90")
    self.asks = QLabel()
    self.asks.setWordWrap(True)
    self.asks.setObjectName("phaseAsks")
    self.model_box = QComboBox()
    for m in ConversationModel:
        self.model_box.addItem(m.upper(), m)
    self.focus_edit = QLineEdit()
    self.focus_edit.setPlaceholderText("The one observable behavior for this cycle (chosen in days 16–30)")
    self.focus_button = QPushButton("Set focus")
    self.focus_saved = QLabel()
    self.focus_saved.setObjectName("focusSaved")
    self.focus_history = QListWidget()
    self.focus_history.setMaximumHeight(90)
    self.baseline = QPlainTextEdit()
    self.baseline.setPlaceholderText("Baseline (days 1–15): what you saw across several examples")
    self.park_edit = QLineEdit()
    self.park_edit.setPlaceholderText("Noticed something else? Park it for the next cycle")
    self.park_button = QPushButton("Park")
    self.parked = QListWidget()
    focus_row = QHBoxLayout()
    focus_row.addWidget(self.focus_edit, 1)
    focus_row.addWidget(self.focus_button)
    focus_row.addWidget(self.focus_saved)
    park_row = QHBoxLayout()
    park_row.addWidget(self.park_edit, 1)
    park_row.addWidget(self.park_button)
    form = QFormLayout(page)
    form.addRow(self.phase_label)
    form.addRow(self.progress)
    form.addRow(self.asks)
    form.addRow("Conversation model", self.model_box)
    form.addRow("Focus behavior", focus_row)
    form.addRow("Focus changes", self.focus_history)
    form.addRow("Baseline", self.baseline)
    form.addRow("Parked", park_row)
    form.addRow("", self.parked)
    self.focus_button.clicked.connect(self.on_focus_clicked)
    self.model_box.activated.connect(self.on_model_chosen)
    self.park_button.clicked.connect(self.on_park_clicked)
    self.baseline.textChanged.connect(self.on_baseline_edited)
    return page

def sessions_tab(self) -> QWidget:
    """The cycle's sessions and the buttons that act on the one picked."""
    page = QWidget()
    self.sessions_table = QTableWidget(0, 7)
    self.sessions_table.setHorizontalHeaderLabels(
        ["#", "Date", "Status", "Practice action", "Owner", "Where to look", "Done?"])
    self.sessions_table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    self.sessions_table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    self.sessions_table.horizontalHeader().setStretchLastSection(True)
    self.sessions_table.setColumnWidth(3, 420)
    self.open_session_button = QPushButton("Open session…")
    self.missed_button = QPushButton("Mark missed")
    self.add_session_button = QPushButton("Plan a session…")
    self.move_session_button = QPushButton("Move…")
    row = QHBoxLayout()
    row.addWidget(self.open_session_button)
    row.addWidget(self.missed_button)
    row.addWidget(self.add_session_button)
    row.addWidget(self.move_session_button)
    row.addStretch(1)
    layout = QVBoxLayout(page)
    layout.addLayout(row)
    layout.addWidget(self.sessions_table)
    self.open_session_button.clicked.connect(self.on_open_session_clicked)
    self.missed_button.clicked.connect(self.on_missed_clicked)
    self.add_session_button.clicked.connect(lambda: self.plan_session(self._ask_date("Plan a session on")))
    self.move_session_button.clicked.connect(self.on_move_clicked)
    self.sessions_table.doubleClicked.connect(lambda _i: self.on_open_session_clicked())
    return page

def evidence_tab(self) -> QWidget:
    """An item's observations, what waits to be confirmed, and its review."""
    page = QWidget()
    self.item_box = QComboBox()
    self.observe_button = QPushButton("Record observation…")
    self.next_two_button = QPushButton("Check both of the next two recordings")
    self.fill_button = QPushButton("Fill in…")
    self.review_button = QPushButton("Review…")
    self.proposal_label = QLabel()
    self.proposal_label.setObjectName("proposalLabel")
    self.proposal_label.setWordWrap(True)
    self.obs_table = QTableWidget(0, 5)
    self.obs_table.setHorizontalHeaderLabels(["On", "Where", "Behavior", "Recording", "Evidence"])
    self.obs_table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    self.obs_table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    self.obs_table.horizontalHeader().setStretchLastSection(True)
    top = QHBoxLayout()
    top.addWidget(QLabel("Item"))
    top.addWidget(self.item_box, 1)
    buttons = QHBoxLayout()
    for b in (self.observe_button, self.next_two_button, self.fill_button, self.review_button):
        buttons.addWidget(b)
    buttons.addStretch(1)
    layout = QVBoxLayout(page)
    layout.addLayout(top)
    layout.addLayout(buttons)
    layout.addWidget(self.proposal_label)
    layout.addWidget(self.obs_table, 1)
    self.item_box.currentIndexChanged.connect(lambda _i: self.refresh_evidence())
    self.observe_button.clicked.connect(self.on_observe_clicked)
    self.next_two_button.clicked.connect(self.on_next_two_clicked)
    self.fill_button.clicked.connect(self.on_fill_clicked)
    self.review_button.clicked.connect(self.on_review_clicked)
    self.obs_table.doubleClicked.connect(lambda _i: self.on_fill_clicked())
    return page


def fill_cycle_box(box, store, manager: str | None, on, *, with_day: bool = False) -> None:
    """A manager's cycles in a combo box, the current one chosen, without telling anyone meanwhile."""
    box.blockSignals(True)
    box.clear()
    if manager and manager in cycles.managers_with_cycles(store):
        for r in cycles.list_cycles(store, manager, on):
            day = f" (day {r.now.day})" if with_day else ""
            box.addItem(f"{r.start_date:%d %b %Y} – {r.end_date:%d %b %Y}{day}", r.id)
        current = cycles.current_cycle(store, manager, on)
        if current is not None:
            box.setCurrentIndex(box.findData(current.id))
    box.blockSignals(False)
