"""Make the trackers screenshot: the library's tracker columns filtered to "the customer deferred and
the rep accepted", with one tracker's lines beside it.

    xvfb-run -a -s "-screen 0 1680x1000x24" .venv/bin/python -m desktop.ui.trackers.screenshot OUT.png

The library is the demo call four times over (each its own recording), its script varied so the
counts differ, counted by the real services.
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
from pathlib import Path

VARIANTS = [  # title, rep, {script line index: new text}
    ("Discovery - Acme Logistics", "Riley Rep", {}),
    ("Discovery - Globex Freight", "Sam Seller", {19: "Honestly, just send over a deck and I'll circle back next "
                                                 "quarter. Our CFO signs off on anything over fifty thousand."}),
    ("Demo - Initech Shipping", "Jordan Closer", {19: "Great, let's book the pilot for Thursday at ten."}),
    ("Pricing - Umbrella Carriers", "Casey Hunter", {}),
]


def build_library(home: Path):
    from db.store import open_store
    from desktop import paths
    from desktop.services import calls, transcripts
    from desktop.services.rows import SegmentRow

    store = open_store(paths.store_path(paths.data_home(home)))
    script = json.loads(paths.DEMO_SCRIPT.read_text(encoding="utf-8"))
    for n, (title, rep, changes) in enumerate(VARIANTS):
        media = home / f"call-{n}.ogg"
        shutil.copy(paths.DEMO_MEDIA, media)
        with open(media, "ab") as fh:
            fh.write(bytes([n]))  # its own hash: its own call
        call, _ = calls.add_call(store, media, title=title, rep=rep, manager="Morgan Manager",
                                 recorded_at=f"2026-11-{20 + n:02d}T10:00:00")
        lines = [SegmentRow(ln["start_ms"], ln["end_ms"], ln["speaker"], changes.get(ln["index"], ln["text"]))
                 for ln in script["lines"]]
        transcripts.save_transcript(store, call.id, lines, origin="import")
        transcripts.set_rep_speaker(store, call.id, "Riley")
    return store


def main(argv: list[str]) -> int:
    from PySide6.QtCore import QPoint, QTimer
    from PySide6.QtGui import QPainter
    from PySide6.QtWidgets import QApplication

    from desktop.ui.main_window import build_main_window

    out = Path(argv[0] if argv else "trackers.png")
    app = QApplication.instance() or QApplication(sys.argv[:1])
    with tempfile.TemporaryDirectory() as folder:
        home = Path(folder)
        store = build_library(home)
        window = build_main_window(store, home)
        window.resize(1600, 900)
        window.show()

        def shoot() -> None:
            ctl = window.trackers
            if ctl.counting or not ctl._shown:
                QTimer.singleShot(300, shoot)
                return
            window.library.filter.setText("deferral>0 deferral_accepted>0")
            table = window.library.table
            for col in (2, 4, 5, 6):  # manager, duration, transcript, moments: room for the trackers
                table.setColumnHidden(col, True)
            table.setColumnWidth(0, 190)
            for col in range(7, window.library_model.columnCount()):
                table.setColumnWidth(col, 128)
            window.library.setMinimumWidth(1100)
            window.splitter.setSizes([1100, 500])
            window.statusBar().clearMessage()
            hits = ctl.open_hits("Deferral")
            hits.resize(820, 260)
            QTimer.singleShot(1000, lambda: grab(hits))

        def grab(hits) -> None:
            window.statusBar().clearMessage()
            picture = window.grab()
            painter = QPainter(picture)
            painter.drawPixmap(QPoint(picture.width() - hits.width() - 20, picture.height() - hits.height() - 40),
                               hits.grab())
            painter.end()
            picture.save(str(out))
            app.quit()

        QTimer.singleShot(2500, shoot)
        app.exec()
        window.close()
        store.close()
    print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
