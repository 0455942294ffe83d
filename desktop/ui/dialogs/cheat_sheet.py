"""Every key at a glance (F1 or ?): read from the registry, so remapped keys show as they are."""

from __future__ import annotations

import html

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QScrollArea, QVBoxLayout

from desktop.ui.actions import ActionId, ActionRegistry, native

GROUPS = (
    ("Playback", (ActionId.PLAY_PAUSE, ActionId.SKIP_BACK, ActionId.SKIP_FORWARD, ActionId.SLOWER,
                  ActionId.FASTER, ActionId.GO_TO_TIME, ActionId.BACK_TO_START, ActionId.LOOP_MOMENT)),
    ("Marking", (ActionId.MARK, ActionId.END_MARK, ActionId.KIND_QUESTION, ActionId.KIND_ANSWER,
                 ActionId.KIND_MISSED, ActionId.KIND_NEXT_STEP, ActionId.KIND_OTHER, ActionId.NOTE, ActionId.NEW_ITEM,
                 ActionId.PREVIOUS_MOMENT, ActionId.NEXT_MOMENT, ActionId.DELETE_MOMENT, ActionId.UNDO,
                 ActionId.REDO)),
    ("Transcript and library", (ActionId.FIND, ActionId.FIND_NEXT, ActionId.FIND_PREVIOUS, ActionId.FOLLOW,
                                ActionId.SEARCH_LIBRARY, ActionId.FIND_CALL, ActionId.TRACKERS, ActionId.TOGGLE_LIBRARY,
                                ActionId.OPEN_FILE, ActionId.WRITING_ROOM, ActionId.RESET_LAYOUT)),
    ("Transcripts", (ActionId.TRANSCRIBE, ActionId.TRANSCRIBE_ALL, ActionId.CANCEL_TRANSCRIPTION, ActionId.EDIT_LINE,
                     ActionId.SPEAKERS, ActionId.TRANSCRIPT_VERSIONS, ActionId.IMPORT_TRANSCRIPT,
                     ActionId.EXPORT_TRANSCRIPT, ActionId.TRANSCRIPTION_SETTINGS, ActionId.IMPORT_CRM)),
    ("Suggestions", (ActionId.NEXT_SUGGESTION, ActionId.PREVIOUS_SUGGESTION, ActionId.ACCEPT_SUGGESTION,
                     ActionId.DISMISS_SUGGESTION)),
    ("Records and packets", (ActionId.EXPORT_RECORD, ActionId.IMPORT_RECORD, ActionId.EXPORT_PACKET)),
    ("Help", (ActionId.CHEAT_SHEET, ActionId.SHORTCUTS, ActionId.PREFERENCES, ActionId.QUIT, ActionId.ABOUT)),
    ("Keeping your work", (ActionId.RESTORE_BACKUP, ActionId.FIND_RECORDING, ActionId.LOCATE_RECORDING,
                           ActionId.MEDIA_FOLDERS, ActionId.OPEN_LOG_FOLDER)),
    ("Many calls", (ActionId.IMPORT_FOLDER, ActionId.WATCH_FOLDER, ActionId.PAUSE_TRANSCRIPTION)),
    ("Across the library", (ActionId.COACHING_QUEUE, ActionId.CYCLE_BASELINE, ActionId.PROPOSED_OBSERVATIONS)),
)


def cheat_sheet_html(registry: ActionRegistry) -> str:
    out = []
    for title, ids in GROUPS:
        out.append(f"<h3>{html.escape(title)}</h3><table cellspacing=3>")
        for action_id in ids:
            keys = registry.keys(action_id)  # the first is the one to learn ("Ctrl+Z", not "or F14 or Undo")
            keys = native(keys[0]) if keys else "—"
            out.append(f"<tr><td width=150><code><b>{html.escape(keys)}</b></code></td>"
                       f"<td>{html.escape(action_id.text)}</td></tr>")
        out.append("</table>")
    out.append("<p>Playback and marking keys work while you type a note.</p>")
    return "".join(out)


class CheatSheet(QDialog):
    def __init__(self, registry: ActionRegistry, parent=None):
        super().__init__(parent)
        self.setWindowTitle("Keyboard cheat sheet")
        self.resize(560, 640)
        self.text = QLabel(cheat_sheet_html(registry))
        self.text.setObjectName("cheatSheet")
        self.text.setTextFormat(Qt.TextFormat.RichText)
        self.text.setAlignment(Qt.AlignmentFlag.AlignTop)
        self.text.setMargin(12)
        scroll = QScrollArea()
        scroll.setWidget(self.text)
        scroll.setWidgetResizable(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(scroll)
        layout.addWidget(buttons)
