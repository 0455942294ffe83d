"""Waveform peaks against plain decoding of the same file, side by side.

peaks_ratio = compute_peaks time / a bare PyAV decode loop over the same file
(the floor: peaks cannot be cheaper than decoding once). peaks_cached_ms is the
second open of the same call, served from the cache next to the store.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

import av
import numpy as np

from desktop.media.hashing import sha256_file
from desktop.media.waveform import compute_peaks, load_or_compute
from tests.media.conftest import write_audio


def _speechlike(seconds: int, rate: int) -> np.ndarray:
    rng = np.random.default_rng(3)
    noise = rng.standard_normal((2, seconds * rate)).astype(np.float32) * 0.1
    envelope = (np.sin(np.linspace(0, seconds * 1.3, seconds * rate)) > 0).astype(np.float32)
    noise[0] *= envelope
    noise[1] *= 1 - envelope
    return noise


def _decode_only(path: Path) -> None:
    with av.open(str(path)) as container:
        for _ in container.decode(container.streams.audio[0]):
            pass


def run(quick: bool) -> dict[str, float]:
    seconds = 120 if quick else 600
    rate = 16000
    with tempfile.TemporaryDirectory() as tmp:
        media = write_audio(Path(tmp) / "call.mp3", _speechlike(seconds, rate), rate, "mp3", "libmp3lame",
                            bit_rate=64000)
        peaks_s, decode_s = [], []
        for _ in range(3):
            t = time.perf_counter()
            _decode_only(media)
            decode_s.append(time.perf_counter() - t)
            t = time.perf_counter()
            compute_peaks(media)
            peaks_s.append(time.perf_counter() - t)
        digest = sha256_file(media)
        cache = Path(tmp) / "cache"
        load_or_compute(media, digest, cache)
        t = time.perf_counter()
        load_or_compute(media, digest, cache)
        cached_ms = (time.perf_counter() - t) * 1000
    peaks, decode = statistics.median(peaks_s), statistics.median(decode_s)
    return {
        "peaks_s_per_10min": round(peaks * 600 / seconds, 3),
        "peaks_ratio": round(peaks / decode, 3),
        "peaks_cached_ms": round(cached_ms, 2),
    }


if __name__ == "__main__":
    import json
    import sys

    print(json.dumps(run("--quick" in sys.argv), indent=2))
