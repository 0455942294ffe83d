"""Mark accuracy: |mark - true media position| with the real libvlc.

The player plays a generated tone with the dummy audio output at 1x and at
1.5x while a GUI-like loop ticks it every 20 ms and takes marks (reaction
delay 0: the delay is a deliberate offset, not an error) at random instants.
Each mark is compared with the *true* media position at the same instant.

The true position is measured independently of the clock under test: a
separate thread polls ``get_time()`` every half millisecond and records the
instant each new value appears. Over a run of steady playback those
(instant, value) points lie on one straight line, position = a + rate * t
(the dummy output consumes audio in real time), so a least-squares line fitted
through *all* of them is the media's timeline, free of the 250-300 ms steps
and of any single update's jitter. The clock only ever sees one update at a
time, by a different route (VLC's TimeChanged event), and has to extrapolate
from it; the naive figure is ``get_time()`` read at the mark instant.
``mark_reference_residual_ms_p95`` says how well the line fits VLC's own
updates (small = the reference is sound).

Run alone: ``.venv/bin/python -m tests.benchmarks.bench_mark [--quick]``.
"""

from __future__ import annotations

import random
import sys
import tempfile
import threading
import time
import wave
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from desktop.playback.player import HEADLESS_OPTIONS, TICK_INTERVAL_MS, Player

RATES = (1.0, 1.5)


def write_tone(path: Path, seconds: float, hz: float = 440.0, rate: int = 16_000) -> Path:
    """A plain sine WAV: real decodable audio, no external tool needed."""
    t = np.arange(int(seconds * rate)) / rate
    samples = (0.4 * 32767 * np.sin(2 * np.pi * hz * t)).astype("<i2")
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(rate)
        out.writeframes(samples.tobytes())
    return path


@dataclass
class MarkRun:
    """Errors in ms of the marks taken during one steady run."""

    rate: float
    clock_ms: np.ndarray = field(default_factory=lambda: np.zeros(0))
    naive_ms: np.ndarray = field(default_factory=lambda: np.zeros(0))
    residual_ms: np.ndarray = field(default_factory=lambda: np.zeros(0))
    fitted_rate: float = 0.0


def measure_marks(media: Path, rate: float, seconds: float, *, settle_s: float = 1.0,
                  seed: int = 0) -> MarkRun:
    """Play ``media`` at ``rate`` for ``settle_s + seconds``; mark at random instants."""
    rng = random.Random(seed)
    player = Player(HEADLESS_OPTIONS)
    updates: list[tuple[float, int]] = []
    stop = threading.Event()

    def watch_vlc() -> None:
        last = None
        while not stop.is_set():
            value = player.vlc_time_ms()
            if value != last:
                updates.append((time.monotonic(), value))
                last = value
            time.sleep(0.0005)

    marks: list[tuple[float, int, int]] = []  # instant, clock mark, naive get_time()
    try:
        player.load(media)
        player.set_rate(rate)
        player.play()
        watcher = threading.Thread(target=watch_vlc, daemon=True)
        watcher.start()
        started = time.monotonic()
        measure_from = started + settle_s
        end = measure_from + seconds
        next_tick = started
        next_mark = measure_from + rng.uniform(0.0, 0.1)
        while (now := time.monotonic()) < end:
            if now >= next_tick:
                player.tick()
                next_tick = now + TICK_INTERVAL_MS / 1000
            if now >= next_mark:
                before = time.monotonic()
                mark = player.mark_ms(reaction_delay_ms=0)
                naive = player.vlc_time_ms()
                after = time.monotonic()
                marks.append(((before + after) / 2, mark, naive))
                next_mark = now + rng.uniform(0.01, 0.1)
            time.sleep(max(0.0, min(next_tick, next_mark) - time.monotonic()))
        stop.set()
        watcher.join()
    finally:
        stop.set()
        player.release()

    steady = [(t, v) for t, v in updates if measure_from - 0.5 <= t <= end]
    if len(steady) < 4:
        raise RuntimeError(f"VLC reported only {len(steady)} times while playing {media}")
    t = np.array([u[0] for u in steady]) - measure_from
    v = np.array([u[1] for u in steady], dtype=float)
    slope, intercept = np.polyfit(t, v, 1)
    # Only marks inside the fitted span: the reference interpolates, never extrapolates.
    inside = [m for m in marks if steady[0][0] <= m[0] <= steady[-1][0]]
    mt = np.array([m[0] for m in inside]) - measure_from
    true_ms = intercept + slope * mt
    return MarkRun(
        rate=rate,
        clock_ms=np.abs(np.array([m[1] for m in inside]) - true_ms),
        naive_ms=np.abs(np.array([m[2] for m in inside]) - true_ms),
        residual_ms=np.abs(v - (intercept + slope * t)),
        fitted_rate=slope / 1000.0,
    )


def measure_after_seeks(media: Path, seeks: int, *, seed: int = 0) -> list[np.ndarray]:
    """Mark errors (ms) in the first 250 ms after each seek while playing at 1x.

    Until its first update after a seek VLC has said nothing new, so the clock
    can only extrapolate from the seek target; VLC's timeline after a seek
    starts a few tens of ms ahead of it, which the clock learns from the
    first seek on. The reference is the line through the updates from 0.3 s
    to 1.5 s after the seek, extended back.
    """
    rng = random.Random(seed)
    per_seek: list[np.ndarray] = []
    with Player(HEADLESS_OPTIONS, auto_rewind_ms=0) as player:
        player.load(media)
        player.play()
        _tick_for(player, 1.0)
        for _ in range(seeks):
            player.seek(rng.randrange(1000, 8000))
            sought = time.monotonic()
            marks: list[tuple[float, int]] = []
            updates: list[tuple[float, int]] = []
            last = None
            while (now := time.monotonic()) < sought + 1.5:
                player.tick()
                if now < sought + 0.25:
                    marks.append((now, player.mark_ms(reaction_delay_ms=0)))
                value = player.vlc_time_ms()
                if value != last and now >= sought + 0.3:
                    updates.append((now, value))
                last = value
                time.sleep(0.001)
            t = np.array([u[0] for u in updates]) - sought
            slope, intercept = np.polyfit(t, np.array([u[1] for u in updates], dtype=float), 1)
            per_seek.append(np.array([abs(m - (intercept + slope * (at - sought)))
                                      for at, m in marks]))
    return per_seek


def _tick_for(player: Player, seconds: float) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        player.tick()
        time.sleep(TICK_INTERVAL_MS / 1000)


def _p95(values: np.ndarray) -> float:
    return round(float(np.percentile(values, 95)), 1)


def run(quick: bool) -> dict[str, float]:
    seconds = 5.0 if quick else 20.0
    figures: dict[str, float] = {}
    runs: list[MarkRun] = []
    with tempfile.TemporaryDirectory(prefix="callmark-bench-mark-") as folder:
        media = write_tone(Path(folder) / "tone.wav", seconds=(1.5 + seconds) * max(RATES) + 5)
        for i, rate in enumerate(RATES):
            result = measure_marks(media, rate, seconds, seed=i)
            runs.append(result)
            label = f"{rate:g}x".replace(".", "_")
            figures[f"mark_error_ms_p95_{label}"] = _p95(result.clock_ms)
            figures[f"mark_error_naive_ms_p95_{label}"] = _p95(result.naive_ms)
            figures[f"mark_fitted_rate_{label}"] = round(result.fitted_rate, 4)
        after_seeks = measure_after_seeks(media, 6 if quick else 20)
    figures["mark_error_ms_p95"] = _p95(np.concatenate([r.clock_ms for r in runs]))
    figures["mark_error_naive_ms_p95"] = _p95(np.concatenate([r.naive_ms for r in runs]))
    figures["mark_error_ms_max"] = round(float(max(r.clock_ms.max() for r in runs)), 1)
    figures["mark_reference_residual_ms_p95"] = _p95(np.concatenate([r.residual_ms for r in runs]))
    figures["mark_samples"] = float(sum(len(r.clock_ms) for r in runs))
    # The first seek of a session runs on an unlearned lead; the rest show
    # the steady state.
    figures["mark_error_first_seek_ms_p95"] = _p95(after_seeks[0])
    figures["mark_error_after_seek_ms_p95"] = _p95(np.concatenate(after_seeks[1:]))
    return figures


if __name__ == "__main__":
    for key, value in run(quick="--quick" in sys.argv[1:]).items():
        print(f"{key:40s} {value:g}")
