"""The action registry: defaults, remapping, refused conflicts, only overrides stored, the cheat sheet."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QKeySequence

from desktop.services import moments
from desktop.ui.actions import ActionId, ShortcutConflict, portable
from desktop.ui.dialogs.cheat_sheet import GROUPS, cheat_sheet_html
from desktop.ui.dialogs.shortcuts import ShortcutsDialog

CTRL = Qt.KeyboardModifier.ControlModifier


def test_every_action_is_created_once_with_its_default_key(window):
    names = [a.objectName() for a in window.registry.actions()]
    assert len(names) == len(set(names)) == len(ActionId)
    assert portable(window.registry[ActionId.PLAY_PAUSE].shortcut()) == "Ctrl+Space"
    assert portable(window.registry[ActionId.MARK].shortcut()) == "Ctrl+M"
    assert portable(window.registry[ActionId.FIND].shortcut()) == "Ctrl+F"
    assert portable(window.registry[ActionId.SLOWER].shortcut()) == "Ctrl+["
    assert {portable(k) for k in window.registry[ActionId.CHEAT_SHEET].shortcuts()} == {"F1", "?"}
    defaults = [portable(k) for a in ActionId for k in a.default_keys()]
    assert len(defaults) == len(set(defaults)), "two actions share a default key"


def test_a_remapped_key_marks_and_the_old_one_no_longer_does(qtbot, window, demo_call, store):
    window.open_call(demo_call)
    window.playback.seek(10000)
    window.registry.set_key(ActionId.MARK, QKeySequence("Ctrl+J"))
    qtbot.keyClick(window.view.transcript, Qt.Key.Key_M, CTRL)
    assert moments.list_moments(store, demo_call) == []
    qtbot.keyClick(window.view.transcript, Qt.Key.Key_J, CTRL)
    assert [m.start_ms for m in moments.list_moments(store, demo_call)] == [10000]  # paused: no delay
    # Only the override is stored, in QSettings.
    settings = QSettings()
    settings.beginGroup("shortcuts")
    assert {k: settings.value(k) for k in settings.childKeys()} == {"mark": "Ctrl+J"}


def test_a_remapped_key_still_works_while_typing(qtbot, window, demo_call, store):
    window.open_call(demo_call)
    window.registry.set_key(ActionId.MARK, "Ctrl+J")
    window.view.find_bar.open_bar()
    qtbot.keyClick(window.view.find_bar.field, Qt.Key.Key_J, CTRL)
    assert len(moments.list_moments(store, demo_call)) == 1


def test_a_conflicting_key_is_refused_with_a_message(qtbot, window):
    with pytest.raises(ShortcutConflict, match="already used by “Play / pause”"):
        window.registry.set_key(ActionId.MARK, "Ctrl+Space")
    assert portable(window.registry[ActionId.MARK].shortcut()) == "Ctrl+M"

    dialog = ShortcutsDialog(window.registry, window)
    qtbot.addWidget(dialog)
    dialog.select_action(ActionId.LOOP_MOMENT)
    dialog.key_edit.setKeySequence(QKeySequence("Ctrl+G"))
    dialog.assign.click()
    assert "Ctrl+G is already used by “Go to time…”" in dialog.message.text()
    assert portable(window.registry[ActionId.LOOP_MOMENT].shortcut()) == "Ctrl+L"
    dialog.key_edit.setKeySequence(QKeySequence("Ctrl+Shift+O"))
    dialog.assign.click()
    assert portable(window.registry[ActionId.LOOP_MOMENT].shortcut()) == "Ctrl+Shift+O"
    assert dialog.table.item(list(ActionId).index(ActionId.LOOP_MOMENT), 1).text() == \
        QKeySequence("Ctrl+Shift+O").toString(QKeySequence.SequenceFormat.NativeText)
    dialog.reset.click()
    assert portable(window.registry[ActionId.LOOP_MOMENT].shortcut()) == "Ctrl+L"
    assert not window.registry.is_overridden(ActionId.LOOP_MOMENT)



def test_the_cheat_sheet_lists_every_action_with_its_current_key(window):
    listed = [a for _title, ids in GROUPS for a in ids]
    assert sorted(a.name for a in listed) == sorted(a.name for a in ActionId)
    window.registry.set_key(ActionId.MARK, "Ctrl+J")
    text = cheat_sheet_html(window.registry)
    assert "Mark moment" in text and QKeySequence("Ctrl+J").toString(QKeySequence.SequenceFormat.NativeText) in text


def test_overrides_survive_a_restart(make_window):
    first = make_window()
    first.registry.set_key(ActionId.END_MARK, "Ctrl+Shift+E")
    first.close()
    second = make_window()
    assert portable(second.registry[ActionId.END_MARK].shortcut()) == "Ctrl+Shift+E"
