"""Opening calls: the library, the waveform cache, unplayable files, layout and panels."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel

from desktop import paths
from desktop.media import waveform
from desktop.services import calls, moments
from desktop.ui import panels
from desktop.ui.actions import ActionId
from tests.conftest import make_tone
from tests.ui.conftest import demo_segments


def test_the_library_lists_filters_and_opens_calls(qtbot, window, store, demo_call, tmp_path):
    tone = make_tone(tmp_path / "pipeline review.wav", seconds=2)
    other, _ = calls.add_call(store, tone, rep="Sam Seller")
    window.refresh_library()
    lib = window.library
    assert lib.proxy.rowCount() == 2
    qtbot.keyClicks(lib.filter, "riley")
    assert lib.proxy.rowCount() == 1
    assert lib.proxy.index(0, 0).data() == "Acme discovery"
    lib.filter.clear()
    qtbot.keyClicks(lib.filter, "sam")
    qtbot.keyClick(lib.filter, Qt.Key.Key_Return)
    assert window.workspace.call.id == other.id
    assert window.view.heading.text() == "Pipeline Review"
    assert window.view.show_transcript  # no transcript: the hint is shown instead
    assert window.view.transcript_empty.isVisible()
    # The Call tab shows the open call's details, and the next call's when the coach switches.
    info = window.view.call_info
    assert info.value("Title") == "Pipeline Review" and info.value("Rep") == "Sam Seller"
    assert info.value("Transcript") == "none" and info.value("File") == str(tone)
    assert [name for name, _ in info.rows()] == ["Title", "Rep", "Manager", "Recorded", "Length", "Source",
                                                 "Channels", "Transcript", "File"]
    # The file's path can be selected with the mouse, to copy it.
    path_label = next(w for w in info.findChildren(QLabel) if w.text() == str(tone))
    qtbot.mouseDClick(path_label, Qt.MouseButton.LeftButton, pos=path_label.rect().center())
    assert path_label.hasSelectedText()
    window.open_call(demo_call)
    assert info.value("Title") == "Acme discovery" and info.value("Rep") != "Sam Seller"


def test_opening_a_file_adds_it_and_reopening_it_is_the_same_call(window, store, tmp_path):
    tone = make_tone(tmp_path / "call two.wav", seconds=2)
    first = window.open_media_file(tone)
    again = window.open_media_file(tone)
    assert first == again and [c.id for c in calls.list_calls(store)] == [first]
    assert window.library_model.rowCount() == 1
    window.open_media_file(tmp_path / "missing.mp3")
    assert "missing.mp3" in window.status.text()


def test_the_waveform_is_computed_once_then_read_from_the_cache(qtbot, make_window, demo_call, monkeypatch,
                                                                 isolated_home):
    first = make_window()
    with qtbot.waitSignal(first.waveforms.loaded, timeout=30000):
        first.open_call(demo_call)
    assert first.view.waveform.has_peaks()
    cached = list(paths.cache_dir(isolated_home, "waveforms").glob("*.npz"))
    assert len(cached) == 1
    first.close()

    def no_decoding(*_a, **_k):
        raise AssertionError("decoded again instead of using the cache")

    monkeypatch.setattr(waveform, "compute_peaks", no_decoding)
    second = make_window()
    with qtbot.waitSignal(second.waveforms.loaded, timeout=10000) as got:
        second.open_call(demo_call)
    assert got.args[1].channels.shape == (2, len(got.args[1]))
    assert second.view.waveform.has_peaks()


def test_a_file_vlc_cannot_play_shows_a_message_and_the_rest_still_works(qtbot, window, store, demo_call,
                                                                        tmp_path):
    copy = make_tone(tmp_path / "broken call.ogg", seconds=3)
    call, _ = calls.add_call(store, copy, title="Broken")
    from desktop.services import transcripts
    from tests.ui.conftest import demo_segments

    transcripts.save_transcript(store, call.id, demo_segments(), origin="import")
    copy.write_bytes(b"\x00garbage, not a recording" * 4000)  # damaged after it was added
    window.refresh_library()
    window.open_call(call.id)
    with qtbot.waitSignal(window.playback.error, timeout=15000) as err:
        window.playback.play()
    assert "broken call.ogg" in err.args[0]
    banner = window.view.banner
    qtbot.waitUntil(banner.isVisible)
    assert "broken call.ogg" in banner.text() and "transcript" in banner.text()
    # The transcript and moments stay usable.
    assert window.transcript_model.rowCount() == len(demo_segments())
    window.registry[ActionId.MARK].trigger()
    window.registry[ActionId.KIND_QUESTION].trigger()
    assert [m.kind for m in moments.list_moments(store, call.id)] == ["question"]
    window.registry[ActionId.NOTE].trigger()
    qtbot.keyClicks(window.view.moments.note, "listen again later")
    window.view.moments.flush()
    assert moments.list_moments(store, call.id)[0].note == "listen again later"
    # A file gone altogether is said at once.
    copy.unlink()
    window.open_call(demo_call)
    window.open_call(call.id)
    said = window.view.banner.text()
    assert "not on this computer: it was at" in said and "broken call.ogg" in said


def test_layout_and_the_last_call_come_back(qtbot, make_window, store, demo_call, tmp_path):
    tone = make_tone(tmp_path / "second.wav", seconds=2)
    other, _ = calls.add_call(store, tone)
    first = make_window()
    first.open_call(other.id)
    first.close()
    second = make_window()
    second.restore_last_call()
    assert second.workspace.call.id == other.id
    assert not second.library.isHidden()
    second.registry[ActionId.TOGGLE_LIBRARY].trigger()
    second.close()
    third = make_window()
    assert third.library.isHidden()
    assert not third.registry[ActionId.TOGGLE_LIBRARY].isChecked()


def test_the_last_call_is_remembered_without_closing_the_window(qtbot, store, demo_call, isolated_home, tmp_path):
    """As the app starts: the call opened, then the window shown. Remembered once it is painted (the
    settings file is not written before the first paint), and at once for a call opened after."""
    from pathlib import Path

    from desktop.ui.main_window import build_main_window
    from desktop.ui.settings import SettingsKey, qsettings

    other, _ = calls.add_call(store, make_tone(tmp_path / "other.wav", seconds=2))
    window = build_main_window(store, Path(isolated_home))
    qtbot.addWidget(window)
    window.open_call(demo_call)
    window.show()
    qtbot.waitUntil(lambda: int(qsettings().value(SettingsKey.LAST_CALL.value, 0)) == demo_call)
    window.open_call(other.id)
    assert int(qsettings().value(SettingsKey.LAST_CALL.value, 0)) == other.id
    window.close()


def test_a_registered_panel_follows_the_open_call_and_can_seek(qtbot, store, demo_call, make_window):
    seen = []

    def factory(context):
        context.call_changed.connect(seen.append)
        label = QLabel("coaching item")
        label.setObjectName("testPanel")
        label.context = context
        return label

    panels.register_panel("Test panel", factory)
    try:
        window = make_window()
    finally:
        panels.unregister_panel("Test panel")
    tabs = window.view.inspector
    names = [tabs.tabText(i) for i in range(tabs.count())]
    assert names[0] == "Call" and "Test panel" in names
    panel = window.panel("Test panel")  # made now (it would be soon after the first paint anyway)
    assert tabs.widget(names.index("Test panel")) is panel
    window.open_call(demo_call)
    # The panels hear of the call once the workspace is painted (not inside open_call).
    qtbot.waitUntil(lambda: seen == [demo_call], timeout=5000)
    with qtbot.waitSignal(panel.context.moment_selected) as selected:
        window.playback.seek(5000)
        window.registry[ActionId.MARK].trigger()
    assert selected.args[0] == moments.list_moments(store, demo_call)[0].id
    panel.context.seek(42000)
    assert window.playback.position_ms() == 42000


def test_panels_are_made_after_the_first_paint_and_hear_of_the_call_first(qtbot, store, demo_call, make_window):
    made, heard = [], []

    def factory(context):
        made.append(context.call_id)
        context.call_changed.connect(lambda cid: heard.append(("call", cid)))
        context.moment_selected.connect(lambda mid: heard.append(("moment", mid)))
        return QLabel("late panel")

    panels.register_panel("Late panel", factory)
    try:
        window = make_window()
    finally:
        panels.unregister_panel("Late panel")
    qtbot.waitUntil(lambda: made == [None], timeout=5000)  # made soon after showing, not while building
    window.open_call(demo_call)
    assert heard == []  # not yet: the panels would hold up the first paint
    window.playback.seek(5000)
    window.registry[ActionId.MARK].trigger()  # a moment selected: the call is told first
    assert heard[0] == ("call", demo_call) and heard[1][0] == "moment"


def test_media_is_loaded_after_the_paint_or_at_the_first_command(qtbot, window, demo_call):
    window.open_call(demo_call)
    assert window.playback.has_media and window.playback._pending is not None
    window.playback.seek(3000)  # a command finishes the load first
    assert window.playback._pending is None and window.playback.player.path is not None
    assert window.playback.position_ms() == 3000
    window.open_call(demo_call)
    qtbot.waitUntil(lambda: window.playback._pending is None, timeout=5000)  # or the event loop does
    assert window.playback.player.path is not None


def test_the_player_is_made_off_the_gui_thread_once_painted_and_plays(qtbot, make_window, demo_call,
                                                                      monkeypatch):
    import threading

    from desktop.ui.controllers.playback import PlaybackController

    made_on = []
    make = PlaybackController._make_player

    def spy(self):
        made_on.append(threading.current_thread() is threading.main_thread())
        return make(self)

    monkeypatch.setattr(PlaybackController, "_make_player", spy)
    window = make_window()  # shown and painted: importing python-vlc and starting libvlc begin
    qtbot.waitUntil(lambda: made_on == [False], timeout=10000)  # on a thread of their own
    window.open_call(demo_call)
    window.registry[ActionId.PLAY_PAUSE].trigger()
    qtbot.waitUntil(lambda: window.playback.position_ms() > 600, timeout=10000)
    assert window.playback.is_playing and made_on == [False]


def test_when_libvlc_cannot_start_the_coach_is_told_and_marking_still_works(qtbot, make_window, store,
                                                                          demo_call, monkeypatch):
    monkeypatch.setenv("CALLMARK_VLC_ARGS", "--no-such-vlc-option")  # libvlc refuses to start
    window = make_window()
    with qtbot.waitSignal(window.playback.error, timeout=10000) as err:
        window.open_call(demo_call)
    assert "Playback is not available" in err.args[0] and "libvlc could not start" in err.args[0]
    qtbot.waitUntil(window.view.banner.isVisible)
    assert "Playback is not available" in window.view.banner.text()
    assert window.transcript_model.rowCount() == len(demo_segments())
    # Keys that need the player say so again instead of failing; a mark still lands.
    with qtbot.waitSignal(window.playback.error, timeout=2000):
        window.registry[ActionId.PLAY_PAUSE].trigger()
    assert not window.playback.is_playing
    window.registry[ActionId.MARK].trigger()
    window.registry[ActionId.KIND_QUESTION].trigger()
    assert [m.kind for m in moments.list_moments(store, demo_call)] == ["question"]


def test_the_parts_keep_their_looks_without_a_window_wide_style_sheet(window, demo_call):
    """Titles bold and larger, hints grey, a light selection in the tables, the Mark button its
    own colours; and no sheet on the window, which would put every widget through Qt's slower
    style-sheet style."""
    from PySide6.QtGui import QFont, QPalette
    from PySide6.QtWidgets import QApplication

    window.open_call(demo_call)
    view = window.view
    assert window.styleSheet() == "" and QApplication.instance().styleSheet() == ""
    plain = QApplication.font()
    assert view.heading.font().pointSizeF() > plain.pointSizeF()
    assert view.heading.font().weight() >= QFont.Weight.DemiBold
    assert window.library.title.font().weight() >= QFont.Weight.DemiBold
    from desktop.ui.style import LIGHT

    assert view.details.palette().color(QPalette.ColorRole.WindowText).name() == LIGHT.labels["callDetails"].lower()
    assert view.transcript_empty.palette().color(QPalette.ColorRole.WindowText).name() == \
        LIGHT.labels["emptyHint"].lower()
    for table in (window.library.table, view.moments.table):
        assert table.palette().color(QPalette.ColorRole.Highlight).name() == "#d7e6f7"
    mark = view.player_bar.mark_button
    image = mark.grab().toImage()
    assert image.pixelColor(mark.width() // 2, 3).name() == "#fff1ec"  # its own fill, above the label


def test_the_inspector_can_be_narrowed_to_give_the_moments_room(qtbot, make_window, store, demo_call):
    import importlib

    from desktop.ui.warmup import MODULES

    for name in MODULES:  # every panel registered, as in the app once warm
        if name.startswith("desktop.ui."):
            importlib.import_module(name)
    window = make_window()
    window.open_call(demo_call)
    window.make_all_panels()
    tabs = window.view.inspector
    assert [tabs.tabText(i) for i in range(tabs.count())] == ["Call", "Item", "CRM", "Calibration", "Cycle"]
    assert [tabs.tabToolTip(i) for i in range(1, tabs.count())] == ["Coaching item", "Opportunity", "Calibration",
                                                                   "Coaching"]  # the whole name on hover
    # The coach drags the inspector narrow: the transcript and the moments get the width.
    splitter = window.view.splitter
    total = sum(splitter.sizes())
    splitter.setSizes([total - 480, 240, 240])
    qtbot.waitUntil(lambda: splitter.sizes()[2] <= 260)
    assert splitter.sizes()[1] >= 230


def test_enter_on_a_call_in_the_library_opens_it(qtbot, window, store, demo_call, tmp_path):
    other, _ = calls.add_call(store, make_tone(tmp_path / "renewal.wav", seconds=2), title="Renewal")
    window.refresh_library()
    table = window.library.table
    row = window.library_model.row_of(other.id)
    table.setCurrentIndex(table.model().index(row, 0))
    table.setFocus()
    qtbot.keyClick(table, Qt.Key.Key_Return)
    assert window.workspace.call.id == other.id
