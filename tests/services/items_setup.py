"""A real demo call in a real store, with its true transcript and the method's moment marked."""

from __future__ import annotations

import json

from desktop import paths
from desktop.services import calls, moments, transcripts
from desktop.services.transcripts import SegmentRow

INFO_LINE_MS = 125551  # Casey: "Just send me some information and I'll take a look."
BUDGET_LINE_MS = 0  # filled from the script below


def demo_call(store, manager: str | None = "Morgan Manager", title: str = "Discovery - Acme Logistics (demo)"):
    """Add the demo recording with its script as the transcript; returns the call row."""
    call, _ = calls.add_call(store, paths.DEMO_MEDIA, title=title, rep="Riley Rep", manager=manager,
                             source="dialer", recorded_at="2026-11-20T15:00:00Z")
    script = json.loads(paths.DEMO_SCRIPT.read_text(encoding="utf-8"))
    segments = [SegmentRow(line["start_ms"], line["end_ms"], line["speaker"], line["text"])
                for line in script["lines"]]
    transcripts.save_transcript(store, call.id, segments, origin="import")
    return call


def script_lines() -> list[dict]:
    return json.loads(paths.DEMO_SCRIPT.read_text(encoding="utf-8"))["lines"]


def mark(store, call_id: int, start_ms: int, kind: str = "missed_intervention"):
    """Mark a moment over exactly one script line (quote and speaker come from the transcript)."""
    line = next(line for line in script_lines() if line["start_ms"] == start_ms)
    return moments.add_moment(store, call_id, line["start_ms"], line["end_ms"], kind=kind)
