"""sha256_file(): streaming, with progress, and the same clear errors as probe."""

from __future__ import annotations

import hashlib

import pytest

from desktop.media.hashing import CHUNK_BYTES, sha256_file
from desktop.media.probe import MediaError
from tests.media.conftest import DEMO_AUDIO


def test_matches_hashlib_over_several_chunks_and_reports_progress(tmp_path):
    data = bytes(range(256)) * (CHUNK_BYTES * 5 // 2 // 256) + b"tail"
    path = tmp_path / "call.bin"
    path.write_bytes(data)
    seen: list[tuple[int, int]] = []
    digest = sha256_file(path, progress=lambda done, total: seen.append((done, total)))
    assert digest == hashlib.sha256(data).hexdigest()
    assert seen[0] == (0, len(data)) and seen[-1] == (len(data), len(data))
    assert [done for done, _ in seen] == sorted(done for done, _ in seen)
    assert len(seen) == 1 + 3  # start, then one per 1 MiB chunk (2.5 MiB + 4 bytes -> 3 reads)


def test_demo_call_hash_is_stable():
    assert sha256_file(DEMO_AUDIO) == hashlib.sha256(DEMO_AUDIO.read_bytes()).hexdigest()
    assert sha256_file(DEMO_AUDIO) == sha256_file(str(DEMO_AUDIO))


def test_small_chunks_give_the_same_digest(tmp_path):
    path = tmp_path / "x.bin"
    path.write_bytes(b"Just send me some information." * 1000)
    assert sha256_file(path, chunk_bytes=7) == sha256_file(path)


def test_empty_file_has_the_empty_digest(tmp_path):
    path = tmp_path / "empty.wav"
    path.touch()
    assert sha256_file(path) == hashlib.sha256(b"").hexdigest()


def test_progress_can_cancel(tmp_path):
    path = tmp_path / "big.bin"
    path.write_bytes(b"\0" * (3 * CHUNK_BYTES))

    class Cancelled(Exception):
        pass

    def cancel_after_first_chunk(done: int, total: int) -> None:
        if done >= CHUNK_BYTES:
            raise Cancelled

    with pytest.raises(Cancelled):
        sha256_file(path, progress=cancel_after_first_chunk)


def test_missing_file_and_folder_are_clear_errors(tmp_path):
    with pytest.raises(MediaError, match="no such file") as caught:
        sha256_file(tmp_path / "gone.mp3")
    assert str(caught.value).startswith(str(tmp_path / "gone.mp3"))
    with pytest.raises(MediaError, match="folder"):
        sha256_file(tmp_path)
