"""Binds every action of the registry to what it does, and builds every menu from one table.

Commands answered by parts made when first needed (transcription, the record
exchange, the CRM import, the item editor) are bound by their owners (see
``desktop.ui.actions``); their menu entries are here all the same.
"""

from __future__ import annotations

from desktop.core.enums import MomentKind
from desktop.ui.actions import ActionId

MEDIA_FILTER = "Recordings (*.mp3 *.m4a *.wav *.ogg *.opus *.flac *.aac *.mp4 *.m4v *.webm *.mkv *.mov);;All files (*)"

KIND_ACTIONS = {
    ActionId.KIND_QUESTION: MomentKind.QUESTION,
    ActionId.KIND_ANSWER: MomentKind.ANSWER,
    ActionId.KIND_MISSED: MomentKind.MISSED_INTERVENTION,
    ActionId.KIND_NEXT_STEP: MomentKind.NEXT_STEP,
    ActionId.KIND_OTHER: MomentKind.OTHER,
}

MENUS = (
    ("&File", (ActionId.OPEN_FILE, ActionId.IMPORT_FOLDER, ActionId.WATCH_FOLDER, ActionId.IMPORT_TRANSCRIPT, ActionId.EXPORT_TRANSCRIPT, ActionId.IMPORT_CRM,
               None, ActionId.EXPORT_RECORD, ActionId.IMPORT_RECORD, ActionId.EXPORT_PACKET, None,
               ActionId.FIND_RECORDING, ActionId.LOCATE_RECORDING, ActionId.MEDIA_FOLDERS, ActionId.RESTORE_BACKUP,
               None, ActionId.PREFERENCES, None, ActionId.QUIT)),
    ("&Edit", (ActionId.UNDO, ActionId.REDO, None, ActionId.FIND, ActionId.FIND_NEXT, ActionId.FIND_PREVIOUS,
               None, ActionId.FIND_CALL, ActionId.SEARCH_LIBRARY, ActionId.TRACKERS)),
    ("&Playback", (ActionId.PLAY_PAUSE, ActionId.SKIP_BACK, ActionId.SKIP_FORWARD, None, ActionId.SLOWER,
                   ActionId.FASTER, None, ActionId.GO_TO_TIME, ActionId.BACK_TO_START, ActionId.LOOP_MOMENT)),
    ("&Moments", (ActionId.MARK, ActionId.END_MARK, None, *KIND_ACTIONS, None, ActionId.NOTE,
                  ActionId.PREVIOUS_MOMENT, ActionId.NEXT_MOMENT, None, ActionId.NEW_ITEM, None,
                  ActionId.DELETE_MOMENT, None, ActionId.NEXT_SUGGESTION, ActionId.PREVIOUS_SUGGESTION,
                  ActionId.ACCEPT_SUGGESTION, ActionId.DISMISS_SUGGESTION)),
    ("&Transcript", (ActionId.TRANSCRIBE, ActionId.CANCEL_TRANSCRIPTION, ActionId.TRANSCRIBE_ALL,
                     ActionId.PAUSE_TRANSCRIPTION, None,
                     ActionId.EDIT_LINE, ActionId.SPEAKERS, ActionId.TRANSCRIPT_VERSIONS, None,
                     ActionId.IMPORT_TRANSCRIPT, ActionId.EXPORT_TRANSCRIPT, None, ActionId.TRANSCRIPTION_SETTINGS)),
    ("&Coaching", (ActionId.COACHING_QUEUE, ActionId.CYCLE_BASELINE, ActionId.PROPOSED_OBSERVATIONS)),
    ("&View", (ActionId.TOGGLE_LIBRARY, ActionId.FOLLOW, None, ActionId.WRITING_ROOM, ActionId.RESET_LAYOUT)),
    ("&Help", (ActionId.CHEAT_SHEET, ActionId.SHORTCUTS, None, ActionId.OPEN_LOG_FOLDER, None, ActionId.ABOUT)),
)


def wire_commands(window) -> None:
    reg = window.registry
    ws = window.workspace
    pb = window.playback
    marking = window.marking

    on = reg.bind

    on(ActionId.PLAY_PAUSE, pb.toggle)
    on(ActionId.SKIP_BACK, lambda: pb.skip(-window.prefs.skip_ms))
    on(ActionId.SKIP_FORWARD, lambda: pb.skip(window.prefs.skip_ms))
    on(ActionId.SLOWER, lambda: pb.change_rate(-0.1))
    on(ActionId.FASTER, lambda: pb.change_rate(0.1))
    on(ActionId.BACK_TO_START, lambda: ws.seek(0))
    on(ActionId.GO_TO_TIME, lambda: go_to_time(window))
    on(ActionId.LOOP_MOMENT, ws.toggle_loop)
    on(ActionId.MARK, marking.mark)
    on(ActionId.END_MARK, marking.end_mark)
    for action_id, kind in KIND_ACTIONS.items():
        on(action_id, lambda k=kind: marking.set_kind(k))
    on(ActionId.NOTE, window.view.moments.focus_note)
    on(ActionId.PREVIOUS_MOMENT, lambda: ws.step_moment(-1))
    on(ActionId.NEXT_MOMENT, lambda: ws.step_moment(1))
    on(ActionId.DELETE_MOMENT, marking.delete_selected)
    on(ActionId.UNDO, window.history.undo)
    on(ActionId.REDO, window.history.redo)
    window.undo_stack.canUndoChanged.connect(reg[ActionId.UNDO].setEnabled)
    window.undo_stack.canRedoChanged.connect(reg[ActionId.REDO].setEnabled)
    window.undo_stack.undoTextChanged.connect(lambda t: reg[ActionId.UNDO].setText(f"Undo {t}".strip()))
    window.undo_stack.redoTextChanged.connect(lambda t: reg[ActionId.REDO].setText(f"Redo {t}".strip()))
    reg[ActionId.UNDO].setEnabled(False)
    reg[ActionId.REDO].setEnabled(False)
    on(ActionId.FIND, ws.open_find)
    on(ActionId.FIND_NEXT, lambda: ws.find_step(1))
    on(ActionId.FIND_PREVIOUS, lambda: ws.find_step(-1))
    on(ActionId.FOLLOW, lambda: window.view.transcript.set_follow(True))
    on(ActionId.OPEN_FILE, lambda: open_file(window))
    toggle = reg[ActionId.TOGGLE_LIBRARY]
    toggle.setCheckable(True)
    toggle.setChecked(True)
    toggle.toggled.connect(window.library.setVisible)  # also when the layout is restored
    on(ActionId.TOGGLE_LIBRARY, lambda: None)  # the check state is the command: toggled does the work
    on(ActionId.FIND_CALL, lambda: (reg[ActionId.TOGGLE_LIBRARY].setChecked(True), window.library.focus_filter()))
    writing = reg[ActionId.WRITING_ROOM]
    writing.setCheckable(True)
    on(ActionId.WRITING_ROOM, lambda: window.set_writing(writing.isChecked()))
    on(ActionId.RESET_LAYOUT, window.reset_layout)
    on(ActionId.PREFERENCES, lambda: edit_preferences(window))
    on(ActionId.SHORTCUTS, lambda: edit_shortcuts(window))
    on(ActionId.CHEAT_SHEET, lambda: show_cheat_sheet(window))
    on(ActionId.QUIT, window.close)

    bar = window.menuBar()
    for title, items in MENUS:
        menu = bar.addMenu(title)
        for action_id in items:
            if action_id is None:
                menu.addSeparator()
            else:
                menu.addAction(reg[action_id])


def go_to_time(window) -> None:
    from desktop.ui.dialogs.goto_time import GoToTimeDialog

    call = window.workspace.call
    if call is None:
        return
    dialog = GoToTimeDialog(window.playback.position_ms(), call.duration_ms, window)
    if dialog.exec() and dialog.ms is not None:
        window.workspace.seek(dialog.ms)


def open_file(window) -> None:
    from PySide6.QtWidgets import QFileDialog  # here: its class and enums are not needed to start

    path, _ = QFileDialog.getOpenFileName(window, "Open a recording", "", MEDIA_FILTER)
    if path:
        window.open_media_file(path)


def edit_preferences(window) -> None:
    from desktop.ui.dialogs.preferences import PreferencesDialog

    from desktop import paths

    dialog = PreferencesDialog(window.prefs, window, store_choice=paths.saved_store_choice(window.home))
    if dialog.exec():
        prefs = dialog.preferences()
        prefs.save()
        paths.save_store_choice(window.home, dialog.store_choice())
        window.prefs = prefs
        window.workspace.apply_preferences(prefs)


def edit_shortcuts(window) -> None:
    from desktop.ui.dialogs.shortcuts import ShortcutsDialog

    ShortcutsDialog(window.registry, window).exec()


def show_cheat_sheet(window) -> None:
    from desktop.ui.dialogs.cheat_sheet import CheatSheet

    CheatSheet(window.registry, window).exec()
