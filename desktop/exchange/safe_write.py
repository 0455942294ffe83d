"""Write a file whole or not at all.

A record or packet that leaves the coach's machine half-written is worse than
none: the data goes to a temporary file in the same folder (same file system,
so the rename is atomic), is flushed to disk, then renamed over the target.
"""

from __future__ import annotations

import errno
import os
import tempfile
from pathlib import Path

from desktop.errors import CallmarkError


class ExportError(CallmarkError):
    """A file could not be written; nothing was left behind."""

    def __init__(self, path: Path | str, problem: str) -> None:
        self.path = Path(path)
        self.problem = problem
        super().__init__(f"{self.path}: could not write the file: {problem}")


def _describe(exc: OSError) -> str:
    if exc.errno == errno.ENOSPC:
        return "the disk is full"
    if exc.errno == errno.EDQUOT:
        return "the disk quota is exceeded"
    if exc.errno in (errno.EACCES, errno.EPERM):
        return "permission denied"
    if exc.errno == errno.EROFS:
        return "the file system is read-only"
    if exc.errno == errno.ENOENT:
        return "the folder does not exist"
    if exc.errno == errno.EISDIR:
        return "a folder has that name"
    return exc.strerror or str(exc)


def _fsync_folder(folder: Path) -> None:
    # Makes the rename itself durable; not every platform lets a folder be opened.
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def atomic_write_bytes(path: Path | str, data: bytes) -> Path:
    """Write `data` to `path` atomically; raise ExportError (and leave nothing) on failure."""
    target = Path(path)
    folder = target.parent
    if target.is_dir():
        raise ExportError(target, "a folder has that name")
    try:
        fd, temp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=folder)
    except OSError as exc:
        raise ExportError(target, _describe(exc)) from exc
    temp = Path(temp_name)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        try:
            # mkstemp makes 0600 files; give the export the usual permissions.
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(temp, 0o666 & ~umask)
        except OSError:
            pass
        os.replace(temp, target)
    except OSError as exc:
        temp.unlink(missing_ok=True)
        raise ExportError(target, _describe(exc)) from exc
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
    _fsync_folder(folder)
    return target


def atomic_write_text(path: Path | str, text: str) -> Path:
    """Write `text` as UTF-8 to `path` atomically."""
    return atomic_write_bytes(path, text.encode("utf-8"))
