"""A real main window over a real store, with the demo call and its true transcript."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from desktop import paths


def demo_segments():
    from desktop.services.transcripts import SegmentRow

    script = json.loads(paths.DEMO_SCRIPT.read_text(encoding="utf-8"))
    return [SegmentRow(line["start_ms"], line["end_ms"], line["speaker"], line["text"])
            for line in script["lines"]]


@pytest.fixture
def demo_call(store, demo_media) -> int:
    from desktop.services import calls, transcripts

    call, _ = calls.add_call(store, demo_media, title="Acme discovery", rep="Riley Rep", manager="Morgan Manager")
    transcripts.save_transcript(store, call.id, demo_segments(), origin="import")
    return call.id


@pytest.fixture
def make_window(qtbot, store, isolated_home):
    from PySide6.QtCore import QCoreApplication

    from desktop.ui.main_window import build_main_window

    QCoreApplication.setOrganizationName("Callmark")
    QCoreApplication.setApplicationName("Callmark")
    made = []

    def make():
        window = build_main_window(store, Path(isolated_home))
        qtbot.addWidget(window)
        window.show()
        qtbot.waitExposed(window)
        window.activateWindow()
        made.append(window)
        return window

    yield make
    for window in made:
        window.close()


@pytest.fixture
def window(make_window):
    return make_window()
