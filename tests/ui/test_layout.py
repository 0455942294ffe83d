"""Room to write the item, panels that never shrink to a sliver, and a layout that can be reset."""

from __future__ import annotations

from desktop.services import moments
from desktop.ui.actions import ActionId
from desktop.ui.settings import SettingsKey, qsettings
from desktop.ui.views.workspace_view import FIRST_RUN_SIZES, MIN_INSPECTOR, MIN_MOMENTS, MIN_TRANSCRIPT


def test_ctrl_i_gives_the_item_the_room_and_toggling_gives_it_back(qtbot, window, store, demo_call):
    window.resize(1440, 860)
    moment = moments.add_moment(store, demo_call, 39_876, kind="missed_intervention")
    window.open_call(demo_call)
    qtbot.wait(50)
    before = window.view.splitter.sizes()
    window.view.moments.select(moment.id)
    window.registry[ActionId.NEW_ITEM].trigger()
    editor = window.panel("Coaching item")
    assert editor.controller.item is not None
    qtbot.waitUntil(lambda: editor.view.two_columns, timeout=2000)  # the five steps beside the rest
    transcript, side, inspector = window.view.splitter.sizes()
    assert window.view.side.isHidden() and window.library.isHidden()
    assert inspector > 2 * transcript and transcript >= MIN_TRANSCRIPT  # the transcript stays, to play from
    assert window.registry[ActionId.WRITING_ROOM].isChecked()
    window.registry[ActionId.WRITING_ROOM].trigger()  # the same key goes back
    assert not window.view.side.isHidden() and not window.library.isHidden()
    assert window.view.splitter.sizes() == before


def test_no_panel_is_left_at_a_sliver_and_reset_layout_puts_them_back(qtbot, make_window, store, demo_call):
    window = make_window()
    window.resize(1440, 860)
    window.open_call(demo_call)
    qtbot.wait(50)
    window.view.splitter.setSizes([1400, 5, 5])  # a drag too far
    transcript, side, inspector = window.view.splitter.sizes()
    assert side >= MIN_MOMENTS and inspector >= MIN_INSPECTOR
    window.close()
    assert qsettings().contains(SettingsKey.WORK_SPLITTER.value)
    again = make_window()
    again.resize(1440, 860)
    qtbot.wait(100)
    sizes = again.view.splitter.sizes()
    assert sizes[1] >= MIN_MOMENTS and sizes[2] >= MIN_INSPECTOR
    again.registry[ActionId.RESET_LAYOUT].trigger()
    assert not qsettings().contains(SettingsKey.WORK_SPLITTER.value)
    sizes = again.view.splitter.sizes()
    share = [round(x / sum(sizes), 2) for x in sizes]
    first = [round(x / sum(FIRST_RUN_SIZES), 2) for x in FIRST_RUN_SIZES]
    assert all(abs(a - b) <= 0.05 for a, b in zip(share, first)), (share, first)  # the first run's proportions
