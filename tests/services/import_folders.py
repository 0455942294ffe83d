"""Folders laid out as coaches receive them, made from the demo call and tiny generated recordings.

`python -m tests.services.import_folders OUT` writes them for a look by hand. Layouts:

- a Zoom cloud-recording download: a folder per meeting (`2026-11-20 15.00.00 Discovery Acme`)
  with `audio<id>.m4a` and its `.vtt`, or `GMT<date>-<time>_Recording.m4a`, its
  `.transcript.vtt` and the meeting's video copy;
- a Teams export: `<title>-<date>_<time>-Meeting Recording.mp4` and `<title>.vtt` (voice tags);
- a dialer's night: stereo recordings with the date in the name (rep left, customer right),
  a broken file and a copy of a recording already there.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import av
import numpy as np

REPO = Path(__file__).resolve().parents[2]
DEMO = REPO / "resources" / "demo" / "acme-discovery.ogg"
SCRIPT = REPO / "resources" / "demo" / "acme-discovery.script.json"

ZOOM_MEETING = "2026-11-20 15.00.00 Discovery Acme"
ZOOM_GMT_MEETING = "2026-11-21 09.30.00 Pricing Globex"
TEAMS_FILE = "Discovery Initech-20261122_140000-Meeting Recording.mp4"
DIALER_FILE = "20261123-101500_outbound_5551234.ogg"


def _ts(ms: int) -> str:
    h, rest = divmod(ms, 3_600_000)
    m, rest = divmod(rest, 60_000)
    s, ms = divmod(rest, 1000)
    return f"{h:02d}:{m:02d}:{s:02d}.{ms:03d}"


def demo_lines() -> list[dict]:
    return json.loads(SCRIPT.read_text())["lines"]


def zoom_vtt(lines: list[dict]) -> str:
    """Zoom's shape: a cue number, then `Name: text`."""
    out = ["WEBVTT", ""]
    for i, ln in enumerate(lines, 1):
        out += [str(i), f"{_ts(ln['start_ms'])} --> {_ts(ln['end_ms'])}", f"{ln['speaker']}: {ln['text']}", ""]
    return "\n".join(out)


def teams_vtt(lines: list[dict]) -> str:
    """Teams' shape: a cue id, then `<v Name>text</v>`."""
    out = ["WEBVTT", ""]
    for i, ln in enumerate(lines):
        out += [f"a1b2c3/{i}-0", f"{_ts(ln['start_ms'])} --> {_ts(ln['end_ms'])}",
                f"<v {ln['speaker']}>{ln['text']}</v>", ""]
    return "\n".join(out)


def write_samples(path: Path, samples: np.ndarray, rate: int, fmt: str, codec: str, video: bool = False) -> Path:
    """float32 (channels, n) samples written with PyAV (the same FFmpeg the app reads with)."""
    samples = np.atleast_2d(samples).astype(np.float32)
    layout = "stereo" if samples.shape[0] == 2 else "mono"
    with av.open(str(path), "w", format=fmt) as container:
        stream = container.add_stream(codec, rate=rate, layout=layout)
        vstream = None
        if video:
            vstream = container.add_stream("mpeg4", rate=5)
            vstream.width, vstream.height, vstream.pix_fmt = 64, 48, "yuv420p"
        frame = av.AudioFrame.from_ndarray(np.ascontiguousarray(samples), format="fltp", layout=layout)
        frame.sample_rate = rate
        resampler = av.AudioResampler(format=stream.codec_context.format.name, layout=layout, rate=rate,
                                      frame_size=stream.codec_context.frame_size or 1024)
        for chunk in list(resampler.resample(frame)) + list(resampler.resample(None)):
            chunk.pts = None
            for packet in stream.encode(chunk):
                container.mux(packet)
        for packet in stream.encode(None):
            container.mux(packet)
        if vstream is not None:
            for i in range(int(samples.shape[1] / rate * 5)):
                picture = av.VideoFrame.from_ndarray(np.zeros((48, 64, 3), np.uint8), format="rgb24")
                picture.pts = i
                for packet in vstream.encode(picture):
                    container.mux(packet)
            for packet in vstream.encode(None):
                container.mux(packet)
    return path


def tone(seconds: float, rate: int, hz: float, amplitude: float = 0.3) -> np.ndarray:
    t = np.arange(int(seconds * rate)) / rate
    return (amplitude * np.sin(2 * np.pi * hz * t)).astype(np.float32)


def demo_samples(rate: int = 16_000, seconds: float | None = None) -> np.ndarray:
    """The demo call decoded to (2, n) float32 (rep left, customer right)."""
    chunks = []
    with av.open(str(DEMO)) as container:
        resampler = av.AudioResampler(format="fltp", layout="stereo", rate=rate)
        for frame in container.decode(container.streams.audio[0]):
            chunks.extend(out.to_ndarray() for out in resampler.resample(frame))
    audio = np.concatenate(chunks, axis=1)
    return audio if seconds is None else audio[:, : int(seconds * rate)]


def make_zoom(root: Path) -> Path:
    """Two meetings: audio<id>.m4a with the meeting's vtt; GMT…_Recording.m4a, its vtt and the video copy."""
    lines = demo_lines()
    one = root / "zoom" / ZOOM_MEETING
    one.mkdir(parents=True, exist_ok=True)
    mono = demo_samples(seconds=40).mean(axis=0, keepdims=True)
    write_samples(one / "audio1234567890.m4a", mono, 16_000, "mp4", "aac")
    (one / "audio1234567890_transcript.vtt").write_text(zoom_vtt([ln for ln in lines if ln["end_ms"] <= 40_000]))
    (one / "playback.m3u").write_text("#EXTM3U\n")
    two = root / "zoom" / ZOOM_GMT_MEETING
    two.mkdir(parents=True, exist_ok=True)
    pitch = tone(6, 16_000, 330)[None, :]
    write_samples(two / "GMT20261121-093000_Recording.m4a", pitch, 16_000, "mp4", "aac")
    write_samples(two / "GMT20261121-093000_Recording_640x360.mp4", pitch, 16_000, "mp4", "aac", video=True)
    (two / "GMT20261121-093000_Recording.transcript.vtt").write_text(zoom_vtt(lines[:3]))
    return root / "zoom"


def make_teams(root: Path) -> Path:
    folder = root / "teams"
    folder.mkdir(parents=True, exist_ok=True)
    write_samples(folder / TEAMS_FILE, tone(5, 16_000, 550)[None, :], 16_000, "mp4", "aac", video=True)
    (folder / "Discovery Initech.vtt").write_text(teams_vtt(demo_lines()[:4]))
    return folder


def make_dialer(root: Path) -> Path:
    """The demo call as the dialer left it, a short stereo call, a broken file and a copy."""
    folder = root / "dialer" / "2026-11-23"
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(DEMO, folder / DIALER_FILE)
    stereo = np.stack([tone(4, 8_000, 440), tone(4, 8_000, 660) * 0.1])
    write_samples(folder / "2026-11-23_11-02-30_inbound_5559876.wav", stereo, 8_000, "wav", "pcm_s16le")
    (folder / "20261123-120000_outbound_broken.wav").write_bytes(b"RIFF\x00\x00\x00\x00not audio at all" * 8)
    copies = root / "dialer" / "resent"
    copies.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(DEMO, copies / "20261123-101500_outbound_5551234 (1).ogg")
    return root / "dialer"


def make_all(root: Path) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    make_zoom(root)
    make_teams(root)
    make_dialer(root)
    return root


if __name__ == "__main__":
    print(make_all(Path(sys.argv[1] if len(sys.argv) > 1 else "import-sample")))
