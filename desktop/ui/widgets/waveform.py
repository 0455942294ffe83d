"""The waveform timeline: peaks, the playhead, and every moment as a span coloured by kind.

Click to seek; drag a span's edge to move it (written when the mouse is let
go); Ctrl+wheel zooms around the pointer, the wheel pans. Stereo dialer calls
show the left channel (usually the rep) above the line, the right below.

Everything but the playhead is drawn once into a pixmap and kept until it
changes (peaks, moments, selection, view, size, palette): the playhead moves
many times a second while a call plays, and each move repaints a strip that
would otherwise run the whole drawing of 200 moments and every peak column.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QLineF, QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QFont, QPainter, QPalette, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from desktop.ui.style import ShowsFocus, fill_rect, kind_colour, kind_letter, paint_focus_frame, theme

EDGE_GRAB_PX = 5
SUGGESTION_PX = 9  # the suggestions' lane, along the foot of the waveform
MIN_SPAN_MS = 100
RULER_PX = 16  # at least; more when the font is larger (ruler_px)
WAVE_PX = 88  # the peaks, the moments and the suggestions' lane, above the ruler
SEEK_STEP_MS = 1000  # Left / Right while the waveform has the focus (Shift: a tenth of the view)


@dataclass
class Span:
    moment_id: int
    start_ms: int
    end_ms: int
    kind: str


@dataclass
class Mark:
    """A suggestion on the lane: its span, family and whether the coach has judged it yet."""

    start_ms: int
    end_ms: int
    family: str
    open: bool = True


class WaveformTimeline(ShowsFocus, QWidget):
    seek_requested = Signal(int)  # ms
    moment_clicked = Signal(int)  # moment id
    span_edited = Signal(int, int, int)  # moment id, new start ms, new end ms

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("waveform")
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self._fit_height()
        self.setMouseTracking(True)
        # Reached with Tab (a click only seeks: it leaves the keyboard where the coach was typing).
        self.setFocusPolicy(Qt.FocusPolicy.TabFocus)
        self._peaks = None  # desktop.media.waveform.Peaks
        self._duration = 0
        self._view = (0, 0)  # visible ms range
        self._position = 0
        self._spans: list[Span] = []
        self._marks: list[Mark] = []
        self._selected: int | None = None
        self._columns = None  # numpy array: cached per-pixel peaks for the current view
        self._status = ""
        self._drag: tuple[Span, str] | None = None  # span, "start" | "end"
        self._scrubbing = False
        self._backdrop = None  # QPixmap: all but the playhead, drawn when something in it changed
        self._said_second = -1
        self.setAccessibleName("Waveform")

    # --- content ------------------------------------------------------------------------

    def set_duration(self, ms: int) -> None:
        ms = max(0, int(ms))
        if ms != self._duration:
            self._duration = ms
            self._view = (0, ms)
            self._columns = None
            self._redraw()

    def duration(self) -> int:
        return self._duration

    def set_peaks(self, peaks) -> None:
        self._peaks = peaks
        self._status = ""
        if peaks is not None and not self._duration:
            self.set_duration(peaks.duration_ms)
        self._columns = None
        self._redraw()

    def has_peaks(self) -> bool:
        return self._peaks is not None

    def set_status(self, text: str) -> None:
        """A line shown while peaks are computed, or why there are none."""
        self._status = text
        self._redraw()

    def set_moments(self, moments) -> None:
        self._spans = [Span(m.id, m.start_ms, m.end_ms, m.kind) for m in moments]
        self._redraw()

    def describe_position(self) -> str:
        """The playhead and the moments and suggestions under it, in words."""
        from desktop.core.timefmt import format_ms

        here = self._position
        kinds = [s.kind.replace("_", " ") for s in self._spans if s.start_ms <= here <= s.end_ms]
        marks = [m.family for m in self._marks if m.start_ms <= here <= m.end_ms]
        said = f"Playhead at {format_ms(here)} of {format_ms(self._duration)}"
        if kinds:
            said += "; moment here: " + ", ".join(kinds)
        if marks:
            said += "; suggestion here: " + ", ".join(marks)
        return said

    def set_suggestions(self, marks) -> None:
        """The suggestions' lane: ``Mark`` rows (open ones solid, judged ones as an outline)."""
        self._marks = list(marks)
        self._redraw()

    def suggestions_shown(self) -> list[Mark]:
        return list(self._marks)

    def ruler_px(self) -> int:
        """The ruler's height: its labels' font, so a large font is not cut at the foot."""
        return max(RULER_PX, self._ruler_metrics().height() + 4)

    def _ruler_font(self) -> QFont:
        font = QFont(self.font())
        font.setPointSizeF(max(7.0, font.pointSizeF() - 1.5))
        return font

    def _ruler_metrics(self):
        from PySide6.QtGui import QFontMetrics

        return QFontMetrics(self._ruler_font())

    def _fit_height(self) -> None:
        self.setFixedHeight(WAVE_PX + self.ruler_px())

    def suggestion_lane(self) -> QRectF:
        wave_bottom = self.height() - self.ruler_px()
        return QRectF(0, wave_bottom - SUGGESTION_PX, self.width(), SUGGESTION_PX)

    def select_moment(self, moment_id: int | None) -> None:
        self._selected = moment_id
        self._redraw()

    def set_position(self, ms: int) -> None:
        old_x = self._x(self._position)
        self._position = int(ms)
        if int(ms) // 1000 != self._said_second:  # what a screen reader says: once a second, not every tick
            self._said_second = int(ms) // 1000
            self.setAccessibleDescription(self.describe_position())
        v0, v1 = self._view
        if self._duration and (v1 - v0) < self._duration and not (v0 <= ms <= v1):
            width = v1 - v0  # zoomed in: turn the page so the playhead stays in sight
            start = min(max(0, ms - width // 10), self._duration - width)
            self._set_view(start, start + width)
            return
        new_x = self._x(self._position)
        self.update(int(min(old_x, new_x)) - 2, 0, int(abs(new_x - old_x)) + 5, self.height())

    def zoom(self, factor: float, around_ms: int | None = None) -> None:
        if not self._duration:
            return
        v0, v1 = self._view
        centre = self._position if around_ms is None else around_ms
        width = int(min(self._duration, max(2000, (v1 - v0) * factor)))
        start = int(centre - (centre - v0) * width / max(1, v1 - v0))
        start = min(max(0, start), self._duration - width)
        self._set_view(start, start + width)

    def view_range(self) -> tuple[int, int]:
        return self._view

    # --- geometry ------------------------------------------------------------------------

    def _x(self, ms: float) -> float:
        v0, v1 = self._view
        if v1 <= v0:
            return 0.0
        return (ms - v0) * self.width() / (v1 - v0)

    def ms_at(self, x: float) -> int:
        v0, v1 = self._view
        if v1 <= v0:
            return 0
        return int(min(max(0, v0 + x * (v1 - v0) / max(1, self.width())), self._duration))

    def _set_view(self, start: int, end: int) -> None:
        self._view = (int(start), int(end))
        self._columns = None
        self._redraw()

    def _span_edge_at(self, x: float) -> tuple[Span, str] | None:
        for span in self._spans:
            for edge, ms in (("start", span.start_ms), ("end", span.end_ms)):
                if abs(self._x(ms) - x) <= EDGE_GRAB_PX:
                    return span, edge
        return None

    def _span_at(self, x: float) -> Span | None:
        ms = self.ms_at(x)
        inside = [s for s in self._spans if s.start_ms <= ms <= s.end_ms]
        return min(inside, key=lambda s: s.end_ms - s.start_ms) if inside else None

    # --- painting -----------------------------------------------------------------------

    def _peak_columns(self):
        """Per pixel column, the loudest peak of each channel in the view (cached)."""
        if self._peaks is None or len(self._peaks) == 0 or self.width() <= 0:
            return None
        import numpy as np  # here, not at start-up: the peaks come from a thread that imported it

        if self._columns is not None and self._columns.shape[1] == self.width():
            return self._columns
        v0, v1 = self._view
        data = self._peaks.channels
        per_ms = self._peaks.per_second / 1000.0
        edges = np.linspace(v0 * per_ms, v1 * per_ms, self.width() + 1)
        edges = np.clip(edges.astype(np.int64), 0, data.shape[1] - 1)
        ends = np.maximum(edges[1:], edges[:-1] + 1)
        cols = np.empty((data.shape[0], self.width()), dtype=np.float32)
        for ch in range(data.shape[0]):
            # reduceat needs increasing indices: take the max of [edges[i], ends[i]) per column
            cum = data[ch]
            starts = edges[:-1]
            cols[ch] = np.maximum.reduceat(np.append(cum, 0.0), np.ravel(np.column_stack([starts, ends])))[::2]
        self._columns = cols
        return cols

    def _redraw(self) -> None:
        """Something under the playhead changed: draw it again at the next paint."""
        self._backdrop = None
        self.update()

    def changeEvent(self, event) -> None:  # noqa: N802
        self._backdrop = None  # palette, font or style: the colours and the ruler's text follow them
        from PySide6.QtCore import QEvent

        if event.type() == QEvent.Type.FontChange:
            self._fit_height()
        super().changeEvent(event)

    def paintEvent(self, event) -> None:  # noqa: N802
        backdrop = self._backdrop
        ratio = self.devicePixelRatioF()
        if backdrop is None or backdrop.size() != self.size() * ratio:
            from PySide6.QtGui import QPixmap  # here: the class is not needed before the first paint

            backdrop = QPixmap(self.size() * ratio)
            backdrop.setDevicePixelRatio(ratio)
            inner = QPainter(backdrop)
            self._paint_backdrop(inner)
            inner.end()
            self._backdrop = backdrop
        p = QPainter(self)
        p.drawPixmap(0, 0, backdrop)
        x = self._x(self._position)
        p.setPen(QPen(QColor(theme(self.palette()).playhead), 2))
        p.drawLine(QPointF(x, 0), QPointF(x, self.height()))
        if self.hasFocus():
            paint_focus_frame(self, self.palette(), p)
        p.end()

    def _paint_backdrop(self, p: QPainter) -> None:
        rect = self.rect()
        look = theme(self.palette())
        wave = QRectF(0, 0, rect.width(), rect.height() - self.ruler_px())
        fill_rect(p, rect, self.palette().color(QPalette.ColorRole.Base))
        mid = wave.center().y()
        self._paint_spans(p, wave, look)
        cols = self._peak_columns()
        if cols is not None:
            pen = QPen(QColor(look.peaks))
            pen.setWidth(1)
            p.setPen(pen)
            half = wave.height() / 2 - 3
            top = cols[0]
            bottom = cols[1] if cols.shape[0] > 1 else cols[0]
            lines = [QLineF(x + 0.5, mid - max(0.5, top[x] * half), x + 0.5, mid + max(0.5, bottom[x] * half))
                     for x in range(cols.shape[1])]
            p.drawLines(lines)
        else:
            p.setPen(QColor(look.idle_line))
            p.drawLine(QPointF(0, mid), QPointF(rect.width(), mid))
            if self._status:
                p.setPen(self.palette().color(QPalette.ColorRole.PlaceholderText))
                p.drawText(wave, Qt.AlignmentFlag.AlignCenter, self._status)
        self._paint_marks(p, look)
        self._paint_ruler(p, rect)

    def _paint_marks(self, p: QPainter, look) -> None:
        if not self._marks:
            return
        lane = self.suggestion_lane()
        width = lane.width()
        by_family: dict[tuple[str, bool], list[QRectF]] = {}
        for mark in self._marks:
            x0, x1 = self._x(mark.start_ms), self._x(mark.end_ms)
            if x1 < 0 or x0 > width:
                continue
            by_family.setdefault((mark.family, mark.open), []).append(
                QRectF(x0, lane.top() + 1, max(3.0, x1 - x0), lane.height() - 2))
        from desktop.ui.style import family_colour

        for (family, is_open), rects in by_family.items():
            colour = family_colour(family, look=look)
            if is_open:
                p.setPen(Qt.PenStyle.NoPen)
                p.setBrush(colour)
            else:
                p.setPen(QPen(colour, 1))
                p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawRects(rects)
        p.setBrush(Qt.BrushStyle.NoBrush)

    def _paint_spans(self, p: QPainter, wave: QRectF, look) -> None:
        # 200 moments on a long call: plain floats, each colour made once, areas and edges drawn in
        # one call per colour, since every Qt call from Python costs more than the drawing itself.
        top, bottom, height, width = wave.top(), wave.bottom(), wave.height(), wave.width()
        fills: dict[tuple[str, int], QColor] = {}
        areas: dict[tuple[str, int], list[QRectF]] = {}
        edges: dict[tuple[str, int], list[QLineF]] = {}
        # Each span's kind letter under its bar, where the span is wide enough: not by colour alone.
        letters: list[tuple[QPointF, str]] = []
        p.setFont(self.font())  # a pixmap's painter starts with the application's font, not this widget's
        metrics = p.fontMetrics()
        letter_px, ascent = metrics.horizontalAdvance("M") + 5, metrics.ascent()
        for span in self._spans:
            x0, x1 = self._x(span.start_ms), self._x(span.end_ms)
            if x1 < 0 or x0 > width:
                continue
            selected = span.moment_id == self._selected
            shade, solid = (fills.get((span.kind, a)) for a in (90 if selected else 55, 255))
            if shade is None:
                shade = fills[(span.kind, 90 if selected else 55)] = kind_colour(
                    span.kind, 90 if selected else 55, look)
            if solid is None:
                solid = fills[(span.kind, 255)] = kind_colour(span.kind, look=look)
            w = max(2.0, x1 - x0)
            areas.setdefault((span.kind, 90 if selected else 55), []).append(QRectF(x0, top, w, height))
            areas.setdefault((span.kind, 255), []).append(QRectF(x0, top, w, 4))
            lines = edges.setdefault((span.kind, 2 if selected else 1), [])
            lines.append(QLineF(x0, top, x0, bottom))
            lines.append(QLineF(x1, top, x1, bottom))
            if x1 - x0 >= letter_px:
                letters.append((QPointF(x0 + 3, top + 5 + ascent), kind_letter(span.kind)))
        p.setPen(Qt.PenStyle.NoPen)
        for key in sorted(areas, key=lambda k: k[1]):  # the shades, then the solid bars over them
            p.setBrush(fills[key])
            p.drawRects(areas[key])
        p.setBrush(Qt.BrushStyle.NoBrush)
        for (kind, weight), lines in edges.items():
            p.setPen(QPen(fills[(kind, 255)], weight))
            p.drawLines(lines)
        if letters:
            p.setPen(self.palette().color(QPalette.ColorRole.Text))
            for point, letter in letters:
                p.drawText(point, letter)

    def _paint_ruler(self, p: QPainter, rect) -> None:
        v0, v1 = self._view
        if v1 <= v0:
            return
        y = rect.height() - self.ruler_px()
        p.setPen(self.palette().color(QPalette.ColorRole.Mid))
        p.drawLine(0, y, rect.width(), y)
        span = v1 - v0
        step = next((s for s in (1000, 5000, 10000, 30000, 60000, 300000, 600000, 1800000)
                     if span / s <= max(4, rect.width() // 90)), 3600000)
        p.setFont(self._ruler_font())
        p.setPen(self.palette().color(QPalette.ColorRole.Text))
        t = (v0 // step + 1) * step if v0 % step else v0
        while t <= v1:
            x = self._x(t)
            p.drawLine(QPointF(x, y), QPointF(x, y + 4))
            seconds = t // 1000
            label = (f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}" if seconds >= 3600
                     else f"{seconds // 60}:{seconds % 60:02d}")
            p.drawText(QPointF(x + 3, rect.height() - 3 - p.fontMetrics().descent()), label)
            t += step

    def resizeEvent(self, event) -> None:  # noqa: N802
        self._columns = None
        self._backdrop = None
        super().resizeEvent(event)

    # --- keyboard -------------------------------------------------------------------------

    def keyPressEvent(self, event) -> None:  # noqa: N802
        """With the focus here: Left / Right seek a second (Shift: a tenth of the view), Home / End go to
        either end, + / - zoom around the playhead, S / E move the selected moment's start / end to the
        playhead; what the mouse does, from the keyboard."""
        if not self._duration or event.modifiers() & ~(Qt.KeyboardModifier.ShiftModifier
                                                       | Qt.KeyboardModifier.KeypadModifier):
            super().keyPressEvent(event)
            return
        key, v0, v1 = event.key(), *self._view
        if key in (Qt.Key.Key_S, Qt.Key.Key_E) and self._move_edge("start" if key == Qt.Key.Key_S else "end"):
            event.accept()
            return
        step = max(SEEK_STEP_MS, (v1 - v0) // 10) if event.modifiers() & Qt.KeyboardModifier.ShiftModifier \
            else SEEK_STEP_MS
        target = {Qt.Key.Key_Left: self._position - step, Qt.Key.Key_Right: self._position + step,
                  Qt.Key.Key_Home: 0, Qt.Key.Key_End: self._duration}.get(key)
        if target is not None:
            self.seek_requested.emit(int(min(max(0, target), self._duration)))
        elif key in (Qt.Key.Key_Plus, Qt.Key.Key_Equal):
            self.zoom(0.8)
        elif key == Qt.Key.Key_Minus:
            self.zoom(1.25)
        else:
            super().keyPressEvent(event)
            return
        event.accept()

    def _move_edge(self, edge: str) -> bool:
        """The selected moment's start or end to the playhead (as dragging that edge would); False if no
        moment is selected or the edge would pass the other one."""
        span = next((s for s in self._spans if s.moment_id == self._selected), None)
        if span is None:
            return False
        here = self._position
        start, end = (here, span.end_ms) if edge == "start" else (span.start_ms, here)
        if end - start < MIN_SPAN_MS:
            return False
        span.start_ms, span.end_ms = start, end
        self._redraw()
        self.span_edited.emit(span.moment_id, max(0, start), min(end, self._duration))
        return True

    # --- mouse ----------------------------------------------------------------------------

    def mousePressEvent(self, event) -> None:  # noqa: N802
        if event.button() != Qt.MouseButton.LeftButton or not self._duration:
            return
        x = event.position().x()
        grab = self._span_edge_at(x)
        if grab is not None:
            self._drag = grab
            self.moment_clicked.emit(grab[0].moment_id)
            return
        span = self._span_at(x)
        if span is not None:
            self.moment_clicked.emit(span.moment_id)
        self._scrubbing = True
        self.seek_requested.emit(self.ms_at(x))

    def mouseMoveEvent(self, event) -> None:  # noqa: N802
        x = event.position().x()
        if self._drag is not None:
            span, edge = self._drag
            ms = self.ms_at(x)
            if edge == "start":
                span.start_ms = min(ms, span.end_ms - MIN_SPAN_MS)
            else:
                span.end_ms = max(ms, span.start_ms + MIN_SPAN_MS)
            self._redraw()
        elif self._scrubbing:
            self.seek_requested.emit(self.ms_at(x))
        else:
            near = self._span_edge_at(x) is not None
            self.setCursor(Qt.CursorShape.SizeHorCursor if near else Qt.CursorShape.PointingHandCursor)

    def mouseReleaseEvent(self, event) -> None:  # noqa: N802
        if self._drag is not None:
            span, _ = self._drag
            self._drag = None
            self.span_edited.emit(span.moment_id, max(0, span.start_ms), min(span.end_ms, self._duration))
        self._scrubbing = False

    def wheelEvent(self, event) -> None:  # noqa: N802
        if not self._duration:
            return
        delta = event.angleDelta().y() or event.angleDelta().x()
        if event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            self.zoom(0.8 if delta > 0 else 1.25, self.ms_at(event.position().x()))
        else:
            v0, v1 = self._view
            shift = int(-(delta / 120) * (v1 - v0) / 10)
            start = min(max(0, v0 + shift), self._duration - (v1 - v0))
            self._set_view(start, start + (v1 - v0))
        event.accept()
