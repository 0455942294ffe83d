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

from dataclasses import dataclass

from PySide6.QtGui import QColor, QFont, QPalette

from desktop import paths
from desktop.core.enums import MomentKind

# Distinct hues that stay apart for the common colour-vision deficiencies (Okabe-Ito palette, the
# lighter half darkened a little so each mark keeps 3:1 on the lists' white and alternate rows).
KIND_COLOURS: dict[MomentKind, str] = {
    MomentKind.QUESTION: "#0072B2",
    MomentKind.ANSWER: "#007F5F",
    MomentKind.MISSED_INTERVENTION: "#C65400",
    MomentKind.NEXT_STEP: "#B5528C",
    MomentKind.OTHER: "#737373",
}
# A letter beside each kind's colour (the waveform's spans), so a moment is never told by colour alone.
KIND_LETTERS: dict[MomentKind, str] = {kind: kind.letter for kind in MomentKind}

SPEAKER_COLOURS = ("#0B5394", "#7A3E9D", "#38761D", "#9A5205", "#A61C00", "#134F5C")
# Suggestion families (desktop.core.detect): distinct from the moments' kind colours, each with a letter so
# a suggestion is never told apart by colour alone.
FAMILY_COLOURS = {"questions": "#1F77B4", "stalls and next steps": "#B8002E", "qualification": "#6A3D9A",
                  "follow-up": "#A65E00"}
FAMILY_LETTERS = {"questions": "Q", "stalls and next steps": "S", "qualification": "M", "follow-up": "F"}
FAMILY_NAMES = {"questions": "Questions", "stalls and next steps": "Stalls and next steps",
                "qualification": "Qualification", "follow-up": "Follow-up"}

CURRENT_LINE = "#FFF4C2"
MATCH_LINE = "#E3F0FF"
SELECTED_LINE = "#2F6FBF"  # the bar beside the line the coach picked (the list's own selection colour is off)
PLAYHEAD = "#E0245E"


@dataclass(frozen=True)
class Theme:
    """Every colour the app paints itself, for a light or a dark palette (``theme(palette)`` picks).

    Text colours keep 4.5:1 and marks 3:1 (WCAG 2.1 AA) against the palette they are drawn on
    (tests/ui/test_contrast.py computes the ratios from these values).
    """

    dark: bool
    kinds: dict  # MomentKind -> colour of its marks
    speakers: tuple  # speaker names (text) in the transcript, in the order they first speak
    families: dict  # suggestion family -> colour (text in the list, marks on the lane)
    other_family: str
    playhead: str
    peaks: str  # the waveform's columns
    idle_line: str  # the waveform's middle line while there are no peaks
    muted_text: str  # times in the gutter, hints, call details
    current_line: str  # the transcript's line being played (under text); the CRM history's call row
    after_call: str  # the CRM history's rows after the call (under text)
    match_line: str  # a line that matches the find query (under text)
    match_word: str  # the matched words themselves (under text)
    difference: str  # calibration: the words where two coaches' items differ (under text)
    selected_line: str  # the bar beside the picked line (a mark)
    focus: str  # the focus frame on custom-painted views (a mark)
    rule: str
    selection: str  # a table's selected row (under text)
    selection_text: str
    mine: str  # calibration: my lane (its label is text)
    theirs: str
    alone: str  # calibration: a moment only one coach marked (dashed outline)
    join: str  # calibration: the line that pairs two marks
    picked: str  # calibration: the outline of the picked pair
    labels: dict  # LABEL_LOOKS name -> text colour (on the window)
    player: tuple  # the player's buttons: background, border, hover, checked, checked border
    mark_button: tuple  # background, border, text
    find_bar: tuple  # background, border
    banner: tuple  # background, text, border
    severity: dict  # the specificity check's notes (text): "error", "warning", "info", "ok"


LIGHT = Theme(
    dark=False, kinds=KIND_COLOURS, speakers=SPEAKER_COLOURS, families=FAMILY_COLOURS, other_family="#5B6B7F",
    playhead=PLAYHEAD, peaks="#5B6B7F", idle_line="#8A94A0", muted_text="#56606D", current_line=CURRENT_LINE,
    after_call="#EEF6EE", match_line=MATCH_LINE, match_word="#FFD54F", difference="#ffe58a",
    selected_line=SELECTED_LINE, focus="#1F5FBF",
    rule="#d6dde5", selection="#d7e6f7", selection_text="#111111", mine="#0072B2", theirs="#B34E00",
    alone="#B00020", join="#2D3748", picked="#111111",
    labels={"callDetails": "#56606D", "panelTitle": "#33404f", "emptyHint": "#56606D", "hint": "#56606D",
            "problem": "#b3261e"},
    player=("#f7f9fb", "#c9d0d8", "#eaf1f8", "#dbe8f6", "#7aa7d6"), mark_button=("#fff1ec", "#e7a48d", "#a23b12"),
    find_bar=("#f3f6f9", "#d6dde5"), banner=("#fdecea", "#8a1c12", "#f5c2bd"),
    severity={"error": "#C0392B", "warning": "#8A5A00", "info": "#2C6E9B", "ok": "#2A7230"},
)
DARK = Theme(
    dark=True,
    kinds={MomentKind.QUESTION: "#56B4E9", MomentKind.ANSWER: "#2BC79A", MomentKind.MISSED_INTERVENTION: "#F08A4B",
           MomentKind.NEXT_STEP: "#E38FC0", MomentKind.OTHER: "#A8A8A8"},
    speakers=("#8AB4F8", "#C58AF9", "#81C995", "#FCAD70", "#F28B82", "#78D9EC"),
    families={"questions": "#6CB4F0", "stalls and next steps": "#FF7A90", "qualification": "#C3A0E8",
              "follow-up": "#E0A040"},
    other_family="#9AA6B4", playhead="#FF6B9A", peaks="#9AA6B4", idle_line="#7C8693", muted_text="#AEB6C0",
    current_line="#3A3418", after_call="#1E3325", match_line="#1D3350", match_word="#6B5200", difference="#5C4A00",
    selected_line="#6FA8FF",
    focus="#7EB6FF", rule="#4a4f57", selection="#2D4A70", selection_text="#FFFFFF", mine="#56B4E9",
    theirs="#F0883E", alone="#FF8A80", join="#C8D0DA", picked="#FFFFFF",
    labels={"callDetails": "#AEB6C0", "panelTitle": "#D8DEE6", "emptyHint": "#AEB6C0", "hint": "#AEB6C0",
            "problem": "#FF8A80"},
    player=("#35373b", "#5f636a", "#40444a", "#2D4A70", "#6FA8FF"), mark_button=("#3d2418", "#a8573a", "#FFB59A"),
    find_bar=("#26282b", "#4a4f57"), banner=("#4a1c18", "#FFD7D2", "#8a3a32"),
    severity={"error": "#FF8A80", "warning": "#FFB86B", "info": "#7EC8FF", "ok": "#81C784"},
)


def is_dark(palette: QPalette) -> bool:
    """A palette is dark when its window is darker than its text (the platform's dark mode)."""
    return palette.color(QPalette.ColorRole.Window).lightness() < palette.color(
        QPalette.ColorRole.WindowText).lightness()


def theme(palette: QPalette | None = None) -> Theme:
    """The colours for ``palette`` (by default the application's)."""
    if palette is None:
        from PySide6.QtGui import QGuiApplication

        palette = QGuiApplication.palette()
    return DARK if is_dark(palette) else LIGHT


def dark_palette() -> QPalette:
    """A dark palette like the platforms' dark modes, for a Qt style that has none of its own (Fusion under
    an X server without a desktop's settings) and for the tests."""
    roles = QPalette.ColorRole
    palette = QPalette()
    for role, colour in ((roles.Window, "#2b2d30"), (roles.WindowText, "#e8eaed"), (roles.Base, "#1e1f22"),
                         (roles.AlternateBase, "#26282b"), (roles.Text, "#e8eaed"), (roles.Button, "#35373b"),
                         (roles.ButtonText, "#e8eaed"), (roles.BrightText, "#ffffff"), (roles.Light, "#4a4d52"),
                         (roles.Midlight, "#404348"), (roles.Mid, "#5a5d63"), (roles.Dark, "#18191b"),
                         (roles.Shadow, "#000000"), (roles.Highlight, "#3d6fb4"), (roles.HighlightedText, "#ffffff"),
                         (roles.Link, "#8ab4f8"), (roles.LinkVisited, "#c58af9"), (roles.ToolTipBase, "#3c3f44"),
                         (roles.ToolTipText, "#e8eaed"), (roles.PlaceholderText, "#9aa0a6")):
        palette.setColor(role, QColor(colour))
    disabled = QPalette.ColorGroup.Disabled
    for role in (roles.WindowText, roles.Text, roles.ButtonText):
        palette.setColor(disabled, role, QColor("#7c8086"))
    return palette


def family_colour(family: str, alpha: int = 255, look: Theme | None = None) -> QColor:
    look = look or theme()
    colour = QColor(look.families.get(family, look.other_family))
    colour.setAlpha(alpha)
    return colour


def kind_colour(kind: str | MomentKind, alpha: int = 255, look: Theme | None = None) -> QColor:
    look = look or theme()
    try:
        colour = QColor(look.kinds[MomentKind(kind)])
    except ValueError:
        colour = QColor(look.kinds[MomentKind.OTHER])
    colour.setAlpha(alpha)
    return colour


def kind_letter(kind: str | MomentKind) -> str:
    try:
        return KIND_LETTERS[MomentKind(kind)]
    except ValueError:
        return KIND_LETTERS[MomentKind.OTHER]


def speaker_colour(speaker: str | None, order: dict[str, int], look: Theme | None = None) -> QColor:
    look = look or theme()
    if not speaker:
        return QColor(look.muted_text)
    index = order.setdefault(speaker, len(order))
    return QColor(look.speakers[index % len(look.speakers)])


def row_height(widget, lines: int = 1) -> int:
    """A list or table row tall enough for ``lines`` of the widget's font and the style's padding: rows
    follow the coach's font size instead of a fixed number of pixels."""
    from PySide6.QtGui import QFontMetrics

    return QFontMetrics(widget.font()).lineSpacing() * lines + 10


def text_box_height(widget, lines: int, at_least: int = 0) -> int:
    """A text box's height for ``lines`` lines of its font (and its frame), never under ``at_least``."""
    from PySide6.QtGui import QFontMetrics

    return max(at_least, QFontMetrics(widget.font()).lineSpacing() * lines + 14)


def paint_focus_frame(device, palette: QPalette, painter=None) -> None:
    """The frame a custom-painted view draws round itself while it has the keyboard focus: 2 px in the
    theme's focus colour (3:1 against the view's base, light or dark), just inside its edge."""
    from PySide6.QtCore import QRectF
    from PySide6.QtGui import QPainter, QPen

    own = painter is None
    if own:
        painter = QPainter(device)
    painter.save()
    painter.setPen(QPen(QColor(theme(palette).focus), FOCUS_FRAME_PX))
    painter.setBrush(QColor(0, 0, 0, 0))
    half = FOCUS_FRAME_PX / 2
    painter.drawRect(QRectF(half, half, device.width() - FOCUS_FRAME_PX, device.height() - FOCUS_FRAME_PX))
    painter.restore()
    if own:
        painter.end()


FOCUS_FRAME_PX = 2


class ShowsFocus:
    """For a custom-painted view that draws its focus frame (``paint_focus_frame``): it repaints when the
    keyboard focus comes or goes. Put it before the Qt class: ``class View(ShowsFocus, QWidget)``."""

    def focusInEvent(self, event) -> None:  # noqa: N802
        super().focusInEvent(event)
        self.update()

    def focusOutEvent(self, event) -> None:  # noqa: N802
        super().focusOutEvent(event)
        self.update()


def fill_rect(painter, rect, colour: QColor) -> None:
    """Fill ``rect`` with a plain colour; leaves the painter with no pen and that brush.

    Not ``painter.fillRect``: choosing among its overloads makes PySide build QGradient's enums (one
    has 180 members) the first time, a few milliseconds of the window's first paint.
    """
    from PySide6.QtCore import Qt

    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(colour)
    painter.drawRect(rect)


# What a label's object name makes it look like: (its text colour in Theme.labels, point size, bold, padding
# above and below).
_LABEL_LOOKS: dict[str, tuple[str | None, float | None, bool, int]] = {
    "callTitle": (None, 15.0, True, 0),
    "callDetails": ("callDetails", None, False, 0),
    "panelTitle": ("panelTitle", None, True, 2),
    "emptyHint": ("emptyHint", None, False, 0),
    "hint": ("hint", None, False, 0),
    "problem": ("problem", None, False, 0),
    "infoKey": (None, None, True, 0),
}
LABEL_LOOKS = frozenset(_LABEL_LOOKS)


def label_look(label, name: str):
    """Name the label for its part (one of LABEL_LOOKS) and give it that part's colour and font."""
    colour, size, bold, padding = _LABEL_LOOKS[name]
    label.setObjectName(name)
    if colour:
        text_colour(label, theme(label.palette()).labels[colour])
    if size or bold:
        font = QFont(label.font())
        if size:  # never under the body text: a larger font takes the heading with it
            font.setPointSizeF(max(size, font.pointSizeF() * 1.4))
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
    """A table's selection: a light row with dark text (a dark one with light text under a dark palette), so
    the kind colours in it stay readable; rows as tall as the font needs."""
    look = theme(view.palette())
    palette = view.palette()
    palette.setColor(QPalette.ColorRole.Highlight, QColor(look.selection))
    palette.setColor(QPalette.ColorRole.HighlightedText, QColor(look.selection_text))
    view.setPalette(palette)
    header = getattr(view, "verticalHeader", None)
    if header is not None:
        header().setDefaultSectionSize(row_height(view))
    view.setTabKeyNavigation(False)  # Tab leaves the table for the next control; arrows move in it


def player_bar_sheet(look: Theme | None = None) -> str:
    bg, border, hover, checked, checked_border = (look or theme()).player
    mark_bg, mark_border, mark_text = (look or theme()).mark_button
    return f"""
QToolButton {{ padding: 3px 8px; border: 1px solid {border}; border-radius: 4px; background: {bg}; }}
QToolButton:hover {{ background: {hover}; }}
QToolButton:checked {{ background: {checked}; border-color: {checked_border}; }}
QToolButton#playButton {{ min-width: 34px; font-weight: 600; }}
QToolButton#markButton {{ background: {mark_bg}; border-color: {mark_border}; color: {mark_text}; font-weight: 600; }}
QLabel#timeLabel {{ padding: 0 6px; }}
QLabel#delayLabel {{ color: {(look or theme()).muted_text}; padding-left: 6px; }}
"""


def banner_sheet(look: Theme | None = None) -> str:
    bg, text, border = (look or theme()).banner
    return (f"QLabel {{ background: {bg}; color: {text}; border: 1px solid {border}; border-radius: 4px; "
            "padding: 6px 8px; }")


def find_bar_sheet(look: Theme | None = None) -> str:
    bg, border = (look or theme()).find_bar
    return f"QWidget#findBar {{ background: {bg}; border: 1px solid {border}; border-radius: 4px; }}"


PLAYER_BAR_SHEET = player_bar_sheet(LIGHT)
BANNER_SHEET = banner_sheet(LIGHT)
FOLLOW_BUTTON_SHEET = ("QPushButton { background: #1f6feb; color: white; border: none; border-radius: 12px; "
                       "padding: 4px 12px; }")
FIND_BAR_SHEET = find_bar_sheet(LIGHT)
RULE_COLOUR = LIGHT.rule


def follow_colour_scheme(app, scheme=None) -> bool:
    """Take the desktop's dark mode where the Qt style has no dark palette of its own (Fusion under many
    Linux desktops reports a dark scheme but paints light). `scheme` defaults to the platform's; the
    change signal keeps following it. Returns whether the dark palette was put in."""
    from PySide6.QtCore import Qt

    hints = app.styleHints()
    if scheme is None:
        scheme = hints.colorScheme()
        if not getattr(app, "_callmark_follows_scheme", False):
            app._callmark_follows_scheme = True
            hints.colorSchemeChanged.connect(lambda new: follow_colour_scheme(app, new))
    if scheme == Qt.ColorScheme.Dark and not is_dark(app.palette()):
        app.setPalette(dark_palette())
        return True
    if scheme == Qt.ColorScheme.Light and is_dark(app.palette()):
        app.setPalette(app.style().standardPalette())
    return False
