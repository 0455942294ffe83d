"""Search across the library from the window: results with the match in bold; opening one plays from there."""

from __future__ import annotations

from PySide6.QtCore import Qt

from desktop.ui.transcription import install_transcription
from desktop.ui.transcription.search_dialog import marked_html


def test_search_lists_call_time_speaker_and_bold_match_and_opens_at_the_line(qtbot, window, store, demo_call):
    ctl = install_transcription(window)
    dialog = ctl.open_search()
    qtbot.addWidget(dialog)
    dialog.field.setText("send me some info")
    dialog.run_search()
    model = dialog.model
    assert model.rowCount() >= 1
    hit = model.hit(0)
    assert model.data(model.index(0, 0)) == "Acme discovery"
    assert model.data(model.index(0, 2)) == "Casey"
    assert "<b>send</b> <b>me</b> <b>some</b> <b>information</b>" in marked_html(hit).lower()
    with qtbot.waitSignal(dialog.result_chosen) as chosen:
        qtbot.keyClick(dialog.field, Qt.Key.Key_Return)
    assert chosen.args == [demo_call, hit.start_ms]
    assert window.workspace.call.id == demo_call
    qtbot.waitUntil(lambda: abs(window.playback.position_ms() - hit.start_ms) < 1500, timeout=5000)
    row = window.transcript_model.row_at(window.playback.position_ms())
    assert "send me some information" in window.transcript_model.segment(row).text.lower()


def test_no_match_says_so(qtbot, window, store, demo_call):
    ctl = install_transcription(window)
    dialog = ctl.open_search()
    qtbot.addWidget(dialog)
    dialog.field.setText("zebra xylophone")
    dialog.run_search()
    assert dialog.model.rowCount() == 0 and dialog.count.text() == "No line matches."
