"""The item editor's layout: the five steps, then owner, cadence, indicator, review rule, gap, status.

The view only builds and exposes widgets; `ItemEditorController` wires them to
the store. Focus order follows the method: moment -> consequence -> behavior ->
practice -> next evidence point -> the rest.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QBoxLayout, QComboBox, QFormLayout, QFrame, QHBoxLayout, QLabel, QLineEdit, QListView, QPushButton,
    QScrollArea, QSpinBox, QVBoxLayout, QWidget,
)

from desktop.core.enums import QUALIFICATION_GAPS, BehaviorChange, ItemStatus, PracticeKind
from desktop.ui.item_editor.evidence_view import EvidenceTools
from desktop.ui.item_editor.fields import BehaviorCompleter, CalendarButton, DueDateEdit, FindingNote, StepText
from desktop.ui.style import row_height

CONSEQUENCE_PROMPT = "What does the manager or rep still not know because of this moment?"
PRACTICE_LABELS = {PracticeKind.ROLE_PLAY: "Role-play", PracticeKind.CALL_REVIEW: "Call review",
                   PracticeKind.LIVE_PIPELINE_REVIEW: "Live pipeline review"}
CHANGE_LABELS = {BehaviorChange.START: "Start", BehaviorChange.STOP: "Stop", BehaviorChange.ADJUST: "Adjust"}


def gap_label(gap: str) -> str:
    method, criterion = gap.split(":", 1)
    return f"{method.upper()}: {criterion.replace('_', ' ')}"


def _step_title(number: str, text: str) -> QLabel:
    label = QLabel(f"<b>{number}</b>&nbsp; {text}" if number else f"<b>{text}</b>")
    label.setObjectName("stepTitle")
    return label


def _caption(text: str) -> QLabel:
    label = QLabel(text)
    label.setObjectName("fieldCaption")
    label.setWordWrap(True)
    return label


class ItemEditorView(QWidget):
    """Widgets of the coaching-item editor, laid out top to bottom in the method's order."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("itemEditor")
        # The manager's open items: any of them is reachable without finding its moment first.
        self.picker = QComboBox()
        self.picker.setObjectName("itemPicker")
        self.picker.setAccessibleName("open items")
        self.picker.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.picker.setMinimumContentsLength(16)
        self.summary = QLabel()
        self.summary.setObjectName("itemSummary")
        self.summary.setWordWrap(True)
        self.new_button = QPushButton("New item from moment")
        self.park_button = QPushButton("Park moment")
        self.message = QLabel()
        self.message.setObjectName("editorMessage")
        self.message.setWordWrap(True)
        self.message.hide()

        # 1 - the moment, read-only: it was captured while replaying.
        self.moment_card = QLabel()
        self.moment_card.setObjectName("momentCard")
        self.moment_card.setWordWrap(True)
        self.moment_card.setTextFormat(Qt.TextFormat.RichText)
        self.moment_card.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.evidence_note = FindingNote()
        self.evidence = EvidenceTools()

        # 2 - consequence
        self.consequence = StepText(CONSEQUENCE_PROMPT, lines=2)
        self.consequence_note = FindingNote()

        # 3 - one behavior
        self.behavior_change = QComboBox()
        for change in BehaviorChange:
            self.behavior_change.addItem(CHANGE_LABELS[change], change.value)
        self.behavior_text = StepText("The observable action, e.g. “Ask the rep to state the next step "
                                      "the customer confirmed…”", lines=3)
        self.completer = BehaviorCompleter(self)
        self.behavior_text.set_completer(self.completer)
        self.behavior_note = FindingNote()
        self.split_button = QPushButton("Move the second behavior to a new item")
        self.split_button.hide()

        # 4 - one practice
        self.practice_kind = QComboBox()
        for kind in PracticeKind:
            self.practice_kind.addItem(PRACTICE_LABELS[kind], kind.value)
        self.practice_task = StepText("The task, e.g. “Role-play the moment three times…”", lines=2)
        self.practice_note = FindingNote()

        # 5 - next evidence point
        self.next_evidence = StepText("Where you'll look, e.g. “Next two discovery recordings”", lines=1)
        self.next_evidence_due = DueDateEdit()
        self.due_calendar = CalendarButton(self.next_evidence_due)
        self.next_evidence_note = FindingNote()
        # ...and looking again: two pending observations, and the cycle the item is worked in.
        self.check_button = QPushButton("Check both of the next two recordings")
        self.check_button.setToolTip("Add two observations to fill in as the next two recordings come in")
        self.observations_note = _caption("")
        self.cycle_button = QPushButton("Attach to the current cycle")
        self.cycle_note = _caption("")

        # the rest of the seven components
        self.owner_does = QLineEdit()
        self.owner_does.setPlaceholderText("who practises")
        self.owner_reviews = QLineEdit()
        self.owner_reviews.setPlaceholderText("who reviews")
        self.owner_note = FindingNote()
        self.cadence = StepText("When you coach and look again, e.g. “Weekly 1:1, Thursdays”", lines=1)
        self.indicator = StepText("Visible in calls or the CRM before revenue moves", lines=2)
        self.review_rule_text = StepText("What makes you continue, adapt or replace", lines=2)
        self.seen_in = self._count_box("seen in")
        self.of_reviewed = self._count_box("of reviewed")
        self.weeks_in_a_row = self._count_box("weeks in a row")
        self.rule_note = QLabel()
        self.rule_note.setObjectName("ruleNote")
        self.rule_note.setWordWrap(True)
        self.qualification_gap = QComboBox()
        self.qualification_gap.addItem("(none)", "")
        for gap in QUALIFICATION_GAPS:
            self.qualification_gap.addItem(gap_label(gap), gap)
        self.status = QComboBox()
        for status in ItemStatus:
            self.status.addItem(status.value.capitalize(), status.value)

        # parked observations
        self.parked_title = _step_title("", "Parked for later")
        self.parked_empty = _caption("Nothing parked. Park a moment you won't coach in this cycle; "
                                     "promote it in a later one.")
        self.parked_list = QListView()
        self.parked_list.setObjectName("parkedList")
        self.parked_list.setMaximumHeight(max(76, row_height(self.parked_list) * 3))  # three rows of its font
        self.parked_list.setUniformItemSizes(True)
        self.park_note = QLineEdit()
        self.park_note.setPlaceholderText("Why park it (optional)")
        self.promote_button = QPushButton("Promote to item")

        self.form = QWidget()
        self._lay_out()

    def _count_box(self, name: str) -> QSpinBox:
        box = QSpinBox()
        box.setRange(0, 20)
        box.setSpecialValueText("–")
        box.setAccessibleName(name)
        box.setFixedWidth(max(56, box.sizeHint().width()))  # "20" and the arrows, in its font
        return box

    def _lay_out(self) -> None:
        # Two columns when there is room (the writing room, a wide inspector): the five steps on the
        # left, owner, cadence, indicator and review rule on the right; one column otherwise.
        self.columns = QBoxLayout(QBoxLayout.Direction.TopToBottom, self.form)
        self.columns.setContentsMargins(2, 2, 6, 2)
        self.columns.setSpacing(12)
        left, right = QWidget(), QWidget()
        self.columns.addWidget(left, 1)
        self.columns.addWidget(right, 1)
        steps = QVBoxLayout(left)
        steps.setContentsMargins(0, 0, 0, 0)
        steps.setSpacing(3)
        steps.addWidget(_step_title("1", "The moment"))
        steps.addWidget(self.moment_card)
        steps.addWidget(self.evidence_note)
        steps.addWidget(self.evidence)
        steps.addWidget(_step_title("2", "Consequence"))
        steps.addWidget(self.consequence)
        steps.addWidget(self.consequence_note)
        steps.addWidget(_step_title("3", "One behavior"))
        steps.addWidget(self.behavior_change)
        steps.addWidget(self.behavior_text)
        steps.addWidget(self.behavior_note)
        steps.addWidget(self.split_button)
        steps.addWidget(_step_title("4", "One practice"))
        steps.addWidget(self.practice_kind)
        steps.addWidget(self.practice_task)
        steps.addWidget(self.practice_note)
        steps.addWidget(_step_title("5", "Next evidence point"))
        steps.addWidget(self.next_evidence)
        due = QHBoxLayout()
        due.addWidget(_caption("by"))
        due.addWidget(self.next_evidence_due, 1)
        due.addWidget(self.due_calendar)
        steps.addLayout(due)
        steps.addWidget(self.next_evidence_note)
        steps.addWidget(self.check_button)
        steps.addWidget(self.observations_note)
        steps.addWidget(self.cycle_button)
        steps.addWidget(self.cycle_note)

        steps.addStretch(1)
        steps = QVBoxLayout(right)
        steps.setContentsMargins(0, 0, 0, 0)
        steps.setSpacing(3)
        self.column_rule = QFrame()
        self.column_rule.setFrameShape(QFrame.Shape.HLine)
        steps.addWidget(self.column_rule)
        steps.addWidget(_step_title("", "Owner, cadence and review"))
        more = QFormLayout()
        more.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        more.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        more.addRow("Does it", self.owner_does)
        more.addRow("Reviews it", self.owner_reviews)
        steps.addLayout(more)
        steps.addWidget(self.owner_note)
        steps.addWidget(_caption("Cadence"))
        steps.addWidget(self.cadence)
        steps.addWidget(_caption("Indicator"))
        steps.addWidget(self.indicator)
        steps.addWidget(_caption("Review rule"))
        steps.addWidget(self.review_rule_text)
        counts = QHBoxLayout()
        counts.setSpacing(4)
        counts.addWidget(_caption("Continue when seen in"))
        counts.addWidget(self.seen_in)
        counts.addWidget(_caption("of"))
        counts.addWidget(self.of_reviewed)
        counts.addWidget(_caption("reviewed,"))
        counts.addWidget(self.weeks_in_a_row)
        counts.addWidget(_caption("weeks in a row"))
        counts.addStretch(1)
        steps.addLayout(counts)
        steps.addWidget(self.rule_note)
        last = QFormLayout()
        last.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        last.addRow("Qualification gap", self.qualification_gap)
        last.addRow("Status", self.status)
        steps.addLayout(last)
        steps.addSpacing(12)
        steps.addStretch(1)
        self.right_column = steps

        scroll = QScrollArea()
        scroll.setAccessibleName("Coaching item")
        scroll.setObjectName("itemScroll")
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        scroll.setWidget(self.form)
        self.scroll = scroll

        buttons = QHBoxLayout()
        buttons.addWidget(self.new_button)
        buttons.addWidget(self.park_button)
        buttons.addStretch(1)
        park_row = QHBoxLayout()
        park_row.addWidget(self.park_note, 1)
        park_row.addWidget(self.promote_button)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 4, 4, 4)
        layout.setSpacing(4)
        layout.addWidget(self.picker)
        layout.addWidget(self.summary)
        layout.addLayout(buttons)
        layout.addWidget(self.message)
        layout.addWidget(scroll, 1)
        layout.addWidget(self.parked_title)
        self.parked_box = QWidget()
        parked = QVBoxLayout(self.parked_box)
        parked.setContentsMargins(0, 0, 0, 0)
        parked.addWidget(self.parked_list)
        parked.addWidget(self.parked_empty)
        parked.addLayout(park_row)
        layout.addWidget(self.parked_box)
        self.outer = layout

        # What assistive technology calls each field: its step in the method.
        for widget, name in ((self.consequence, "Consequence"), (self.behavior_change, "Start, stop or adjust"),
                             (self.behavior_text, "One behavior"), (self.practice_kind, "Kind of practice"),
                             (self.practice_task, "One practice"), (self.next_evidence, "Next evidence point"),
                             (self.next_evidence_due, "Next evidence due date"), (self.owner_does, "Who does it"),
                             (self.owner_reviews, "Who reviews it"), (self.cadence, "Cadence"),
                             (self.indicator, "Indicator"), (self.review_rule_text, "Review rule"),
                             (self.qualification_gap, "Qualification gap"), (self.status, "Status"),
                             (self.park_note, "Why park it"), (self.parked_list, "Parked for later"),
                             (self.picker, "Coaching item to show")):
            if not widget.accessibleName():
                widget.setAccessibleName(name)

        # Tab follows the method's order: the item to show and its two buttons, the moment's evidence, the
        # five steps (each step's button right after its field), the rest of the seven components, then
        # the parked observations. The scroll area is no stop of its own: it follows the focus.
        scroll.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        for first, second in zip(self.tab_chain(), self.tab_chain()[1:]):
            QWidget.setTabOrder(first, second)
        for button in (self.new_button, self.park_button, self.split_button, self.promote_button,
                       self.due_calendar, self.check_button, self.cycle_button):
            button.setFocusPolicy(Qt.FocusPolicy.TabFocus)

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        wide = self.width() >= TWO_COLUMNS_FROM
        direction = QBoxLayout.Direction.LeftToRight if wide else QBoxLayout.Direction.TopToBottom
        if self.columns.direction() != direction:
            self.columns.setDirection(direction)
            self.column_rule.setVisible(not wide)
            # Side by side, the five steps take the whole height: the parked observations move to
            # the foot of the right-hand column, under the rest of the item.
            home = self.right_column if wide else self.outer
            for widget in (self.parked_title, self.parked_box):
                widget.setParent(None)
                if wide:
                    home.insertWidget(home.count() - 1, widget)  # above the column's closing stretch
                else:
                    home.addWidget(widget)
                widget.show()

    @property
    def two_columns(self) -> bool:
        return self.columns.direction() == QBoxLayout.Direction.LeftToRight

    def tab_chain(self) -> list[QWidget]:
        """Every control of the editor in the order Tab visits them (those hidden are skipped by Qt)."""
        evidence = self.evidence
        return [self.picker, self.new_button, self.park_button, evidence.cite_button, evidence.more_button,
                evidence.crm_field, evidence.crm_button, evidence.note_text, evidence.note_date,
                evidence.note_calendar, evidence.note_button, evidence.remove_pick, evidence.remove_button,
                self.consequence, self.behavior_change, self.behavior_text, self.split_button, self.practice_kind,
                self.practice_task, self.next_evidence, self.next_evidence_due, self.due_calendar,
                self.check_button, self.cycle_button, self.owner_does, self.owner_reviews, self.cadence,
                self.indicator, self.review_rule_text, self.seen_in, self.of_reviewed, self.weeks_in_a_row,
                self.qualification_gap, self.status, self.parked_list, self.park_note, self.promote_button]

    def form_widgets(self) -> list[QWidget]:
        return [self.consequence, self.behavior_change, self.behavior_text, self.practice_kind,
                self.practice_task, self.next_evidence, self.next_evidence_due, self.owner_does,
                self.owner_reviews, self.cadence, self.indicator, self.review_rule_text, self.seen_in,
                self.of_reviewed, self.weeks_in_a_row, self.qualification_gap, self.status]


TWO_COLUMNS_FROM = 760  # px: from this width the steps and the rest stand side by side

__all__ = ["ItemEditorView", "CONSEQUENCE_PROMPT", "gap_label"]
