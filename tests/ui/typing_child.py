"""The real app in a process of its own, typing as a coach does, for the kill -9 tests.

    python -m tests.ui.typing_child HOME CALL_ID MOMENT_ID note|item TEXT
        starts Callmark (desktop.app.start) on the call, selects the moment and types TEXT into the
        moment's note or the coaching item's behavior field, one key every 40 ms without a pause
        (so autosave never gets its pause), printing "typed N" after each key; it never stops by
        itself: the test kills it.
    python -m tests.ui.typing_child HOME CALL_ID report
        starts Callmark, prints what the window said when it started (JSON), and quits.
"""

from __future__ import annotations

import json
import os
import sys

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("CALLMARK_VLC_ARGS", "--aout=dummy --vout=dummy")


def main(argv: list[str]) -> int:
    from PySide6.QtCore import QTimer
    from PySide6.QtTest import QTest

    from desktop.app import start

    home, call_id, mode = argv[0], int(argv[1]), argv[2]
    app, window, store = start(home=home, call_id=call_id)
    window.show()
    if mode == "report":
        def report() -> None:
            print(json.dumps({"restored": getattr(window, "journal_restored", None),
                              "status": window.status.text()}), flush=True)
            app.quit()

        QTimer.singleShot(500, report)
        return app.exec()
    moment_id, target, text = int(argv[3]), argv[2], argv[4]
    window.view.moments.select(moment_id)
    if target == "note":
        field = window.view.moments.note
    else:
        editor = window.panel("Coaching item")
        window.context.flush_call()  # the panel hears of the call now, not after the first paint
        window.view.moments.select(None)
        window.view.moments.select(moment_id)
        field = editor.view.behavior_text
        if editor.controller.item is None:
            print("no item for the moment", flush=True)
    field.setFocus()
    at = [0]

    def key() -> None:
        if at[0] < len(text):
            QTest.keyClicks(field, text[at[0]])
            at[0] += 1
            print(f"typed {at[0]} journal {len(window.journal.entries)}", flush=True)

    timer = QTimer()
    timer.setInterval(40)
    timer.timeout.connect(key)
    QTimer.singleShot(300, timer.start)  # once the window is up
    return app.exec()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
