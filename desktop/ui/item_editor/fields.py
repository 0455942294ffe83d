"""The editor's text fields and finding notes: typed like a form, checked like a spell-checker.

`StepText` wraps long text but behaves like a form field: Tab and Enter move to
the next step (Shift+Enter for a new line), and a field with an error gets a
wavy underline and a coloured border. `FindingNote` shows one component's
findings under its field: severity mark, reason, suggestion.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import date

from PySide6.QtCore import QDate, QStringListModel, Qt, Signal
from PySide6.QtGui import QColor, QFontMetrics, QKeyEvent, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import (
    QApplication, QCalendarWidget, QCompleter, QLabel, QLineEdit, QPlainTextEdit, QTextEdit, QToolButton,
    QVBoxLayout, QWidget,
)

from desktop.core.enums import Severity
from desktop.core.specificity import Finding, passes


class _SeverityColours(Mapping):
    """Severity -> colour of its notes, from the palette's theme (desktop.ui.style), read when drawn."""

    def __getitem__(self, severity):
        from desktop.ui.style import theme

        try:
            return theme().severity[Severity(severity).value]
        except ValueError:
            raise KeyError(severity) from None

    def __iter__(self):
        return iter(Severity)

    def __len__(self) -> int:
        return len(Severity)


SEVERITY_COLOURS = _SeverityColours()


def _muted() -> str:
    from desktop.ui.style import theme

    return theme().muted_text
SEVERITY_MARKS = {Severity.ERROR: "✖", Severity.WARNING: "▲", Severity.INFO: "ℹ"}
_WORST = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.INFO: 2}


def worst(findings: list[Finding]) -> Severity | None:
    return min((f.severity for f in findings), key=_WORST.get, default=None)


class StepText(QPlainTextEdit):
    """A few wrapped lines of text that the keyboard moves through like a form field."""

    edited = Signal(str)  # the text, on every change the coach makes (not on load)
    left = Signal()  # focus left the field

    def __init__(self, placeholder: str = "", lines: int = 2, parent: QWidget | None = None):
        super().__init__(parent)
        self.setPlaceholderText(placeholder)
        self.setTabChangesFocus(True)
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        height = QFontMetrics(self.font()).lineSpacing() * lines + 14
        self.setFixedHeight(height)
        self._loading = False
        self._severity: Severity | None = None
        self._completer: QCompleter | None = None
        self.textChanged.connect(self._on_text_changed)
        QApplication.instance().focusChanged.connect(self._on_focus_changed)

    # --- loading without counting as typing -----------------------------------------------

    def set_text(self, text: str) -> None:
        if text == self.toPlainText():
            return
        self._loading = True
        try:
            self.setPlainText(text)
            self.moveCursor(QTextCursor.MoveOperation.End)
        finally:
            self._loading = False

    def text(self) -> str:
        return self.toPlainText()

    def _on_text_changed(self) -> None:
        if not self._loading:
            self.edited.emit(self.toPlainText())
        self._paint_severity()

    # --- completion (the behavior library) -------------------------------------------------

    def set_completer(self, completer: QCompleter) -> None:
        completer.setWidget(self)
        completer.setCompletionMode(QCompleter.CompletionMode.UnfilteredPopupCompletion)
        completer.activated[str].connect(self._insert_completion)
        self._completer = completer

    def _insert_completion(self, text: str) -> None:
        self.setPlainText(text)  # counts as typing: it is the coach's choice
        self.moveCursor(QTextCursor.MoveOperation.End)

    def completer(self) -> QCompleter | None:
        return self._completer

    # --- keys --------------------------------------------------------------------------------

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt's name
        popup = self._completer.popup() if self._completer else None
        if popup is not None and popup.isVisible() and event.key() in (
                Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Escape, Qt.Key.Key_Tab, Qt.Key.Key_Backtab):
            # Normally the popup's own filter takes these; if one reaches us, a chosen
            # suggestion is taken, otherwise the popup closes and the key does its usual job.
            chosen = popup.currentIndex()
            popup.hide()
            if event.key() == Qt.Key.Key_Escape:
                return
            if chosen.isValid() and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
                self._insert_completion(chosen.data())
                return
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) \
                and not event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
            self.focusNextChild()
            return
        super().keyPressEvent(event)

    def _on_focus_changed(self, old, new) -> None:
        # Followed through the application: while the suggestions popup is open the field
        # gets no focus-out event, yet Tab still moves on.
        if old is not self or new is self:
            return
        popup = self._completer.popup() if self._completer else None
        if popup is not None and new is popup:
            return  # the suggestions list took the keys: still typing here
        if popup is not None and popup.isVisible():
            popup.hide()
        self.left.emit()

    # --- the spell-checker look ---------------------------------------------------------------

    def set_severity(self, severity: Severity | None) -> None:
        if severity != self._severity:
            self._severity = severity
            self.setProperty("finding", str(severity) if severity else "")
            colour = SEVERITY_COLOURS.get(severity) if severity in (Severity.ERROR, Severity.WARNING) else None
            self.setStyleSheet(f"QPlainTextEdit {{ border: 2px solid {colour}; border-radius: 3px; }}"
                               if colour else "")
            self._paint_severity()

    def severity(self) -> Severity | None:
        return self._severity

    def _paint_severity(self) -> None:
        if self._severity not in (Severity.ERROR, Severity.WARNING) or not self.toPlainText().strip():
            if self.extraSelections():
                self.setExtraSelections([])
            return
        selection = QTextEdit.ExtraSelection()
        fmt = QTextCharFormat()
        fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.SpellCheckUnderline)
        fmt.setUnderlineColor(QColor(SEVERITY_COLOURS[self._severity]))
        selection.format = fmt
        cursor = QTextCursor(self.document())
        cursor.select(QTextCursor.SelectionType.Document)
        selection.cursor = cursor
        self.setExtraSelections([selection])


class FindingNote(QLabel):
    """One component's findings, under its field: mark, reason, suggestion."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWordWrap(True)
        self.setTextFormat(Qt.TextFormat.RichText)
        self.setObjectName("findingNote")
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.findings: list[Finding] = []
        self.hide()

    def show_findings(self, findings: list[Finding]) -> None:
        self.findings = list(findings)
        if not findings:
            self.clear()
            self.hide()
            return
        parts = []
        for f in findings:
            colour = SEVERITY_COLOURS[f.severity]
            tip = f"<br/><span style='color:{_muted()}'>→ {_escape(f.suggestion)}</span>" if f.suggestion else ""
            parts.append(f"<span style='color:{colour}'><b>{SEVERITY_MARKS[f.severity]} {f.severity}</b> "
                         f"{_escape(f.message)}</span>{tip}")
        self.setText("<br/>".join(parts))
        self.show()


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


class BehaviorCompleter(QCompleter):
    """The behavior library offered as the coach types, ranked by `behaviors.suggest`."""

    def __init__(self, parent=None):
        self._model = QStringListModel()
        super().__init__(self._model, parent)
        self.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.setMaxVisibleItems(6)
        self._known: list[str] = []

    def set_known(self, known: list[str]) -> None:
        self._known = list(known)

    def offer(self, typed: str, show: bool = True) -> list[str]:
        """Refill the list for what was typed; show the popup when there is something to offer."""
        from desktop.core.behaviors import suggest

        typed_norm = " ".join(typed.lower().split())
        found = [s for s in suggest(typed, self._known, limit=6)
                 if " ".join(s.lower().split()) != typed_norm] if typed.strip() else []
        self._model.setStringList(found)
        widget = self.widget()
        if show and found and widget is not None and widget.hasFocus():
            rect = widget.cursorRect() if hasattr(widget, "cursorRect") else widget.rect()
            rect.setWidth(max(widget.width() - 8, 200))
            self.complete(rect)
        elif not found:
            self.popup().hide()
        return found



class DueDateEdit(QLineEdit):
    """The next evidence date, typed as 2026-12-14 (or 20261214); empty means no date yet.

    A QDateEdit can't be empty and makes the coach walk its sections with Tab;
    a plain field typed as ISO text keeps Tab for moving on.
    """

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setPlaceholderText("YYYY-MM-DD")
        self.setMaxLength(10)
        self.returnPressed.connect(self.focusNextChild)

    def set_date(self, value: date | None) -> None:
        text = value.isoformat() if value else ""
        if text != self.text():
            self.setText(text)

    def date_value(self) -> date | None:
        """The typed date; None when empty; raises ValueError for text that is not a date."""
        text = self.text().strip()
        if not text:
            return None
        if re.fullmatch(r"\d{8}", text):
            text = f"{text[:4]}-{text[4:6]}-{text[6:]}"
        return date.fromisoformat(text)

    def is_valid(self) -> bool:
        try:
            self.date_value()
        except ValueError:
            return False
        return True


class CalendarButton(QToolButton):
    """A small calendar beside a typed date field: click, pick a day (arrows + Enter work too).

    Typing stays the fast path; the calendar is for "which Thursday is that?".
    """

    picked = Signal(object)  # the chosen datetime.date

    def __init__(self, field: DueDateEdit, parent: QWidget | None = None):
        super().__init__(parent)
        self.field = field
        self.setText("▾")
        self.setToolTip("Pick the date on a calendar")
        self.setAccessibleName("calendar")
        self.setFocusPolicy(Qt.FocusPolicy.TabFocus)
        self.popup = QWidget(self, Qt.WindowType.Popup)
        self.calendar = QCalendarWidget(self.popup)
        self.calendar.setGridVisible(False)
        self.calendar.setVerticalHeaderFormat(QCalendarWidget.VerticalHeaderFormat.NoVerticalHeader)
        box = QVBoxLayout(self.popup)
        box.setContentsMargins(2, 2, 2, 2)
        box.addWidget(self.calendar)
        self.calendar.activated.connect(self._choose)  # Enter or double-click
        self.calendar.clicked.connect(self._choose)
        self.clicked.connect(self.open_calendar)

    def open_calendar(self) -> None:
        try:
            current = self.field.date_value()
        except ValueError:
            current = None
        day = current or date.today()
        self.calendar.setSelectedDate(QDate(day.year, day.month, day.day))
        self.popup.adjustSize()
        self.popup.move(self.mapToGlobal(self.rect().bottomRight()) - self.popup.rect().topRight())
        self.popup.show()
        self.calendar.setFocus(Qt.FocusReason.PopupFocusReason)

    def _choose(self, qdate: QDate) -> None:
        chosen = date(qdate.year(), qdate.month(), qdate.day())
        self.popup.hide()
        self.field.set_date(chosen)
        self.field.setFocus(Qt.FocusReason.PopupFocusReason)
        self.picked.emit(chosen)


def summary_html(row, found: list[Finding]) -> str:
    """The editor's one-line verdict on the item: fixed or to fix, and how much advice."""
    from html import escape

    from desktop.ui.style import theme

    if row is None:
        return ""
    errors = sum(f.severity == Severity.ERROR for f in found)
    advice = len(found) - errors
    head = f"Item {row.id} for {escape(row.manager or 'no manager', quote=False)} · {row.status}"
    if passes(found):
        verdict = f"<span style='color:{theme().severity['ok']}'>✔ specific enough to coach</span>"
    else:
        verdict = (f"<span style='color:{SEVERITY_COLOURS[Severity.ERROR]}'>"
                   f"{SEVERITY_MARKS[Severity.ERROR]} {errors} to fix</span>")
    if advice:
        verdict += (f" · <span style='color:{SEVERITY_COLOURS[Severity.WARNING]}'>"
                    f"{SEVERITY_MARKS[Severity.WARNING]} {advice} advice</span>")
    return f"{head} · {verdict}"
