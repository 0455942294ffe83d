"""Not by colour alone, and readable: every colour the app paints passes WCAG 2.1 AA (4.5:1 for text, 3:1 for
marks) against what it is drawn on, under the light palette and under a dark one.

The ratios are computed here, from WCAG's definition, over the colours as the code defines them
(desktop.ui.style and the item editor's notes): nothing is copied into the test.
"""

from __future__ import annotations

import pytest
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication

from desktop.core.enums import MomentKind
from desktop.ui import style

TEXT, MARK = 4.5, 3.0
R = QPalette.ColorRole


def luminance(colour) -> float:
    """WCAG 2.1 relative luminance of an sRGB colour."""
    c = QColor(colour)

    def linear(v: int) -> float:
        s = v / 255
        return s / 12.92 if s <= 0.04045 else ((s + 0.055) / 1.055) ** 2.4

    return 0.2126 * linear(c.red()) + 0.7152 * linear(c.green()) + 0.0722 * linear(c.blue())


def ratio(a, b) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def test_the_ratio_is_wcags():
    assert ratio("#000000", "#ffffff") == pytest.approx(21.0)
    assert ratio("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)  # the well-known just-failing grey
    assert ratio("#ffffff", "#ffffff") == pytest.approx(1.0)


def _palettes():
    app = QApplication.instance() or QApplication([])
    light = app.style().standardPalette()
    return (("light", light), ("dark", style.dark_palette()))


def _pairs(look: style.Theme, palette: QPalette):
    """(what, foreground, background, needed) for everything painted with this theme on this palette."""
    base, window, alternate = (palette.color(r).name() for r in (R.Base, R.Window, R.AlternateBase))
    text = palette.color(R.Text).name()
    out = []
    # the transcript: speakers' names and times on a plain, a current and a matching line; its text on them
    for line, under in (("line", base), ("current line", look.current_line), ("matching line", look.match_line)):
        for n, colour in enumerate(look.speakers):
            out.append((f"speaker {n + 1} on a {line}", colour, under, TEXT))
        out.append((f"time on a {line}", look.muted_text, under, TEXT))
        out.append((f"text on a {line}", text, under, TEXT))
    out.append(("text on a found word", text, look.match_word, TEXT))
    out.append(("text on the CRM history's rows after the call", text, look.after_call, TEXT))
    out.append(("text on a calibration difference", text, look.difference, TEXT))
    out.append(("picked-line bar", look.selected_line, base, MARK))
    out.append(("picked-line bar on the current line", look.selected_line, look.current_line, MARK))
    # the waveform and the moments list: kinds (marks, on plain and alternate rows), peaks, playhead
    for kind in MomentKind:
        out.append((f"{kind.value} mark", look.kinds[kind], base, MARK))
        out.append((f"{kind.value} chip on an alternate row", look.kinds[kind], alternate, MARK))
    out.append(("peaks", look.peaks, base, MARK))
    out.append(("playhead", look.playhead, base, MARK))
    # suggestions: the family is the label's text colour in the list, and the lane's mark
    for family, colour in look.families.items():
        out.append((f"{family} label", colour, base, TEXT))
    out.append(("another family's label", look.other_family, base, TEXT))
    # the focus frame, on the views and round them
    out.append(("focus frame on a view", look.focus, base, MARK))
    out.append(("focus frame on the window", look.focus, window, MARK))
    # the calibration lanes and list: names are text, the spans marks
    for who, colour in (("mine", look.mine), ("theirs", look.theirs), ("only one coach", look.alone)):
        out.append((f"{who} label", colour, base, TEXT))
        out.append((f"{who} label on an alternate row", colour, alternate, TEXT))
    out.append(("pair line", look.join, base, MARK))
    out.append(("picked pair outline", look.picked, base, MARK))
    # labels on the window, tables' selected rows, the player's buttons, the banner, the item editor's notes
    for name, colour in look.labels.items():
        out.append((f"{name} label", colour, window, TEXT))
    out.append(("selected row", look.selection_text, look.selection, TEXT))
    out.append(("player button", palette.color(R.ButtonText).name(), look.player[0], TEXT))
    out.append(("checked player button", palette.color(R.ButtonText).name(), look.player[3], TEXT))
    out.append(("mark button", look.mark_button[2], look.mark_button[0], TEXT))
    out.append(("delay label", look.muted_text, window, TEXT))
    out.append(("find bar", palette.color(R.WindowText).name(), look.find_bar[0], TEXT))
    out.append(("banner", look.banner[1], look.banner[0], TEXT))
    for severity, colour in look.severity.items():
        out.append((f"{severity} note", colour, window, TEXT))
        out.append((f"{severity} note on a field", colour, base, TEXT))
    return out


@pytest.mark.parametrize("name,palette", _palettes(), ids=["light", "dark"])
def test_every_painted_colour_passes_aa_against_its_palette(name, palette):
    look = style.theme(palette)
    assert look.dark == (name == "dark")  # the palette picks its own theme
    failing = [f"{what}: {fg} on {bg} is {ratio(fg, bg):.2f}:1, needs {need}:1"
               for what, fg, bg, need in _pairs(look, palette) if ratio(fg, bg) < need]
    assert failing == []
    assert len(_pairs(look, palette)) >= 70  # the whole list was checked


def test_the_follow_button_is_readable():
    sheet = style.FOLLOW_BUTTON_SHEET
    assert "color: white" in sheet and "background: #1f6feb" in sheet
    assert ratio("#ffffff", "#1f6feb") >= TEXT


def test_the_palettes_the_widgets_get_are_the_themes(qtbot):
    """What the code hands Qt (model roles, label palettes) comes from the theme of the palette in use."""
    from PySide6.QtWidgets import QLabel

    from desktop.ui.item_editor.fields import SEVERITY_COLOURS
    from desktop.core.enums import Severity

    app = QApplication.instance()
    before = app.palette()
    try:
        for palette in (app.style().standardPalette(), style.dark_palette()):
            app.setPalette(palette)
            look = style.theme()
            assert style.kind_colour(MomentKind.QUESTION).name().lower() == look.kinds[MomentKind.QUESTION].lower()
            assert style.family_colour("questions").name().lower() == look.families["questions"].lower()
            assert SEVERITY_COLOURS[Severity.WARNING] == look.severity["warning"]
            label = style.label_look(QLabel("x"), "hint")
            qtbot.addWidget(label)
            assert label.palette().color(R.WindowText).name().lower() == look.labels["hint"].lower()
    finally:
        app.setPalette(before)


def _root_colours(template: str) -> dict[str, str]:
    """The colour variables a report template declares in its :root rule."""
    import re

    from desktop.services.calibration_report import TEMPLATE_DIR

    text = (TEMPLATE_DIR / template).read_text(encoding="utf-8")
    root = re.search(r":root\s*{([^}]*)}", text).group(1)
    return dict(re.findall(r"--([a-z-]+):\s*(#[0-9a-fA-F]{3,6})", root))


def test_the_packet_and_the_calibration_report_are_readable():
    packet, report = _root_colours("packet.html.j2"), _root_colours("calibration.html.j2")
    checks = [(f"packet {fg} on {bg}", packet[fg], packet[bg], TEXT)
              for fg, bg in (("ink", "paper"), ("muted", "paper"), ("muted", "wash"), ("accent", "paper"),
                             ("accent", "accent-wash"), ("warn", "warn-wash"), ("muted", "accent-wash"))]
    checks += [(f"report {fg} on {bg}", report[fg], report[bg], TEXT)
               for fg in ("ink", "muted", "mine", "theirs") for bg in ("paper", "wash", "alone")]
    checks += [(f"report {who} letter", "#ffffff", report[who], TEXT) for who in ("mine", "theirs")]
    checks += [(f"report {who} mark on the lanes", report[who], report["wash"], MARK) for who in ("mine", "theirs")]
    failing = [f"{what}: {ratio(fg, bg):.2f}:1" for what, fg, bg, need in checks if ratio(fg, bg) < need]
    assert failing == []
