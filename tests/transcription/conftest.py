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


#: what each part of the long call says first, so no two parts are the same words: Whisper reading one clip said
#: again and again can lose its place and skip the rest of the recording (seen on an AMD processor's oneDNN)
OPENINGS = [
    "Part one. Our warehouse team ships about four hundred orders a day.",
    "Part two. The routing system was installed three years ago.",
    "Part three. Monday mornings are the worst for late deliveries.",
    "Part four. Two analysts build the carrier report by hand.",
    "Part five. The retail accounts want live tracking this spring.",
    "Part six. Our finance director reviews every new contract.",
    "Part seven. We tried a free dashboard tool last year.",
    "Part eight. Peak season starts early in October.",
]


@pytest.fixture(scope="session")
def long_call(speech_dir: Path) -> Path:
    """About 110 s: long enough to cancel mid-way, after the first window; eight parts, each its own opening and
    then the short call's lines."""
    parts = [speak(f"{opening} {' '.join(LINES)}", speech_dir / f"part{n}.wav") for n, opening in enumerate(OPENINGS)]
    out = speech_dir / "long.wav"
    subprocess.run(["sox", *map(str, parts), str(out)], check=True)
    return out
