"""Colours and looks: one place, so the timeline, lists, labels and legend agree.

There is no window-wide style sheet. Under one, every widget of the window
goes through Qt's style-sheet style, for every size, polish and paint, and
that was a twentieth of the time to the first paint of a long call. Labels
and tables take their looks from fonts and palettes (``label_look``,
``table_look``); only the few widgets whose look a palette can't give (the
player's buttons, the banner, the find bar, the follow button) carry a small
sheet of their own.
"""

from __future__ import annotations

from PySide6.QtGui import QColor, QFont, QPalette

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
# Suggestion families (desktop.core.detect): distinct from the moments' kind colours, each with a letter so
# a suggestion is never told apart by colour alone.
FAMILY_COLOURS = {"questions": "#1F77B4", "stalls and next steps": "#B8002E", "qualification": "#6A3D9A",
                  "follow-up": "#A65E00"}
FAMILY_LETTERS = {"questions": "Q", "stalls and next steps": "S", "qualification": "M", "follow-up": "F"}
FAMILY_NAMES = {"questions": "Questions", "stalls and next steps": "Stalls and next steps",
                "qualification": "Qualification", "follow-up": "Follow-up"}


def family_colour(family: str, alpha: int = 255) -> QColor:
    colour = QColor(FAMILY_COLOURS.get(family, "#5B6B7F"))
    colour.setAlpha(alpha)
    return colour


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


# What a label's object name makes it look like: (text colour, point size, bold, padding above and below).
_LABEL_LOOKS: dict[str, tuple[str | None, float | None, bool, int]] = {
    "callTitle": (None, 15.0, True, 0),
    "callDetails": ("#5f6b7a", None, False, 0),
    "panelTitle": ("#33404f", None, True, 2),
    "emptyHint": ("#6b7785", None, False, 0),
    "hint": ("#6b7785", None, False, 0),
    "problem": ("#b3261e", None, False, 0),
    "infoKey": (None, None, True, 0),
}
LABEL_LOOKS = frozenset(_LABEL_LOOKS)


def label_look(label, name: str):
    """Name the label for its part (one of LABEL_LOOKS) and give it that part's colour and font."""
    colour, size, bold, padding = _LABEL_LOOKS[name]
    label.setObjectName(name)
    if colour:
        text_colour(label, colour)
    if size or bold:
        font = QFont(label.font())
        if size:
            font.setPointSizeF(size)
        if bold:
            font.setWeight(QFont.Weight.DemiBold)
        label.setFont(font)
    if padding:
        label.setContentsMargins(0, padding, 0, padding)
    return label


def text_colour(widget, colour: str) -> None:
    palette = widget.palette()
    palette.setColor(QPalette.ColorRole.WindowText, QColor(colour))
    widget.setPalette(palette)


def table_look(view) -> None:
    """A table's selection: a light row with dark text, so the kind colours in it stay readable."""
    palette = view.palette()
    palette.setColor(QPalette.ColorRole.Highlight, QColor("#d7e6f7"))
    palette.setColor(QPalette.ColorRole.HighlightedText, QColor("#111111"))
    view.setPalette(palette)


PLAYER_BAR_SHEET = """
QToolButton { padding: 3px 8px; border: 1px solid #c9d0d8; border-radius: 4px; background: #f7f9fb; }
QToolButton:hover { background: #eaf1f8; }
QToolButton:checked { background: #dbe8f6; border-color: #7aa7d6; }
QToolButton#playButton { min-width: 34px; font-weight: 600; }
QToolButton#markButton { background: #fff1ec; border-color: #e7a48d; color: #a23b12; font-weight: 600; }
QLabel#timeLabel { padding: 0 6px; }
QLabel#delayLabel { color: #6b7785; padding-left: 6px; }
"""
BANNER_SHEET = ("QLabel { background: #fdecea; color: #8a1c12; border: 1px solid #f5c2bd; border-radius: 4px; "
                "padding: 6px 8px; }")
FOLLOW_BUTTON_SHEET = ("QPushButton { background: #1f6feb; color: white; border: none; border-radius: 12px; "
                       "padding: 4px 12px; }")
FIND_BAR_SHEET = "QWidget#findBar { background: #f3f6f9; border: 1px solid #d6dde5; border-radius: 4px; }"
RULE_COLOUR = "#d6dde5"
