"""Assistive technology sees every control: each focusable widget a coach can reach in the window, on every
inspector tab, has an accessible name (walked through Qt's accessibility interfaces, not our own fields)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAccessible
from PySide6.QtWidgets import QWidget


def _reachable(window) -> list[QWidget]:
    out = []
    for widget in window.findChildren(QWidget):
        if widget.focusPolicy() == Qt.FocusPolicy.NoFocus or not widget.isVisibleTo(window):
            continue
        if widget.objectName().startswith("qt_"):  # a composite's own inner part (a spin box's line)
            continue
        if widget.window() is not window:  # a popup (a completer's list) is named by its field
            continue
        out.append(widget)
    return out


def _unnamed(widgets) -> list[str]:
    missing = []
    for widget in widgets:
        iface = QAccessible.queryAccessibleInterface(widget)
        name = iface.text(QAccessible.Text.Name) if iface is not None else ""
        if not name.strip():
            missing.append(f"{type(widget).__name__}({widget.objectName()})")
    return missing


def test_every_control_on_every_tab_has_a_name(qtbot, window, store, demo_call):
    from desktop.services import items, moments

    moment = moments.add_moment(store, demo_call, 39_876, kind="missed_intervention")
    items.create_item(store, [moment.id])
    window.resize(1600, 1000)
    window.open_call(demo_call)
    window.make_all_panels()
    window.view.moments.select(moment.id)
    tabs = window.view.inspector
    seen, missing = 0, set()
    for i in range(tabs.count()):
        tabs.setCurrentIndex(i)
        qtbot.wait(20)
        reachable = _reachable(window)
        seen = max(seen, len(reachable))
        missing |= set(_unnamed(reachable))
    assert seen >= 30  # the walk reached the window's controls
    assert sorted(missing) == [], ", ".join(sorted(missing))


def test_every_control_of_the_dialogs_has_a_name(qtbot, window, store, demo_call):
    from desktop.services import calls
    from desktop.ui.dialogs.about import AboutDialog
    from desktop.ui.dialogs.call_details import CallDetailsDialog
    from desktop.ui.dialogs.goto_time import GoToTimeDialog
    from desktop.ui.dialogs.preferences import PreferencesDialog
    from desktop.ui.dialogs.shortcuts import ShortcutsDialog

    dialogs = [CallDetailsDialog(calls.get_call(store, demo_call), {}, parent=window),
               GoToTimeDialog(1000, 140_000, window), PreferencesDialog(window.prefs, window),
               ShortcutsDialog(window.registry, window), AboutDialog(window),
               window.trackers.open_dialog(), window.trackers.open_hits("Deferral")]
    missing = {}
    for dialog in dialogs:
        qtbot.addWidget(dialog)
        dialog.show()
        qtbot.waitExposed(dialog)
        left = _unnamed(_reachable(dialog))
        if left:
            missing[type(dialog).__name__] = left
        dialog.close()
    assert missing == {}


def test_the_waveform_says_where_the_playhead_is_and_what_is_under_it(qtbot, window, store, demo_call):
    from desktop.services import moments

    moments.add_moment(store, demo_call, 39_876, 44_610, kind="missed_intervention")
    window.open_call(demo_call)
    window.workspace.seek(41_000)
    qtbot.waitUntil(lambda: "00:41" in window.view.waveform.accessibleDescription(), timeout=5000)
    described = window.view.waveform.accessibleDescription()
    assert "moment here: missed intervention" in described
    assert window.view.waveform.accessibleName() == "Waveform"
