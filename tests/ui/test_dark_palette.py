"""Dark mode: under a dark palette the workspace is drawn dark, and what it draws keeps its contrast.

The window is built after the application takes a dark palette (as when the desktop is in dark mode), the
workspace is rendered offscreen with grab(), and the pixels themselves are measured.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint
from PySide6.QtWidgets import QApplication

from tests.ui.test_contrast import MARK, TEXT, luminance, ratio


@pytest.fixture
def dark_window(make_window):
    from desktop.ui.style import dark_palette

    app = QApplication.instance()
    before = app.palette()
    app.setPalette(dark_palette())
    try:
        yield make_window()
    finally:
        app.setPalette(before)


def _colours(image, box):
    x0, y0, x1, y1 = box
    return [image.pixelColor(x, y) for x in range(max(0, x0), min(image.width(), x1))
            for y in range(max(0, y0), min(image.height(), y1))]


def _most_common(colours):
    counts = {}
    for c in colours:
        counts[c.name()] = counts.get(c.name(), 0) + 1
    return max(counts, key=counts.get)


def _best_contrast(colours, background: str) -> float:
    return max(ratio(c.name(), background) for c in colours)


def test_the_workspace_is_drawn_dark_and_its_text_and_marks_keep_their_contrast(qtbot, dark_window, store,
                                                                                 demo_call):
    from desktop.services import moments

    window = dark_window
    moments.add_moment(store, demo_call, 10_000, 30_000, kind="question")
    window.resize(1600, 1000)
    window.open_call(demo_call)
    waveform, transcript = window.view.waveform, window.view.transcript
    qtbot.waitUntil(waveform.has_peaks, timeout=15_000)
    qtbot.wait(100)

    # Most of the window is dark: nothing paints its own white or light grey background.
    whole = window.grab().toImage().scaled(400, 250)
    light = [c for c in _colours(whole, (0, 0, whole.width(), whole.height())) if luminance(c.name()) > 0.5]
    assert len(light) < 0.05 * whole.width() * whole.height()

    # The waveform: a dark base; the peaks and the ruler's labels stand out from it.
    image = waveform.grab().toImage()
    w, h = image.width(), image.height()
    base = _most_common(_colours(image, (0, 0, w, h)))
    assert luminance(base) < 0.05
    x_free = int(w * 0.9)  # past the moment (10–30 s of a 2:20 call): peaks on the plain base
    peaks = _colours(image, (x_free, 5, x_free + 60, h - waveform.ruler_px() - 12))
    assert _best_contrast(peaks, base) >= MARK
    ruler = _colours(image, (0, h - waveform.ruler_px(), w, h))
    assert _best_contrast(ruler, base) >= TEXT
    moment_x = int(w * 20 / 140)  # the moment's bar along the top, and its letter under it
    assert _best_contrast(_colours(image, (moment_x - 3, 0, moment_x + 3, 4)), base) >= MARK

    # The transcript: a line's words and its speaker's name against the row they are drawn on.
    view_image = transcript.viewport().grab().toImage()
    row = transcript.visualRect(window.transcript_model.index(1))
    line = _colours(view_image, (row.left(), row.top(), row.right(), row.bottom()))
    background = _most_common(line)
    assert luminance(background) < 0.1
    from desktop.ui.widgets.transcript_view import GUTTER_PX

    words = _colours(view_image, (row.left() + GUTTER_PX, row.top(), row.right(), row.bottom()))
    gutter = _colours(view_image, (row.left(), row.top(), row.left() + GUTTER_PX, row.bottom()))
    assert _best_contrast(words, background) >= TEXT
    assert _best_contrast(gutter, background) >= TEXT

    # The line being played is highlighted, and its words stay readable on the highlight.
    window.workspace.seek(window.transcript_model.segment(2).start_ms + 10)
    qtbot.waitUntil(lambda: window.transcript_model.current_row == 2)
    transcript.viewport().repaint()
    view_image = transcript.viewport().grab().toImage()
    row = transcript.visualRect(window.transcript_model.index(2))
    current = _most_common(_colours(view_image, (row.left(), row.top(), row.right(), row.bottom())))
    assert current != background
    words = _colours(view_image, (row.left() + GUTTER_PX, row.top(), row.right(), row.bottom()))
    assert _best_contrast(words, current) >= TEXT

    # The player's buttons: dark faces with light labels.
    button = window.view.player_bar.play_button
    face = button.grab().toImage()
    fill = face.pixelColor(QPoint(3, face.height() // 2)).name()
    assert luminance(fill) < 0.1
    assert _best_contrast(_colours(face, (0, 0, face.width(), face.height())), fill) >= TEXT


def test_a_desktop_in_dark_mode_gets_the_dark_palette_and_light_mode_takes_it_back(qapp_palette_restored):
    """The Qt style may report the desktop's dark scheme yet paint light: Callmark puts its dark palette in."""
    from PySide6.QtCore import Qt

    from desktop.ui.style import DARK, LIGHT, follow_colour_scheme, theme

    app = QApplication.instance()
    assert theme() is LIGHT
    assert follow_colour_scheme(app, Qt.ColorScheme.Dark) is True
    assert theme() is DARK
    assert follow_colour_scheme(app, Qt.ColorScheme.Dark) is False  # already dark: nothing to do
    follow_colour_scheme(app, Qt.ColorScheme.Light)
    assert theme() is LIGHT


@pytest.fixture
def qapp_palette_restored(qapp):
    before = qapp.palette()
    yield
    qapp.setPalette(before)
