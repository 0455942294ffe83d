"""One action registry: every command the coach can give, created once as a QAction.

Each ``ActionId`` carries its menu text, default key(s), description and
whether it must work while the coach is typing in a note (then a text field
does not get to keep the key; see ``TypingShortcutFilter``). Coaches can remap
keys; only their overrides are stored, in QSettings. A key already used by
another action is refused with a message naming that action.
"""

from __future__ import annotations

from enum import Enum
from functools import cache

from PySide6.QtCore import QEvent, QKeyCombination, QObject, QSettings, Qt, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QApplication

from desktop.ui.settings import SettingsKey, qsettings

SK = QKeySequence.StandardKey


class ActionId(Enum):
    """value: (menu text, default keys, description, works while typing)."""

    PLAY_PAUSE = ("Play / pause", ("Ctrl+Space",), "Start or pause playback (resuming backs up a little)", True)
    SKIP_BACK = ("Skip back", ("Shift+Left",), "Jump back by the skip step", True)
    SKIP_FORWARD = ("Skip forward", ("Shift+Right",), "Jump forward by the skip step", True)
    SLOWER = ("Slower", ("Ctrl+[",), "Play 0.1× slower (down to 0.5×), pitch kept", True)
    FASTER = ("Faster", ("Ctrl+]",), "Play 0.1× faster (up to 2×), pitch kept", True)
    GO_TO_TIME = ("Go to time…", ("Ctrl+G",), "Type a time and jump there", True)
    BACK_TO_START = ("Back to start", ("Ctrl+Home",), "Go back to the start of the call", True)
    MARK = ("Mark moment", ("Ctrl+M",), "Drop a moment at the playhead, minus your reaction delay", True)
    END_MARK = ("End moment", ("Ctrl+Shift+M",), "Set the end of the moment just marked", True)
    KIND_QUESTION = ("Kind: question", ("Ctrl+1",), "The moment is a question", True)
    KIND_ANSWER = ("Kind: answer", ("Ctrl+2",), "The moment is an answer", True)
    KIND_MISSED = ("Kind: missed intervention", ("Ctrl+3",), "The moment is a missed intervention", True)
    KIND_NEXT_STEP = ("Kind: next step", ("Ctrl+4",), "The moment is a next step", True)
    KIND_OTHER = ("Kind: other", ("Ctrl+5",), "The moment is something else worth coaching", True)
    NOTE = ("Write a note", ("Ctrl+E",), "Type a note on the current moment; playback keeps going", True)
    NEW_ITEM = ("New coaching item", ("Ctrl+I",), "Start a coaching item from the selected moment", True)
    LOOP_MOMENT = ("Loop moment", ("Ctrl+L",), "Replay the selected moment over and over (again to stop)", True)
    PREVIOUS_MOMENT = ("Previous moment", ("Alt+Left",), "Jump to the moment before the playhead", True)
    NEXT_MOMENT = ("Next moment", ("Alt+Right",), "Jump to the moment after the playhead", True)
    DELETE_MOMENT = ("Delete moment", ("Del",), "Delete the selected moment (Undo brings it back)", False)
    UNDO = ("Undo", (SK.Undo,), "Undo the last change to a moment", False)
    REDO = ("Redo", (SK.Redo,), "Redo what was undone", False)
    FIND = ("Find in transcript", (SK.Find,), "Search the transcript", True)
    FIND_NEXT = ("Find next", (SK.FindNext,), "Next match in the transcript", True)
    FIND_PREVIOUS = ("Find previous", (SK.FindPrevious,), "Previous match in the transcript", True)
    FOLLOW = ("Follow playback", ("Ctrl+Shift+J",), "Jump back to the line being played and keep following it", True)
    SEARCH_LIBRARY = ("Search all calls…", ("Ctrl+Shift+F",), "Search every transcript in the library", True)
    TRANSCRIBE = ("Transcribe", ("Ctrl+T",), "Transcribe the open call on this computer", False)
    TRANSCRIBE_ALL = ("Transcribe every call without a transcript", (), "Queue every call with no transcript yet",
                      False)
    CANCEL_TRANSCRIPTION = ("Cancel transcription", (), "Stop transcribing the open call; nothing is kept", False)
    EDIT_LINE = ("Edit line…", ("F2",), "Fix the selected line's words or speaker (the original stays)", False)
    SPEAKERS = ("Speakers…", (), "Rename a speaker for the whole call; mark the rep", False)
    TRANSCRIPT_VERSIONS = ("Versions…", (), "See the transcript's versions; restore the original", False)
    IMPORT_TRANSCRIPT = ("Import transcript…", (), "Import a Zoom or Teams WebVTT, SRT or JSON transcript", False)
    EXPORT_TRANSCRIPT = ("Export transcript…", (), "Write the transcript as TXT, SRT, WebVTT or JSON", False)
    TRANSCRIPTION_SETTINGS = ("Transcription settings…", (), "Whisper model, network, language", False)
    IMPORT_CRM = ("Import CRM export…", (), "Preview a Salesforce or HubSpot export, then import it", False)
    OPEN_FILE = ("Open recording…", (SK.Open,), "Add a recording to the library and open it", False)
    TOGGLE_LIBRARY = ("Show library", ("Ctrl+Shift+L",), "Show or hide the list of calls", True)
    FIND_CALL = ("Find a call", ("Ctrl+K",), "Filter the library by text", True)
    PREFERENCES = ("Preferences…", ("Ctrl+,",), "Skip step, reaction delay, auto-rewind", False)
    SHORTCUTS = ("Keyboard shortcuts…", ("Ctrl+Alt+K",), "See and change every key", False)
    CHEAT_SHEET = ("Cheat sheet", ("F1", "?"), "Show every key at a glance", False)
    QUIT = ("Quit", (SK.Quit,), "Close Callmark (every change is already saved)", False)
    IMPORT_FOLDER = ("Import folder…", (), "Add every recording in a folder and its subfolders: Zoom, Teams, dialer",
                     False)
    WATCH_FOLDER = ("Watch a folder…", (), "Add new recordings from a folder as they arrive (off until you pick one)",
                    False)
    PAUSE_TRANSCRIPTION = ("Pause transcription", (), "Hold the transcription queue; the call being transcribed "
                           "starts again on resume", False)

    @property
    def text(self) -> str:
        return self.value[0]

    @property
    def description(self) -> str:
        return self.value[2]

    @property
    def while_typing(self) -> bool:
        return self.value[3]

    @property
    def key(self) -> str:
        """Stable name for QSettings (the enum member's name)."""
        return self.name.lower()

    def default_keys(self) -> list[QKeySequence]:
        out: list[QKeySequence] = []
        for key in self.value[1]:
            if isinstance(key, SK):
                # A platform binding another action names outright (Linux's FindNext
                # includes Ctrl+G, our "Go to time") is left to that action.
                out.extend(k for k in QKeySequence.keyBindings(key) if portable(k) not in _explicit_keys())
            else:
                out.append(QKeySequence(key))
        return [k for k in out if not k.isEmpty()]


@cache  # the defaults never change while running
def _explicit_keys() -> frozenset[str]:
    return frozenset(portable(QKeySequence(k)) for a in ActionId for k in a.value[1] if isinstance(k, str))


class ShortcutConflict(ValueError):
    """A key the coach chose is already used by another action."""


def portable(seq: QKeySequence) -> str:
    return seq.toString(QKeySequence.SequenceFormat.PortableText)


def native(seq: QKeySequence) -> str:
    return seq.toString(QKeySequence.SequenceFormat.NativeText)


class ActionRegistry(QObject):
    """Creates every QAction once; applies and stores shortcut overrides."""

    shortcuts_changed = Signal()

    def __init__(self, parent: QObject):
        super().__init__(parent)
        self._actions: dict[ActionId, QAction] = {}
        for action_id in ActionId:
            action = QAction(parent)  # not QAction(text, parent): its overloads build QIcon's enums
            action.setText(action_id.text)
            action.setObjectName(f"action_{action_id.key}")
            action.setStatusTip(action_id.description)
            # Window-wide: keys work wherever focus is in the window.
            action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
            self._actions[action_id] = action
        self._apply_all()

    def __getitem__(self, action_id: ActionId) -> QAction:
        return self._actions[action_id]

    def actions(self) -> list[QAction]:
        return list(self._actions.values())

    def items(self):
        return self._actions.items()

    # --- shortcuts ------------------------------------------------------------

    def keys(self, action_id: ActionId, settings: QSettings | None = None) -> list[QKeySequence]:
        """The keys in force: the coach's override if any, else the defaults."""
        stored = (settings or qsettings()).value(f"{SettingsKey.SHORTCUTS.value}/{action_id.key}")
        if stored is None:
            return action_id.default_keys()
        text = str(stored)
        return [QKeySequence(text)] if text else []

    def is_overridden(self, action_id: ActionId) -> bool:
        return qsettings().contains(f"{SettingsKey.SHORTCUTS.value}/{action_id.key}")

    def owner_of(self, seq: QKeySequence, *, ignore: ActionId | None = None) -> ActionId | None:
        text = portable(seq)
        for action_id in ActionId:
            if action_id is ignore:
                continue
            if any(portable(k) == text for k in self.keys(action_id)):
                return action_id
        return None

    def set_key(self, action_id: ActionId, seq: QKeySequence | str | None) -> None:
        """Give an action one key (None or empty: no key). Refuses a key in use."""
        seq = QKeySequence(seq) if isinstance(seq, str) else (seq or QKeySequence())
        if not seq.isEmpty():
            if seq.count() > 1:
                raise ShortcutConflict(f"{native(seq)}: use a single key combination, not a sequence")
            owner = self.owner_of(seq, ignore=action_id)
            if owner is not None:
                raise ShortcutConflict(
                    f"{native(seq)} is already used by “{owner.text}”. Change that one first.")
        defaults = [portable(k) for k in action_id.default_keys()]
        settings = qsettings()
        name = f"{SettingsKey.SHORTCUTS.value}/{action_id.key}"
        if defaults == ([portable(seq)] if not seq.isEmpty() else []):
            settings.remove(name)  # back to the default: nothing to store
        else:
            settings.setValue(name, portable(seq))
        self._apply(action_id)
        self.shortcuts_changed.emit()

    def reset(self, action_id: ActionId) -> None:
        """Back to the default key (refused if another action took it meanwhile)."""
        for seq in action_id.default_keys():
            owner = self.owner_of(seq, ignore=action_id)
            if owner is not None:
                raise ShortcutConflict(
                    f"{native(seq)} is now used by “{owner.text}”. Change that one first.")
        qsettings().remove(f"{SettingsKey.SHORTCUTS.value}/{action_id.key}")
        self._apply(action_id)
        self.shortcuts_changed.emit()

    def typing_keys(self) -> set[str]:
        """Keys that must reach their action even from inside a text field."""
        settings = qsettings()
        return {portable(k) for a in ActionId if a.while_typing for k in self.keys(a, settings)}

    def _apply(self, action_id: ActionId, settings: QSettings | None = None) -> None:
        action = self._actions[action_id]
        keys = self.keys(action_id, settings)
        action.setShortcuts(keys)
        shown = native(keys[0]) if keys else ""
        action.setToolTip(f"{action_id.text} ({shown})" if shown else action_id.text)

    def _apply_all(self) -> None:
        settings = qsettings()  # one for all: each QSettings made costs as much as the lookup
        for action_id in ActionId:
            self._apply(action_id, settings)


TEXT_FIELD_CLASSES = ("QLineEdit", "QTextEdit", "QPlainTextEdit", "QAbstractSpinBox", "QComboBox")


def is_text_field(obj: QObject) -> bool:
    """A widget the coach types in. Asked of Qt by class name: importing those five classes would
    make PySide build their enums at start-up, before anyone types."""
    return any(obj.inherits(name) for name in TEXT_FIELD_CLASSES)


class TypingShortcutFilter(QObject):
    """Lets the playback and marking keys through while the coach types a note.

    A text field claims keys like Shift+← (select) or Ctrl+M through a
    ShortcutOverride event; for the keys marked ``while_typing`` we refuse that
    claim, so the window's shortcut fires instead. Other keys (Ctrl+Z, Delete)
    stay with the text field.
    """

    def __init__(self, registry: ActionRegistry):
        super().__init__(registry)
        self._registry = registry
        self._keys = registry.typing_keys()
        registry.shortcuts_changed.connect(self._refresh)

    def _refresh(self) -> None:
        self._keys = self._registry.typing_keys()

    # Watching only the text field that has focus (ShortcutOverride goes to the focus widget): an
    # application-wide filter would run Python for every event of every widget, paints included.

    def follow_focus(self, app: QApplication) -> None:
        app.focusChanged.connect(self._on_focus)
        self._on_focus(None, app.focusWidget())

    def stop_following(self, app: QApplication) -> None:
        try:
            app.focusChanged.disconnect(self._on_focus)
        except (RuntimeError, TypeError):
            pass  # not connected

    def _on_focus(self, _old, new) -> None:
        if new is not None and is_text_field(new):
            new.installEventFilter(self)  # once per widget: installing again only moves it first

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if event.type() == QEvent.Type.ShortcutOverride and is_text_field(watched):
            key = event.key()
            if key in (Qt.Key.Key_unknown, 0):
                return False
            combo = QKeyCombination(event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier, Qt.Key(key))
            if portable(QKeySequence(combo)) in self._keys:
                event.ignore()
                return True
        return False
