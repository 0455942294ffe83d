"""Two lanes over the waveform: my moments above, theirs below, each pair joined by a line.

A moment only one coach marked is drawn with a red dashed outline, so what
one coach saw and the other missed stands out. Click a span to select its row.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QFont, QPainter, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from desktop.ui.style import LIGHT, ShowsFocus, paint_focus_frame, theme

# The light palette's; painting takes them from the palette's theme (desktop.ui.style.Theme).
MINE_COLOUR = LIGHT.mine
THEIRS_COLOUR = LIGHT.theirs
ALONE_COLOUR = LIGHT.alone
LANE_PX = 26
LABEL_PX = 100


class TwoLaneTimeline(ShowsFocus, QWidget):
    row_clicked = Signal(int)  # index into the rows given to set_rows
    seek_requested = Signal(int)  # ms

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("calibrationTimeline")
        self.setAccessibleName("Both coaches' marks")
        self.setAccessibleDescription("Mine above the waveform, theirs below; Left and Right step through the pairs")
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self._fit_height()
        # Reached with Tab; Left / Right then step through the rows, as a click on a pair does.
        self.setFocusPolicy(Qt.FocusPolicy.TabFocus)
        self._rows: list = []  # desktop.services.calibration.Row
        self._duration = 0
        self._peaks = None
        self._selected: int | None = None
        self._position = 0
        self._look = theme()
        self.mine_label, self.theirs_label = "Mine", "Theirs"

    def _ruler_font(self) -> QFont:
        font = QFont(self.font())
        font.setPointSizeF(max(7.0, font.pointSizeF() - 1.5))
        return font

    def _ruler_px(self) -> int:
        from PySide6.QtGui import QFontMetrics

        return max(14, QFontMetrics(self._ruler_font()).height() + 2)

    def _lane_px(self) -> int:
        from PySide6.QtGui import QFontMetrics

        return max(LANE_PX, QFontMetrics(self.font()).height() + 8)  # the lane's label fits in it

    def _fit_height(self) -> None:
        self.setFixedHeight(150 - 2 * LANE_PX - 14 + 2 * self._lane_px() + self._ruler_px())

    def changeEvent(self, event) -> None:  # noqa: N802
        from PySide6.QtCore import QEvent

        if event.type() == QEvent.Type.FontChange:
            self._fit_height()
        super().changeEvent(event)

    # --- content ------------------------------------------------------------------------

    def set_rows(self, rows: list, duration_ms: int, mine: str = "Mine", theirs: str = "Theirs") -> None:
        self._rows = list(rows)
        self._duration = max(1, int(duration_ms))
        self.mine_label, self.theirs_label = mine, theirs
        self.update()

    def set_peaks(self, peaks) -> None:
        self._peaks = peaks
        self.update()

    def select_row(self, index: int | None) -> None:
        self._selected = index
        self.update()

    def set_position(self, ms: int) -> None:
        self._position = int(ms)
        self.update()

    # --- geometry -----------------------------------------------------------------------

    def _x(self, ms: float) -> float:
        width = max(1, self.width() - LABEL_PX - 8)
        return LABEL_PX + ms * width / self._duration if self._duration else LABEL_PX

    def _ms(self, x: float) -> int:
        width = max(1, self.width() - LABEL_PX - 8)
        return int(min(max(0.0, (x - LABEL_PX) * self._duration / width), self._duration))

    def lanes(self) -> tuple[QRectF, QRectF]:
        """The mine lane (top) and theirs lane (bottom); the waveform sits between them."""
        h, lane = self.height(), self._lane_px()
        return (QRectF(LABEL_PX, 6, self.width() - LABEL_PX - 8, lane),
                QRectF(LABEL_PX, h - 6 - lane - self._ruler_px(), self.width() - LABEL_PX - 8, lane))

    def _boxes(self, row, mine_lane: QRectF, theirs_lane: QRectF):
        out = []
        for moment, lane in ((row.mine, mine_lane), (row.theirs, theirs_lane)):
            if moment is None:
                out.append(None)
                continue
            x0, x1 = self._x(moment.start_ms), self._x(moment.end_ms)
            out.append(QRectF(x0, lane.top(), max(4.0, x1 - x0), lane.height()))
        return out

    # --- painting -----------------------------------------------------------------------

    def paintEvent(self, event) -> None:  # noqa: N802
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.fillRect(self.rect(), self.palette().base())
        look = self._look = theme(self.palette())
        mine_lane, theirs_lane = self.lanes()
        for lane, colour in ((mine_lane, look.mine), (theirs_lane, look.theirs)):
            wash = QColor(colour)
            wash.setAlpha(22)
            p.fillRect(lane, wash)
        self._paint_labels(p, mine_lane, theirs_lane)
        self._paint_wave(p, QRectF(LABEL_PX, mine_lane.bottom() + 4, mine_lane.width(),
                                   theirs_lane.top() - mine_lane.bottom() - 8))
        for index, row in enumerate(self._rows):
            self._paint_row(p, index, row, mine_lane, theirs_lane)
        self._paint_ruler(p, theirs_lane.bottom() + 2)
        x = self._x(self._position)
        p.setPen(QPen(QColor(look.playhead), 2))
        p.drawLine(QPointF(x, 0), QPointF(x, self.height()))
        if self.hasFocus():
            paint_focus_frame(self, self.palette(), p)
        p.end()

    def _paint_labels(self, p: QPainter, mine_lane: QRectF, theirs_lane: QRectF) -> None:
        font = QFont(p.font())
        font.setBold(True)
        p.setFont(font)
        for lane, colour, text in ((mine_lane, self._look.mine, self.mine_label),
                                   (theirs_lane, self._look.theirs, self.theirs_label)):
            p.setPen(QColor(colour))
            box = QRectF(4, lane.top(), LABEL_PX - 8, lane.height())
            p.drawText(box, Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft,
                       p.fontMetrics().elidedText(text, Qt.TextElideMode.ElideRight, int(box.width())))
        p.setFont(QFont(self.font()))

    def _paint_wave(self, p: QPainter, box: QRectF) -> None:
        mid = box.center().y()
        if self._peaks is None or len(self._peaks) == 0 or box.width() < 2:
            p.setPen(QColor(self._look.idle_line))
            p.drawLine(QPointF(box.left(), mid), QPointF(box.right(), mid))
            return
        data = self._peaks.channels.max(axis=0)
        columns = int(box.width())
        edges = np.linspace(0, data.shape[0], columns + 1).astype(np.int64)
        edges = np.clip(edges, 0, max(0, data.shape[0] - 1))
        heights = np.maximum.reduceat(np.append(data, 0.0), edges[:-1]) if data.size else np.zeros(columns)
        p.setPen(QPen(QColor(self._look.peaks), 1))
        half = box.height() / 2
        for i in range(min(columns, len(heights))):
            h = max(0.5, float(heights[i]) * half)
            x = box.left() + i + 0.5
            p.drawLine(QPointF(x, mid - h), QPointF(x, mid + h))

    def _paint_row(self, p: QPainter, index: int, row, mine_lane: QRectF, theirs_lane: QRectF) -> None:
        mine_box, theirs_box = self._boxes(row, mine_lane, theirs_lane)
        selected = index == self._selected
        if mine_box is not None and theirs_box is not None:
            p.setPen(QPen(QColor(self._look.join), 2.5 if selected else 1.5))
            p.drawLine(QPointF(mine_box.left() + 2, mine_box.bottom()), QPointF(theirs_box.left() + 2, theirs_box.top()))
        for box, colour in ((mine_box, self._look.mine), (theirs_box, self._look.theirs)):
            if box is None:
                continue
            fill = QColor(colour)
            fill.setAlpha(255 if selected else 200)
            p.fillRect(box, fill)
            if row.mine is None or row.theirs is None:  # one coach only: highlighted
                pen = QPen(QColor(self._look.alone), 2, Qt.PenStyle.DashLine)
                p.setPen(pen)
                p.drawRect(box.adjusted(-2, -2, 2, 2))
            if selected:
                p.setPen(QPen(QColor(self._look.picked), 2))
                p.drawRect(box.adjusted(-1, -1, 1, 1))

    def _paint_ruler(self, p: QPainter, y: float) -> None:
        step = next((s for s in (5000, 10000, 30000, 60000, 300000, 600000, 1800000)
                     if self._duration / s <= max(4, (self.width() - LABEL_PX) // 80)), 3600000)
        p.setFont(self._ruler_font())
        p.setPen(self.palette().text().color())
        baseline = y + 3 + p.fontMetrics().ascent()
        t = 0
        while t <= self._duration:
            x = self._x(t)
            p.drawLine(QPointF(x, y), QPointF(x, y + 3))
            s = t // 1000
            if x + 30 < self.width():  # a label cut by the edge reads as a wrong time
                p.drawText(QPointF(x + 2, baseline), f"{s // 60}:{s % 60:02d}")
            t += step

    # --- mouse ----------------------------------------------------------------------------

    def row_at(self, pos: QPointF) -> int | None:
        mine_lane, theirs_lane = self.lanes()
        for index, row in enumerate(self._rows):
            for box in self._boxes(row, mine_lane, theirs_lane):
                if box is not None and box.adjusted(-3, -3, 3, 3).contains(pos):
                    return index
        return None

    def mousePressEvent(self, event) -> None:  # noqa: N802
        if event.button() != Qt.MouseButton.LeftButton:
            return
        index = self.row_at(event.position())
        if index is not None:
            self.row_clicked.emit(index)
        elif event.position().x() >= LABEL_PX:
            self.seek_requested.emit(self._ms(event.position().x()))

    # --- keyboard -------------------------------------------------------------------------

    def keyPressEvent(self, event) -> None:  # noqa: N802
        """Left / Right: the previous / next pair of marks, as if clicked."""
        step = {Qt.Key.Key_Left: -1, Qt.Key.Key_Right: 1}.get(event.key())
        if step is None or not self._rows or event.modifiers() != Qt.KeyboardModifier.NoModifier:
            super().keyPressEvent(event)
            return
        current = self._selected if self._selected is not None else (-1 if step > 0 else len(self._rows))
        self.row_clicked.emit(min(max(0, current + step), len(self._rows) - 1))
        event.accept()
