"""The transcript: uniform rows painted by a delegate; follows playback until the coach scrolls away.

Rows have one height (time and speaker on the left, up to two lines of text
on the right), so a 3,000-line call lays out at once. Clicking a word seeks to
that word when the transcript has word timings, else to the line's start.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QModelIndex, QPointF, QRectF, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QFont, QFontDatabase, QPainter, QTextLayout, QTextOption
from PySide6.QtWidgets import (
    QAbstractItemView,
    QListView,
    QPushButton,
    QStyledItemDelegate,
    QStyleOptionViewItem,
)

from desktop.core.timefmt import format_ms
from desktop.ui.models.transcript_model import START_ROLE, WORDS_ROLE, word_at
from desktop.ui.style import (
    FOCUS_FRAME_PX,
    FOLLOW_BUTTON_SHEET,
    ShowsFocus,
    fill_rect,
    paint_focus_frame,
    speaker_colour,
    theme,
)

TEXT_LINES = 2
GUTTER_PX = 118
PAD = 6
_TIME_FLAGS = int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
_SPEAKER_FLAGS = int(Qt.AlignmentFlag.AlignLeft | Qt.TextFlag.TextSingleLine)
_LOOK_CHANGES = (QEvent.Type.FontChange, QEvent.Type.PaletteChange, QEvent.Type.StyleChange)


class TranscriptDelegate(QStyledItemDelegate):
    """Paints a line: time and speaker in the gutter, up to two lines of text beside them.

    Scrolling repaints every visible line each frame, and every Qt call from Python costs more than
    the drawing it asks for: the fonts, colours and text option are made once per font and palette
    (``forget_look`` when they change), and the line comes from the model in one call.
    """

    def __init__(self, parent=None):
        super().__init__(parent)
        self._speakers: dict[str, int] = {}
        self._speaker_colours: dict[str, QColor] = {}
        self._elided: dict[str, str] = {}
        self._look: tuple | None = None
        self._theme = theme()
        self.query = ""

    def reset_speakers(self, segments=()) -> None:
        """Give the speakers their colours in the order they first speak in ``segments`` (the whole
        transcript), so a speaker keeps one colour wherever the call is opened or scrolled to; a
        speaker not in it (a line streaming in) takes the next colour when first drawn."""
        order = dict.fromkeys(s.speaker for s in segments if s.speaker)
        self._speakers = {speaker: n for n, speaker in enumerate(order)}
        self._speaker_colours.clear()

    def forget_look(self) -> None:
        """The view's font, palette or style changed: make the fonts and colours again."""
        self._look = None
        self._elided.clear()
        self._speaker_colours.clear()  # a dark palette has its own speaker colours

    def row_height(self, option_font: QFont) -> int:
        from PySide6.QtGui import QFontMetrics

        return QFontMetrics(option_font).lineSpacing() * TEXT_LINES + 2 * PAD

    def sizeHint(self, option, index) -> QSize:  # noqa: N802
        return QSize(200, self.row_height(option.font))

    def text_rect(self, rect) -> QRectF:
        return QRectF(rect.left() + GUTTER_PX, rect.top() + PAD, max(10, rect.width() - GUTTER_PX - PAD),
                      rect.height() - 2 * PAD)

    def _text_option(self) -> QTextOption:
        return self._look_from(None)[5]

    def _look_from(self, option) -> tuple:
        look = self._look
        if look is None:
            view = self.parent()
            font = QFont(option.font if option is not None else view.font())
            palette = option.palette if option is not None else view.palette()
            small = QFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
            small.setPointSizeF(max(7.0, font.pointSizeF() - 1))
            bold = QFont(font)
            bold.setBold(True)
            wrap = QTextOption()
            wrap.setWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
            colours = self._theme = theme(palette)  # the platform's light or dark palette, read here once
            look = self._look = (font, small, bold, palette.text().color(), QColor(colours.muted_text),
                                 wrap, QColor(colours.current_line), QColor(colours.match_line),
                                 QColor(colours.selected_line))
        return look

    def layout_text(self, text: str, font: QFont, rect: QRectF) -> QTextLayout:
        layout = QTextLayout(text, font)
        layout.setTextOption(self._text_option())
        layout.beginLayout()
        y = 0.0
        for _ in range(TEXT_LINES):
            line = layout.createLine()
            if not line.isValid():
                break
            line.setLineWidth(rect.width())
            line.setPosition(QPointF(0, y))
            y += line.height()
        layout.endLayout()
        return layout

    def _speaker_label(self, speaker: str, painter: QPainter) -> tuple[QColor, str]:
        colour = self._speaker_colours.get(speaker)
        if colour is None:
            colour = self._speaker_colours[speaker] = speaker_colour(speaker, self._speakers, self._theme)
        label = self._elided.get(speaker)
        if label is None:
            label = self._elided[speaker] = painter.fontMetrics().elidedText(
                speaker, Qt.TextElideMode.ElideRight, GUTTER_PX - PAD - 8)
        return colour, label

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex) -> None:
        seg, text, current, match = index.model().line(index.row())
        font, small, bold, text_colour, time_colour, _wrap, current_fill, match_fill, selected_fill = (
            self._look or self._look_from(option))
        rect = option.rect
        painter.save()
        # The view's selection, not option.state: reading that makes PySide build all of QStyle's
        # enums (a hundredth of a second at the first paint).
        view = self.parent()
        selection = view.selectionModel() if view is not None else None
        if current:
            fill_rect(painter, rect, current_fill)
        elif match:
            fill_rect(painter, rect, match_fill)
        if selection is not None and selection.isSelected(index):
            fill_rect(painter, QRectF(rect.left(), rect.top(), 3, rect.height()), selected_fill)
        left, top = rect.left() + PAD + 4, rect.top() + PAD
        painter.setFont(small)
        painter.setPen(time_colour)
        time_height = painter.fontMetrics().height()  # the gutter's two lines follow the font, like the row
        painter.drawText(QRectF(left, top, GUTTER_PX, time_height), _TIME_FLAGS, format_ms(seg.start_ms))
        if seg.speaker:
            painter.setFont(bold)
            colour, label = self._speaker_label(seg.speaker, painter)
            painter.setPen(colour)
            painter.drawText(QRectF(left, top + max(17, time_height + 1), GUTTER_PX - PAD - 8,
                                    max(18, painter.fontMetrics().height())), _SPEAKER_FLAGS, label)
        box = self.text_rect(rect)
        layout = self.layout_text(text, font, box)
        painter.setPen(text_colour)
        count = layout.lineCount()
        last = layout.lineAt(count - 1) if count else None
        if last is not None and last.textStart() + last.textLength() < len(text):
            # more than fits: draw what fits, end the last line with an ellipsis
            for i in range(count - 1):
                layout.lineAt(i).draw(painter, box.topLeft())
            rest = text[last.textStart():]
            painter.setFont(font)
            painter.drawText(QPointF(box.left(), box.top() + last.y() + last.ascent()),
                             painter.fontMetrics().elidedText(rest, Qt.TextElideMode.ElideRight, int(box.width())))
        else:
            layout.draw(painter, box.topLeft(), self._match_formats(text))
        painter.restore()

    def _match_formats(self, text: str):
        if not self.query:
            return []
        from PySide6.QtGui import QTextCharFormat  # here: its class brings a hundred enum members

        out = []
        lower, needle = text.lower(), self.query.lower()
        start = lower.find(needle)
        while start >= 0:
            fmt = QTextLayout.FormatRange()
            fmt.start, fmt.length = start, len(needle)
            char = QTextCharFormat()
            char.setBackground(QColor(self._theme.match_word))
            fmt.format = char
            out.append(fmt)
            start = lower.find(needle, start + len(needle))
        return out

    def seek_target(self, index: QModelIndex, rect, font: QFont, pos: QPointF) -> int:
        """Where a click at ``pos`` should take the playhead: the word under it, or the line's start."""
        start = index.data(START_ROLE)
        words = index.data(WORDS_ROLE)
        box = self.text_rect(rect)
        if not words or not box.contains(pos):
            return start
        text = index.data(Qt.ItemDataRole.DisplayRole) or ""
        layout = self.layout_text(text, font, box)
        local = pos - box.topLeft()
        for i in range(layout.lineCount()):
            line = layout.lineAt(i)
            if line.y() <= local.y() < line.y() + line.height():
                word = word_at(text, words, line.xToCursor(local.x()))
                return int(word.get("start_ms", start)) if word is not None else start
        return start


class TranscriptView(ShowsFocus, QListView):
    """Emits ``seek_requested`` on a click; ``follow`` keeps the current line in view."""

    seek_requested = Signal(int)
    follow_changed = Signal(bool)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("transcript")
        self.delegate = TranscriptDelegate(self)
        self.setItemDelegate(self.delegate)
        self.setUniformItemSizes(True)
        self.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setMouseTracking(True)
        self.setWordWrap(True)
        self._follow = True
        self._programmatic = 0
        # Only the coach's own scrolling (wheel, scroll bar) stops following; layout changes don't.
        self.verticalScrollBar().actionTriggered.connect(self._on_scrolled)
        self._follow_button: QPushButton | None = None  # made when first needed (the coach scrolls away)
        self._pending_scroll = QTimer(self, singleShot=True, interval=0)
        self._pending_scroll.timeout.connect(self.scroll_to_current)
        self._scroll_when_shown = False
        self.setViewportMargins(*(FOCUS_FRAME_PX,) * 4)  # room for the focus frame round the rows

    def changeEvent(self, event) -> None:  # noqa: N802 - state changes only (not every event)
        if event.type() in _LOOK_CHANGES:
            self.delegate.forget_look()
        super().changeEvent(event)

    # --- follow -----------------------------------------------------------------------------

    @property
    def follow(self) -> bool:
        return self._follow

    @property
    def follow_button(self) -> QPushButton:
        """"Follow playback", over the list's corner while the coach has scrolled away."""
        if self._follow_button is None:
            button = QPushButton("⤓ Follow playback", self.viewport())
            button.setObjectName("followButton")
            button.setStyleSheet(FOLLOW_BUTTON_SHEET)
            button.setCursor(Qt.CursorShape.PointingHandCursor)
            button.clicked.connect(lambda: self.set_follow(True))
            button.hide()
            self._follow_button = button
        return self._follow_button

    def set_follow(self, on: bool) -> None:
        if on == self._follow:
            if on:
                self.scroll_to_current()
            return
        self._follow = on
        if self._follow_button is not None or not on:
            self.follow_button.setVisible(not on)
            self._place_follow_button()
        if on:
            self.scroll_to_current()
        self.follow_changed.emit(on)

    def on_current_line_changed(self) -> None:
        if self._follow:
            self.scroll_to_current()

    def scroll_to_current(self) -> None:
        model = self.model()
        if model is None:
            return
        if not self.isVisible():
            # Where a line sits needs the laid-out list; before the window is shown that layout
            # would be done twice (at this size, then at the shown one). Scroll once shown.
            self._scroll_when_shown = True
            return
        row = model.current_row
        if row < 0:
            return
        index = model.index(row)
        rect = self.visualRect(index)
        height = self._viewport_height()
        # Keep the line in the upper-middle band; only scroll when it leaves it (no jitter).
        if rect.top() < height * 0.15 or rect.bottom() > height * 0.7:
            self._programmatic += 1
            try:
                bar = self.verticalScrollBar()
                bar.setValue(bar.value() + rect.top() - int(height * 0.3))
            finally:
                self._programmatic -= 1

    def _viewport_height(self) -> int:
        # Not viewport().height(): the viewport is a QWidget Qt made, and the first time PySide
        # wraps such a widget it tries every QWidget class it has (the dialogs, the dock, the MDI
        # area...), which creates them all, enums included: a hundredth of a second at the first paint.
        height = self.maximumViewportSize().height()
        bar = self.horizontalScrollBar()
        return height - bar.height() if bar.isVisible() else height

    def _on_scrolled(self, _action: int) -> None:
        if not self._programmatic and self._follow:
            self.set_follow(False)  # the coach scrolled away: stop pulling them back

    def wheelEvent(self, event) -> None:  # noqa: N802
        super().wheelEvent(event)
        self._on_scrolled(0)

    def scroll_to_row(self, row: int) -> None:
        """Show a row without turning follow back on (find, moments)."""
        index = self.model().index(row)
        self._programmatic += 1
        try:
            self.scrollTo(index, QAbstractItemView.ScrollHint.PositionAtCenter)
        finally:
            self._programmatic -= 1
        self.setCurrentIndex(index)

    def _place_follow_button(self) -> None:
        if self._follow_button is None:
            return
        hint = self.follow_button.sizeHint()
        self.follow_button.setGeometry(self.viewport().width() - hint.width() - 12,
                                       self.viewport().height() - hint.height() - 12,
                                       hint.width(), hint.height())

    def showEvent(self, event) -> None:  # noqa: N802
        super().showEvent(event)
        if self._scroll_when_shown:
            self._scroll_when_shown = False
            self._pending_scroll.start()

    def resizeEvent(self, event) -> None:  # noqa: N802
        super().resizeEvent(event)
        self._place_follow_button()

    # --- focus ----------------------------------------------------------------------------------

    def event(self, event) -> bool:
        # The list's own frame (not its rows: the picked line's bar sits at their left edge) shows the
        # focus, in the margin kept round the rows for it.
        handled = super().event(event)
        if event.type() == QEvent.Type.Paint and self.hasFocus():
            paint_focus_frame(self, self.palette())
        return handled

    def keyPressEvent(self, event) -> None:  # noqa: N802
        """Enter plays from the line the keyboard is on, as a click on it does."""
        index = self.currentIndex()
        if (event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and index.isValid()
                and event.modifiers() in (Qt.KeyboardModifier.NoModifier, Qt.KeyboardModifier.KeypadModifier)):
            self.seek_requested.emit(int(index.data(START_ROLE)))
            event.accept()
            return
        super().keyPressEvent(event)

    # --- clicks ---------------------------------------------------------------------------------

    def mouseReleaseEvent(self, event) -> None:  # noqa: N802
        super().mouseReleaseEvent(event)
        if event.button() != Qt.MouseButton.LeftButton:
            return
        index = self.indexAt(event.position().toPoint())
        if index.isValid():
            target = self.delegate.seek_target(index, self.visualRect(index), self.font(), event.position())
            self.seek_requested.emit(int(target))

