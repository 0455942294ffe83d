"""A recording that moved: find it again by its SHA-256 and point the call at it.

A call keeps its transcript and marks when its file is gone; the store knows the
recording by hash, so the same bytes anywhere are the same call. A search looks
at files with the recording's own name first, then other recordings, then the rest.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from desktop.errors import CallmarkError
from desktop.services.lookup import one
from desktop.services.rows import CallRow, get_call

if TYPE_CHECKING:  # SQLAlchemy comes in with a relink, not with the check on opening a call
    from db.store import Store

MEDIA_SUFFIXES = {".mp3", ".m4a", ".wav", ".ogg", ".opus", ".oga", ".mp4", ".m4v", ".webm", ".mkv", ".mov",
                  ".flac", ".aac", ".wma", ".amr", ".3gp"}


def recording_missing(call: CallRow) -> bool:
    return not call.media_path or not Path(call.media_path).is_file()


def relink(store: Store, call_id: int, file: str | os.PathLike[str],
           progress: Callable[[int, int], None] | None = None) -> CallRow:
    """Point the call at ``file``, refused unless it is the same recording (same SHA-256).

    This machine remembers where the file is (desktop.services.this_machine); the store keeps where
    the recording was added, for the other machines. A call known by hash only gets its first path."""
    from desktop.media.hashing import sha256_file

    call = get_call(store, call_id)
    media = Path(file).expanduser()
    if not media.is_file():
        raise CallmarkError(f"{media}: no such file")
    digest = sha256_file(media, progress)  # MediaError (a CallmarkError) names the file it can't read
    if digest != call.media_sha256:
        raise CallmarkError(f"{media}: is not the recording of call {call.id} “{call.title}” "
                            "(its SHA-256 differs); the call was left as it was")
    remember_here(store, call, media)
    from desktop.logs import logger

    logger("calls").info("call %d relinked to its recording (SHA-256 checked)", call.id)
    return get_call(store, call.id)


def remember_here(store: Store, call: CallRow, media: Path) -> None:
    """``media`` (already checked by SHA-256) is this call's recording on this machine."""
    from desktop.services.this_machine import machine_of

    machine = machine_of(store)
    if call.stored_path is None:  # known by hash only: the first place anyone has it
        from db.models import Call

        with store.write() as session:
            row = one(session, Call, call.id)
            row.media_path = str(media.resolve())
            row.media_filename = media.name
            row.media_machine = machine.name
    else:
        machine.remember(call.media_sha256, media)


def _candidates(folder: Path, name: str | None) -> Iterator[Path]:
    named, media, other = [], [], []
    for root, dirs, files in os.walk(folder, onerror=lambda _e: None):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        for f in files:
            path = Path(root) / f
            if name and f == name:
                named.append(path)
            elif path.suffix.lower() in MEDIA_SUFFIXES:
                media.append(path)
            else:
                other.append(path)
    yield from named
    yield from media
    yield from other


def find_recording(folder: str | os.PathLike[str], sha256: str, name: str | None = None,
                   progress: Callable[[int, Path], None] | None = None) -> Path | None:
    """The first file under ``folder`` whose SHA-256 is ``sha256`` (None if there is none)."""
    from desktop.media.hashing import sha256_file
    from desktop.media.probe import MediaError

    root = Path(folder).expanduser()
    if not root.is_dir():
        raise CallmarkError(f"{root}: no such folder to search")
    for n, path in enumerate(_candidates(root, name), 1):
        if progress is not None:
            progress(n, path)
        try:
            if path.is_file() and sha256_file(path) == sha256:
                return path
        except (MediaError, OSError):
            continue  # unreadable: not ours
    return None


def relink_by_search(store: Store, call_id: int, folder: str | os.PathLike[str],
                     progress: Callable[[int, Path], None] | None = None) -> CallRow:
    call = get_call(store, call_id)
    name = Path(call.media_path).name if call.media_path else None
    found = find_recording(folder, call.media_sha256, name, progress)
    if found is None:
        raise CallmarkError(f"{Path(folder).expanduser()}: no file there is the recording of call {call.id} "
                            f"“{call.title}” (searched for its SHA-256)")
    return relink(store, call.id, found)
