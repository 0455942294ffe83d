"""The window fits the screen it opens on: a first start on a 1280×720 screen, and a layout saved on a
1920×1080 screen brought back on a smaller one (each a real app process on an offscreen screen of that size)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

CHILD = textwrap.dedent("""
    import json, sys
    from PySide6.QtCore import QTimer
    from desktop.app import start

    app, window, store = start()
    window.show()
    seen = {}

    def write():
        tabs = window.view.inspector
        seen["tabs_fit"] = tabs.tabBar().sizeHint().width() <= tabs.width()  # no tab name cut at first run
        window.make_all_panels()  # every panel in: none may hold the window taller than the screen
        window.set_writing(True)
        QTimer.singleShot(200, look)

    def look():
        area = window.screen().availableGeometry()
        frame = window.frameGeometry()
        seen["two_columns"] = window.panel("Coaching item").view.two_columns
        seen.update(screen=[area.width(), area.height()], frame=[frame.x(), frame.y(), frame.width(), frame.height()],
                    mark_visible=window.view.player_bar.mark_button.isVisible(),
                    status_visible=window.statusBar().isVisible())
        window.close()  # saves the layout, as the coach closing it would
        app.quit()

    QTimer.singleShot(300, write)
    app.exec()
    print(json.dumps(seen))
""")


def _run(tmp_path: Path, width: int, height: int) -> dict:
    config = tmp_path / f"screen-{width}x{height}.json"
    config.write_text(json.dumps({"synchronousWindowSystem": True, "windowFrameMargins": False,
                                  "screens": [{"name": "s", "x": 0, "y": 0, "width": width, "height": height,
                                               "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}]}))
    env = dict(os.environ, QT_QPA_PLATFORM=f"offscreen:configfile={config}", CALLMARK_HOME=str(tmp_path / "home"),
               XDG_CONFIG_HOME=str(tmp_path / "config"), CALLMARK_VLC_ARGS="--aout=dummy --vout=dummy")
    out = subprocess.run([sys.executable, "-c", CHILD], cwd=REPO, env=env, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


def _inside(seen: dict) -> bool:
    x, y, w, h = seen["frame"]
    sw, sh = seen["screen"]
    return x >= 0 and y >= 0 and x + w <= sw and y + h <= sh


def test_a_first_start_on_a_small_screen_fits_it(tmp_path):
    seen = _run(tmp_path, 1280, 720)
    assert seen["screen"] == [1280, 720]
    assert _inside(seen), seen
    assert seen["mark_visible"] and seen["status_visible"]
    assert seen["two_columns"]  # the writing room gives the item its two columns even here
    assert seen["tabs_fit"]


def test_a_layout_saved_on_a_big_screen_is_brought_inside_a_smaller_one(tmp_path):
    big = _run(tmp_path, 1920, 1080)
    assert big["frame"][2] >= 1360  # the full first-run size where there is room
    small = _run(tmp_path, 1280, 720)  # same settings folder: the big layout is restored, then fitted
    assert _inside(small), small
