"""probe(): what a recording is, and one clear line for every file it can't use."""

from __future__ import annotations

import os
import select
import shutil
import tempfile
from pathlib import Path

import pytest

from desktop.media.probe import MediaError, MediaInfo, probe
from tests.media.conftest import DEMO_AUDIO, cut


def assert_one_line_naming(exc: MediaError, path: Path, *words: str) -> None:
    message = str(exc)
    assert "\n" not in message
    assert message.startswith(f"{path}: ")
    for word in words:
        assert word in message


def test_demo_call_is_a_two_to_three_minute_stereo_audio_call():
    info = probe(DEMO_AUDIO)
    assert isinstance(info, MediaInfo)
    assert 120_000 <= info.duration_ms <= 180_000
    assert info.has_audio and not info.has_video
    assert info.channels == 2
    assert info.container == "ogg" and info.audio_codec == "opus"
    assert info.sample_rate == 48_000  # Opus always decodes at 48 kHz
    assert info.size_bytes == DEMO_AUDIO.stat().st_size < 1_000_000


@pytest.mark.parametrize("name, channels, rate, container", [
    ("call.mp3", 2, 44100, "mp3"),
    ("call.wav", 2, 44100, "wav"),
    ("call.ogg", 2, 48000, "ogg"),
    ("call.m4a", 1, 32000, "mov,mp4,m4a,3gp,3g2,mj2"),
])
def test_audio_formats_report_length_channels_and_rate(media_dir, name, channels, rate, container):
    info = probe(media_dir / name)
    assert abs(info.duration_ms - 20_000) <= 100
    assert (info.channels, info.sample_rate, info.container) == (channels, rate, container)
    assert info.has_audio and not info.has_video
    assert info.size_bytes == (media_dir / name).stat().st_size


def test_video_call_has_video(media_dir):
    info = probe(media_dir / "zoom.mp4")
    assert info.has_video and info.has_audio
    assert abs(info.duration_ms - 20_000) <= 150


def test_recording_whose_container_does_not_know_its_length_is_measured(media_dir):
    # A WebM written without seeking (as a browser records it) carries no duration.
    import av

    with av.open(str(media_dir / "live.webm")) as container:
        assert container.duration is None
    info = probe(media_dir / "live.webm")
    assert abs(info.duration_ms - 20_000) <= 100


def test_path_that_does_not_exist(tmp_path):
    missing = tmp_path / "gone.mp3"
    with pytest.raises(MediaError) as caught:
        probe(missing)
    assert_one_line_naming(caught.value, missing, "no such file")


def test_folder(tmp_path):
    with pytest.raises(MediaError) as caught:
        probe(tmp_path)
    assert_one_line_naming(caught.value, tmp_path, "folder")


def test_text_file_named_mp3(tmp_path):
    fake = tmp_path / "notes.mp3"
    fake.write_text("Call notes: Casey wants information sent over.\n" * 20)
    with pytest.raises(MediaError) as caught:
        probe(fake)
    assert_one_line_naming(caught.value, fake, "not an audio or video file")


@pytest.mark.parametrize("name", ["tiny.ogg", "tiny.mp3", "tiny.m4a", "tiny.wav"])
def test_few_bytes_of_text_are_not_media_whatever_the_extension(tmp_path, name):
    fake = tmp_path / name
    fake.write_text("not audio")
    with pytest.raises(MediaError) as caught:
        probe(fake)
    assert_one_line_naming(caught.value, fake, "not an audio or video file")


def test_empty_file(tmp_path):
    empty = tmp_path / "empty.ogg"
    empty.touch()
    with pytest.raises(MediaError) as caught:
        probe(empty)
    assert_one_line_naming(caught.value, empty, "empty")


@pytest.mark.parametrize("name, words", [
    ("call.mp3", ("truncated", "header says 0:20.0")),
    ("call.ogg", ("truncated", "Ogg headers")),
    ("call.wav", ("truncated", "WAV header")),
    ("call.m4a", ("damaged or truncated",)),
])
def test_first_2_kb_of_a_recording_is_truncated(media_dir, tmp_path, name, words):
    short = cut(media_dir / name, tmp_path / f"short-{name}", 2048)
    with pytest.raises(MediaError) as caught:
        probe(short)
    assert_one_line_naming(caught.value, short, *words)


@pytest.mark.parametrize("name, words", [
    ("call.mp3", ("truncated", "header says 0:20.0")),
    ("call.ogg", ("truncated", "end-of-stream")),
    ("call.wav", ("truncated",)),
    ("zoom.mp4", ("damaged or truncated",)),
])
def test_recording_cut_off_halfway_is_truncated(media_dir, tmp_path, name, words):
    src = media_dir / name
    half = cut(src, tmp_path / f"half-{name}", src.stat().st_size // 2)
    with pytest.raises(MediaError) as caught:
        probe(half)
    assert_one_line_naming(caught.value, half, *words)


def test_file_with_no_audio_stream(media_dir):
    path = media_dir / "screen-only.mp4"
    with pytest.raises(MediaError) as caught:
        probe(path)
    assert_one_line_naming(caught.value, path, "no sound track")


def _probe_as_nobody(path: Path) -> str:
    """Run probe in a forked child without root's rights; return its error message (or 'ok')."""
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # child: drop to nobody, probe, report, leave without cleanup
        os.close(read_fd)
        try:
            os.setgroups([])
            os.setgid(65534)
            os.setuid(65534)
            try:
                probe(path)
                result = "ok"
            except MediaError as exc:
                result = str(exc)
        except BaseException as exc:  # noqa: BLE001 - anything goes back to the parent as text
            result = f"child failed: {exc!r}"
        os.write(write_fd, result.encode())
        os._exit(0)
    os.close(write_fd)
    try:
        ready, _, _ = select.select([read_fd], [], [], 30)
        if not ready:
            os.kill(pid, 9)
            return "child timed out"
        return os.read(read_fd, 4096).decode()
    finally:
        os.close(read_fd)
        os.waitpid(pid, 0)


def test_permission_denied(media_dir):
    # A folder anyone can enter, holding a file nobody may read.
    folder = Path(tempfile.mkdtemp(prefix="callmark-perm-"))
    try:
        folder.chmod(0o755)
        locked = folder / "locked.mp3"
        shutil.copyfile(media_dir / "call.mp3", locked)
        locked.chmod(0o000)
        if os.geteuid() == 0:
            message = _probe_as_nobody(locked)  # root reads anything; a non-root child does not
        else:
            with pytest.raises(MediaError) as caught:
                probe(locked)
            message = str(caught.value)
        assert message.startswith(f"{locked}: ")
        assert "permission denied" in message
    finally:
        shutil.rmtree(folder, ignore_errors=True)
