"""Exports are written whole or not at all."""

from __future__ import annotations

import errno
import os
import shutil
import stat
import tempfile
from pathlib import Path

import pytest

from desktop.exchange import safe_write
from desktop.exchange.safe_write import ExportError, atomic_write_bytes, atomic_write_text


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def test_writes_the_file_and_leaves_no_temporary(tmp_path: Path):
    target = tmp_path / "acme.callmark.json"
    atomic_write_text(target, "{\"héllo\": 1}\n")
    assert target.read_bytes() == "{\"héllo\": 1}\n".encode("utf-8")
    assert _leftovers(tmp_path) == ["acme.callmark.json"]
    mode = stat.S_IMODE(target.stat().st_mode)
    assert mode & 0o644 == 0o644  # readable like any other export, not 0600


def test_replaces_an_existing_file(tmp_path: Path):
    target = tmp_path / "packet.html"
    target.write_text("old")
    atomic_write_bytes(target, b"new")
    assert target.read_bytes() == b"new"
    assert _leftovers(tmp_path) == ["packet.html"]


class _FullDisk:
    """A file whose write stores half the data, then fails as a full disk does."""

    def __init__(self, real):
        self.real = real

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.real.close()
        return False

    def write(self, data: bytes) -> int:
        self.real.write(data[: len(data) // 2])
        self.real.flush()
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    def flush(self):
        self.real.flush()

    def fileno(self):
        return self.real.fileno()


def test_full_disk_leaves_no_half_file_and_says_so(tmp_path: Path, monkeypatch):
    real_fdopen = os.fdopen
    monkeypatch.setattr(safe_write.os, "fdopen", lambda fd, mode: _FullDisk(real_fdopen(fd, mode)))
    target = tmp_path / "acme.callmark.json"
    with pytest.raises(ExportError) as caught:
        atomic_write_bytes(target, b"x" * 100_000)
    assert str(caught.value) == f"{target}: could not write the file: the disk is full"
    assert caught.value.path == target
    assert _leftovers(tmp_path) == []


def test_full_disk_keeps_the_previous_export_intact(tmp_path: Path, monkeypatch):
    target = tmp_path / "acme.callmark.json"
    target.write_bytes(b"previous export")
    real_fdopen = os.fdopen
    monkeypatch.setattr(safe_write.os, "fdopen", lambda fd, mode: _FullDisk(real_fdopen(fd, mode)))
    with pytest.raises(ExportError, match="the disk is full"):
        atomic_write_bytes(target, b"new export" * 1000)
    assert target.read_bytes() == b"previous export"
    assert _leftovers(tmp_path) == ["acme.callmark.json"]


def test_fsync_failure_is_reported_and_cleaned_up(tmp_path: Path, monkeypatch):
    def failing_fsync(fd):
        raise OSError(errno.EIO, os.strerror(errno.EIO))

    monkeypatch.setattr(safe_write.os, "fsync", failing_fsync)
    with pytest.raises(ExportError, match="Input/output error"):
        atomic_write_bytes(tmp_path / "a.html", b"abc")
    assert _leftovers(tmp_path) == []


def _write_as_unprivileged_user(target: Path) -> str:
    """Root ignores folder permissions, so the attempt runs in a child as 'nobody'."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # child
        os.close(read_end)
        message = "wrote the file"
        try:
            os.setgid(65534)
            os.setuid(65534)
            atomic_write_bytes(target, b"data")
        except ExportError as exc:
            message = str(exc)
        except BaseException as exc:  # reported to the parent, never raised in a forked pytest
            message = f"unexpected {exc!r}"
        os.write(write_end, message.encode("utf-8"))
        os._exit(0)
    os.close(write_end)
    chunks = []
    while chunk := os.read(read_end, 4096):
        chunks.append(chunk)
    os.close(read_end)
    os.waitpid(pid, 0)
    return b"".join(chunks).decode("utf-8")


def test_read_only_folder_is_permission_denied_and_leaves_nothing():
    folder = Path(tempfile.mkdtemp(prefix="callmark-readonly-", dir="/tmp"))
    try:
        folder.chmod(0o555)
        target = folder / "acme.callmark.json"
        if os.geteuid() == 0:
            message = _write_as_unprivileged_user(target)
        else:
            with pytest.raises(ExportError) as caught:
                atomic_write_bytes(target, b"data")
            message = str(caught.value)
        assert message == f"{target}: could not write the file: permission denied"
        assert _leftovers(folder) == []
    finally:
        folder.chmod(0o755)
        shutil.rmtree(folder)


def test_missing_folder_and_folder_in_the_way_are_named(tmp_path: Path):
    with pytest.raises(ExportError, match="the folder does not exist"):
        atomic_write_bytes(tmp_path / "absent" / "a.html", b"x")
    (tmp_path / "taken").mkdir()
    with pytest.raises(ExportError, match="a folder has that name"):
        atomic_write_bytes(tmp_path / "taken", b"x")
    assert _leftovers(tmp_path) == ["taken"]
