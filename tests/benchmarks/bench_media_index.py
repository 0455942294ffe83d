"""This machine's media-folder index against bare hashing of the same files, side by side.

media_index_build_ratio = the first index of a media folder / bare hashlib over every file (the floor:
the first build has to read everything once). media_index_refresh_ratio = a refresh with nothing
changed / the same bare hashing: unchanged files (same size and mtime) are not read again, so this is
a folder walk and a stat per file. media_index_refresh_ms is that refresh, in milliseconds.
"""

from __future__ import annotations

import hashlib
import os
import statistics
import tempfile
import time
from pathlib import Path

from desktop.services.media_index import refresh_index
from desktop.services.this_machine import ThisMachine


def _bare_hash(files: list[Path]) -> None:
    for path in files:
        digest = hashlib.sha256()
        with open(path, "rb") as fh:
            while chunk := fh.read(1 << 20):
                digest.update(chunk)
        digest.hexdigest()


def run(quick: bool) -> dict[str, float]:
    count, size = (40, 2 << 20) if quick else (100, 4 << 20)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "Recordings"
        files = []
        for n in range(count):
            sub = folder / f"2026-{n % 12 + 1:02d}"
            sub.mkdir(parents=True, exist_ok=True)
            path = sub / f"call-{n:04d}.wav"
            path.write_bytes(os.urandom(size))
            files.append(path)
        bare_s, build_s, refresh_s = [], [], []
        for round_ in range(3):
            t = time.perf_counter()
            _bare_hash(files)
            bare_s.append(time.perf_counter() - t)
            machine = ThisMachine(Path(tmp) / f"home-{round_}")
            machine.add_media_folder(folder)
            t = time.perf_counter()
            refresh_index(machine)
            build_s.append(time.perf_counter() - t)
            t = time.perf_counter()
            _files, done = refresh_index(machine)
            refresh_s.append(time.perf_counter() - t)
            assert done.hashed == 0 and done.reused == count
    bare, build, refresh = (statistics.median(x) for x in (bare_s, build_s, refresh_s))
    return {
        "media_index_build_ratio": round(build / bare, 3),
        "media_index_refresh_ratio": round(refresh / bare, 4),
        "media_index_refresh_ms": round(refresh * 1000, 1),
    }
