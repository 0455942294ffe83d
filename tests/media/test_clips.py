"""Clips are cut with context, encoded small, play back, and are silent where muted."""

from __future__ import annotations

import io
from fractions import Fraction
from pathlib import Path

import av
import numpy as np
import pytest

from desktop.media.clips import (CLIP_MIME_TYPE, ClipError, clip_bounds, cut_clip)

TONE_HZ = 440.0


def _write_tone(path: Path, seconds: float, rate: int, codec: str, container: str,
                with_video: bool = False) -> None:
    """A stereo 440 Hz tone (and optionally a video stream), written with PyAV."""
    total = int(seconds * rate)
    t = np.arange(total) / rate
    tone = (0.5 * np.sin(2 * np.pi * TONE_HZ * t)).astype(np.float32)
    with av.open(str(path), mode="w", format=container) as out:
        if with_video:
            video = out.add_stream("mpeg4", rate=10)
            video.width, video.height, video.pix_fmt = 64, 48, "yuv420p"
        audio = out.add_stream(codec, rate=rate, layout="stereo")
        frame_size = audio.codec_context.frame_size or 1024
        fmt = audio.codec_context.format.name
        for index, begin in enumerate(range(0, total, frame_size)):
            block = tone[begin:begin + frame_size]
            if len(block) < frame_size and codec != "pcm_s16le":
                block = np.concatenate([block, np.zeros(frame_size - len(block), np.float32)])
            if fmt == "s16":
                frame = av.AudioFrame.from_ndarray(
                    np.repeat((block * 32767).astype(np.int16)[None, :], 2, axis=0).T.reshape(1, -1),
                    format="s16", layout="stereo")
            else:  # planar float (fltp), as AAC wants
                frame = av.AudioFrame.from_ndarray(np.vstack([block, block]), format=fmt, layout="stereo")
            frame.sample_rate = rate
            frame.pts = begin
            frame.time_base = Fraction(1, rate)
            for packet in audio.encode(frame):
                out.mux(packet)
        for packet in audio.encode(None):
            out.mux(packet)
        if with_video:
            for i in range(int(seconds * 10)):
                image = av.VideoFrame.from_ndarray(np.full((48, 64, 3), i % 255, np.uint8), format="rgb24")
                image.pts = i
                for packet in video.encode(image):
                    out.mux(packet)
            for packet in video.encode(None):
                out.mux(packet)


@pytest.fixture(scope="module")
def tone_wav(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("media") / "tone.wav"
    _write_tone(path, 12.0, 44100, "pcm_s16le", "wav")
    return path


def _decode(clip: bytes) -> tuple[np.ndarray, int, str]:
    with av.open(io.BytesIO(clip)) as container:
        stream = container.streams.audio[0]
        chunks = [frame.to_ndarray().reshape(-1) for frame in container.decode(stream)]
        return np.concatenate(chunks), stream.rate, stream.codec_context.name


def _rms(samples: np.ndarray) -> float:
    return float(np.sqrt(np.mean(np.square(samples.astype(np.float64)))))


def test_clip_has_the_moment_plus_context_and_plays(tone_wav: Path):
    clip = cut_clip(tone_wav, 4000, 6000, context_ms=1500)
    samples, rate, codec = _decode(clip)
    assert CLIP_MIME_TYPE == "audio/ogg" and codec == "opus"
    assert rate == 48000
    duration_ms = len(samples) * 1000 / rate
    assert abs(duration_ms - 5000) <= 40  # 5 s of audio, give or take one padded Opus frame
    assert _rms(samples[rate // 10: -rate // 10]) > 0.2  # the tone is there
    assert len(clip) < 40_000  # small enough to embed a dozen in one page


def test_muted_spans_are_silent_and_the_rest_is_not(tone_wav: Path):
    clip = cut_clip(tone_wav, 4000, 6000, context_ms=1000, mute=[(4500, 5200), (6800, 9000)])
    samples, rate, _ = _decode(clip)
    at = lambda ms: int((ms - 3000) * rate / 1000)  # clip starts at 3000 ms  # noqa: E731
    margin = int(0.03 * rate)  # a lossy codec smears a few ms across the edges
    muted = samples[at(4500) + margin: at(5200) - margin]
    assert np.max(np.abs(muted)) < 0.01
    tail = samples[at(6800) + margin:]
    assert len(tail) > rate * 0.1 and np.max(np.abs(tail)) < 0.01
    assert _rms(samples[at(3100): at(4400)]) > 0.2
    assert _rms(samples[at(5300): at(6700)]) > 0.2


def test_clip_at_the_start_and_end_is_cut_short(tone_wav: Path):
    samples, rate, _ = _decode(cut_clip(tone_wav, 500, 1000, context_ms=3000))
    assert abs(len(samples) * 1000 / rate - 4000) <= 40
    samples, rate, _ = _decode(cut_clip(tone_wav, 11000, 11800, context_ms=3000, duration_ms=12000))
    assert abs(len(samples) * 1000 / rate - 4000) <= 40
    samples, rate, _ = _decode(cut_clip(tone_wav, 11000, 11800, context_ms=3000))  # media ends first
    assert abs(len(samples) * 1000 / rate - 4000) <= 40
    assert clip_bounds(500, 1000, 3000) == (0, 4000)


def test_clip_from_a_video_with_compressed_audio(tmp_path: Path):
    video = tmp_path / "call.mp4"
    _write_tone(video, 8.0, 48000, "aac", "mp4", with_video=True)
    samples, rate, _ = _decode(cut_clip(video, 3000, 4000, context_ms=1000, sample_rate=24000))
    assert rate == 48000  # Opus always decodes at 48 kHz; the clip itself was made at 24 kHz
    assert abs(len(samples) * 1000 / rate - 3000) <= 60
    assert _rms(samples[rate // 10: -rate // 10]) > 0.2


def test_bad_media_and_bad_spans_are_named(tmp_path: Path, tone_wav: Path):
    junk = tmp_path / "junk.mp4"
    junk.write_bytes(b"not a media file" * 100)
    with pytest.raises(ClipError, match=r"junk\.mp4: cannot cut a clip: cannot open the media"):
        cut_clip(junk, 0, 1000)
    with pytest.raises(ClipError, match="not a valid span"):
        cut_clip(tone_wav, 2000, 1000)
    with pytest.raises(ClipError, match="no audio between"):
        cut_clip(tone_wav, 60000, 61000, context_ms=0)
