"""A scripted library across a manager's team, for the queue, the baseline and adoption.

Dana Manager's cycle starts Mon 7 Sep 2026: the baseline is 7–21 Sep (days
1–15), the coaching weeks 7 Oct–20 Nov (days 31–75). Three reps (Riley, Sam,
Jo), and another manager's call (Pat) that must never show. Each call is a
Zoom-style WebVTT imported through the real import path, so the real
detection pass reads it. What each script says, in the method's words:

| call | rep   | day        | what happens                                                     |
|------|-------|------------|------------------------------------------------------------------|
| b1   | Riley | 8 Sep (2)  | the customer defers, Riley accepts it                            |
| b2   | Sam   | 10 Sep (4) | the customer defers, Sam accepts it                              |
| b3   | Jo    | 15 Sep (9) | a next step with a date, agreed                                  |
| c1   | Riley | 13 Oct (37)| the customer defers, Riley asks what they'll review, who else    |
| c2   | Sam   | 15 Oct (39)| the customer defers, Sam accepts it                              |
| c3   | Jo    | 20 Oct (44)| two deferrals: Jo probes the first, accepts the second           |
| c4   | Riley | 27 Oct (51)| a next step with a date, no deferral                             |
| other| Pat   | 9 Sep      | another manager's deferral accepted                              |
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from desktop.services import calls, cycles, transcript_io
from tests.conftest import make_tone

CYCLE_START = "2026-09-07"
MANAGER = "Dana Manager"

DEFER = "That sounds interesting. Just send me some information and I'll look it over."
ACCEPT = "Sure, I'll send that over today."
PROBE = "Happy to. What will you review in it, and who else needs to be involved in the decision?"
DATED = "Can we meet again on Tuesday the 13th at 10 am to go through the proposal?"
AGREED = "Yes, Tuesday the 13th at 10 works for me."
OPEN = "How do you report on the pipeline today?"
ANSWER = "Mostly through the weekly team meeting."  # an answer that names nothing to coach

# (key, rep's full name, rep's first name in the transcript, manager, recorded day, lines (speaker, text))
SCRIPTS = (
    ("b1", "Riley Rep", "Riley", MANAGER, "2026-09-08",
     (("Riley", OPEN), ("Casey", ANSWER), ("Casey", DEFER), ("Riley", ACCEPT))),
    ("b2", "Sam Seller", "Sam", MANAGER, "2026-09-10",
     (("Sam", OPEN), ("Morgan", ANSWER), ("Morgan", DEFER), ("Sam", ACCEPT))),
    ("b3", "Jo Closer", "Jo", MANAGER, "2026-09-15",
     (("Jo", OPEN), ("Alex", ANSWER), ("Jo", DATED), ("Alex", AGREED))),
    ("c1", "Riley Rep", "Riley", MANAGER, "2026-10-13",
     (("Riley", OPEN), ("Casey", ANSWER), ("Casey", DEFER), ("Riley", PROBE))),
    ("c2", "Sam Seller", "Sam", MANAGER, "2026-10-15",
     (("Sam", OPEN), ("Morgan", ANSWER), ("Morgan", DEFER), ("Sam", ACCEPT))),
    ("c3", "Jo Closer", "Jo", MANAGER, "2026-10-20",
     (("Jo", OPEN), ("Alex", DEFER), ("Jo", PROBE), ("Alex", ANSWER), ("Alex", DEFER), ("Jo", ACCEPT))),
    ("c4", "Riley Rep", "Riley", MANAGER, "2026-10-27",
     (("Riley", OPEN), ("Casey", ANSWER), ("Riley", DATED), ("Casey", AGREED))),
    ("other", "Pat Rep", "Pat", "Other Manager", "2026-09-09",
     (("Pat", OPEN), ("Kim", ANSWER), ("Kim", DEFER), ("Pat", ACCEPT))),
)

TITLES = {"b1": "Acme discovery", "b2": "Globex discovery", "b3": "Initech follow-up", "c1": "Umbrella discovery",
          "c2": "Hooli demo", "c3": "Stark pricing call", "c4": "Wayne follow-up", "other": "Wonka discovery"}

LINE_MS = 6_000  # each line lasts six seconds, one after another from 0:00


def line_start(n: int) -> int:
    """Where the n-th line (from 0) of a script starts."""
    return n * LINE_MS


def _stamp(ms: int) -> str:
    return f"{ms // 3_600_000:02d}:{ms // 60_000 % 60:02d}:{ms // 1000 % 60:02d}.{ms % 1000:03d}"


def write_vtt(path: Path, lines) -> Path:
    out = ["WEBVTT", ""]
    for n, (speaker, text) in enumerate(lines):
        out += [str(n + 1), f"{_stamp(line_start(n))} --> {_stamp(line_start(n) + LINE_MS - 500)}",
                f"{speaker}: {text}", ""]
    path.write_text("\n".join(out), encoding="utf-8")
    return path


@dataclass
class Library:
    cycle_id: int
    ids: dict[str, int]  # script key -> call id


def build(store, folder: Path) -> Library:
    folder.mkdir(parents=True, exist_ok=True)
    cycle = cycles.add_cycle(store, MANAGER, CYCLE_START)
    ids = {}
    for key, rep, _first, manager, day, lines in SCRIPTS:
        media = make_tone(folder / f"{key}.wav", seconds=40 + len(ids))  # distinct files: distinct calls
        row, _ = calls.add_call(store, media, title=TITLES[key], rep=rep, manager=manager,
                                recorded_at=f"{day}T10:00:00Z")
        transcript_io.import_transcript(store, row.id, write_vtt(folder / f"{key}.vtt", lines))
        ids[key] = row.id
    return Library(cycle.id, ids)
