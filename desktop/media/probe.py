"""What a recording is (length, audio, video), read from its container with PyAV.

Probing must be quick even for a 2-hour call, so nothing is decoded in full:
the duration comes from the container, one audio frame is decoded at the start
to prove the audio is real, and a few packets are read near the declared end to
prove the data reaches it. Only a file whose container doesn't know its length
(e.g. a browser-recorded WebM) is read through, and then packet by packet
(demuxed, not decoded) unless the packets carry no timing.

A recording is *truncated* when its container promises audio the file doesn't
hold: the container's headers are cut off (FFmpeg hits the end of the file
while opening it), no audio frame decodes, the audio data stops well before the
length the header declares, an Ogg stream lacks its end-of-stream page, or a
WAV's data chunk is longer than the bytes left in the file.
"""

from __future__ import annotations

import os
import struct
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import av
import av.error
from av.stream import Disposition

from desktop.errors import CallmarkError

# Audio may stop this much short of the declared length before we call it cut
# off (encoder padding and frame rounding are a few tens of ms).
_END_TOLERANCE_S = 1.0
_END_TOLERANCE_SHARE = 0.01
# Read from this far before the declared end when checking the data reaches it.
_END_WINDOW_S = 3.0
# Give up looking for a first decodable audio frame after this many packets.
_FIRST_FRAME_PACKETS = 200
_OGG_TAIL_BYTES = 70_000  # an Ogg page is at most ~65 KB

# First bytes of common media containers: lets us say "damaged or truncated"
# rather than "not a media file" when FFmpeg refuses a file that looks like one.
_SIGNATURES = {
    b"OggS": "Ogg",
    b"ID3": "MP3",
    b"RIFF": "WAV",
    b"fLaC": "FLAC",
    b"\x1a\x45\xdf\xa3": "Matroska/WebM",
}


class MediaError(CallmarkError):
    """A media file that can't be used; the message names the file and the problem."""

    def __init__(self, path: str | os.PathLike[str], problem: str) -> None:
        self.path = str(path)
        self.problem = problem
        super().__init__(f"{self.path}: {problem}")


@dataclass(frozen=True)
class MediaInfo:
    duration_ms: int
    has_video: bool
    has_audio: bool
    channels: int        # of the first audio stream
    sample_rate: int     # the decoder's rate (Opus always decodes at 48 kHz)
    container: str       # FFmpeg's format name, e.g. "ogg", "mp3", "mov,mp4,m4a,3gp,3g2,mj2"
    size_bytes: int
    audio_codec: str = ""


def check_readable(path: str | os.PathLike[str], allow_empty: bool = False) -> Path:
    """The file as a Path if it exists, is a regular file and can be read; else MediaError."""
    p = Path(path)
    try:
        st = p.stat()
    except FileNotFoundError:
        raise MediaError(p, "no such file") from None
    except PermissionError:
        raise MediaError(p, "permission denied (can't reach the file)") from None
    except OSError as exc:
        raise MediaError(p, f"can't read the file ({exc.strerror or exc})") from None
    if p.is_dir():
        raise MediaError(p, "is a folder, not a recording")
    if not p.is_file():
        raise MediaError(p, "is not a regular file")
    try:
        with open(p, "rb") as fh:
            fh.read(1)
    except PermissionError:
        raise MediaError(p, "permission denied (the file can't be read)") from None
    except OSError as exc:
        raise MediaError(p, f"can't read the file ({exc.strerror or exc})") from None
    if st.st_size == 0 and not allow_empty:
        raise MediaError(p, "is empty (0 bytes)")
    return p


def probe(path: str | os.PathLike[str]) -> MediaInfo:
    """Describe a recording, or raise MediaError with one line naming the file and the problem."""
    p = check_readable(path)
    size = p.stat().st_size
    try:
        # usetoc: seek an MP3 through its Xing table instead of reading up to
        # the target (130 ms for 10 minutes, linear in length); others ignore it.
        container = av.open(str(p), metadata_errors="ignore", options={"usetoc": "1"})
    except (av.error.EOFError, EOFError):
        kind = _looks_like(p)
        if kind is None:
            raise MediaError(p, _NOT_MEDIA) from None
        raise MediaError(p, f"is truncated: the file ends before its {kind} headers are complete") from None
    except PermissionError:
        raise MediaError(p, "permission denied (the file can't be read)") from None
    except av.error.InvalidDataError:
        raise MediaError(p, _unreadable_problem(p)) from None
    except (av.error.FFmpegError, OSError) as exc:
        raise MediaError(p, f"can't be opened as media ({exc})") from None
    with container:
        audio_streams = list(container.streams.audio)
        # Cover art in an MP3 or M4A shows up as a one-frame video stream.
        has_video = any(not (s.disposition & Disposition.attached_pic) for s in container.streams.video)
        if not audio_streams:
            what = "a video with no sound track" if has_video else "no audio stream"
            raise MediaError(p, f"has {what}")
        audio = audio_streams[0]
        ctx = audio.codec_context
        fmt = container.format.name

        _require_first_frame(p, container, audio)
        declared_s = _declared_duration_s(container, audio)
        if declared_s is None:
            duration_s = _measure_to_end(p, container, audio)
        else:
            duration_s = _check_end(p, container, audio, declared_s)
        if duration_s <= 0:
            raise MediaError(p, "is truncated: it holds no audio")
        if fmt == "ogg" and not _ogg_has_end_of_stream(p):
            raise MediaError(p, "is truncated: the Ogg stream has no end-of-stream page")
        if fmt == "wav":
            _check_wav_data_size(p, size)
        return MediaInfo(
            duration_ms=round(duration_s * 1000),
            has_video=has_video,
            has_audio=True,
            channels=_channels(ctx),
            sample_rate=int(ctx.sample_rate or 0),
            container=fmt,
            size_bytes=size,
            audio_codec=ctx.name or "",
        )


_NOT_MEDIA = "is not an audio or video file (FFmpeg can't read it)"


def _looks_like(p: Path) -> str | None:
    """The container a file's first bytes announce, if any."""
    with open(p, "rb") as fh:
        head = fh.read(12)
    kind = next((name for sig, name in _SIGNATURES.items() if head.startswith(sig)), None)
    if kind is None and head[4:8] == b"ftyp":
        kind = "MP4/M4A"
    if kind is None and len(head) >= 2 and head[0] == 0xFF and head[1] & 0xE0 == 0xE0:
        kind = "MP3"
    return kind


def _unreadable_problem(p: Path) -> str:
    kind = _looks_like(p)
    if kind:
        return f"looks like {kind} but can't be read: damaged or truncated"
    return _NOT_MEDIA


def _channels(ctx) -> int:
    layout = getattr(ctx, "layout", None)
    if layout is not None and getattr(layout, "nb_channels", 0):
        return int(layout.nb_channels)
    return int(getattr(ctx, "channels", 0) or 0)


def _declared_duration_s(container, audio) -> float | None:
    """The container's idea of the length: the audio stream's, else the file's; None if unknown."""
    if audio.duration is not None and audio.time_base is not None and audio.duration > 0:
        return float(audio.duration * audio.time_base)
    if container.duration is not None and container.duration > 0:
        return container.duration / av.time_base
    return None


def _require_first_frame(p: Path, container, audio) -> None:
    try:
        for count, packet in enumerate(container.demux(audio)):
            if count >= _FIRST_FRAME_PACKETS:
                break
            if packet.size == 0:
                continue
            try:
                if packet.decode():
                    return
            except av.error.FFmpegError:
                continue  # a damaged first packet is not yet a verdict
    except (av.error.FFmpegError, EOFError):
        pass
    raise MediaError(p, "is truncated or damaged: no audio could be decoded")


def _packet_end_s(packet, time_base: Fraction) -> float | None:
    if packet.pts is None or packet.size == 0:
        return None
    return float((packet.pts + (packet.duration or 0)) * time_base)


def _data_end_after(container, audio, start_s: float) -> float | None:
    """Where the audio packets actually end, reading from start_s; None if none follow."""
    tb = audio.time_base
    try:
        container.seek(max(0, int(start_s / tb)), stream=audio, backward=True)
    except (av.error.FFmpegError, EOFError):
        return None
    end = None
    try:
        for packet in container.demux(audio):
            t = _packet_end_s(packet, tb)
            if t is not None and (end is None or t > end):
                end = t
    except (av.error.FFmpegError, EOFError):
        pass  # damaged tail: what was read so far is where the data ends
    if end is not None and audio.start_time is not None:
        end -= float(audio.start_time * tb)
    return end


def _check_end(p: Path, container, audio, declared_s: float) -> float:
    """The declared length, once we've seen the data reach it; else MediaError or the real end."""
    end = _data_end_after(container, audio, declared_s - _END_WINDOW_S)
    short_by = declared_s - (end or 0.0)
    if short_by <= max(_END_TOLERANCE_S, declared_s * _END_TOLERANCE_SHARE):
        return declared_s
    if audio.duration is None:
        # Only the container's length was known, and for raw streams (MP3
        # without a Xing header, ADTS AAC) that is an estimate from the
        # bitrate: trust the data over it.
        return _measure_to_end(p, container, audio)
    if end is None:
        reached = f"the audio stops before {_clock(max(0.0, declared_s - _END_WINDOW_S))}"
    else:
        reached = f"the audio stops at {_clock(end)}"
    raise MediaError(p, f"is truncated: the header says {_clock(declared_s)} but {reached}")


def _measure_to_end(p: Path, container, audio) -> float:
    """Length when the container doesn't know it: demux every packet; decode if they carry no timing."""
    end = _data_end_after(container, audio, 0.0)
    if end:
        return end
    samples = 0
    try:
        container.seek(0, stream=audio, backward=True)
        for frame in container.decode(audio):
            samples += frame.samples
    except (av.error.FFmpegError, EOFError):
        pass
    rate = audio.codec_context.sample_rate or 0
    if not samples or not rate:
        raise MediaError(p, "is truncated or damaged: its length can't be found")
    return samples / rate


def _ogg_has_end_of_stream(p: Path) -> bool:
    size = p.stat().st_size
    with open(p, "rb") as fh:
        fh.seek(max(0, size - _OGG_TAIL_BYTES))
        tail = fh.read()
    # The last complete page header; its type byte carries the EOS flag (0x04).
    idx = tail.rfind(b"OggS\x00")
    while idx != -1:
        if idx + 27 <= len(tail):
            return bool(tail[idx + 5] & 0x04)
        idx = tail.rfind(b"OggS\x00", 0, idx)
    return False


def _check_wav_data_size(p: Path, size: int) -> None:
    """FFmpeg clamps a WAV's data chunk to the file, hiding a cut-off recording; look ourselves."""
    with open(p, "rb") as fh:
        head = fh.read(12)
        if len(head) < 12 or head[:4] != b"RIFF" or head[8:12] != b"WAVE":
            return  # RF64/W64 and friends: leave them to FFmpeg
        pos = 12
        while True:
            chunk = fh.read(8)
            if len(chunk) < 8:
                return
            cid, csize = chunk[:4], struct.unpack("<I", chunk[4:])[0]
            if cid == b"data":
                # 0 and 0xFFFFFFFF mean "size not written" (a live recorder's stream).
                if csize not in (0, 0xFFFFFFFF) and pos + 8 + csize > size:
                    raise MediaError(p, f"is truncated: the WAV header promises {csize} bytes of audio "
                                        f"but only {size - pos - 8} are there")
                return
            pos += 8 + csize + (csize & 1)
            fh.seek(pos)


def _clock(seconds: float) -> str:
    s = max(0.0, seconds)
    h, rem = divmod(int(s), 3600)
    m, sec = divmod(rem, 60)
    frac = f"{s - int(s):.1f}"[1:]
    return f"{h}:{m:02d}:{sec:02d}{frac}" if h else f"{m}:{sec:02d}{frac}"
