"""One action registry: every command the coach can give, created once as a QAction.

Each ``ActionId`` carries its menu text, default key(s), description, whether
it must work while the coach is typing in a note (then a text field does not
get to keep the key; see ``TypingShortcutFilter``) and, for a command answered
by a part of the window that is made when first needed, that part's *owner*:
"module:factory". The registry calls the slot bound to an action
(``bind``); an action with no slot yet but an owner imports the module, makes
the owner with ``factory(window)``, binds every slot the owner answers
(``owner.action_slots()``) and then runs the one triggered — so a key pressed
before transcription or a panel was made works the first time.

Coaches can remap keys; only their overrides are stored, in QSettings. A key
already used by another action is refused with a message naming that action.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from enum import Enum
from functools import cache

from PySide6.QtCore import QEvent, QKeyCombination, QObject, QSettings, Qt, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (QAbstractSpinBox, QApplication, QComboBox, QLineEdit, QPlainTextEdit,
                               QTextEdit)

from desktop.errors import CallmarkError
from desktop.ui.settings import SettingsKey, qsettings

SK = QKeySequence.StandardKey


# Owners made when one of their commands is first given (see the module's docstring).
TRANSCRIPTION = "desktop.ui.transcription:install_transcription"
EXCHANGE = "desktop.ui.exchange.menu:ExchangeCommands"
CRM = "desktop.ui.crm:commands"
ITEM_EDITOR = "desktop.ui.item_editor:commands"
SUGGESTIONS = "desktop.ui.controllers.suggestions:suggestions_controller"
ABOUT_DIALOG = "desktop.ui.dialogs.about:AboutCommand"
LIBRARY_COACHING = "desktop.ui.coaching.library_window:library_commands"
TRACKERS = "desktop.ui.trackers:trackers_controller"


class ActionId(Enum):
    """value: (menu text, default keys, description, works while typing[, owner])."""

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
    NEW_ITEM = ("New coaching item", ("Ctrl+I",), "Start a coaching item from the selected moment", True,
                ITEM_EDITOR)
    LOOP_MOMENT = ("Loop moment", ("Ctrl+L",), "Replay the selected moment over and over (again to stop)", True)
    PREVIOUS_MOMENT = ("Previous moment", ("Alt+Left",), "Jump to the moment before the playhead", True)
    NEXT_MOMENT = ("Next moment", ("Alt+Right",), "Jump to the moment after the playhead", True)
    NEXT_SUGGESTION = ("Next suggestion", ("Alt+Down",), "Go to the next suggestion to review and play from just before it",
                       True, SUGGESTIONS)
    PREVIOUS_SUGGESTION = ("Previous suggestion", ("Alt+Up",), "Go to the suggestion before and play from just before it",
                           True, SUGGESTIONS)
    ACCEPT_SUGGESTION = ("Accept suggestion", ("Ctrl+Return",),
                         "Make the picked suggestion a moment, with its kind, quote and reason", False, SUGGESTIONS)
    DISMISS_SUGGESTION = ("Dismiss suggestion", ("Ctrl+Backspace",), "Set the picked suggestion aside (Undo brings it back)",
                          False, SUGGESTIONS)
    DELETE_MOMENT = ("Delete moment", ("Del",), "Delete the selected moment (Undo brings it back)", False)
    UNDO = ("Undo", (SK.Undo,), "Undo the last change", False)
    REDO = ("Redo", (SK.Redo,), "Redo what was undone", False)
    FIND = ("Find in transcript", (SK.Find,), "Search the transcript", True)
    FIND_NEXT = ("Find next", (SK.FindNext,), "Next match in the transcript", True)
    FIND_PREVIOUS = ("Find previous", (SK.FindPrevious,), "Previous match in the transcript", True)
    FOLLOW = ("Follow playback", ("Ctrl+Shift+J",), "Jump back to the line being played and keep following it", True)
    SEARCH_LIBRARY = ("Search all calls…", ("Ctrl+Shift+F",), "Search every transcript in the library", True,
                      TRANSCRIPTION)
    TRANSCRIBE = ("Transcribe", ("Ctrl+T",), "Transcribe the open call on this computer", False, TRANSCRIPTION)
    TRANSCRIBE_ALL = ("Transcribe every call without a transcript", (), "Queue every call with no transcript yet",
                      False, TRANSCRIPTION)
    CANCEL_TRANSCRIPTION = ("Cancel transcription", (), "Stop transcribing the open call; nothing is kept", False,
                            TRANSCRIPTION)
    EDIT_LINE = ("Edit line…", ("F2",), "Fix the selected line's words or speaker (the original stays)", False,
                 TRANSCRIPTION)
    SPEAKERS = ("Speakers…", (), "Rename a speaker for the whole call; mark the rep", False, TRANSCRIPTION)
    TRANSCRIPT_VERSIONS = ("Versions…", (), "See the transcript's versions; restore the original", False,
                           TRANSCRIPTION)
    IMPORT_TRANSCRIPT = ("Import transcript…", (), "Import a Zoom or Teams WebVTT, SRT or JSON transcript", False,
                         TRANSCRIPTION)
    EXPORT_TRANSCRIPT = ("Export transcript…", (), "Write the transcript as TXT, SRT, WebVTT or JSON", False,
                         TRANSCRIPTION)
    TRANSCRIPTION_SETTINGS = ("Transcription settings…", (), "Whisper model, network, language", False,
                              TRANSCRIPTION)
    IMPORT_CRM = ("Import CRM export…", (), "Preview a Salesforce or HubSpot export, then import it", False, CRM)
    EXPORT_RECORD = ("Export record…", (), "Your moments and items on this call, for another coach", False,
                     EXCHANGE)
    IMPORT_RECORD = ("Import record…", (), "Add another coach's record (checked first; all or nothing)", False,
                     EXCHANGE)
    EXPORT_PACKET = ("Export packet…", (), "The manager's session packet, previewed with every redaction", False,
                     EXCHANGE)
    OPEN_FILE = ("Open recording…", (SK.Open,), "Add a recording to the library and open it", False)
    TOGGLE_LIBRARY = ("Show library", ("Ctrl+Shift+L",), "Show or hide the list of calls", True)
    WRITING_ROOM = ("Room to write the item", ("Ctrl+Shift+I",),
                    "Give the coaching item most of the window's width (again to go back)", True)
    RESET_LAYOUT = ("Reset layout", (), "Put every panel back at its first-run width", False)
    FIND_CALL = ("Find a call", ("Ctrl+K",), "Filter the library by text", True)
    TRACKERS = ("Trackers…", (), "Add and edit the phrase sets counted on every call; see one tracker's lines",
                False, TRACKERS)
    PREFERENCES = ("Preferences…", ("Ctrl+,",), "Skip step, reaction delay, auto-rewind", False)
    SHORTCUTS = ("Keyboard shortcuts…", ("Ctrl+Alt+K",), "See and change every key", False)
    CHEAT_SHEET = ("Cheat sheet", ("F1", "?"), "Show every key at a glance", False)
    QUIT = ("Quit", (SK.Quit,), "Close Callmark (every change is already saved)", False)
    ABOUT = ("About Callmark", (), "Callmark's version and those of Qt, libvlc, faster-whisper and SQLite", False,
             ABOUT_DIALOG)
    RESTORE_BACKUP = ("Restore from backup…", (), "Put an automatic backup of your store back (the current one is kept)",
                      False)
    OPEN_LOG_FOLDER = ("Open log folder", (), "Show the folder of Callmark's log (no transcript text in it)", False)
    FIND_RECORDING = ("Find recording…", (), "Search a folder for this call's recording (same SHA-256) and relink it",
                      False)
    LOCATE_RECORDING = ("Locate recording…", (), "Pick this call's recording on this computer (accepted if its "
                        "SHA-256 matches)", False)
    MEDIA_FOLDERS = ("Media folders…", (), "The folders on this computer where your recordings live "
                     "(searched by SHA-256)", False)
    IMPORT_FOLDER = ("Import folder…", (), "Add every recording in a folder and its subfolders: Zoom, Teams, dialer",
                     False)
    WATCH_FOLDER = ("Watch a folder…", (), "Add new recordings from a folder as they arrive (off until you pick one)",
                    False)
    PAUSE_TRANSCRIPTION = ("Pause transcription", (), "Hold the transcription queue; the call being transcribed "
                           "starts again on resume", False, TRANSCRIPTION)
    COACHING_QUEUE = ("Coaching queue…", ("Ctrl+Shift+Q",), "A manager's moments worth the next session, across "
                      "their reps' calls, ranked", False, LIBRARY_COACHING)
    CYCLE_BASELINE = ("Cycle baseline…", (), "Each pattern across the calls of the cycle's baseline; pick the focus",
                      False, LIBRARY_COACHING)
    PROPOSED_OBSERVATIONS = ("Observations to confirm…", (), "Adoption proposed from later calls: confirm or "
                             "correct each with one key", False, LIBRARY_COACHING)

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
    def owner(self) -> str | None:
        """"module:factory" of the part that answers this command when it is not made yet."""
        return self.value[4] if len(self.value) > 4 else None

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


class ShortcutConflict(CallmarkError, ValueError):
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
        self._slots: dict[ActionId, Callable[[], object]] = {}
        self._owners: dict[str, object] = {}
        for action_id in ActionId:
            action = QAction(parent)  # not QAction(text, parent): its overloads build QIcon's enums
            action.setText(action_id.text)
            action.setObjectName(f"action_{action_id.key}")
            action.setStatusTip(action_id.description)
            # Window-wide: keys work wherever focus is in the window.
            action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
            action.triggered.connect(lambda _checked=False, a=action_id: self.trigger(a))
            self._actions[action_id] = action
        self._apply_all()

    # --- what each action does -------------------------------------------------------------

    def bind(self, action_id: ActionId, slot: Callable[[], object]) -> None:
        """``slot()`` runs when the action is triggered (by key, menu or ``trigger``)."""
        self._slots[action_id] = slot

    def adopt(self, name: str, owner) -> None:
        """``owner`` (made under "module:factory" ``name``) answers its commands from now on."""
        self._owners[name] = owner
        for action_id, slot in owner.action_slots().items():
            self._slots[action_id] = slot

    def owner(self, name: str):
        """The owner made by "module:factory" ``name``, made now (with the window) if it is not yet."""
        made = self._owners.get(name)
        if made is None:
            module, _, factory = name.partition(":")
            made = getattr(importlib.import_module(module), factory)(self.parent())
            if name not in self._owners:  # a factory may adopt itself
                self.adopt(name, made)
        return made

    def has_owner(self, name: str) -> bool:
        return name in self._owners

    def trigger(self, action_id: ActionId) -> None:
        slot = self._slots.get(action_id)
        if slot is None and action_id.owner is not None:
            self.owner(action_id.owner)
            slot = self._slots.get(action_id)
        if slot is not None:
            slot()

    def is_answered(self, action_id: ActionId) -> bool:
        """Whether triggering it does something: a slot is bound, or an owner will bind one."""
        return action_id in self._slots or action_id.owner is not None

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


TEXT_FIELD_CLASSES = (QLineEdit, QTextEdit, QPlainTextEdit, QAbstractSpinBox, QComboBox)


def is_text_field(obj: QObject) -> bool:
    """A widget the coach types in."""
    return isinstance(obj, TEXT_FIELD_CLASSES)


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
