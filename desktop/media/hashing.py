"""Streaming SHA-256 of a recording: the call's identity in the store and the waveform cache key.

Read in 1 MiB chunks so a 2-hour video never sits in memory; the progress
callback lets a worker report (and, by raising, cancel) a long hash.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable

from desktop.media.probe import MediaError, check_readable

CHUNK_BYTES = 1 << 20

# progress(bytes_done, bytes_total); raise from it to stop hashing.
HashProgress = Callable[[int, int], None]


def sha256_file(path: str | os.PathLike[str], progress: HashProgress | None = None,
                chunk_bytes: int = CHUNK_BYTES) -> str:
    """The file's SHA-256 as 64 lowercase hex digits; MediaError if it can't be read."""
    p = check_readable(path, allow_empty=True)
    total = p.stat().st_size
    digest = hashlib.sha256()
    done = 0
    buffer = bytearray(chunk_bytes)
    view = memoryview(buffer)
    try:
        with open(p, "rb", buffering=0) as fh:
            if progress is not None:
                progress(0, total)
            while n := fh.readinto(buffer):
                digest.update(view[:n])
                done += n
                if progress is not None:
                    progress(done, total)
    except OSError as exc:
        raise MediaError(p, f"can't be read while hashing ({exc.strerror or exc})") from None
    return digest.hexdigest()

