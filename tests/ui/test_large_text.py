"""Large text: with a 150 % font the rows, the waveform's ruler, the lanes and the text boxes grow with it,
so nothing is cut (row heights follow the font, not a number of pixels)."""

from __future__ import annotations

from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QApplication


def _measure(qtbot, window, store, call_id) -> dict:
    window.resize(1600, 1000)
    window.open_call(call_id)
    window.make_all_panels()
    view = window.view
    editor = window.panel("Coaching item").view
    transcript = view.transcript
    from desktop.ui.calibration.timeline import TwoLaneTimeline

    lanes = TwoLaneTimeline()
    qtbot.addWidget(lanes)
    return {
        "font": QFontMetrics(QApplication.font()).height(),
        "moments row": view.moments.table.verticalHeader().defaultSectionSize(),
        "suggestions row": view.suggestions.table.verticalHeader().defaultSectionSize(),
        "library row": window.library.table.verticalHeader().defaultSectionSize(),
        "transcript row": transcript.sizeHintForRow(0),
        "waveform": view.waveform.height(),
        "ruler": view.waveform.ruler_px(),
        "calibration lanes": lanes.height(),
        "note": view.moments.note.height(),
        "consequence": editor.consequence.height(),
        "count box": (editor.seen_in.width(), editor.seen_in.sizeHint().width()),
        "parked list": editor.parked_list.maximumHeight(),
    }


def test_rows_and_boxes_grow_with_a_150_percent_font(qtbot, make_window, store, demo_call):
    app = QApplication.instance()
    normal = _measure(qtbot, make_window(), store, demo_call)
    before = app.font()
    large = QApplication.font()
    large.setPointSizeF(before.pointSizeF() * 1.5)
    app.setFont(large)
    try:
        big = _measure(qtbot, make_window(), store, demo_call)
    finally:
        app.setFont(before)
    assert big["font"] > normal["font"] * 1.3
    width, needs = big.pop("count box")
    assert width >= needs  # a count's box is as wide as "20" and its arrows need, in the large font
    normal.pop("count box")
    grew = {name: (normal[name], big[name]) for name in normal if big[name] > normal[name]}
    assert set(grew) == set(normal), f"these kept their size: {set(normal) - set(grew)}"
    # and each is still tall enough for what it shows in the larger font
    line = QFontMetrics(large).lineSpacing()
    assert big["moments row"] >= line + 4 and big["suggestions row"] >= line + 4 and big["library row"] >= line + 4
    assert big["transcript row"] >= 2 * line
    assert big["note"] >= 3 * line and big["consequence"] >= 2 * line
