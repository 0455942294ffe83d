"""Records shared by the exchange tests: a rich one (every optional key) and a bare one."""

from __future__ import annotations

import copy
import json
from datetime import date, datetime, timezone
from typing import Any

from desktop.core.enums import (BehaviorChange, CallSource, Crm, ItemStatus, MomentKind,
                                PracticeKind, Role, TranscriptOrigin)
from desktop.exchange.record import (Behavior, Call, CoachingItem, ContinueAfter, Manager, Media,
                                     Moment, NextEvidence, Opportunity, Owner, Participant, Person,
                                     Practice, ReviewRule, Segment, Transcript, build_record,
                                     compute_checksum, dump_record)

MOMENT_ID = "6f1c1d52-9a51-4a7c-8f0e-2b1d6f0a9c11"
MOMENT2_ID = "1a2b3c4d-0000-4000-8000-00000000abcd"
ITEM_ID = "0b9e4a8e-3f0a-4f43-9a57-0d4c1a7f2e10"
ITEM2_ID = "9c8d7e6f-1111-4222-8333-444455556666"


def rich_record():
    """Every optional key present, non-ASCII text included."""
    return build_record(
        exported_at=datetime(2026, 11, 30, 10, 0, tzinfo=timezone.utc),
        exported_by=Person(name="Dana Coach", email="dana@example.com"),
        call=Call(
            title="Discovery – Acme (Zürich)",
            media=Media(sha256="ab" * 32, duration_ms=183000, filename="acme-discovery.mp4"),
            recorded_at=datetime(2026, 11, 20, 15, 0, tzinfo=timezone.utc),
            source=CallSource.ZOOM,
            participants=[Participant(name="Riley Rep", role=Role.REP),
                          Participant(name="Casey Customer", role=Role.CUSTOMER)],
            manager=Manager(name="Morgan Manager"),
            opportunity=Opportunity(crm=Crm.SALESFORCE, id="0065g00000XyZ1A", name="Acme - Platform",
                                    next_step="Finance review", next_step_date=date(2026, 12, 2)),
        ),
        transcript=Transcript(origin=TranscriptOrigin.WHISPER, model="tiny.en", language="en", segments=[
            Segment(start_ms=500, end_ms=5956, speaker="Riley Rep", text="Hi Casey, thanks for making time today."),
            Segment(start_ms=39876, end_ms=44610, speaker="Casey Customer",
                    text="Just send me some information and I will take a look."),
        ]),
        moments=[
            Moment(id=MOMENT_ID, start_ms=39876, end_ms=44610, kind=MomentKind.MISSED_INTERVENTION,
                   speaker="Casey Customer", quote="Just send me some information and I will take a look.",
                   note="Rep accepted it as the next step.",
                   created_at=datetime(2026, 11, 30, 9, 12, tzinfo=timezone.utc)),
            Moment(id=MOMENT2_ID, start_ms=0, end_ms=183000, kind=MomentKind.NEXT_STEP,
                   speaker="Riley Rep", quote="Let's talk next week — «bientôt».", note="Whole call.",
                   created_at=datetime(2026, 11, 30, 9, 13, 5, 250000, tzinfo=timezone.utc)),
        ],
        items=[
            CoachingItem(
                id=ITEM_ID, moment_ids=[MOMENT_ID, MOMENT2_ID],
                consequence="The rep doesn't know what the customer will review or who else is involved.",
                behavior=Behavior(change=BehaviorChange.START,
                                  text="When a customer asks for information, ask: what will you review, "
                                       "and who else needs to be involved?"),
                practice=Practice(kind=PracticeKind.ROLE_PLAY,
                                  task="Role-play the 'send me some information' moment three times."),
                owner=Owner(does="Morgan Manager", reviews="Dana Coach"),
                cadence="Weekly 1:1, Thursdays",
                indicator="The question appears in the next two recordings.",
                next_evidence=NextEvidence(description="Next two discovery recordings", due=date(2026, 12, 14)),
                review_rule=ReviewRule(text="Continue when the question appears in both recordings.",
                                       continue_after=ContinueAfter(seen_in=2, of_reviewed=2, weeks_in_a_row=2)),
                qualification_gap="meddicc:economic_buyer",
                status=ItemStatus.OPEN,
            ),
        ],
    )


def bare_record():
    """No optional key at all."""
    return build_record(
        exported_at=datetime(2026, 11, 30, 10, 0, tzinfo=timezone.utc),
        exported_by=Person(name="Dana Coach"),
        call=Call(title="Cold call", media=Media(sha256="cd" * 32, duration_ms=60000, filename="c.wav")),
        moments=[Moment(id=MOMENT_ID, start_ms=1000, end_ms=2000, kind=MomentKind.QUESTION, quote="Why now?",
                        created_at=datetime(2026, 11, 30, 9, 0, tzinfo=timezone.utc))],
        items=[CoachingItem(
            id=ITEM_ID, moment_ids=[MOMENT_ID], consequence="Unknown urgency.",
            behavior=Behavior(change=BehaviorChange.ADJUST, text="Ask why now before the demo."),
            practice=Practice(kind=PracticeKind.CALL_REVIEW, task="Review two calls for 'why now'."),
            owner=Owner(does="Morgan Manager", reviews="Dana Coach"), cadence="Fortnightly",
            indicator="Why-now question in the next call.",
            next_evidence=NextEvidence(description="Next call", due=date(2026, 12, 14)),
            review_rule=ReviewRule(text="Continue if seen."), status=ItemStatus.DONE)],
    )


def rich_plain() -> dict[str, Any]:
    return json.loads(dump_record(rich_record()))


def reseal(obj: dict[str, Any]) -> dict[str, Any]:
    """Recompute the checksum so a test reaches the check it means to hit."""
    obj = copy.deepcopy(obj)
    if isinstance(obj.get("checksum"), dict):
        obj["checksum"]["value"] = compute_checksum(obj)
    return obj


def encode(obj: Any) -> bytes:
    return json.dumps(obj, indent=2, ensure_ascii=False).encode("utf-8")
