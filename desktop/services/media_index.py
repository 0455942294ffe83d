"""This machine's media folders, indexed by SHA-256: a call whose recording is elsewhere here is found.

The index lives in this machine's cache (``cache/media-index/hashes.json``):
for each recording under a media folder, its size, modification time and
SHA-256. Refreshing walks the folders and hashes only what is new or changed
(size or mtime differ), so a folder of a thousand two-hour recordings is read
once, and after that only looked at. Files that went away leave the index.

Run off the GUI thread: hashing a new recording takes as long as reading it.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from desktop.services.relink import MEDIA_SUFFIXES, remember_here
from desktop.services.rows import CallRow, get_call
from desktop.services.this_machine import MediaFoldersError, ThisMachine, machine_of

INDEX_VERSION = 1

# progress(files looked at, files hashed so far, the file being looked at)
IndexProgress = Callable[[int, int, Path], None]


@dataclass
class IndexRefresh:
    """What one refresh did: how many recordings the index holds, how many it had to hash."""

    files: int
    hashed: int
    reused: int
    unreadable: int


def index_file(machine: ThisMachine) -> Path:
    from desktop import paths

    return paths.cache_dir(machine.home, "media-index") / "hashes.json"


def load_index(machine: ThisMachine) -> dict[str, list]:
    """path -> [size, mtime_ns, sha256]; an unreadable index is built again (it is only a cache)."""
    try:
        data = json.loads(index_file(machine).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or data.get("version") != INDEX_VERSION:
        return {}
    return data.get("files", {})


def _save_index(machine: ThisMachine, files: dict[str, list]) -> None:
    target = index_file(machine)
    part = target.with_name(f".{target.name}.{os.getpid()}.part")
    try:
        with open(part, "w", encoding="utf-8") as fh:
            json.dump({"version": INDEX_VERSION, "files": files}, fh)
        os.replace(part, target)
    except OSError as exc:
        part.unlink(missing_ok=True)
        raise MediaFoldersError(f"{target}: the index of this machine's media folders could not be saved "
                                f"({exc.strerror or exc})") from None


def _recordings(folder: Path):
    for root, dirs, files in os.walk(folder, onerror=lambda _e: None):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        for name in files:
            if not name.startswith(".") and os.path.splitext(name)[1].lower() in MEDIA_SUFFIXES:
                yield Path(root) / name


def refresh_index(machine: ThisMachine, progress: IndexProgress | None = None) -> tuple[dict[str, list], IndexRefresh]:
    """Bring the index up to date with the media folders; unchanged files (same size and mtime) are
    not hashed again."""
    from desktop.media.hashing import sha256_file
    from desktop.media.probe import MediaError

    old = load_index(machine)
    files: dict[str, list] = {}
    hashed = reused = unreadable = seen = 0
    try:
        for folder in machine.media_folders():
            for path in _recordings(folder):
                key = str(path)
                if key in files:
                    continue  # a folder inside another media folder
                seen += 1
                if progress is not None:
                    progress(seen, hashed, path)  # may raise to stop (the window closing)
                try:
                    st = path.stat()
                except OSError:
                    unreadable += 1
                    continue
                known = old.get(key)
                if known and known[0] == st.st_size and known[1] == st.st_mtime_ns:
                    files[key] = known
                    reused += 1
                    continue
                try:
                    digest = sha256_file(path)
                except (MediaError, OSError):
                    unreadable += 1
                    continue
                files[key] = [st.st_size, st.st_mtime_ns, digest]
                hashed += 1
    except BaseException:
        if hashed:  # stopped part way: what was hashed is kept for next time
            _save_index(machine, {**old, **files})
        raise
    if files != old:
        _save_index(machine, files)
    return files, IndexRefresh(len(files), hashed, reused, unreadable)


def find_in_index(files: dict[str, list], sha256: str) -> Path | None:
    """A file the index has for this SHA-256 that is still there, unchanged."""
    for key, (size, mtime_ns, digest) in files.items():
        if digest != sha256:
            continue
        try:
            st = os.stat(key)
        except OSError:
            continue
        if st.st_size == size and st.st_mtime_ns == mtime_ns:
            return Path(key)
    return None


def find_in_media_folders(store, call_id: int, progress: IndexProgress | None = None) -> CallRow | None:
    """Look for the call's recording in this machine's media folders (by SHA-256, the index refreshed
    first); when found, this machine remembers it and the call is returned as seen from here.
    None: the media folders don't have it (or there are none)."""
    machine = machine_of(store)
    call = get_call(store, call_id)
    if not machine.media_folders():
        return None
    files, _done = refresh_index(machine, progress)
    found = find_in_index(files, call.media_sha256)
    if found is None:
        return None
    remember_here(store, call, found)
    from desktop.logs import logger

    logger("calls").info("call %d: its recording found in this machine's media folders (SHA-256)", call.id)
    return get_call(store, call.id)
