"""Real media files for the media tests, written with PyAV (the same FFmpeg the app reads with)."""

from __future__ import annotations

import io
from pathlib import Path

import av
import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[2]
DEMO_AUDIO = REPO / "resources" / "demo" / "acme-discovery.ogg"
DEMO_SCRIPT = REPO / "resources" / "demo" / "acme-discovery.script.json"


class _NoSeek(io.RawIOBase):
    """A write-only stream FFmpeg can't seek back in: the muxer can't fill in the length (a live recording)."""

    def __init__(self, fh) -> None:
        self.fh = fh

    def writable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return False

    def write(self, b) -> int:
        return self.fh.write(b)


def tone(seconds: float, rate: int, amplitude: float = 0.3, hz: float = 440.0) -> np.ndarray:
    t = np.arange(int(round(seconds * rate))) / rate
    return (amplitude * np.sin(2 * np.pi * hz * t)).astype(np.float32)


def write_audio(path: Path, samples: np.ndarray, rate: int, fmt: str, codec: str,
                bit_rate: int | None = None, video: bool = False, seekable: bool = True) -> Path:
    """samples: float32 (channels, n) in -1..1."""
    samples = np.atleast_2d(samples).astype(np.float32)
    layout = "stereo" if samples.shape[0] == 2 else "mono"
    with open(path, "wb") as fh:
        target = fh if seekable else _NoSeek(fh)
        with av.open(target, "w", format=fmt) as container:
            stream = container.add_stream(codec, rate=rate, layout=layout)
            if bit_rate:
                stream.bit_rate = bit_rate
            vstream = None
            if video:
                vstream = container.add_stream("mpeg4", rate=10)
                vstream.width, vstream.height, vstream.pix_fmt = 64, 48, "yuv420p"
            frame = av.AudioFrame.from_ndarray(np.ascontiguousarray(samples), format="fltp", layout=layout)
            frame.sample_rate = rate
            frame.pts = None
            resampler = av.AudioResampler(format=stream.codec_context.format.name, layout=layout, rate=rate,
                                          frame_size=stream.codec_context.frame_size or 1024)
            for chunk in list(resampler.resample(frame)) + list(resampler.resample(None)):
                chunk.pts = None
                for packet in stream.encode(chunk):
                    container.mux(packet)
            for packet in stream.encode(None):
                container.mux(packet)
            if vstream is not None:
                for i in range(int(samples.shape[1] / rate * 10)):
                    picture = av.VideoFrame.from_ndarray(np.zeros((48, 64, 3), np.uint8), format="rgb24")
                    picture.pts = i
                    for packet in vstream.encode(picture):
                        container.mux(packet)
                for packet in vstream.encode(None):
                    container.mux(packet)
    return path


def write_video_only(path: Path, seconds: int = 2) -> Path:
    with av.open(str(path), "w", format="mp4") as container:
        vstream = container.add_stream("mpeg4", rate=10)
        vstream.width, vstream.height, vstream.pix_fmt = 64, 48, "yuv420p"
        for i in range(seconds * 10):
            picture = av.VideoFrame.from_ndarray(np.zeros((48, 64, 3), np.uint8), format="rgb24")
            picture.pts = i
            for packet in vstream.encode(picture):
                container.mux(packet)
        for packet in vstream.encode(None):
            container.mux(packet)
    return path


def cut(src: Path, dst: Path, nbytes: int) -> Path:
    dst.write_bytes(src.read_bytes()[:nbytes])
    return dst


@pytest.fixture(scope="session")
def media_dir(tmp_path_factory) -> Path:
    """One set of 20-second recordings in the formats coaches get, shared by the media tests."""
    d = tmp_path_factory.mktemp("media")
    stereo = np.stack([tone(20, 44100, 0.3), tone(20, 44100, 0.3, 660)])
    write_audio(d / "call.mp3", stereo, 44100, "mp3", "libmp3lame", 128_000)
    write_audio(d / "call.wav", stereo, 44100, "wav", "pcm_s16le")
    write_audio(d / "call.ogg", np.stack([tone(20, 48000), tone(20, 48000, 0.3, 660)]), 48000, "ogg",
                "libopus", 64_000)
    write_audio(d / "call.m4a", tone(20, 32000)[None, :], 32000, "mp4", "aac", 48_000)
    write_audio(d / "zoom.mp4", stereo, 44100, "mp4", "aac", 96_000, video=True)
    write_audio(d / "live.webm", tone(20, 48000)[None, :], 48000, "webm", "libopus", 32_000, seekable=False)
    write_video_only(d / "screen-only.mp4")
    return d
