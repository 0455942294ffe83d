"""Short audio clips of coaching moments, for the manager's session packet.

A clip is the moment plus a few seconds either side, mono, encoded small
enough to embed in one HTML file: Opus in Ogg (AAC in MP4 if this PyAV build
has no Opus encoder). Redacted words are muted (samples set to zero) so the
audio never says what the text hides.
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from fractions import Fraction
from pathlib import Path

import av
import numpy as np

from desktop.errors import CallmarkError

DEFAULT_CONTEXT_MS = 3000
CLIP_SAMPLE_RATE = 48000


class ClipError(CallmarkError):
    """A clip could not be cut; names the media file and the problem."""

    def __init__(self, path: Path | str, problem: str) -> None:
        self.path = str(path)
        super().__init__(f"{path}: cannot cut a clip: {problem}")


def _pick_codec() -> tuple[str, str, str, int]:
    """(encoder, container format, MIME type, bit rate) available in this PyAV build."""
    available = av.codecs_available
    if "libopus" in available:
        return "libopus", "ogg", "audio/ogg", 32000
    if "opus" in available:
        return "opus", "ogg", "audio/ogg", 32000
    return "aac", "mp4", "audio/mp4", 64000


CLIP_CODEC, CLIP_CONTAINER, CLIP_MIME_TYPE, _BIT_RATE = _pick_codec()


def _decode_mono(path: Path, start_ms: int, end_ms: int, rate: int) -> np.ndarray:
    """Float32 mono samples of [start_ms, end_ms) at `rate` (shorter if the media ends first)."""
    try:
        container = av.open(str(path))
    except (av.FFmpegError, OSError) as exc:
        raise ClipError(path, f"cannot open the media ({exc})") from None
    with container:
        if not container.streams.audio:
            raise ClipError(path, "the media has no audio")
        stream = container.streams.audio[0]
        if start_ms > 0:
            # Seeks land on or before the target; samples before it are dropped below.
            container.seek(int(start_ms * 1000), any_frame=False, backward=True)
        resampler = av.AudioResampler(format="flt", layout="mono", rate=rate)
        first = start_ms * rate // 1000
        last = end_ms * rate // 1000
        chunks: list[np.ndarray] = []
        position: int | None = None  # index of the next sample, in output samples
        for frame in container.decode(stream):
            if frame.pts is not None and frame.time_base is not None and position is None:
                position = round(float(frame.pts * frame.time_base) * rate)
            for out in resampler.resample(frame):
                data = out.to_ndarray().reshape(-1)
                position = _take(chunks, data, position or 0, first, last)
            if position is not None and position >= last:
                break
        for out in resampler.resample(None):
            position = _take(chunks, out.to_ndarray().reshape(-1), position or 0, first, last)
    if not chunks:
        raise ClipError(path, f"no audio between {start_ms} ms and {end_ms} ms")
    return np.concatenate(chunks)


def _take(chunks: list[np.ndarray], data: np.ndarray, position: int, first: int, last: int) -> int:
    lo = max(first - position, 0)
    hi = min(last - position, len(data))
    if hi > lo:
        chunks.append(data[lo:hi].astype(np.float32, copy=False))
    return position + len(data)


def _encode(samples: np.ndarray, rate: int) -> bytes:
    buffer = io.BytesIO()
    with av.open(buffer, mode="w", format=CLIP_CONTAINER) as out:
        stream = out.add_stream(CLIP_CODEC, rate=rate, layout="mono")
        stream.bit_rate = _BIT_RATE
        codec = stream.codec_context
        frame_size = codec.frame_size or 960
        sample_format = codec.format.name if codec.format else "flt"
        pts = 0
        for begin in range(0, len(samples), frame_size):
            block = samples[begin:begin + frame_size]
            if len(block) < frame_size:  # encoders want whole frames; pad the tail with silence
                block = np.concatenate([block, np.zeros(frame_size - len(block), np.float32)])
            frame = _frame(block, sample_format, rate)
            frame.pts = pts
            frame.time_base = Fraction(1, rate)
            pts += frame_size
            for packet in stream.encode(frame):
                out.mux(packet)
        for packet in stream.encode(None):
            out.mux(packet)
    return buffer.getvalue()


def _frame(block: np.ndarray, sample_format: str, rate: int) -> av.AudioFrame:
    if sample_format.startswith("s16"):
        data = (np.clip(block, -1.0, 1.0) * 32767).astype(np.int16)
        frame = av.AudioFrame.from_ndarray(data.reshape(1, -1), format=sample_format, layout="mono")
    else:
        frame = av.AudioFrame.from_ndarray(block.reshape(1, -1).astype(np.float32),
                                           format=sample_format, layout="mono")
    frame.sample_rate = rate
    return frame


def clip_bounds(start_ms: int, end_ms: int, context_ms: int = DEFAULT_CONTEXT_MS,
                duration_ms: int | None = None) -> tuple[int, int]:
    """The stretch of the recording a clip covers: the moment with context, within the media."""
    lo = max(0, start_ms - context_ms)
    hi = end_ms + context_ms
    if duration_ms is not None:
        hi = min(hi, duration_ms)
    return lo, hi


def cut_clip(media_path: Path | str, start_ms: int, end_ms: int, *,
             context_ms: int = DEFAULT_CONTEXT_MS, mute: Iterable[tuple[int, int]] = (),
             duration_ms: int | None = None, sample_rate: int = CLIP_SAMPLE_RATE) -> bytes:
    """Encoded clip of [start_ms - context, end_ms + context] with `mute` spans silenced.

    `mute` spans are in recording time (ms), as `redact.mute_spans` gives them.
    Returns the file's bytes (MIME type in CLIP_MIME_TYPE).
    """
    path = Path(media_path)
    if start_ms < 0 or end_ms < start_ms:
        raise ClipError(path, f"the moment {start_ms}–{end_ms} ms is not a valid span")
    if sample_rate not in (24000, 48000):
        raise ClipError(path, "clips are 24 or 48 kHz")
    lo, hi = clip_bounds(start_ms, end_ms, context_ms, duration_ms)
    samples = _decode_mono(path, lo, hi, sample_rate).copy()
    for mute_start, mute_end in mute:
        a = max(0, (mute_start - lo) * sample_rate // 1000)
        b = min(len(samples), -(-(mute_end - lo) * sample_rate // 1000))
        if b > a:
            samples[a:b] = 0.0
    return _encode(samples, sample_rate)
