"""Marking from the keyboard with the real libvlc: the moment lands where the media was."""

from __future__ import annotations

import time

from PySide6.QtCore import QEvent, QPoint, QPointF, Qt
from PySide6.QtGui import QMouseEvent

from desktop.services import moments
from desktop.ui.actions import ActionId

CTRL = Qt.KeyboardModifier.ControlModifier


def play_until(qtbot, window, ms: int) -> None:
    window.playback.play()
    qtbot.waitUntil(lambda: window.playback.position_ms() > ms, timeout=15000)


def fresh_vlc_time(player) -> tuple[float, int]:
    """Wait for VLC's own time to move; (the instant it moved, its value): the true position then."""
    first = player.vlc_time_ms()
    deadline = time.monotonic() + 3
    while time.monotonic() < deadline:
        value = player.vlc_time_ms()
        if value != first:
            return time.monotonic(), value
        time.sleep(0.0005)
    raise AssertionError("VLC's time did not move for 3 s")


def test_ctrl_m_marks_at_the_clock_minus_the_reaction_delay(qtbot, window, demo_call, store):
    window.open_call(demo_call)
    delay = window.prefs.reaction_delay_ms
    play_until(qtbot, window, 2500)
    seen_at, seen_ms = fresh_vlc_time(window.playback.player)
    before = window.playback.position_ms()
    pressed_at = time.monotonic()
    qtbot.keyClick(window.view.transcript, Qt.Key.Key_M, CTRL)
    after = window.playback.position_ms()
    true_ms = seen_ms + (pressed_at - seen_at) * 1000  # 1x: the media moves with the wall clock
    marked = moments.list_moments(store, demo_call)
    assert len(marked) == 1
    start = marked[0].start_ms
    # The mark comes from the interpolated clock, between the readings around the key press.
    assert before - delay <= start <= after - delay
    # ...and lands where the media truly was (VLC's time moves in coarse steps; a naive mark is
    # off by up to a whole step).
    assert abs(start + delay - true_ms) < 100
    assert marked[0].end_ms == start + moments.DEFAULT_SPAN_MS
    assert marked[0].quote  # filled from the transcript under it
    assert marked[0].speaker in ("Riley", "Casey")

    qtbot.keyClick(window.view.transcript, Qt.Key.Key_3, CTRL)
    qtbot.wait(700)
    end_before = window.playback.position_ms()
    qtbot.keyClick(window.view.transcript, Qt.Key.Key_M, CTRL | Qt.KeyboardModifier.ShiftModifier)
    end_after = window.playback.position_ms()
    row = moments.get_moment(store, marked[0].id)
    assert row.kind == "missed_intervention"
    assert end_before - delay <= row.end_ms <= end_after - delay


def test_marking_keys_work_while_typing_a_note(qtbot, window, demo_call, store):
    window.open_call(demo_call)
    window.playback.seek(20000)
    window.registry[ActionId.MARK].trigger()
    first = moments.list_moments(store, demo_call)[0]
    window.registry[ActionId.NOTE].trigger()
    note = window.view.moments.note
    assert note.hasFocus()
    qtbot.keyClicks(note, "asks about budget")
    window.playback.seek(60000)
    # Shift+Left would select text in the field; Ctrl+M would be swallowed. Both reach their actions.
    qtbot.keyClick(note, Qt.Key.Key_Left, Qt.KeyboardModifier.ShiftModifier)
    assert abs(window.playback.position_ms() - (60000 - window.prefs.skip_ms)) < 50
    qtbot.keyClick(note, Qt.Key.Key_M, CTRL)
    rows = moments.list_moments(store, demo_call)
    assert len(rows) == 2
    assert moments.get_moment(store, first.id).note == "asks about budget"
    assert note.text() == ""  # the new moment is selected; its note is empty and nothing leaked in


def test_undo_of_a_deleted_moment_restores_it_in_the_store(qtbot, window, demo_call, store):
    window.open_call(demo_call)
    window.playback.seek(40000)
    window.registry[ActionId.MARK].trigger()
    window.registry[ActionId.KIND_NEXT_STEP].trigger()
    saved = moments.list_moments(store, demo_call)[0]
    window.registry[ActionId.DELETE_MOMENT].trigger()
    assert moments.list_moments(store, demo_call) == []
    assert window.moments_model.rowCount() == 0
    qtbot.keyClick(window.view.transcript, Qt.Key.Key_Z, CTRL)
    restored = moments.list_moments(store, demo_call)
    assert [(m.id, m.uid, m.start_ms, m.kind, m.quote) for m in restored] == [
        (saved.id, saved.uid, saved.start_ms, "next_step", saved.quote)]
    assert window.moments_model.rowCount() == 1
    window.undo_stack.redo()
    assert moments.list_moments(store, demo_call) == []


def test_closing_mid_edit_keeps_the_note(qtbot, make_window, demo_call, store):
    window = make_window()
    window.open_call(demo_call)
    window.playback.seek(30000)
    window.registry[ActionId.MARK].trigger()
    window.registry[ActionId.NOTE].trigger()
    qtbot.keyClicks(window.view.moments.note, "did not ask who signs")
    window.close()  # straight away: the save timer has not fired
    assert moments.list_moments(store, demo_call)[0].note == "did not ask who signs"


def test_dragging_a_span_edge_moves_the_moment_and_requotes(qtbot, window, demo_call, store):
    window.open_call(demo_call)
    window.playback.seek(500)
    window.registry[ActionId.MARK].trigger()
    moment = moments.list_moments(store, demo_call)[0]
    wf = window.view.waveform
    y = wf.height() // 3
    x_end = int(wf._x(moment.end_ms))
    x_new = int(wf._x(16000))
    qtbot.mousePress(wf, Qt.MouseButton.LeftButton, pos=QPoint(x_end, y))
    move = QMouseEvent(QEvent.Type.MouseMove, QPointF(x_new, y), QPointF(x_new, y), Qt.MouseButton.NoButton,
                       Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    wf.mouseMoveEvent(move)
    qtbot.mouseRelease(wf, Qt.MouseButton.LeftButton, pos=QPoint(x_new, y))
    moved = moments.get_moment(store, moment.id)
    assert abs(moved.end_ms - 16000) <= wf.ms_at(1) + 200  # within a pixel or so
    assert "Twenty minutes" in moved.quote  # the line at 12.3 s is now under the span


def test_the_waveform_shows_a_new_moment_and_the_moving_playhead(qtbot, window, demo_call, store):
    from desktop.ui.style import PLAYHEAD, kind_colour

    window.open_call(demo_call)
    wf = window.view.waveform
    wf.resize(1000, wf.height())
    window.playback.seek(20000)
    window.registry[ActionId.MARK].trigger()
    window.registry[ActionId.KIND_MISSED].trigger()
    moment = moments.list_moments(store, demo_call)[0]
    middle = int(wf._x((moment.start_ms + moment.end_ms) // 2))
    # The new moment's bar is drawn in its kind's colour along the top.
    image = wf.grab().toImage()
    assert image.pixelColor(middle, 1).name() == kind_colour("missed_intervention").name()
    backdrop = wf._backdrop
    # The playhead moves over what is drawn already: only the line is drawn again.
    wf.set_position(60000)
    image = wf.grab().toImage()
    x = int(round(wf._x(60000)))
    assert PLAYHEAD.lower() in {image.pixelColor(x + d, 40).name() for d in (-1, 0, 1)}
    assert image.pixelColor(middle, 1).name() == kind_colour("missed_intervention").name()
    assert wf._backdrop is backdrop
    # A change to the moments draws them again: the deleted moment's bar is gone.
    window.registry[ActionId.DELETE_MOMENT].trigger()
    assert moments.list_moments(store, demo_call) == []
    image = wf.grab().toImage()
    assert image.pixelColor(middle, 1).name() != kind_colour("missed_intervention").name()
