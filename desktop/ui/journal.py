"""A journal of what the coach is typing, so neither a crash nor a full disk loses it.

Autosave writes a field to the store after a short pause in typing; a coach who
types a long note without pausing, and whose laptop then dies, would lose it
all. So every keystroke in a note or an item field also goes to a small journal
file in the data folder (``typing-journal.json``: which record, which field, the
text), written whole and renamed into place, and dropped once the store has
that text. On the next start, whatever the journal still holds is put back into
the store before anything is shown, with a message saying what was restored.

The journal also carries a write the disk refused (full): the text stays in it
and is tried again every few seconds until it lands.

It is not fsynced on each keystroke: the file survives the app being killed
(the operating system still writes it), which is what this is for.
"""

from __future__ import annotations

import os
import time
import weakref
from pathlib import Path

from PySide6.QtCore import QObject, QTimer, Signal

JOURNAL_FILE = "typing-journal.json"
RETRY_MS = 2000
SETTLED_S = 1.5  # an entry untouched this long is the store's job again (autosave had its chance)

_journals: weakref.WeakSet = weakref.WeakSet()


def journal_path(home) -> Path:
    return Path(home) / JOURNAL_FILE


def read_entries(home) -> list[dict]:
    import json  # here: only after a crash is there a journal to read

    path = journal_path(home)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    entries = data.get("entries") if isinstance(data, dict) else None
    return [e for e in entries or [] if isinstance(e, dict) and isinstance(e.get("text"), str)
            and e.get("kind") in ("note", "item") and isinstance(e.get("id"), int)
            and isinstance(e.get("field"), str)]


def write_entries(home, entries: list[dict]) -> None:
    """The journal written whole and renamed into place (an empty journal is no file)."""
    import json
    import tempfile

    path = journal_path(home)
    if not entries:
        path.unlink(missing_ok=True)
        return
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump({"entries": entries}, fh, ensure_ascii=False)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _stored(store, entry: dict):
    """The value the store has now for the entry's field (NotFound if the record is gone)."""
    if entry["kind"] == "note":
        from desktop.services.moments import get_moment

        return get_moment(store, entry["id"]).note or ""
    from desktop.services.items import get_item

    return getattr(get_item(store, entry["id"]), entry["field"]) or ""


def _write(store, entry: dict) -> None:
    if entry["kind"] == "note":
        from desktop.services.moments import update_moment

        update_moment(store, entry["id"], note=entry["text"].strip() or None)
    else:
        from desktop.services.items import update_item

        update_item(store, entry["id"], **{entry["field"]: entry["text"]})


def describe(store, entry: dict) -> str:
    if entry["kind"] == "note":
        try:
            from desktop.core.timefmt import format_ms
            from desktop.services.moments import get_moment

            return f"your note on the moment at {format_ms(get_moment(store, entry['id']).start_ms)}"
        except Exception:  # noqa: BLE001 - the description is only words
            return "your note on a moment"
    return f"the {entry['field'].replace('_', ' ')} of coaching item {entry['id']}"


def replay(store, home) -> list[str]:
    """Put back what the journal holds and the store does not; returns what was restored, in words."""
    from desktop.errors import CallmarkError

    restored = []
    for entry in read_entries(home):
        try:
            if (_stored(store, entry) or "").strip() == entry["text"].strip():
                continue
            _write(store, entry)
        except CallmarkError:
            continue  # the record is gone (deleted before the crash): nothing to put back into
        restored.append(describe(store, entry))
    journal_path(home).unlink(missing_ok=True)
    if restored:
        from desktop.logs import logger

        logger("journal").info("restored %d field(s) typed before Callmark stopped", len(restored))
    return restored


class TypingJournal(QObject):
    """The open window's journal: fed by the note field and the item editor's autosave."""

    restored = Signal(str)  # a message for the coach

    def __init__(self, window):
        super().__init__(window)
        self.window = window
        self.home = Path(window.home)
        self.entries: dict[tuple, dict] = {}
        self.timer = QTimer(self)
        self.timer.setInterval(RETRY_MS)
        self.timer.timeout.connect(self.retry)
        panel = window.view.moments
        panel.note.textEdited.connect(self.on_note_typed)
        window.marking.moment_changed.connect(self.on_moment_changed)
        self._refused_told = False
        _journals.add(self)  # the item editor's autosave reaches it through saver_hook

    # --- what is typed ----------------------------------------------------------------------

    def on_note_typed(self, text: str) -> None:
        moment_id = self.window.view.moments.note_for  # the moment the field is bound to, never another
        if moment_id is not None:
            self.record("note", int(moment_id), "note", text)

    def on_moment_changed(self, moment_id: int) -> None:
        entry = self.entries.get(("note", moment_id, "note"))
        moment = self.window.moments_model.get(moment_id)
        if entry is not None and moment is not None and (moment.note or "").strip() == entry["text"].strip():
            self.clear(("note", moment_id, "note"))

    def record(self, kind: str, ident: int, field: str, text: str) -> None:
        key = (kind, ident, field)
        old = self.entries.get(key)
        self.entries[key] = {"kind": kind, "id": ident, "field": field, "text": text, "at": time.time(),
                             "refused": bool(old and old.get("refused"))}
        self._save()
        if not self.timer.isActive():
            self.timer.start()

    def refused(self, kind: str, ident: int, field: str) -> None:
        entry = self.entries.get((kind, ident, field))
        if entry is not None:
            entry["refused"] = True

    def clear(self, key: tuple, text: str | None = None) -> None:
        entry = self.entries.get(key)
        if entry is None or (text is not None and entry["text"] != text):
            return
        del self.entries[key]
        self._save()

    def _save(self) -> None:
        try:
            write_entries(self.home, [{k: v for k, v in e.items() if k != "refused"}
                                      for e in self.entries.values()])
        except OSError:
            pass  # a full disk: the text stays in memory, and is tried again from there

    # --- trying again -------------------------------------------------------------------------

    def retry(self) -> None:
        """Entries the store still lacks once typing settled: write them (a full disk: next time)."""
        from desktop.errors import CallmarkError

        now = time.time()
        wrote = False
        for key, entry in list(self.entries.items()):
            if now - entry["at"] < SETTLED_S:
                continue
            store = self.window.store
            try:
                if (_stored(store, entry) or "").strip() == entry["text"].strip():
                    self.clear(key)
                    continue
                if not self._write_on_screen(entry):
                    _write(store, entry)
            except CallmarkError as exc:
                if getattr(exc, "retry_later", False):
                    entry["refused"] = True
                    if not self._refused_told:
                        self._refused_told = True
                        self.window.show_message(str(exc))
                    continue
                self.clear(key)  # the record is gone: nothing to write into
                continue
            wrote = wrote or entry.get("refused", False)
            self.clear(key)
        if wrote:
            self._refused_told = False
            self.window.show_message("There is room again: what you typed is saved.")
        if not self.entries:
            self.timer.stop()

    def _write_on_screen(self, entry: dict) -> bool:
        """A note on the open call goes through the marking controller (its list and Undo follow);
        True if written so. Raises what the store raised."""
        if entry["kind"] != "note" or self.window.moments_model.get(entry["id"]) is None:
            return False
        from desktop.services import moments

        moment_id, text = entry["id"], entry["text"].strip() or None
        # One coach edit through the history (raising what the store raised: a full disk is retried).
        self.window.history.run(lambda: moments.edit(self.window.store, moment_id, note=text), raise_refusal=True)
        return True


def saver_hook(saver, event: str, field: str, value, record=None) -> None:
    """The item editor's autosave (desktop.ui.item_editor.autosave) tells each change ("change"),
    save ("saved") and refusal by the disk ("refused") here, with the item it was typed for, and the
    journal of the window whose store the editor writes to keeps it."""
    controller = saver.parent()
    item_id = record if record is not None else getattr(getattr(controller, "item", None), "id", None)
    if item_id is None or not isinstance(value, str):
        return  # dates and numbers are chosen, not typed: autosave writes them at once
    for journal in list(_journals):
        if journal.window.store is getattr(controller, "store", None):
            key = ("item", int(item_id), field)
            if event == "change":
                journal.record("item", int(item_id), field, value)
            elif event == "saved":
                journal.clear(key, value)
            elif event == "refused":
                journal.refused("item", int(item_id), field)


def install_journal(window) -> TypingJournal:
    """Put back what an earlier run was typing when it stopped, then journal this run's typing."""
    journal = TypingJournal(window)
    if journal_path(window.home).exists():
        restored = replay(window.store, window.home)
        if restored:
            text = ("Callmark stopped while you were typing; put back " + ", ".join(restored) + ".")
            window.journal_restored = text
            window.show_message(text)
            QTimer.singleShot(0, window, lambda: window.show_message(text))  # after the call's own messages
    return journal
