"""Recordings made on the spot with espeak-ng and sox (both on every machine here)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

LINES = [
    "Hi Casey, thanks for making time today.",
    "Just send me some information and I will take a look.",
    "What will you review, and who else needs to be involved in the decision?",
]


def speak(text: str, out: Path, voice: str = "en-us") -> Path:
    raw = out.with_suffix(".raw.wav")
    subprocess.run(["espeak-ng", "-v", voice, "-s", "160", "-w", str(raw), text], check=True)
    subprocess.run(["sox", str(raw), "-r", "16000", "-c", "1", str(out)], check=True)
    raw.unlink()
    return out


@pytest.fixture(scope="session")
def speech_dir(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("speech")


@pytest.fixture(scope="session")
def short_call(speech_dir: Path) -> Path:
    """About 11 s of speech containing the demo call's key phrase."""
    return speak(" ".join(LINES), speech_dir / "short.wav")


@pytest.fixture(scope="session")
def long_call(short_call: Path, speech_dir: Path) -> Path:
    """About 90 s: long enough to cancel mid-way, after the first window."""
    out = speech_dir / "long.wav"
    subprocess.run(["sox", *[str(short_call)] * 8, str(out)], check=True)
    return out
