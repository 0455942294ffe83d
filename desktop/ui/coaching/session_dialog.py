"""A coaching session, run with the guide of the cycle's conversation model.

The guide's stages are laid out top to bottom with their prompts and a note
field each (OSKAR's scaling stage adds the 0–10 score). The session ends with
one practice action, one owner and one place to look for evidence; "Close as
held" refuses without them unless a reason is written, and says what is missing.
Each button's write is one coach edit run through ``run`` (the workspace's
history): once the dialog is closed, Ctrl+Z in the window takes it back.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QCheckBox, QDialog, QDialogButtonBox, QFormLayout, QGroupBox, QHBoxLayout, QLabel, QLineEdit,
    QPlainTextEdit, QPushButton, QScrollArea, QSpinBox, QVBoxLayout, QWidget,
)

from desktop.core.conversation import guide
from desktop.core.enums import SessionStatus
from desktop.errors import CallmarkError
from desktop.services import coaching_edits as edits
from desktop.services import coaching_sessions
from desktop.ui.style import text_box_height

NO_SCORE = -1


class SessionGuideDialog(QDialog):
    """Open a session: the guide, notes per stage, the closing action, the previous action's outcome."""

    session_closed = Signal(int)  # session id, after it was written as held or missed

    def __init__(self, store, session_id: int, parent: QWidget | None = None, play=None, run=None):
        super().__init__(parent)
        self.store = store
        # run(op, **kwargs): the window's history (undoable); on its own the edit is just written.
        self.run = run or (lambda op, **_kwargs: op())
        self.play = play  # play(moment_id): the workspace plays the moment (None: no workspace to play in)
        self.row = coaching_sessions.get_session(store, session_id)
        self.guide = guide(self.row.model)
        self.previous = coaching_sessions.previous_held(store, session_id)
        self.setWindowTitle(f"Session {self.row.number} — {self.row.planned_date:%d %b %Y} — {self.guide.name}")
        self.resize(760, 820)

        intro = QLabel(f"<b>{self.guide.name}</b>: {self.guide.best_use}<br><i>{self.guide.evidence}</i>"
                       f"<br>Watch out: {self.guide.watch_out}")
        intro.setWordWrap(True)

        self.previous_done = QCheckBox()
        prev_box = QGroupBox("Start with the last practice action")
        prev_layout = QVBoxLayout(prev_box)
        if self.previous is not None:
            prev_layout.addWidget(QLabel(f"“{self.previous.practice_action}” — {self.previous.action_owner}; "
                                         f"evidence in: {self.previous.evidence_place}"))
            self.previous_done.setText("Done")
            self.previous_done.setChecked(self.previous.action_done is True)
            prev_layout.addWidget(self.previous_done)
        # "Play the moment that shows it": the moment this session or the last one cites, heard again.
        self.moment_to_play = self.row.moment_id or (self.previous.moment_id if self.previous else None)
        self.play_button = QPushButton("▶ Play the moment")
        self.play_button.setToolTip("Play the cited moment in the workspace")
        self.play_button.setVisible(self.moment_to_play is not None and play is not None)
        self.play_button.clicked.connect(lambda: self.play(self.moment_to_play))
        prev_layout.addWidget(self.play_button)
        if self.previous is None:
            prev_layout.addWidget(QLabel("No earlier action in this cycle."))
            self.previous_done.setVisible(False)

        self.notes: dict[str, QPlainTextEdit] = {}
        self.score = QSpinBox()
        self.score.setRange(NO_SCORE, 10)
        self.score.setSpecialValueText("not scored")
        self.score.setValue(self.row.oskar_score if self.row.oskar_score is not None else NO_SCORE)
        stages = QWidget()
        stage_layout = QVBoxLayout(stages)
        for stage in self.guide.stages:
            box = QGroupBox(stage.title)
            box.setObjectName(f"stage_{stage.key}")
            inner = QVBoxLayout(box)
            for prompt in stage.prompts:
                label = QLabel(f"• {prompt}")
                label.setWordWrap(True)
                inner.addWidget(label)
            if stage.takes_score:
                row = QHBoxLayout()
                row.addWidget(QLabel("Scale (0–10):"))
                row.addWidget(self.score)
                row.addStretch(1)
                inner.addLayout(row)
            edit = QPlainTextEdit(self.row.stage_notes.get(stage.key, ""))
            edit.setPlaceholderText(f"Notes for {stage.title}")
            edit.setFixedHeight(text_box_height(edit, 3, 64))  # grows with the font
            inner.addWidget(edit)
            self.notes[stage.key] = edit
            stage_layout.addWidget(box)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(stages)

        close_box = QGroupBox("End with one practice action, one owner, one place to look for evidence")
        form = QFormLayout(close_box)
        self.action = QLineEdit(self.row.practice_action)
        self.owner = QLineEdit(self.row.action_owner)
        self.evidence_place = QLineEdit(self.row.evidence_place)
        self.example = QLineEdit(self.row.example or "")
        self.example.setPlaceholderText("an example or moment you can return to (evidence capture)")
        self.reason = QLineEdit(self.row.close_reason or "")
        self.reason.setPlaceholderText("only if the session ends without them: why")
        form.addRow("Practice action", self.action)
        form.addRow("Owner", self.owner)
        form.addRow("Where to look", self.evidence_place)
        form.addRow("Example kept", self.example)
        form.addRow("Reason", self.reason)
        self.message = QLabel()
        self.message.setObjectName("sessionMessage")
        self.message.setWordWrap(True)
        self.message.setStyleSheet("color: #b42318;")

        self.held_button = QPushButton("Close as held")
        self.missed_button = QPushButton("Mark missed")
        self.save_button = QPushButton("Save notes")
        buttons = QDialogButtonBox()
        buttons.addButton(self.held_button, QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.addButton(self.missed_button, QDialogButtonBox.ButtonRole.DestructiveRole)
        buttons.addButton(self.save_button, QDialogButtonBox.ButtonRole.ApplyRole)
        buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        buttons.rejected.connect(self.reject)
        self.held_button.clicked.connect(self.on_held_clicked)
        self.missed_button.clicked.connect(self.on_missed_clicked)
        self.save_button.clicked.connect(self.save_notes)

        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(prev_box)
        layout.addWidget(scroll, 1)
        layout.addWidget(close_box)
        layout.addWidget(self.message)
        layout.addWidget(buttons)
        if self.row.status == SessionStatus.HELD:
            self.held_button.setText("Save as held")

    # --- writing -------------------------------------------------------------------------

    def _stage_notes(self) -> dict[str, str]:
        return {key: edit.toPlainText() for key, edit in self.notes.items()}

    def _score(self) -> int | None:
        return None if self.score.value() == NO_SCORE else self.score.value()

    def save_notes(self) -> None:
        notes, score, takes = self._stage_notes(), self._score(), any(s.takes_score for s in self.guide.stages)
        previous = self._previous()
        try:
            self.run(lambda: edits.save_session_notes(self.store, self.row.id, notes, score=score,
                                                      takes_score=takes, **previous))
        except CallmarkError as exc:
            self.message.setText(str(exc))
            return
        self.message.setText("")

    def _previous(self) -> dict:
        """The last session's action, marked done or not here (written with this session's edit)."""
        if self.previous is None:
            return {}
        return {"previous_id": self.previous.id, "previous_done": self.previous_done.isChecked()}

    def agreed_item(self) -> int | None:
        """The item the agreed action practises: the session's own, else the cycle's focus item (the first
        the cycle offers), so the quality review's follow-through sees the action."""
        if self.row.item_id is not None:
            return self.row.item_id
        from desktop.services import cycles

        choices = cycles.item_choices(self.store, self.row.cycle_id)
        return choices[0][0] if choices else None

    def on_held_clicked(self) -> None:
        has_score = any(s.takes_score for s in self.guide.stages)
        fields = dict(practice_action=self.action.text(), action_owner=self.owner.text(),
                      evidence_place=self.evidence_place.text(), reason=self.reason.text() or None,
                      stage_notes=self._stage_notes(), oskar_score=self._score() if has_score else None,
                      example=self.example.text(), item_id=self.agreed_item(), **self._previous())
        try:
            self.run(lambda: edits.hold_session(self.store, self.row.id, **fields))
        except CallmarkError as exc:
            # Stay open: the coach adds what's missing (or a reason) and tries again.
            self.message.setText(str(exc))
            return
        self.session_closed.emit(self.row.id)
        self.accept()

    def on_missed_clicked(self) -> None:
        reason = self.reason.text() or None
        try:
            self.run(lambda: edits.miss_session(self.store, self.row.id, reason))
        except CallmarkError as exc:
            self.message.setText(str(exc))
            return
        self.session_closed.emit(self.row.id)
        self.accept()
