"""Transcription in the main window: the queue streams lines with progress, cancel keeps nothing,
search opens a result, speakers, line edits with undo and the original restored."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from desktop.services import calls, transcripts
from desktop.ui.transcription import install_transcription
from tests.ui.conftest import demo_segments


@pytest.fixture
def plain_call(store, demo_media) -> int:
    call, _ = calls.add_call(store, demo_media, title="Acme discovery", rep="Riley Rep")
    return call.id


@pytest.mark.slow
def test_the_queue_streams_lines_shows_progress_and_saves(qtbot, window, store, plain_call):
    ctl = install_transcription(window, cpu_threads=2)
    window.open_call(plain_call)
    assert ctl.bar.isVisible() and "no transcript yet" in ctl.bar.label.text()
    column = []
    ctl.queue.changed.connect(lambda cid: column.append(
        window.library_model.call_at(window.library_model.row_of(cid)).transcript_status))
    qtbot.keyClick(window.view.transcript, Qt.Key.Key_T, Qt.KeyboardModifier.ControlModifier)
    assert ctl.queue.running_call == plain_call
    # Lines appear while the child is still working.
    qtbot.waitUntil(lambda: window.transcript_model.rowCount() >= 2, timeout=120_000)
    assert ctl.queue.entry(plain_call) is not None, "still running when the first lines show"
    assert window.view.transcript.isVisible()
    assert "Transcribing on this computer…" in ctl.bar.label.text() and ctl.bar.cancel.isVisible()
    with qtbot.waitSignal(ctl.queue.call_saved, timeout=180_000):
        pass
    assert any("%" in text and "left" in text for text in column), column
    current = transcripts.current_transcript(store, plain_call)
    assert current.origin == "whisper"
    shown = [window.transcript_model.segment(r).text for r in range(window.transcript_model.rowCount())]
    assert shown == [s.text for s in current.segments]
    assert "send me some information" in " ".join(shown).lower()
    assert window.library_model.call_at(window.library_model.row_of(plain_call)).transcript_status == "whisper"
    assert window.view.call_info.value("Transcript") == "whisper"  # the Call tab says so too
    assert not ctl.bar.isVisible()


@pytest.mark.slow
def test_cancel_kills_the_child_and_keeps_nothing(qtbot, window, store, plain_call, tmp_path):
    ctl = install_transcription(window, cpu_threads=2)
    window.open_call(plain_call)
    ctl.transcribe_open_call()
    qtbot.waitUntil(lambda: window.transcript_model.rowCount() >= 1, timeout=120_000)
    pid = ctl.queue.run_of(plain_call).transcription.job.pid  # the real child
    with qtbot.waitSignal(ctl.queue.call_cancelled, timeout=10_000):
        ctl.bar.cancel.click()
    assert transcripts.versions(store, plain_call) == []
    assert window.transcript_model.rowCount() == 0 and "no transcript yet" in ctl.bar.label.text()
    assert not _alive(pid), "the child was killed and reaped"


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split()[2] != "Z"
    except FileNotFoundError:
        return False


def test_waiting_calls_queue_behind_the_running_one_and_can_be_taken_off(qtbot, window, store, demo_media,
                                                                          tmp_path, plain_call):
    from tests.conftest import make_tone

    second, _ = calls.add_call(store, make_tone(tmp_path / "other.wav", seconds=5))
    window.refresh_library()
    ctl = install_transcription(window, cpu_threads=1, parallel=1)  # one at a time: the second waits
    assert ctl.transcribe([plain_call, second.id]) == 2
    assert ctl.queue.pending() == [plain_call, second.id] and ctl.queue.running_call == plain_call
    row = window.library_model.row_of(second.id)
    assert window.library_model.call_at(row).transcript_status == "queued"
    with qtbot.waitSignal(ctl.queue.call_cancelled):
        ctl.queue.cancel(second.id)
    assert window.library_model.call_at(row).transcript_status == "none"
    with qtbot.waitSignal(ctl.queue.call_cancelled, timeout=10_000):
        ctl.queue.cancel(plain_call)
    assert not ctl.queue.is_busy()


def test_speaker_rename_applies_to_the_whole_call_and_rep_is_marked(qtbot, window, store, demo_call):
    ctl = install_transcription(window)
    window.open_call(demo_call)
    before = sum(1 for s in transcripts.current_transcript(store, demo_call).segments if s.speaker == "Casey")
    assert before > 3
    ctl.rename_speaker(demo_call, "Casey", "Casey Jones")
    ctl.set_rep(demo_call, "Riley")
    shown = [window.transcript_model.segment(r).speaker for r in range(window.transcript_model.rowCount())]
    assert shown.count("Casey Jones") == before and "Casey" not in shown
    roles = {s["name"]: s["role"] for s in transcripts.speakers(store, demo_call)}
    assert roles["Riley"] == "rep"


def test_edit_a_line_undo_it_and_restore_the_original(qtbot, window, store, demo_call):
    ctl = install_transcription(window)
    window.open_call(demo_call)
    original = transcripts.current_transcript(store, demo_call)
    row = 3
    old = window.transcript_model.segment(row)
    ctl.apply_line_edit(row, "Fixed words here.", "Casey")
    edited = transcripts.current_transcript(store, demo_call)
    assert edited.origin == "edited" and edited.segments[row].text == "Fixed words here."
    assert window.transcript_model.segment(row).text == "Fixed words here."
    window.undo_stack.undo()
    assert window.transcript_model.segment(row).text == old.text
    window.undo_stack.redo()
    assert window.transcript_model.segment(row).text == "Fixed words here."
    ctl.restore_version(original.id)
    assert transcripts.current_transcript(store, demo_call).origin == "import"
    assert window.transcript_model.segment(row).text == old.text
    assert [v[1] for v in transcripts.versions(store, demo_call)] == ["import", "edited"]


def test_double_click_opens_the_line_editor_over_the_line(qtbot, window, store, demo_call, monkeypatch):
    from desktop.ui.transcription import dialogs

    ctl = install_transcription(window)
    window.open_call(demo_call)
    seen = {}

    def answer(self):
        seen["text"] = self.text.toPlainText()
        self.text.setPlainText("Changed by double-click.")
        return True

    monkeypatch.setattr(dialogs.LineEditDialog, "exec", answer)
    view = window.view.transcript
    rect = view.visualRect(window.transcript_model.index(1))
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())  # a real double-click
    qtbot.mouseDClick(view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())  # starts with a press
    assert seen["text"] == demo_segments()[1].text
    assert transcripts.current_transcript(store, demo_call).segments[1].text == "Changed by double-click."


def test_import_and_export_from_the_window(qtbot, window, store, plain_call, tmp_path):
    from tests.transcription.test_subtitles import TEAMS_VTT

    ctl = install_transcription(window)
    window.open_call(plain_call)
    path = tmp_path / "teams.vtt"
    path.write_text(TEAMS_VTT, encoding="utf-8")
    summary = ctl.import_file(path)
    assert summary.imported == 4 and window.transcript_model.rowCount() == 4
    assert not ctl.bar.isVisible()
    out = ctl.export_file(tmp_path / "out.srt", "srt")
    assert out.read_text(encoding="utf-8").startswith("1\n00:00:00,000 --> 00:00:05,320")
    menus = {a.text().replace("&", ""): a.menu() for a in window.menuBar().actions() if a.menu()}
    assert "Import transcript…" in [a.text() for a in menus["File"].actions()]
    from tests.transcription.test_subtitles import BROKEN_VTT

    broken = tmp_path / "broken.vtt"
    broken.write_text(BROKEN_VTT, encoding="utf-8")
    assert ctl.import_file(broken).imported == 3 and window.transcript_model.rowCount() == 3
    assert window.status.text() == ("Imported 3 of 6 cues from broken.vtt. Skipped line 7: cue timing "
                                    "not readable: end time in '00:00:03.000 --> 00:0x:04.000' is not "
                                    "hh:mm:ss.ttt or mm:ss.ttt; block skipped (and 2 more).")
    assert "Versions…" in [a.text() for a in menus["Transcript"].actions()]


def test_transcription_settings_are_stored(qtbot, window, store, tmp_path):
    from desktop.services.transcription import TranscriptionPreferences, load_preferences
    from desktop.ui.transcription.dialogs import TranscriptionSettingsDialog

    dialog = TranscriptionSettingsDialog(TranscriptionPreferences(), window)
    qtbot.addWidget(dialog)
    assert dialog.preferences() == TranscriptionPreferences()
    dialog.model.setText(str(tmp_path))
    dialog.allow_network.setChecked(True)
    dialog.language.setCurrentIndex(dialog.language.findData("de"))
    assert dialog.preferences() == TranscriptionPreferences(str(tmp_path), True, "de")
    from desktop.services.transcription import save_preferences

    save_preferences(store, dialog.preferences())
    assert load_preferences(store).language == "de"


def test_the_progress_line_does_not_push_the_library_aside(qtbot, window, plain_call):
    ctl = install_transcription(window)
    window.open_call(plain_call)
    window.resize(1280, 800)  # a laptop's screen
    window.show()
    qtbot.waitExposed(window)
    library_width = window.library.width()
    assert library_width >= 200
    ctl.bar.show_progress("Transcribing on this computer… 24% (0:35 of 2:21) · 0:12 left", 0.24)
    qtbot.wait(50)
    assert ctl.bar.isVisible() and "24%" in ctl.bar.label.text()
    assert window.library.width() >= library_width - 2  # the library keeps its room
