"""Colours and the style sheet: one place, so the timeline, lists and legend agree."""

from __future__ import annotations

from PySide6.QtGui import QColor

from desktop import paths
from desktop.core.enums import MomentKind

# Distinct hues that stay apart for the common colour-vision deficiencies
# (Okabe-Ito palette).
KIND_COLOURS: dict[MomentKind, str] = {
    MomentKind.QUESTION: "#0072B2",
    MomentKind.ANSWER: "#009E73",
    MomentKind.MISSED_INTERVENTION: "#D55E00",
    MomentKind.NEXT_STEP: "#CC79A7",
    MomentKind.OTHER: "#8C8C8C",
}

SPEAKER_COLOURS = ("#0B5394", "#7A3E9D", "#38761D", "#B45F06", "#A61C00", "#134F5C")
CURRENT_LINE = "#FFF4C2"
MATCH_LINE = "#E3F0FF"
SELECTED_LINE = "#2F6FBF"  # the bar beside the line the coach picked (the list's own selection colour is off)
PLAYHEAD = "#E0245E"


def kind_colour(kind: str | MomentKind, alpha: int = 255) -> QColor:
    try:
        colour = QColor(KIND_COLOURS[MomentKind(kind)])
    except ValueError:
        colour = QColor(KIND_COLOURS[MomentKind.OTHER])
    colour.setAlpha(alpha)
    return colour


def speaker_colour(speaker: str | None, order: dict[str, int]) -> QColor:
    if not speaker:
        return QColor("#555555")
    index = order.setdefault(speaker, len(order))
    return QColor(SPEAKER_COLOURS[index % len(SPEAKER_COLOURS)])


def fill_rect(painter, rect, colour: QColor) -> None:
    """Fill ``rect`` with a plain colour; leaves the painter with no pen and that brush.

    Not ``painter.fillRect``: choosing among its overloads makes PySide build QGradient's enums (one
    has 180 members) the first time, a few milliseconds of the window's first paint.
    """
    from PySide6.QtCore import Qt

    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(colour)
    painter.drawRect(rect)


def style_sheet() -> str:
    path = paths.RESOURCES / "style" / "callmark.qss"
    try:
        return path.read_text(encoding="utf-8")
    except OSError:
        return ""  # a missing style sheet only costs looks
