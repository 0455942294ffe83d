"""What belongs to this machine and not to the library: its name, its media folders, where recordings are here.

A team store is one library for many machines, and each recording stays where
it is. The store knows a recording by its SHA-256, the path it was added from
and the machine it was added on; where the same bytes sit on *this* machine is
kept here, in the data folder (``this-machine.json``), never in the shared
store, so finding a file on one laptop never points another laptop at it.

Read on every call opened (``place``): the file is small, read once and again
only when it changed on disk, and nothing here imports more than the standard
library.
"""

from __future__ import annotations

import json
import os
import socket
import threading
from dataclasses import replace
from pathlib import Path

from desktop import paths
from desktop.errors import CallmarkError


class MediaFoldersError(CallmarkError):
    """A media folder that can't be added or removed, or this machine's settings can't be kept."""


class ThisMachine:
    """This machine's own settings, kept in its data folder (``home``)."""

    def __init__(self, home: str | os.PathLike[str]):
        self.home = Path(home)
        self.file = paths.machine_file(self.home)
        self._lock = threading.Lock()
        self._seen: tuple[int, int] | None = None  # (mtime_ns, size) of the file last read
        self._data: dict = {}

    # --- the file ---------------------------------------------------------------------------

    def _read(self) -> dict:
        try:
            st = self.file.stat()
        except FileNotFoundError:
            self._seen, self._data = None, {}
            return self._data
        stamp = (st.st_mtime_ns, st.st_size)
        if stamp != self._seen:
            try:
                data = json.loads(self.file.read_text(encoding="utf-8"))
            except (OSError, ValueError) as exc:
                raise MediaFoldersError(f"{self.file}: this machine's settings can't be read ({exc})") from None
            self._data = data if isinstance(data, dict) else {}
            self._seen = stamp
        return self._data

    def _write(self, data: dict) -> None:
        """Whole or not at all: a temporary file beside it, then a rename."""
        part = self.file.with_name(f".{self.file.name}.{os.getpid()}.{threading.get_ident()}.part")
        try:
            self.home.mkdir(parents=True, exist_ok=True)
            fd = os.open(part, os.O_CREAT | os.O_WRONLY | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump(data, fh, indent=2, ensure_ascii=False)
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(part, self.file)
        except OSError as exc:
            part.unlink(missing_ok=True)
            raise MediaFoldersError(f"{self.file}: this machine's settings could not be saved "
                                    f"({exc.strerror or exc}); nothing was changed") from None
        self._seen = None  # read back on next use

    def _change(self, edit) -> dict:
        with self._lock:
            data = json.loads(json.dumps(self._read()))  # a copy: a failed write leaves the cache as it was
            edit(data)
            self._write(data)
            return data

    # --- its name -----------------------------------------------------------------------------

    @property
    def name(self) -> str:
        """What other coaches are told a recording's machine is called (the host name unless set)."""
        with self._lock:
            named = self._read().get("name")
        return named or socket.gethostname()

    def set_name(self, name: str | None) -> None:
        self._change(lambda d: d.__setitem__("name", (name or "").strip() or None))

    # --- media folders ------------------------------------------------------------------------

    def media_folders(self) -> list[Path]:
        with self._lock:
            return [Path(p) for p in self._read().get("media_folders", [])]

    def add_media_folder(self, folder: str | os.PathLike[str]) -> list[Path]:
        path = Path(folder).expanduser()
        if not path.is_dir():
            raise MediaFoldersError(f"{path}: no such folder to add as a media folder")
        path = path.resolve()

        def add(data: dict) -> None:
            folders = data.setdefault("media_folders", [])
            if str(path) not in folders:
                folders.append(str(path))

        return [Path(p) for p in self._change(add)["media_folders"]]

    def remove_media_folder(self, folder: str | os.PathLike[str]) -> list[Path]:
        given = Path(folder).expanduser()
        known = [str(p) for p in self.media_folders()]
        match = next((k for k in known if k in (str(given), str(given.resolve()))), None)
        if match is None:
            raise MediaFoldersError(f"{given}: not one of this machine's media folders")
        data = self._change(lambda d: d.__setitem__("media_folders", [k for k in known if k != match]))
        return [Path(p) for p in data["media_folders"]]

    # --- where recordings are on this machine ----------------------------------------------------

    def located(self, sha256: str) -> Path | None:
        """Where this machine found the recording with this SHA-256 (None: not found here yet)."""
        with self._lock:
            found = self._read().get("recordings", {}).get(sha256)
        return Path(found) if found else None

    def remember(self, sha256: str, path: str | os.PathLike[str]) -> None:
        where = str(Path(path).resolve())
        self._change(lambda d: d.setdefault("recordings", {}).__setitem__(sha256, where))

    def recordings(self) -> dict[str, str]:
        """Every recording found on this machine away from its stored path: SHA-256 -> path here."""
        with self._lock:
            try:
                return dict(self._read().get("recordings", {}))
            except MediaFoldersError:
                return {}  # a broken file is said where it is edited; a call still opens

    def place(self, call, recordings: dict[str, str] | None = None):
        """The call (a CallRow) as this machine sees it: its recording where it was found here, if
        it was and the file is still there; else as the store has it."""
        found = (self.recordings() if recordings is None else recordings).get(call.media_sha256)
        if found and found != call.media_path and os.path.isfile(found):
            return replace(call, media_path=found)
        return call


def where_it_was(call) -> str:
    """Where a call's recording was added, in words: "it was at PATH on MACHINE"."""
    path = call.stored_path or call.media_path
    if not path:
        return "no machine has told the library where it is (the call came from a coaching record)"
    return f"it was at {path}" + (f" on {call.media_machine}" if call.media_machine else "")


def machine_of(store) -> ThisMachine:
    """The machine a store is used from: set by whoever opened it (``attach``), else the data folder's."""
    machine = getattr(store, "machine", None)
    if machine is None:
        machine = store.machine = ThisMachine(paths.data_home())
    return machine


def attach(store, home: str | os.PathLike[str]):
    """Use ``store`` from the machine whose data folder is ``home``."""
    store.machine = ThisMachine(home)
    return store
