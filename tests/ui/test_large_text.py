"""Large text: with a 150 % font the rows, the waveform's ruler, the lanes and the text boxes grow with it,
so nothing is cut (row heights follow the font, not a number of pixels)."""

from __future__ import annotations

import pytest
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


FIT_CHILD = """
import json
from PySide6.QtCore import QTimer
from desktop.app import start

app, window, store = start()
window.show()
seen = {}

def look():
    window.make_all_panels()  # every panel in: none may hold the window bigger than the screen
    QTimer.singleShot(200, measure)

def measure():
    area, frame = window.screen().availableGeometry(), window.frameGeometry()
    bar = window.view.player_bar
    seen.update(screen=[area.width(), area.height()], frame=[frame.x(), frame.y(), frame.width(), frame.height()],
                mark=bar.mark_button.isVisible() and bar.mark_button.geometry().right() <= bar.width(),
                delay_whole=(not bar.delay.isVisible()) or bar.delay.width() >= bar.delay.sizeHint().width())
    app.quit()

QTimer.singleShot(300, look)
app.exec()
print(json.dumps(seen))
"""


@pytest.mark.parametrize("scale", ["1.5", "2"])
def test_at_150_and_200_percent_scale_the_window_fits_a_1920_by_1080_screen(tmp_path, scale):
    """A real app process on an offscreen 1920×1080 screen with QT_SCALE_FACTOR set: the window (every panel
    made) fits inside the screen, the Mark button is whole, and the reaction delay is shown whole or not at all."""
    import json
    import os
    import subprocess
    import sys
    from pathlib import Path

    config = tmp_path / "screen.json"
    config.write_text(json.dumps({"synchronousWindowSystem": True, "windowFrameMargins": False,
                                  "screens": [{"name": "s", "x": 0, "y": 0, "width": 1920, "height": 1080,
                                               "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}]}))
    env = dict(os.environ, QT_QPA_PLATFORM=f"offscreen:configfile={config}", QT_SCALE_FACTOR=scale,
               CALLMARK_HOME=str(tmp_path / "home"), XDG_CONFIG_HOME=str(tmp_path / "config"),
               CALLMARK_VLC_ARGS="--aout=dummy --vout=dummy")
    repo = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, "-c", FIT_CHILD], cwd=repo, env=env, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr[-3000:]
    seen = json.loads(out.stdout.strip().splitlines()[-1])
    sw, sh = seen["screen"]
    assert [sw, sh] == [round(1920 / float(scale)), round(1080 / float(scale))]
    x, y, w, h = seen["frame"]
    assert x >= 0 and y >= 0 and x + w <= sw and y + h <= sh, seen
    assert seen["mark"] and seen["delay_whole"], seen
