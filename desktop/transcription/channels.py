"""Speakers from stereo channels: dialers often record the rep on the left and
the customer on the right, so the louder channel says who spoke.

Decodes the recording once, at a low rate (8 kHz float32 per channel), and
compares RMS energy per channel word by word where the transcript has word
times: Whisper hears the two channels mixed and often runs one segment across
a turn ("...thanks for making time today. Hi Riley"), so a segment is cut
where the voice moves to the other channel. Without word times, the whole
segment goes to its louder channel.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import numpy as np

from desktop.errors import CallmarkError
from desktop.transcription.segments import Segment

DEFAULT_CHANNEL_NAMES = ("Rep", "Customer")  # left, right
ANALYSIS_RATE = 8_000
MIN_DIFFERENCE_DB = 3.0  # closer than this, the channels don't say who spoke


class ChannelSplitError(CallmarkError):
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
    """New segments with the louder channel's name as speaker, cut at changes of speaker.

    Where the channels are within `min_difference_db` of each other (both
    speaking, or a mono call saved as stereo) a word or segment keeps its speaker.
    """
    if len(names) != 2:
        raise ValueError("give exactly two channel names: left, right")
    audio = decode_stereo(media_path)

    def louder(start_ms: int, end_ms: int) -> str | None:
        left, right = channel_levels_db(audio, start_ms, end_ms)
        if abs(left - right) < min_difference_db:
            return None
        return names[0] if left > right else names[1]

    out: list[Segment] = []
    for seg in segments:
        if not seg.words:
            out.append(replace(seg, speaker=louder(seg.start_ms, seg.end_ms) or seg.speaker))
            continue
        out.extend(_split_by_voice(seg, [louder(w.start_ms, w.end_ms) for w in seg.words]))
    return _join_broken_sentences(out)


def _join_broken_sentences(segments: list[Segment], max_gap_ms: int = 250) -> list[Segment]:
    """Rejoin one speaker's sentence that Whisper's windows cut in two ("...How" + "have you been...")."""
    out: list[Segment] = []
    for seg in segments:
        prev = out[-1] if out else None
        if (prev is not None and seg.speaker is not None and prev.speaker == seg.speaker
                and seg.start_ms - prev.end_ms <= max_gap_ms and not prev.text.rstrip().endswith((".", "?", "!"))):
            words = (prev.words or []) + (seg.words or []) if prev.words and seg.words else None
            out[-1] = Segment(prev.start_ms, seg.end_ms, prev.speaker, f"{prev.text.rstrip()} {seg.text.lstrip()}",
                              words)
        else:
            out.append(seg)
    return out


def _split_by_voice(seg: Segment, voices: list[str | None]) -> list[Segment]:
    """Runs of words with the same voice; an undecided word joins the run before it (or after)."""
    known = [v for v in voices if v is not None]
    if not known:
        return [replace(seg)]
    filled, last = [], known[0]
    for voice in voices:
        last = voice or last
        filled.append(last)
    runs: list[tuple[str, list]] = []
    for word, voice in zip(seg.words, filled):
        if runs and runs[-1][0] == voice:
            runs[-1][1].append(word)
        else:
            runs.append((voice, [word]))
    if len(runs) == 1:
        return [replace(seg, speaker=runs[0][0])]
    pieces = []
    for i, (voice, words) in enumerate(runs):
        start = seg.start_ms if i == 0 else words[0].start_ms
        end = seg.end_ms if i == len(runs) - 1 else words[-1].end_ms
        text = " ".join(w.text.strip() for w in words if w.text.strip())
        pieces.append(Segment(start, max(end, start), voice, text, list(words)))
    return pieces
