"""The Coaching window: one manager's 90-day cycle — phase, focus, sessions, evidence, dashboard.

One manager at a time (a coaching tool, never a leaderboard). The window lays
out four tabs and wires them to the services; dialogs do the writing of a
session, an observation and a review. Every write is a coach edit
(desktop.services.coaching_edits) run through ``run`` (the workspace's history:
Ctrl+Z takes it back), and the window refreshes from the store's one change
signal for the parts it shows, whichever path made the change.
"""

from __future__ import annotations

from datetime import date, datetime

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox, QDateEdit, QDialog, QHBoxLayout,
    QInputDialog, QLabel, QMainWindow, QPushButton,
    QTableWidgetItem, QTabWidget, QVBoxLayout, QWidget,
)

from desktop.core.cycles import CYCLE_DAYS, Phase
from desktop.core.enums import ConversationModel, SessionStatus
from desktop.errors import CallmarkError
from desktop.services import coaching_edits as edits
from desktop.services import coaching_sessions, cycles, indicators, observations, parking
from desktop.services.changes import CYCLES, ITEMS, OBSERVATIONS, PARKED, SESSIONS
from desktop.ui.coaching.cycle_tabs import cycle_tab, evidence_tab, fill_cycle_box, sessions_tab
from desktop.ui.coaching.dashboard import DashboardView
from desktop.ui.coaching.new_cycle_dialog import NewCycleDialog, _qdate
from desktop.ui.coaching.observation_dialog import ObservationDialog
from desktop.ui.coaching.review_dialog import ReviewDialog
from desktop.ui.coaching.session_dialog import SessionGuideDialog


class CoachingWindow(QMainWindow):
    """The cycle screen for one manager; `show_manager(name)` switches who is shown."""

    cycle_changed = Signal(object)  # the cycle id shown, or None

    def __init__(self, store, manager: str | None = None, on: date | None = None,
                 parent: QWidget | None = None, notify=None, play=None, run=None, changed=None,
                 actions=()):
        super().__init__(parent)
        self.store = store
        self.play = play  # play(moment_id) in the workspace, for the session guide
        # ``run(op, **kwargs)``: the workspace history's run (undoable, told to every view through
        # ``changed``). Without one (the window on its own) the edit is written and told by ``notify``.
        self._run = run
        self.notify = notify or (lambda _change: None)
        self._stale = False  # a change came while the window was closed
        self.setObjectName("coachingWindow")
        self.setWindowTitle("Coaching — Callmark")
        self.resize(1440, 900)
        self.cycle: cycles.CycleRow | None = None

        self.manager_box = QComboBox()
        self.manager_box.setMinimumWidth(220)
        self.cycle_box = QComboBox()
        self.cycle_box.setMinimumWidth(260)
        self.as_of = QDateEdit(_qdate(on or date.today()))
        self.as_of.setCalendarPopup(True)
        self.as_of.setDisplayFormat("yyyy-MM-dd")
        self.new_button = QPushButton("New cycle…")
        bar = QHBoxLayout()
        for text, widget in (("Manager", self.manager_box), ("Cycle", self.cycle_box), ("As of", self.as_of)):
            bar.addWidget(QLabel(text))
            bar.addWidget(widget)
        bar.addStretch(1)
        bar.addWidget(self.new_button)

        self.tabs = QTabWidget()
        self.tabs.addTab(cycle_tab(self), "Cycle")
        self.tabs.addTab(sessions_tab(self), "Sessions")
        self.tabs.addTab(evidence_tab(self), "Evidence and review")
        self.dashboard = DashboardView()
        self.tabs.addTab(self.dashboard, "Dashboard")
        central = QWidget()
        layout = QVBoxLayout(central)
        layout.addLayout(bar)
        layout.addWidget(self.tabs, 1)
        self.setCentralWidget(central)
        self.status = QLabel()
        self.statusBar().addWidget(self.status, 1)

        self.manager_box.currentTextChanged.connect(self.on_manager_changed)
        self.cycle_box.currentIndexChanged.connect(self.on_cycle_chosen)
        self.as_of.dateChanged.connect(lambda _d: self.refresh())
        self.new_button.clicked.connect(self.on_new_clicked)
        self.tabs.currentChanged.connect(lambda _i: self.refresh_dashboard())
        self.addActions(list(actions))  # the window's Undo and Redo answer here too
        if changed is not None:
            changed.connect(self.on_store_changed)
        self.reload_managers(manager)

    # --- writing and being told ----------------------------------------------------------------

    def run(self, op, **kwargs):
        """Run one coach edit; a refusal is raised (CallmarkError) for the caller to say where it is."""
        if self._run is not None:
            return self._run(op, raise_refusal=True, **kwargs)
        made = op()
        self.notify(made)
        self.on_store_changed(made)
        return made

    def on_store_changed(self, change) -> None:
        if not change.touches(CYCLES, SESSIONS, OBSERVATIONS, ITEMS, PARKED):
            return
        if not self.isVisible():  # closed: nothing to read now, everything when shown again
            self._stale = True
            return
        if change.touches(CYCLES) and self._cycles_differ():
            keep = self.cycle_box.currentData()
            self.reload_managers(self.manager_box.currentText())
            index = self.cycle_box.findData(keep) if keep is not None else -1
            if index >= 0 and index != self.cycle_box.currentIndex():
                self.cycle_box.setCurrentIndex(index)
        elif change.touches(CYCLES, SESSIONS):  # the phase, focus and model, the sessions, the figures
            self.refresh()
        elif change.touches(OBSERVATIONS, ITEMS):  # an item typed in the workspace: only the evidence tab
            if self.cycle is not None:
                self.cycle = cycles.get_cycle(self.store, self.cycle.id, self.on)
            self.refresh_items()
            self.refresh_dashboard()
        else:  # parked
            self.refresh_cycle()

    def _cycles_differ(self) -> bool:
        """A cycle made or taken away: the manager and cycle lists are read again."""
        names = cycles.managers_with_cycles(self.store)
        if names != [self.manager_box.itemText(i) for i in range(self.manager_box.count())]:
            return True
        name = self.manager_box.currentText()
        ids = sorted(r.id for r in cycles.list_cycles(self.store, name)) if name in names else []
        return ids != sorted(self.cycle_box.itemData(i) for i in range(self.cycle_box.count()))

    def showEvent(self, event) -> None:  # noqa: N802 - Qt's name
        if self._stale:
            self._stale = False
            self.reload_managers(self.manager_box.currentText())
        super().showEvent(event)

    # --- layout of the tabs ------------------------------------------------------------------

    # --- who and which cycle -------------------------------------------------------------------

    @property
    def on(self) -> date:
        return self.as_of.date().toPython()

    def reload_managers(self, wanted: str | None = None) -> None:
        names = cycles.managers_with_cycles(self.store)
        self.manager_box.blockSignals(True)
        self.manager_box.clear()
        self.manager_box.addItems(names)
        self.manager_box.blockSignals(False)
        if wanted in names:
            self.manager_box.setCurrentText(wanted)
        self.on_manager_changed(self.manager_box.currentText())

    def show_manager(self, name: str) -> None:
        self.reload_managers(name)

    def on_manager_changed(self, name: str) -> None:
        fill_cycle_box(self.cycle_box, self.store, name, self.on)
        self.on_cycle_chosen()

    def on_cycle_chosen(self) -> None:
        cycle_id = self.cycle_box.currentData()
        self.cycle = cycles.get_cycle(self.store, cycle_id, self.on) if cycle_id is not None else None
        self.cycle_changed.emit(cycle_id)
        self.refresh()

    def refresh(self) -> None:
        if self.cycle is not None:
            self.cycle = cycles.get_cycle(self.store, self.cycle.id, self.on)
        self.tabs.setEnabled(self.cycle is not None)
        self.refresh_cycle()
        self.refresh_sessions()
        self.refresh_items()
        self.refresh_dashboard()

    def message(self, text: str) -> None:
        self.status.setText(text)

    # --- the cycle tab -------------------------------------------------------------------------

    def refresh_cycle(self) -> None:
        c = self.cycle
        if c is None:
            self.phase_label.setText("No cycle yet: start one with “New cycle…”.")
            self.asks.setText("")
            return
        self.phase_label.setText(f"<h2 style='margin:0'>{c.manager} — day {c.now.day}: {c.now.label}</h2>")
        self.progress.setValue(max(0, min(CYCLE_DAYS, c.now.day)))
        self.asks.setText(c.now.asks)
        self.model_box.setCurrentIndex(self.model_box.findData(c.conversation_model))
        self.model_box.setEnabled(c.sessions_held == 0)
        self.focus_edit.setText(c.focus_behavior or "")
        self.focus_history.clear()
        for ch in cycles.focus_changes(self.store, c.id):
            self.focus_history.addItem(f"{ch.changed_at[:10]}: “{ch.old_behavior}” → “{ch.new_behavior}” "
                                       f"because {ch.reason}")
        if self.baseline.toPlainText() != c.baseline_notes:  # not while the coach types it: the cursor stays
            self.baseline.blockSignals(True)
            self.baseline.setPlainText(c.baseline_notes)
            self.baseline.blockSignals(False)
        self.parked.clear()
        self.parked.addItems([p.label for p in parking.list_parked(self.store, c.manager)])

    def change_focus(self, behavior: str, reason: str | None = None) -> bool:
        """Set the focus; inside the cycle a change asks for a reason (None: ask the coach)."""
        cycle_id = self.cycle.id
        try:
            self.run(lambda: edits.choose_focus(self.store, cycle_id, behavior, on=self.on, reason=reason))
        except cycles.FocusLocked as exc:
            if reason is not None:
                self.message(str(exc))
                return False
            text, ok = QInputDialog.getText(self, "Change the focus inside the cycle?",
                                            f"{exc}\n\nWhy change it now?")
            if not ok or not text.strip():
                self.message(str(exc))
                self.focus_edit.setText(self.cycle.focus_behavior or "")
                return False
            return self.change_focus(behavior, text)
        except CallmarkError as exc:
            self.message(str(exc))
            return False
        self.focus_saved.setText(f"✓ Saved {datetime.now():%H:%M}")
        self.message(f"Focus saved: “{behavior}”.")
        return True

    def on_focus_clicked(self) -> None:
        if self.cycle is not None:
            self.change_focus(self.focus_edit.text())

    def on_model_chosen(self) -> None:
        cycle_id, model = self.cycle.id, self.model_box.currentData()
        try:
            self.run(lambda: edits.choose_model(self.store, cycle_id, model))
        except CallmarkError as exc:
            self.message(str(exc))
            self.refresh()  # the box shows the cycle's model again

    def on_baseline_edited(self) -> None:
        if self.cycle is None:
            return
        cycle_id, text = self.cycle.id, self.baseline.toPlainText()
        try:  # typing is one undo step: the edits of this cycle's baseline merge
            self.run(lambda: edits.write_baseline(self.store, cycle_id, text), merge_key=("baseline", cycle_id))
        except CallmarkError as exc:
            self.message(str(exc))

    def on_park_clicked(self) -> None:
        manager, note = self.cycle.manager, self.park_edit.text()
        try:  # the item editor's parked list is told too
            self.run(lambda: parking.keep_for_later(self.store, note=note, manager=manager))
        except CallmarkError as exc:
            self.message(str(exc))
            return
        self.park_edit.clear()

    def on_new_clicked(self) -> None:
        dialog = NewCycleDialog(self.manager_box.currentText(), self)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return
        self.new_cycle(dialog.manager.text(), dialog.start.date().toPython(), dialog.model.currentData())

    def new_cycle(self, manager: str, start: date, model=ConversationModel.GROW) -> bool:
        try:
            row = self.run(lambda: edits.start_cycle(self.store, manager, start, model=model)).row
        except CallmarkError as exc:
            self.message(str(exc))
            return False
        self.reload_managers(row.manager)
        self.message(f"Cycle for {row.manager} starts {row.start_date}.")
        return True

    # --- sessions ------------------------------------------------------------------------------

    def refresh_sessions(self) -> None:
        rows = coaching_sessions.list_sessions(self.store, self.cycle.id) if self.cycle else []
        self.session_rows = rows
        table = self.sessions_table
        table.setRowCount(len(rows))
        done = {True: "done", False: "not done", None: ""}
        for n, r in enumerate(rows):
            status = str(r.status) + (" (reason given)" if r.status == SessionStatus.HELD and r.close_reason else "")
            # A held session shows the day it was held; a planned one the day it is planned.
            day = f"{r.held_date:%a %d %b} (held)" if r.held_date and r.status == SessionStatus.HELD \
                else f"{r.planned_date:%a %d %b}"
            for col, text in enumerate((str(r.number), day, status, r.practice_action,
                                        r.action_owner, r.evidence_place, done[r.action_done])):
                item = QTableWidgetItem(text)
                item.setData(Qt.ItemDataRole.UserRole, r.id)
                table.setItem(n, col, item)

    def selected_session(self) -> int | None:
        rows = self.sessions_table.selectionModel().selectedRows()
        if not rows and self.session_rows:
            # Nothing picked: the next session still to hold.
            upcoming = [r for r in self.session_rows if r.status == SessionStatus.PLANNED]
            return upcoming[0].id if upcoming else None
        return self.session_rows[rows[0].row()].id if rows else None

    def open_session(self, session_id: int) -> SessionGuideDialog:
        return SessionGuideDialog(self.store, session_id, self, play=self.play, run=self.run)

    def on_open_session_clicked(self) -> None:
        session_id = self.selected_session()
        if session_id is not None:
            self.open_session(session_id).exec()

    def on_missed_clicked(self) -> None:
        session_id = self.selected_session()
        if session_id is None:
            return
        try:
            self.run(lambda: edits.miss_session(self.store, session_id))
        except CallmarkError as exc:
            self.message(str(exc))

    def _ask_date(self, prompt: str, start: date | None = None) -> date | None:
        from PySide6.QtWidgets import QInputDialog

        text, ok = QInputDialog.getText(self, "Coaching session", f"{prompt} (YYYY-MM-DD):",
                                        text=str(start or self.on or date.today()))
        return cycles.parse_date(text, "date") if ok and text.strip() else None

    def plan_session(self, day: date | None) -> bool:
        """Add a session on any day of the cycle (the plan's weekly ones are only a start)."""
        if self.cycle is None or day is None:
            return False
        cycle_id = self.cycle.id
        try:
            self.run(lambda: edits.plan_session(self.store, cycle_id, day))
        except CallmarkError as exc:
            self.message(str(exc))
            return False
        self.message(f"Session planned for {day:%a %d %b}.")
        return True

    def move_session(self, session_id: int, day: date | None) -> bool:
        if day is None:
            return False
        try:
            self.run(lambda: edits.move_session(self.store, session_id, day))
        except CallmarkError as exc:
            self.message(str(exc))
            return False
        self.message(f"Session moved to {day:%a %d %b}.")
        return True

    def on_move_clicked(self) -> None:
        session_id = self.selected_session()
        if session_id is not None:
            current = next((r.planned_date for r in self.session_rows if r.id == session_id), None)
            self.move_session(session_id, self._ask_date("Move the session to", current))

    # --- evidence and review --------------------------------------------------------------------

    def refresh_items(self) -> None:
        current = self.item_box.currentData()
        self.item_box.blockSignals(True)
        self.item_box.clear()
        for item_id, title in (cycles.item_choices(self.store, self.cycle.id) if self.cycle else []):
            self.item_box.addItem(f"{item_id}: {title}", item_id)
        if current is not None and self.item_box.findData(current) >= 0:
            self.item_box.setCurrentIndex(self.item_box.findData(current))
        self.item_box.blockSignals(False)
        self.refresh_evidence()

    def refresh_evidence(self) -> None:
        item_id = self.item_box.currentData()
        rows = observations.list_observations(self.store, item_id=item_id) if item_id else []
        self.obs_rows = rows
        self.obs_table.setRowCount(len(rows))
        for n, r in enumerate(rows):
            where = str(r.source).replace("_", " ")
            if r.uses_customer_evidence:
                where += " (customer/CRM evidence)"
            for col, text in enumerate((r.observed_on.isoformat(), where, r.seen_label, r.call_title or "",
                                        r.evidence)):
                self.obs_table.setItem(n, col, QTableWidgetItem(text))
        for b in (self.observe_button, self.next_two_button, self.review_button):
            b.setEnabled(item_id is not None)
        if item_id is None:
            self.proposal_label.setText("No coaching item in this cycle yet.")
            return
        p = observations.propose_review(self.store, item_id, self.on)
        compare = ""
        if self.cycle and self.cycle.now.phase in (Phase.COMPARE, Phase.ENDED):
            side = observations.compare(self.store, self.cycle.id, self.on)
            compare = (f"<br>Baseline: seen in {side.baseline_seen[0]} of {side.baseline_seen[1]} · "
                       f"now: seen in {side.current_seen[0]} of {side.current_seen[1]}")
        self.proposal_label.setText(f"<b>Review rule:</b> {p.decision or 'wait'} — {p.reason}{compare}")

    def on_observe_clicked(self) -> None:
        ObservationDialog(self.store, self.item_box.currentData(), on=self.on, parent=self, run=self.run).exec()

    def on_next_two_clicked(self) -> None:
        item_id, on = self.item_box.currentData(), self.on
        try:
            self.run(lambda: edits.check_next_two(self.store, item_id, on))
        except CallmarkError as exc:
            self.message(str(exc))
            return
        self.message("Two recordings to check were added: fill each in once you've listened (an indicator tied "
                     "to a detector proposes them from the next two calls: Coaching ▸ Observations to confirm).")

    def on_fill_clicked(self) -> None:
        rows = self.obs_table.selectionModel().selectedRows()
        pending = [r for r in self.obs_rows if r.pending]
        row = self.obs_rows[rows[0].row()] if rows else (pending[0] if pending else None)
        if row is None:
            return
        ObservationDialog(self.store, row.item_id, existing=row, parent=self, run=self.run).exec()

    def review_dialog(self) -> ReviewDialog:
        return ReviewDialog(self.store, self.item_box.currentData(), self.cycle.id, self.on, self, run=self.run)

    def on_review_clicked(self) -> None:
        dialog = self.review_dialog()
        if dialog.exec() == QDialog.DialogCode.Accepted:
            self.message(f"Review recorded: {dialog.saved.decision}.")

    # --- dashboard -------------------------------------------------------------------------------

    def refresh_dashboard(self) -> None:
        if self.cycle is None or self.tabs.currentWidget() is not self.dashboard:
            return
        self.dashboard.show_report(indicators.report(self.store, cycle_id=self.cycle.id, as_of=self.on))

