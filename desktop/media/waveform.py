"""Waveform peaks for the timeline: computed once per recording, then read from a cache.

Peaks are the loudest absolute sample in each bucket (100 a second by
default), per channel for mono and stereo files, so a dialer recording shows
the rep (left) and the customer (right) apart. Decoding is the slow part, so
the result is cached on disk under the recording's SHA-256: the same call
never decodes twice, even if the file moves.
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import av

PEAKS_PER_SECOND = 100
CACHE_VERSION = 1
_BLOCK_SECONDS = 20  # decoded audio is reduced in blocks this long: few numpy calls, little memory
_SHA256 = re.compile(r"^[0-9a-f]{64}$")

# progress(ms_done, ms_total); raise from it to stop.
PeaksProgress = Callable[[int, int], None]


@dataclass(frozen=True)
class Peaks:
    """Absolute peak per bucket, 0.0–1.0, shape (channels, buckets); channels is 1 or 2."""

    per_second: int
    duration_ms: int
    channels: np.ndarray

    @property
    def mix(self) -> np.ndarray:
        """One row for the whole recording: the louder channel in each bucket."""
        return self.channels.max(axis=0)

    def __len__(self) -> int:
        return int(self.channels.shape[1])

    def bucket_at(self, ms: int) -> int:
        return min(max(0, ms * self.per_second // 1000), max(0, len(self) - 1))


def cache_path(cache_dir: str | os.PathLike[str], sha256: str, per_second: int = PEAKS_PER_SECOND) -> Path:
    if not _SHA256.match(sha256 or ""):
        raise ValueError(f"not a SHA-256 hex digest: {sha256!r}")
    return Path(cache_dir) / f"{sha256}.peaks-v{CACHE_VERSION}-{per_second}.npz"


def load_or_compute(path: str | os.PathLike[str], sha256: str, cache_dir: str | os.PathLike[str],
                    progress: PeaksProgress | None = None, per_second: int = PEAKS_PER_SECOND) -> Peaks:
    """Peaks from the cache if there, else decoded from the file and cached (atomic write)."""
    target = cache_path(cache_dir, sha256, per_second)
    cached = read_cache(target)
    if cached is not None and cached.per_second == per_second:
        return cached
    peaks = compute_peaks(path, per_second=per_second, progress=progress)
    write_cache(target, peaks)
    return peaks


def read_cache(target: Path) -> Peaks | None:
    """The cached peaks, or None when missing or unreadable (it is then simply recomputed)."""
    try:
        with np.load(target, allow_pickle=False) as data:
            if int(data["version"]) != CACHE_VERSION:
                return None
            quantized = data["peaks"]
            per_second = int(data["per_second"])
            duration_ms = int(data["duration_ms"])
    except (OSError, ValueError, KeyError, EOFError):
        return None
    if quantized.dtype != np.uint8 or quantized.ndim != 2:
        return None
    return Peaks(per_second, duration_ms, quantized.astype(np.float32) / 255.0)


def write_cache(target: Path, peaks: Peaks) -> None:
    """Write to a temporary file beside the target, then rename: a reader never sees half a file."""
    target.parent.mkdir(parents=True, exist_ok=True)
    # uint8 is ample for drawing and keeps a 2-hour stereo call near 1 MB before compression.
    quantized = np.rint(np.clip(peaks.channels, 0.0, 1.0) * 255.0).astype(np.uint8)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=target.name, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            np.savez_compressed(fh, version=np.int64(CACHE_VERSION), peaks=quantized,
                                per_second=np.int64(peaks.per_second),
                                duration_ms=np.int64(peaks.duration_ms))
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def compute_peaks(path: str | os.PathLike[str], per_second: int = PEAKS_PER_SECOND,
                  progress: PeaksProgress | None = None) -> Peaks:
    """Decode the first audio stream once and reduce it to peaks; MediaError for a bad file."""
    if per_second <= 0:
        raise ValueError("per_second must be positive")
    import av  # only to compute: reading the cache (every open after the first) needs numpy alone
    import av.error

    from desktop.media.probe import MediaError, probe

    info = probe(path)
    reducer: _PeakReducer | None = None
    try:
        with av.open(str(path), metadata_errors="ignore") as container:
            audio = container.streams.audio[0]
            # Frames only go into a FIFO here (in C); conversion and reduction
            # run once per block, because per-frame numpy work costs as much as decoding.
            fifo = av.AudioFifo()
            key = None
            block = 0
            for frame in container.decode(audio):
                frame.pts = None  # the FIFO insists on contiguous timestamps; we count samples
                try:
                    fifo.write(frame)
                except ValueError:
                    # The format, layout or rate changed mid-stream (the FIFO refuses
                    # to mix them): reduce what we have and start a new FIFO.
                    _drain(fifo, reducer, key)
                    fifo, key = av.AudioFifo(), None
                    fifo.write(frame)
                if key is None:
                    key = (frame.format.name, frame.layout.nb_channels, frame.sample_rate)
                    if reducer is None:
                        reducer = _PeakReducer(frame.sample_rate, per_second)
                        block = reducer.block_samples
                if fifo.samples >= block:
                    _drain(fifo, reducer, key)
                    if progress is not None:
                        progress(min(reducer.done_ms, info.duration_ms), info.duration_ms)
            _drain(fifo, reducer, key)
    except (av.error.FFmpegError, EOFError) as exc:
        raise MediaError(path, f"audio can't be decoded for the waveform ({exc})") from None
    if reducer is None:
        raise MediaError(path, "is truncated or damaged: no audio could be decoded")
    if progress is not None:
        progress(info.duration_ms, info.duration_ms)
    return Peaks(per_second, info.duration_ms, reducer.result())


_INT_SCALE = {"u8": 128.0, "s16": 32768.0, "s32": 2147483648.0, "s64": 9223372036854775808.0}


def _drain(fifo: av.AudioFifo, reducer: _PeakReducer | None, key: tuple | None) -> None:
    if reducer is None or key is None or not fifo.samples:
        return
    frame = fifo.read()
    reducer.add(_as_float(frame.to_ndarray(), key[0], key[1]))


def _as_float(samples: np.ndarray, fmt: str, channels: int) -> np.ndarray:
    """Decoded samples (packed or planar, any sample format) as float32 of shape (channels, samples)."""
    base = fmt.rstrip("p")
    if fmt.endswith("p") or channels == 1:
        block = samples.reshape(channels, -1)
    else:  # packed: to_ndarray gives (1, samples * channels), interleaved
        block = samples.reshape(-1, channels).T
    if base in _INT_SCALE:
        scale = _INT_SCALE[base]
        block = block.astype(np.float32)
        if base == "u8":
            block -= 128.0
        return block / scale
    return block.astype(np.float32, copy=False)


class _PeakReducer:
    """Folds blocks of float samples into per-bucket absolute peaks, bucket edges exact for any rate."""

    def __init__(self, sample_rate: int, per_second: int) -> None:
        self.rate = sample_rate
        self.per_second = per_second
        self.block_samples = sample_rate * _BLOCK_SECONDS
        self.samples_seen = 0
        self.parts: list[np.ndarray] = []
        self.first_bucket: list[int] = []

    @property
    def done_ms(self) -> int:
        return self.samples_seen * 1000 // self.rate

    def add(self, block: np.ndarray) -> None:
        if block.shape[0] > 2:
            block = np.abs(block).max(axis=0, keepdims=True)  # surround: one row is enough to draw
        else:
            block = np.abs(block)
        n = block.shape[1]
        if n == 0:
            return
        start = self.samples_seen
        k0 = start * self.per_second // self.rate
        k1 = (start + n - 1) * self.per_second // self.rate
        # sample s belongs to bucket floor(s * per_second / rate); bucket k starts at ceil(k * rate / per_second)
        ks = np.arange(k0 + 1, k1 + 1, dtype=np.int64)
        edges = np.concatenate(([0], -((-ks * self.rate) // self.per_second) - start))
        peaks = np.maximum.reduceat(block, edges, axis=1).astype(np.float32)
        if self.parts and self.first_bucket[-1] + self.parts[-1].shape[1] - 1 == k0:
            # the previous block's last bucket continues into this one
            prev = self.parts[-1]
            if prev.shape[0] == peaks.shape[0]:
                prev[:, -1] = np.maximum(prev[:, -1], peaks[:, 0])
                peaks = peaks[:, 1:]
                k0 += 1
        if peaks.shape[1]:
            self.parts.append(peaks)
            self.first_bucket.append(k0)
        self.samples_seen += n

    def result(self) -> np.ndarray:
        if not self.parts:
            return np.zeros((1, 0), dtype=np.float32)
        rows = max(p.shape[0] for p in self.parts)
        parts = [p if p.shape[0] == rows else np.repeat(p, rows, axis=0) for p in self.parts]
        return np.clip(np.concatenate(parts, axis=1), 0.0, 1.0)
