"""The transcript follows playback, seeks on a click, and finds."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt

from desktop.services import transcripts
from desktop.services.transcripts import SegmentRow
from desktop.ui.actions import ActionId


def test_clicking_a_line_seeks_to_it(qtbot, window, demo_call):
    window.open_call(demo_call)
    view = window.view.transcript
    segment = window.transcript_model.segment(4)
    view.scrollTo(window.transcript_model.index(4))
    rect = view.visualRect(window.transcript_model.index(4))
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(20, rect.center().y()))
    assert window.playback.position_ms() == segment.start_ms
    assert window.transcript_model.current_row == 4
    # The clicked line is marked by a bar at its left edge (and highlighted as the current line).
    from desktop.ui.style import CURRENT_LINE, SELECTED_LINE

    image = view.viewport().grab().toImage()
    assert image.pixelColor(1, rect.center().y()).name() == SELECTED_LINE.lower()
    assert image.pixelColor(60, rect.center().y()).name() == CURRENT_LINE.lower()


def test_clicking_a_word_seeks_to_that_word(qtbot, window, store, demo_call):
    words = [{"text": w, "start_ms": 1000 + 400 * i, "end_ms": 1350 + 400 * i}
             for i, w in enumerate("we need the budget owner on the next call".split())]
    transcripts.save_transcript(store, demo_call, [
        SegmentRow(1000, 4600, "Riley", " ".join(w["text"] for w in words), words),
        SegmentRow(5000, 8000, "Casey", "Sure.")], origin="whisper")
    window.open_call(demo_call)
    view = window.view.transcript
    index = window.transcript_model.index(0)
    rect = view.visualRect(index)
    box = view.delegate.text_rect(rect)
    # x of the word "dashboard": the text before it, measured with the view's font
    prefix = view.fontMetrics().horizontalAdvance("we need the ")
    click = QPoint(int(box.left() + prefix + 5), int(box.top() + 5))
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=click)
    assert window.playback.position_ms() == 1000 + 400 * 3


def test_the_highlight_follows_playback_until_the_coach_scrolls_away(qtbot, window, demo_call):
    window.open_call(demo_call)
    model, view = window.transcript_model, window.view.transcript
    second = model.segment(1).start_ms
    last = model.rowCount() - 1
    assert last > 20  # long enough to scroll
    window.playback.seek(second - 1200)
    window.playback.play()
    qtbot.waitUntil(lambda: model.current_row == 1, timeout=10000)
    assert model.data(model.index(1), Qt.ItemDataRole.UserRole + 4) is True  # CURRENT_ROLE
    # Far into the call the followed line is scrolled into view.
    window.playback.seek(model.segment(last - 4).start_ms + 100)
    qtbot.waitUntil(lambda: model.current_row == last - 4, timeout=5000)
    assert view.viewport().rect().intersects(view.visualRect(model.index(last - 4)))
    # The coach scrolls to the top: following stops, the button offers to resume.
    view.verticalScrollBar().triggerAction(view.verticalScrollBar().SliderAction.SliderToMinimum)
    assert not view.follow and view.follow_button.isVisible()
    window.playback.seek(model.segment(last).start_ms + 100)
    qtbot.waitUntil(lambda: model.current_row == last, timeout=5000)
    assert view.verticalScrollBar().value() == 0  # not pulled back
    qtbot.mouseClick(view.follow_button, Qt.MouseButton.LeftButton)
    assert view.follow and not view.follow_button.isVisible()
    assert view.viewport().rect().intersects(view.visualRect(model.index(last)))
    window.playback.pause()


def test_find_moves_through_matches(qtbot, window, demo_call):
    window.open_call(demo_call)
    qtbot.keyClick(window.view.transcript, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    bar = window.view.find_bar
    assert bar.isVisible() and bar.field.hasFocus()
    qtbot.keyClicks(bar.field, "dashboard")
    model = window.transcript_model
    matches = [r for r in range(model.rowCount()) if "dashboard" in model.text(r).lower()]
    assert len(matches) >= 2
    assert window.view.transcript.currentIndex().row() == matches[0]
    assert bar.count.text() == f"1 of {len(matches)}"
    qtbot.keyClick(bar.field, Qt.Key.Key_Return)
    assert window.view.transcript.currentIndex().row() == matches[1]
    window.registry[ActionId.FIND_PREVIOUS].trigger()
    assert window.view.transcript.currentIndex().row() == matches[0]
    qtbot.keyClicks(bar.field, "zzz")
    assert bar.count.text() == "no match"
    qtbot.keyClick(bar.field, Qt.Key.Key_Escape)
    assert not bar.isVisible()


def test_the_transcript_model_counts_and_streams_lines(qtbot):
    from PySide6.QtTest import QAbstractItemModelTester as Tester

    from desktop.ui.models.transcript_model import SPEAKER_ROLE, START_ROLE, TranscriptModel

    model = TranscriptModel()
    tester = Tester(model, Tester.FailureReportingMode.Fatal)
    model.set_segments([SegmentRow(0, 900, "Casey", "Hello there"), SegmentRow(1000, 1900, "Riley", "Hi")])
    inserted = []
    model.rowsInserted.connect(lambda _parent, first, last: inserted.append((first, last)))
    model.append_segments([SegmentRow(2000, 2900, "Casey", "How is delivery going"),
                           SegmentRow(3000, 3900, None, "Slow")])
    assert model.rowCount() == 4 and inserted == [(2, 3)]
    assert [model.index(r).data() for r in range(4)] == ["Hello there", "Hi", "How is delivery going", "Slow"]
    assert model.stringList() == ["Hello there", "Hi", "How is delivery going", "Slow"]  # the C++ copy agrees
    assert model.index(2).data(START_ROLE) == 2000 and model.index(2).data(SPEAKER_ROLE) == "Casey"
    assert not model.flags(model.index(0)) & Qt.ItemFlag.ItemIsEditable  # lines are corrected in the dialog
    # Rows are counted in C++: a Python rowCount is asked once per row at every layout of the view.
    assert "rowCount" not in TranscriptModel.__dict__
    model.set_segments([])
    assert model.rowCount() == 0 and model.stringList() == []
    del tester


def test_a_bigger_font_gives_taller_lines(qtbot, window, demo_call):
    # Lines have one height, taken from the font: after a font change they are laid out again (Qt
    # does it: the view has no event handler of its own in Python, which every event would pass).
    window.open_call(demo_call)
    view = window.view.transcript
    before = view.visualRect(window.transcript_model.index(1)).height()
    font = view.font()
    font.setPointSizeF(font.pointSizeF() * 2)
    view.setFont(font)
    qtbot.waitUntil(lambda: view.visualRect(window.transcript_model.index(1)).height() > before * 1.5,
                    timeout=3000)


def test_a_click_finds_the_word_in_the_shown_text_even_when_the_words_differ_in_spacing():
    from desktop.ui.models.transcript_model import word_at

    text = "Okay, so how do you report on that?"
    words = [{"text": w, "start_ms": 100 * i} for i, w in enumerate(
        [" Okay,", "so", "how", "do", "you", "report", "on", "that?"])]
    assert word_at(text, words, 0)["start_ms"] == 0
    assert word_at(text, words, text.index("report") + 2)["start_ms"] == 500
    assert word_at(text, words, len(text))["start_ms"] == 700
    # A word the text no longer has (an edit) is skipped, not matched somewhere else.
    words.insert(3, {"text": "exactly", "start_ms": 999})
    assert word_at(text, words, text.index("do"))["start_ms"] == 300


def _label_colours(view, row: int) -> set[str]:
    """The colours drawn in a line's speaker label (the gutter under its time)."""
    from desktop.ui.widgets.transcript_view import PAD

    rect = view.visualRect(view.model().index(row))
    image = view.viewport().grab().toImage()
    top = rect.top() + PAD + 17
    return {image.pixelColor(x, y).name() for x in range(rect.left(), rect.left() + 80)
            for y in range(top, min(top + 16, rect.bottom()))}


def test_a_speaker_keeps_one_colour_wherever_the_call_is_opened(qtbot, window, store, demo_call):
    from desktop.ui.style import SPEAKER_COLOURS

    # Riley speaks first; far into the call Casey's line is the first one on screen.
    lines = [SegmentRow(i * 4000, i * 4000 + 3500, "Riley" if i % 2 == 0 else "Casey", f"line {i}")
             for i in range(200)]
    transcripts.save_transcript(store, demo_call, lines, origin="import")
    riley, casey = SPEAKER_COLOURS[0].lower(), SPEAKER_COLOURS[1].lower()
    window.open_call(demo_call)
    view, model = window.view.transcript, window.transcript_model
    view.set_follow(False)
    view.scrollTo(model.index(151), view.ScrollHint.PositionAtTop)
    qtbot.waitUntil(lambda: view.indexAt(view.viewport().rect().topLeft() + QPoint(5, 5)).row() == 151)
    colours = _label_colours(view, 151)  # the first line painted is Casey's
    assert casey in colours and riley not in colours
    colours = _label_colours(view, 152)
    assert riley in colours and casey not in colours
    # Opened again, at the start: the same colours.
    window.open_call(demo_call)
    view.scrollToTop()
    assert riley in _label_colours(view, 0)
    assert casey in _label_colours(view, 1)


def test_a_long_line_picked_shows_in_full_under_the_transcript(qtbot, window, store, demo_call):
    from desktop.services import transcripts

    long_text = " ".join(["We review every carrier's late deliveries on Monday with the whole team"] * 4)
    rows = transcripts.current_transcript(store, demo_call).segments
    transcripts.edit_segment(store, demo_call, rows[2].start_ms, text=long_text)
    window.resize(1280, 720)
    window.open_call(demo_call)
    view = window.view.transcript
    view.setCurrentIndex(window.transcript_model.index(2))
    assert window.view.line_detail.isVisible() and long_text in window.view.line_detail.text()
    view.setCurrentIndex(window.transcript_model.index(1))  # a short line: its row shows all of it
    assert not window.view.line_detail.isVisible()
