"""Speakers from stereo channels: dialers often record the rep on the left and
the customer on the right, so the louder channel during a segment says who spoke.

Decodes the recording once, at a low rate (8 kHz float32 per channel), and
compares each segment's RMS energy per channel.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import numpy as np

from desktop.transcription.segments import Segment

DEFAULT_CHANNEL_NAMES = ("Rep", "Customer")  # left, right
ANALYSIS_RATE = 8_000
MIN_DIFFERENCE_DB = 3.0  # closer than this, the channels don't say who spoke


class ChannelSplitError(Exception):
    """The recording cannot be split by channel; the message names the file."""


def audio_channel_count(media_path: str | Path) -> int:
    import av

    try:
        with av.open(str(media_path)) as container:
            if not container.streams.audio:
                raise ChannelSplitError(f"{media_path}: the file has no audio track")
            return container.streams.audio[0].codec_context.layout.nb_channels
    except av.error.FFmpegError as exc:
        raise ChannelSplitError(f"{media_path}: cannot read the recording ({exc})") from None


def decode_stereo(media_path: str | Path, rate: int = ANALYSIS_RATE) -> np.ndarray:
    """Both channels as a (2, samples) float32 array at `rate`."""
    import av

    if audio_channel_count(media_path) != 2:
        raise ChannelSplitError(f"{media_path}: not a two-channel recording; "
                                "speakers cannot be told apart by channel")
    chunks: list[np.ndarray] = []
    with av.open(str(media_path)) as container:
        stream = container.streams.audio[0]
        resampler = av.AudioResampler(format="fltp", layout="stereo", rate=rate)
        for frame in container.decode(stream):
            chunks.extend(out.to_ndarray() for out in resampler.resample(frame))
        chunks.extend(out.to_ndarray() for out in resampler.resample(None))
    if not chunks:
        raise ChannelSplitError(f"{media_path}: the recording has no audio samples")
    return np.concatenate(chunks, axis=1).astype(np.float32, copy=False)


def channel_levels_db(audio: np.ndarray, start_ms: int, end_ms: int,
                      rate: int = ANALYSIS_RATE) -> tuple[float, float]:
    """RMS level (dBFS) of the left and right channels between two times."""
    a = max(0, start_ms * rate // 1000)
    b = min(audio.shape[1], max(a + 1, end_ms * rate // 1000))
    span = audio[:, a:b].astype(np.float64)
    if span.shape[1] == 0:
        return (-120.0, -120.0)
    rms = np.sqrt((span ** 2).mean(axis=1))
    left, right = 20 * np.log10(np.maximum(rms, 1e-6))
    return float(left), float(right)


def assign_speakers_by_channel(segments: Sequence[Segment], media_path: str | Path,
                               names: Sequence[str] = DEFAULT_CHANNEL_NAMES, *,
                               min_difference_db: float = MIN_DIFFERENCE_DB) -> list[Segment]:
    """Copies of `segments` with the louder channel's name as speaker.

    A segment whose channels are within `min_difference_db` of each other
    (both speaking, or a mono call saved as stereo) keeps its speaker.
    """
    if len(names) != 2:
        raise ValueError("give exactly two channel names: left, right")
    audio = decode_stereo(media_path)
    out = []
    for seg in segments:
        left, right = channel_levels_db(audio, seg.start_ms, seg.end_ms)
        if abs(left - right) < min_difference_db:
            out.append(replace(seg))
        else:
            out.append(replace(seg, speaker=names[0] if left > right else names[1]))
    return out
