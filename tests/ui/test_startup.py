"""Starting Callmark on a call: the call is on screen before SQLAlchemy is imported, a key works at once,
and the panels, the transcription controller, the waveform and the recording all follow."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

from desktop.services import calls, moments, transcripts
from desktop.services.transcripts import SegmentRow
from tests.conftest import make_tone

REPO = Path(__file__).resolve().parents[2]

CHILD = textwrap.dedent("""
    import gc, json, sys
    from PySide6.QtCore import QEvent, QObject, QTimer
    from PySide6.QtWidgets import QApplication
    from desktop.app import start
    from desktop.ui.actions import ActionId

    app, window, store = start(call_id=int(sys.argv[1]))
    seen = {"collecting": gc.isenabled()}

    class FirstPaint(QObject):
        def eventFilter(self, obj, event):
            if event.type() == QEvent.Type.Paint and "at_paint" not in seen:
                seen["at_paint"] = sorted({m.split(".")[0] for m in sys.modules} & {"sqlalchemy", "alembic",
                                                                                        "jinja2", "pydantic", "av"})
                seen["rows"] = window.transcript_model.rowCount()
                seen["moments"] = window.moments_model.rowCount()
                seen["player_at_paint"] = window.playback._player is not None
                # The coach marks straight away: the mark is written though SQLAlchemy is not in yet.
                window.registry[ActionId.MARK].trigger()
                # And a transcription key, before the warm-up brought the transcription controller in.
                seen["controller_before"] = hasattr(window, "transcription")
                window.registry[ActionId.SEARCH_LIBRARY].trigger()
                seen["search_open"] = any(type(w).__name__ == "LibrarySearchDialog" and w.isVisible()
                                          for w in QApplication.topLevelWidgets())
            return False

    painted = FirstPaint()
    window.view.transcript.viewport().installEventFilter(painted)
    window.show()

    def check():
        tabs = window.view.inspector
        pending = [tabs.tabText(i) for i in range(tabs.count()) if type(tabs.widget(i)).__name__ == "PendingPanel"]
        playback = window.playback
        opened = playback._player is not None and playback._pending is None and playback.player.path is not None
        if window.warmup.finished and not pending and window.view.waveform.has_peaks() and opened:
            seen["panels"] = [tabs.tabText(i) for i in range(tabs.count())]
            seen["transcription"] = type(getattr(window, "transcription", None)).__name__
            seen["moments_after"] = window.moments_model.rowCount()
            app.quit()
        else:
            QTimer.singleShot(50, check)

    QTimer.singleShot(0, check)
    QTimer.singleShot(60000, app.quit)
    app.exec()
    window.close()
    print(json.dumps(seen))
""")


def test_a_call_is_on_screen_before_the_heavy_imports_and_the_rest_follows(store, tmp_path, isolated_home):
    call, _ = calls.add_call(store, make_tone(tmp_path / "call.wav", 6.0), title="Start-up call")
    transcripts.save_transcript(store, call.id, [SegmentRow(i * 1000, i * 1000 + 900, "A", f"line {i}")
                                                 for i in range(5)], origin="import")
    moments.add_moment(store, call.id, 1000, 2000, kind="question")
    store.close()
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", CALLMARK_VLC_ARGS="--aout=dummy --vout=dummy",
               XDG_CONFIG_HOME=str(tmp_path / "config"))
    out = subprocess.run([sys.executable, "-c", CHILD, str(call.id)], cwd=REPO, env=env, capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-3000:]
    seen = json.loads(out.stdout.strip().splitlines()[-1])
    assert seen["at_paint"] == []  # nothing of SQLAlchemy, Alembic, Jinja, pydantic or PyAV before the paint
    assert (seen["rows"], seen["moments"]) == (5, 1)
    # Started after the paint, on a thread of its own (python-vlc and libvlc take a tenth of a second),
    # and the recording is open once the rest is in.
    assert seen["player_at_paint"] is False
    # No tricks on the interpreter or PySide: the cyclic collector runs as always.
    assert seen["collecting"] is True
    assert seen["panels"] == ["Call", "Item", "CRM", "Calibration", "Cycle"]
    assert seen["transcription"] == "TranscriptionController"
    assert seen["controller_before"] is False and seen["search_open"] is True
    assert seen["moments_after"] == 2  # the mark made at the first paint is in the list...
    from db.store import open_store
    from desktop import paths

    reopened = open_store(paths.store_path(paths.data_home(isolated_home)))
    try:
        assert len(moments.list_moments(reopened, call.id)) == 2  # ...and in the store
    finally:
        reopened.close()


def test_every_command_is_answered_and_every_owner_answers_what_it_owns(window):
    import importlib

    from desktop.ui.actions import ActionId

    reg = window.registry
    assert all(reg.is_answered(a) for a in ActionId), [a for a in ActionId if not reg.is_answered(a)]
    owners = {a.owner for a in ActionId if a.owner}
    for name in owners:
        module, _, factory = name.partition(":")
        assert callable(getattr(importlib.import_module(module), factory)), name
        made = reg.owner(name)
        answered = set(made.action_slots())
        assert answered == {a for a in ActionId if a.owner == name}, name
    # Every menu entry is a registry action, found by its id, never by its text.
    registry_actions = set(reg.actions())
    for top in window.menuBar().actions():
        for entry in top.menu().actions():
            assert entry.isSeparator() or entry in registry_actions, entry.text()
