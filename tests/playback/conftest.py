"""Real libvlc (dummy outputs) on short generated recordings."""

from __future__ import annotations

import time
import wave
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import pytest

from desktop.playback.player import HEADLESS_OPTIONS, TICK_INTERVAL_MS, Player

TONE_HZ = 440.0
TONE_SAMPLE_RATE = 16_000
TONE_SECONDS = 10


def write_tone(path: Path, seconds: float, hz: float = TONE_HZ, rate: int = TONE_SAMPLE_RATE) -> Path:
    t = np.arange(int(seconds * rate)) / rate
    samples = (0.4 * 32767 * np.sin(2 * np.pi * hz * t)).astype("<i2")
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(rate)
        out.writeframes(samples.tobytes())
    return path


@pytest.fixture(scope="session")
def tone_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_tone(tmp_path_factory.mktemp("media") / "call tone.wav", TONE_SECONDS)


@pytest.fixture
def player() -> Iterator[Player]:
    p = Player(HEADLESS_OPTIONS)
    yield p
    p.release()


def run_for(player: Player, seconds: float) -> None:
    """Tick like the GUI's timer does, for a while."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        player.tick()
        time.sleep(TICK_INTERVAL_MS / 1000)


def wait_until(player: Player, condition: Callable[[], bool], timeout: float = 5.0) -> None:
    end = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > end:
            raise AssertionError(f"timed out after {timeout} s; player state {player.state}")
        player.tick()
        time.sleep(TICK_INTERVAL_MS / 1000)
