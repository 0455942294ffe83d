"""Regenerate the sample session packet from the demo call.

    .venv/bin/python resources/samples/make_samples.py

Builds a throw-away library: the demo call, its transcript (the script's true
line timings, in the shape a Whisper transcript has), the method's example
moment ("Just send me some information and I'll take a look."), the rep
accepting it, one coaching item around it, and a parked moment; then writes
demo-packet.html and demo-packet.pdf next to this file.
`demo_library` is also what the packet tests build on.
"""

from __future__ import annotations

import json
import sys
import tempfile
from datetime import date
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
DEMO = REPO / "resources" / "demo"
SESSION_DAY = date(2026, 12, 3)


def script_lines() -> list[dict]:
    return json.loads((DEMO / "acme-discovery.script.json").read_text("utf-8"))["lines"]


def demo_library(store, lines: list[dict] | None = None) -> dict[str, int]:
    """Fill an open store with the demo call and its coaching; returns the ids made."""
    from desktop.core.enums import Role
    from desktop.services import calls, items, moments, parking, records, transcripts
    from desktop.transcription.segments import Segment

    lines = lines if lines is not None else script_lines()
    records.set_whoami(store, "Dana Coach", "dana.coach@example.com")
    call, _ = calls.add_call(store, DEMO / "acme-discovery.ogg", title="Discovery - Acme Logistics",
                             rep="Riley", manager="Morgan Manager", source="dialer",
                             recorded_at="2026-11-20T15:00:00Z")
    transcripts.save_transcript(
        store, call.id, [Segment(start_ms=l["start_ms"], end_ms=l["end_ms"], speaker=l["speaker"], text=l["text"])
                         for l in lines], origin="import", model="", language="en", source_file="script")
    transcripts.rename_speaker(store, call.id, "Riley", "Riley", Role.REP)
    transcripts.rename_speaker(store, call.id, "Casey", "Casey", Role.CUSTOMER)
    by_index = {l["index"]: l for l in lines}
    defers, accepts, leading = by_index[19], by_index[20], by_index[8]
    m_defer = moments.add_moment(store, call.id, defers["start_ms"], defers["end_ms"], kind="missed_intervention",
                                 note="Casey defers; Riley takes 'information' as the next step.")
    m_accept = moments.add_moment(store, call.id, accepts["start_ms"], accepts["end_ms"], kind="next_step",
                                  note="No date, no criteria, no mention of Dana Brooks.")
    m_leading = moments.add_moment(store, call.id, leading["start_ms"], leading["end_ms"], kind="question",
                                   note="Leading, closed question before discovery was done.")
    item = items.create_item(
        store, [m_defer.id, m_accept.id],
        consequence="Riley doesn't know what Casey will review, who else is involved (Dana Brooks signs off "
                    "anything over $25k), or when they will speak again.",
        behavior_change="start",
        behavior_text="When a customer asks for information, ask: what will you review, and who else "
                      "needs to be involved?",
        practice_kind="role_play",
        practice_task="Role-play the 'send me some information' moment three times in the next 1:1, "
                      "Morgan as Casey, Riley answering with the question.",
        owner_does="Morgan Manager", owner_reviews="Dana Coach", cadence="Weekly 1:1, Thursdays",
        indicator="The question appears in Riley's next two discovery recordings; a next step the customer "
                  "confirmed, with a date, is in Salesforce.",
        next_evidence="Riley's next two discovery recordings", next_evidence_due="2026-12-14",
        review_rule_text="Continue when the question appears in both recordings two weeks in a row.",
        continue_after=(2, 2, 2), qualification_gap="meddicc:economic_buyer")
    parking.park(store, moment_id=m_leading.id, note="Leading questions: for a later cycle.")
    return {"call": call.id, "item": item.id, "moment": m_defer.id, "accept": m_accept.id,
            "parked": m_leading.id}


def main() -> int:
    sys.path.insert(0, str(REPO))
    from db.store import open_store
    from desktop.services import packets
    from desktop.ui.exchange.pdf import write_pdf

    with tempfile.TemporaryDirectory() as folder:
        store = open_store(Path(folder) / "callmark.sqlite3")
        try:
            ids = demo_library(store)
            build = packets.build_packet(store, ids["call"], today=SESSION_DAY)
        finally:
            store.close()
    html_path = packets.write_html(build, HERE / "demo-packet.html")
    pdf_path = write_pdf(HERE / "demo-packet.pdf", build.html(), f"Coaching session: {build.data.call_title}")
    for path in (html_path, pdf_path):
        print(f"{path.relative_to(REPO)}  {path.stat().st_size / 1024:.0f} KB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
