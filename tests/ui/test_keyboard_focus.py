"""Keyboard focus a coach can see and follow: Tab walks the workspace and the item editor in the method's
order, the custom-painted views show a frame while focused, and Esc closes each dialog with the focus
back where it was. (The cheat sheet listing every action is tested in test_keys.py.)"""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QWidget
from pytestqt.exceptions import TimeoutError

from desktop.ui.actions import ActionId


def _walk(qtbot, start: QWidget, steps: int = 80) -> list[QWidget]:
    """Press Tab from ``start`` until the focus comes back to it; every widget it stopped on, in order."""
    start.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.waitUntil(start.hasFocus)
    seen = [start]
    for _ in range(steps):
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
        here = QApplication.focusWidget()
        if here is start:
            return seen
        assert here not in seen, f"Tab came back to {here.accessibleName() or type(here).__name__} before the start"
        seen.append(here)
    raise AssertionError("Tab never came back to where it started")


def _reachable(widgets: list[QWidget]) -> list[QWidget]:
    return [w for w in widgets if w.isVisible() and w.isEnabled()]


def _editor_window(qtbot, window, store, demo_call):
    from desktop.services import items, moments

    moment = moments.add_moment(store, demo_call, 39_876, kind="missed_intervention")
    items.create_item(store, [moment.id])
    window.resize(1600, 1000)
    window.open_call(demo_call)
    window.make_all_panels()
    window.view.moments.select(moment.id)
    editor = window.panel("Coaching item")
    tabs = window.view.inspector
    tabs.setCurrentIndex(tabs.indexOf(editor))
    qtbot.wait(20)
    return editor.view


def test_tab_walks_the_workspace_then_the_item_editor_in_the_coachs_order(qtbot, window, store, demo_call):
    editor = _editor_window(qtbot, window, store, demo_call)
    view, library = window.view, window.library
    # The library, the call from top to bottom (waveform, transcript), the moments and their note, the
    # suggestions, the inspector's tabs, then the item: its picker and buttons, the moment's evidence, the
    # five steps in the method's order with each step's button after its field, the rest of the seven
    # components, and the parked observations.
    expected = [library.filter, library.table, view.waveform, view.transcript, view.moments.table,
                view.moments.note, view.suggestions.family, view.suggestions.table, view.inspector.tabBar(),
                editor.picker, editor.new_button, editor.park_button, editor.evidence.cite_button,
                editor.evidence.more_button, editor.consequence, editor.behavior_change, editor.behavior_text,
                editor.split_button, editor.practice_kind, editor.practice_task, editor.next_evidence,
                editor.next_evidence_due, editor.due_calendar, editor.check_button, editor.cycle_button,
                editor.owner_does, editor.owner_reviews, editor.cadence, editor.indicator,
                editor.review_rule_text, editor.seen_in, editor.of_reviewed, editor.weeks_in_a_row,
                editor.qualification_gap, editor.status, editor.parked_list, editor.park_note,
                editor.promote_button]
    walked = _walk(qtbot, library.filter)

    def names(widgets):
        return [w.accessibleName() or w.objectName() or type(w).__name__ for w in widgets]

    assert names(walked) == names(_reachable(expected))
    assert len(walked) >= 25  # the walk went through the editor, not just round the workspace


def test_the_find_bar_sits_between_the_waveform_and_the_transcript(qtbot, window, demo_call):
    window.open_call(demo_call)
    window.registry[ActionId.FIND].trigger()
    view = window.view
    qtbot.waitUntil(view.find_bar.field.hasFocus)
    walked = _walk(qtbot, view.waveform)
    assert walked.index(view.find_bar.field) == 1
    assert walked.index(view.transcript) > walked.index(view.find_bar.field)


def test_each_custom_painted_view_shows_a_frame_while_it_has_the_focus(qtbot, window, demo_call):
    from desktop.ui.calibration.timeline import TwoLaneTimeline
    from desktop.ui.style import FOCUS_FRAME_PX, theme

    window.open_call(demo_call)
    timeline = TwoLaneTimeline(window.view)  # the calibration lanes, in a window that can take the focus
    timeline.setGeometry(0, 0, 600, timeline.height())
    timeline.show()
    focus = theme(window.palette()).focus.lower()
    for widget in (window.view.waveform, window.view.transcript, timeline):
        window.library.filter.setFocus()
        qtbot.waitUntil(lambda: not widget.hasFocus())
        unfocused = widget.grab().toImage()
        widget.setFocus(Qt.FocusReason.TabFocusReason)
        qtbot.waitUntil(widget.hasFocus)
        focused = widget.grab().toImage()
        w, h = focused.width(), focused.height()
        edge = [(x, 0) for x in range(10, w - 10, 7)] + [(0, y) for y in range(10, h - 10, 5)] + \
               [(w - 1, y) for y in range(10, h - 10, 5)] + [(x, h - 1) for x in range(10, w - 10, 7)]
        drawn = [p for p in edge if focused.pixelColor(*p).name() == focus]
        changed = [p for p in edge if focused.pixelColor(*p) != unfocused.pixelColor(*p)]
        assert len(drawn) == len(edge), f"{widget.objectName()}: the frame is missing at {set(edge) - set(drawn)}"
        assert len(changed) >= len(edge) * 0.9, f"{widget.objectName()}: unfocused it looked the same"
        inside = (w // 2, FOCUS_FRAME_PX + 8)  # the frame is only the edge: the view inside is unchanged
        assert focused.pixelColor(*inside).name() != focus


def test_the_focused_waveform_seeks_and_zooms_from_the_keyboard(qtbot, window, demo_call):
    window.open_call(demo_call)
    waveform = window.view.waveform
    qtbot.waitUntil(lambda: waveform.duration() > 0)
    window.playback.seek(10_000)
    waveform.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.waitUntil(waveform.hasFocus)
    qtbot.keyClick(waveform, Qt.Key.Key_Right)
    qtbot.waitUntil(lambda: abs(window.playback.position_ms() - 11_000) < 50)
    qtbot.keyClick(waveform, Qt.Key.Key_Left)
    qtbot.keyClick(waveform, Qt.Key.Key_Left)
    qtbot.waitUntil(lambda: abs(window.playback.position_ms() - 9_000) < 50)
    whole = waveform.view_range()
    qtbot.keyClick(waveform, Qt.Key.Key_Plus)
    v0, v1 = waveform.view_range()
    assert v1 - v0 < whole[1] - whole[0]
    qtbot.keyClick(waveform, Qt.Key.Key_Home)
    qtbot.waitUntil(lambda: window.playback.position_ms() < 50)


def test_the_calibration_lanes_step_through_the_pairs_with_the_arrows(qtbot):
    from types import SimpleNamespace

    from desktop.ui.calibration.timeline import TwoLaneTimeline

    timeline = TwoLaneTimeline()
    qtbot.addWidget(timeline)
    moment = SimpleNamespace(start_ms=1000, end_ms=2000)
    timeline.set_rows([SimpleNamespace(mine=moment, theirs=None), SimpleNamespace(mine=None, theirs=moment)], 10_000)
    timeline.show()
    timeline.setFocus()
    clicked = []
    timeline.row_clicked.connect(clicked.append)
    qtbot.keyClick(timeline, Qt.Key.Key_Right)
    timeline.select_row(clicked[-1])
    qtbot.keyClick(timeline, Qt.Key.Key_Right)
    timeline.select_row(clicked[-1])
    qtbot.keyClick(timeline, Qt.Key.Key_Right)  # at the last pair: stays there
    qtbot.keyClick(timeline, Qt.Key.Key_Left)
    assert clicked == [0, 1, 1, 0]


def _tab_out_of_reading_order(qtbot, dialog) -> list[str]:
    """Walk Tab round ``dialog``; the stops where Tab goes back up or leftwards (a cycle may start anywhere)."""
    from PySide6.QtCore import QPoint

    stops = []
    for _ in range(60):
        here = QApplication.focusWidget()
        if here in stops:
            break
        stops.append(here)
        qtbot.keyClick(here, Qt.Key.Key_Tab)
    centre = {w: w.mapTo(dialog, QPoint(w.width() // 2, w.height() // 2)) for w in stops}
    first = min(stops, key=lambda w: (centre[w].y(), centre[w].x()))
    at = stops.index(first)
    stops = stops[at:] + stops[:at]
    wrong = []
    for a, b in zip(stops, stops[1:]):
        pa, pb = centre[a], centre[b]
        same_row = abs(pa.y() - pb.y()) <= max(8, min(a.height(), b.height()) // 2)
        if (same_row and pb.x() < pa.x()) or (not same_row and pb.y() < pa.y()):
            wrong.append(f"{b.accessibleName() or getattr(b, 'text', lambda: '')() or type(b).__name__} after "
                         f"{a.accessibleName() or getattr(a, 'text', lambda: '')() or type(a).__name__}")
    stops[0].setFocus(Qt.FocusReason.TabFocusReason)
    return wrong


# Every action that opens a dialog, and what it needs first.
DIALOG_ACTIONS = (ActionId.GO_TO_TIME, ActionId.CHEAT_SHEET, ActionId.SHORTCUTS, ActionId.PREFERENCES,
                  ActionId.ABOUT, ActionId.SEARCH_LIBRARY, ActionId.TRANSCRIPTION_SETTINGS, ActionId.SPEAKERS,
                  ActionId.TRANSCRIPT_VERSIONS, ActionId.EDIT_LINE, ActionId.RESTORE_BACKUP,
                  ActionId.EXPORT_PACKET, ActionId.EXPORT_RECORD, ActionId.IMPORT_RECORD, ActionId.IMPORT_CRM,
                  ActionId.IMPORT_TRANSCRIPT, ActionId.OPEN_FILE, ActionId.IMPORT_FOLDER)


def test_every_dialog_tabs_in_reading_order_and_esc_closes_it_giving_the_focus_back(qtbot, window, store, demo_call):
    from desktop.services import items, moments

    moment = moments.add_moment(store, demo_call, 39_876, kind="missed_intervention")
    items.create_item(store, [moment.id])
    window.open_call(demo_call)
    window.view.moments.select(moment.id)
    window.view.transcript.scroll_to_row(3)
    note = window.view.moments.note
    closed, stayed, lost, disordered = [], [], [], {}

    def press_escape(tries=[0]):  # noqa: B006 - a counter across the timer's calls
        dialog = QApplication.activeModalWidget() or next(
            (w for w in QApplication.topLevelWidgets() if w.isVisible() and w is not window and w.isWindow()
             and w.windowType() in (Qt.WindowType.Dialog, Qt.WindowType.Window)), None)
        focused = QApplication.focusWidget()
        if dialog is None or focused is None or focused.window() is not dialog:  # not yet the coach's
            tries[0] += 1
            if tries[0] < 60:
                QTimer.singleShot(50, press_escape)
            return
        tries[0] = 0
        name = dialog.windowTitle() or type(dialog).__name__
        from PySide6.QtWidgets import QFileDialog

        # Qt's own file dialog (the platform's, on a desktop) keeps its own order; Esc still has to close it.
        out_of_order = [] if isinstance(dialog, QFileDialog) else _tab_out_of_reading_order(qtbot, dialog)
        if out_of_order:
            disordered[name] = out_of_order
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Escape)
        (stayed if dialog.isVisible() else closed).append(name)
        if dialog.isVisible():
            dialog.close()

    for action_id in DIALOG_ACTIONS:
        note.setFocus(Qt.FocusReason.OtherFocusReason)
        qtbot.waitUntil(note.hasFocus)
        before = len(closed) + len(stayed)
        QTimer.singleShot(50, press_escape)
        window.registry[action_id].trigger()
        qtbot.waitUntil(lambda: len(closed) + len(stayed) > before, timeout=5000)
        try:
            qtbot.waitUntil(lambda: QApplication.focusWidget() is note, timeout=2000)
        except TimeoutError:
            here = QApplication.focusWidget()
            lost.append((action_id.name, here.accessibleName() or type(here).__name__ if here else None))
    assert lost == []
    assert stayed == []
    assert disordered == {}
    assert len(closed) == len(DIALOG_ACTIONS)


def test_the_panels_dialogs_tab_in_reading_order_and_esc_gives_the_focus_back(qtbot, window, store, demo_call):
    from desktop.services import calls, items, moments, records
    from desktop.ui.calibration.merge_dialog import MergeDialog
    from desktop.ui.coaching.new_cycle_dialog import NewCycleDialog
    from desktop.ui.coaching.observation_dialog import ObservationDialog
    from desktop.ui.coaching.review_dialog import ReviewDialog
    from desktop.ui.crm.link_dialog import LinkDialog
    from desktop.ui.dialogs.call_details import CallDetailsDialog
    from desktop.ui.exchange.dialogs import PacketPreview

    records.set_whoami(store, "Alex Coach")
    moment = moments.add_moment(store, demo_call, 39_876, kind="missed_intervention")
    item = items.create_item(store, [moment.id])
    window.open_call(demo_call)
    window.view.moments.select(moment.id)
    note = window.view.moments.note
    makers = {
        "call details": lambda: CallDetailsDialog(calls.get_call(store, demo_call), {}, parent=window),
        "new cycle": lambda: NewCycleDialog("Morgan Manager", window),
        "observation": lambda: ObservationDialog(store, item.id, parent=window),
        "review": lambda: ReviewDialog(store, item.id, None, parent=window),
        "link CRM": lambda: LinkDialog(store, demo_call, window),
        "merge wording": lambda: MergeDialog({"behavior": "Ask what they will review"}, window),
        "packet": lambda: PacketPreview(store, demo_call, window),
    }
    disordered, lost = {}, []
    for name, make in makers.items():
        note.setFocus(Qt.FocusReason.OtherFocusReason)
        qtbot.waitUntil(note.hasFocus)
        dialog = make()
        dialog.open()
        qtbot.waitUntil(lambda: QApplication.focusWidget() is not None
                        and QApplication.focusWidget().window() is dialog)
        wrong = _tab_out_of_reading_order(qtbot, dialog)
        if wrong:
            disordered[name] = wrong
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Escape)
        assert not dialog.isVisible(), f"Esc left the {name} dialog open"
        try:
            qtbot.waitUntil(lambda: QApplication.focusWidget() is note, timeout=2000)
        except TimeoutError:
            lost.append(name)
        dialog.deleteLater()
    assert disordered == {}
    assert lost == []


def test_what_the_mouse_does_on_the_waveform_and_transcript_the_keyboard_does_too(qtbot, window, store, demo_call):
    """Moving a moment's edge (a drag) and playing from a line (a click), without the mouse."""
    from desktop.services import moments

    moment = moments.add_moment(store, demo_call, 39_876, 44_876, kind="missed_intervention")
    window.open_call(demo_call)
    window.view.moments.select(moment.id)
    waveform = window.view.waveform
    qtbot.waitUntil(lambda: waveform.duration() > 0)
    window.workspace.seek(39_000)
    qtbot.waitUntil(lambda: abs(window.playback.position_ms() - 39_000) < 50)
    waveform.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.waitUntil(waveform.hasFocus)
    qtbot.keyClick(waveform, Qt.Key.Key_S)  # the start to the playhead
    qtbot.waitUntil(lambda: moments.get_moment(store, moment.id).start_ms == 39_000)
    window.workspace.seek(46_000)
    qtbot.waitUntil(lambda: abs(window.playback.position_ms() - 46_000) < 50)
    qtbot.keyClick(waveform, Qt.Key.Key_E)  # the end to the playhead
    qtbot.waitUntil(lambda: moments.get_moment(store, moment.id).end_ms == 46_000)

    transcript, model = window.view.transcript, window.transcript_model
    transcript.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.waitUntil(transcript.hasFocus)
    transcript.setCurrentIndex(model.index(5))
    qtbot.keyClick(transcript, Qt.Key.Key_Down)
    qtbot.keyClick(transcript, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: abs(window.playback.position_ms() - model.segment(6).start_ms) < 50)
