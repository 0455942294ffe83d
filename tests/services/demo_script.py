"""The demo call's script (resources/demo/acme-discovery.script.json) as a Zoom-style VTT, for tests."""

from __future__ import annotations

import json
from pathlib import Path

from desktop import paths


def script_lines() -> list[dict]:
    return json.loads(paths.DEMO_SCRIPT.read_text(encoding="utf-8"))["lines"]


def _stamp(ms: int) -> str:
    return f"{ms // 3_600_000:02d}:{ms // 60_000 % 60:02d}:{ms // 1000 % 60:02d}.{ms % 1000:03d}"


def write_script_vtt(path: Path, *, shift_ms: int = 0, replace: dict[int, str] | None = None) -> Path:
    """The script's lines as cues 1, 2, 3... 'Riley: ...' / 'Casey: ...' (times moved by shift_ms)."""
    out = ["WEBVTT", ""]
    for n, line in enumerate(script_lines(), start=1):
        text = (replace or {}).get(line["index"], line["text"])
        out += [str(n), f"{_stamp(line['start_ms'] + shift_ms)} --> {_stamp(line['end_ms'] + shift_ms)}",
                f"{line['speaker']}: {text}", ""]
    path.write_text("\n".join(out), encoding="utf-8")
    return path


# What the issue asks the finder to find on the demo call: (label, words in the quote, speaker in the script)
DEMO_EXPECTED = [
    ("deferral", "Just send me some information", "Casey"),
    ("deferral_accepted", "Sure, I'll send that over today", "Riley"),
    ("economic_buyer", "finance director", "Casey"),
    ("missed_follow_up", "Do you use any other reporting tools today?", "Riley"),
    ("rep_question_leading", "you'd like real time dashboards, right?", "Riley"),
    ("rep_question_closed", "Would you like to see a demo next week?", "Riley"),
]
