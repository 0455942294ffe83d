"""A coaching item as plain data: what the editor, the CLI, the record and the packet read.

`ItemRow` is filled from the store (`row`); the GUI and the CLI never see a
table-bound object.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, timezone

from db.models import CoachingItem, Moment
from desktop.core.review_rule import ContinueAfter
from desktop.core.timefmt import format_ms

__all__ = ["CitedMoment", "EvidenceRow", "ItemRow", "item_row"]


@dataclass(frozen=True)
class CitedMoment:
    """A moment an item cites, with enough to show it and return to it."""
    id: int
    uid: str
    call_id: int
    call_title: str
    start_ms: int
    end_ms: int
    speaker: str | None
    quote: str

    @property
    def label(self) -> str:
        who = f"{self.speaker}: " if self.speaker else ""
        return f"{format_ms(self.start_ms)}  {who}“{self.quote}”"


@dataclass(frozen=True)
class EvidenceRow:
    """Evidence that is not a moment: a CRM field or a 1:1 note, with its date."""
    id: int
    kind: str
    text: str
    on_date: date | None
    field: str | None = None


@dataclass
class ItemRow:
    id: int
    uid: str
    manager: str | None
    coach: str | None
    moments: list[CitedMoment]
    evidence: list[EvidenceRow]
    consequence: str
    behavior_change: str
    behavior_text: str
    practice_kind: str
    practice_task: str
    owner_does: str
    owner_reviews: str
    cadence: str
    indicator: str
    next_evidence: str
    next_evidence_due: date | None
    review_rule_text: str
    continue_after: ContinueAfter | None
    qualification_gap: str | None
    status: str
    practice_done: bool = False
    created_at: str = ""
    updated_at: str = ""
    call_ids: list[int] = field(default_factory=list)
    cycle_id: int | None = None  # the cycle it is worked on in, once attached
    version: int = 1  # counts its saves: a save from an older version is a conflict (items.update_item)

    @property
    def moment_ids(self) -> list[int]:
        return [m.id for m in self.moments]

    @property
    def title(self) -> str:
        """How lists name the item: its behavior, or where it came from while still empty."""
        if self.behavior_text.strip():
            return self.behavior_text.strip()
        if self.moments:
            return f"(no behavior yet) {self.moments[0].label}"
        return "(no behavior yet)"

    def to_json(self) -> dict:
        """The portable record's item shape (record-format.md)."""
        rule: dict = {"text": self.review_rule_text}
        if self.continue_after is not None:
            rule["continue_after"] = {"seen_in": self.continue_after.seen_in,
                                      "of_reviewed": self.continue_after.of_reviewed,
                                      "weeks_in_a_row": self.continue_after.weeks_in_a_row}
        out = {
            "id": self.uid,
            "moment_ids": [m.uid for m in self.moments],
            "consequence": self.consequence,
            "behavior": {"change": self.behavior_change, "text": self.behavior_text},
            "practice": {"kind": self.practice_kind, "task": self.practice_task},
            "owner": {"does": self.owner_does, "reviews": self.owner_reviews},
            "cadence": self.cadence,
            "indicator": self.indicator,
            "next_evidence": {"description": self.next_evidence,
                              "due": self.next_evidence_due.isoformat() if self.next_evidence_due else None},
            "review_rule": rule,
        }
        if self.qualification_gap:
            out["qualification_gap"] = self.qualification_gap
        out["status"] = self.status
        return out


def _instant(value: datetime | None) -> str:
    if value is None:
        return ""
    return value.replace(tzinfo=timezone.utc).isoformat().replace("+00:00", "Z")


def _cited(m: Moment) -> CitedMoment:
    return CitedMoment(m.id, m.uid, m.call_id, m.call.title if m.call else "", m.start_ms, m.end_ms,
                       m.speaker, m.quote or "")


def item_row(item: CoachingItem) -> ItemRow:
    rule = None
    if None not in (item.continue_seen_in, item.continue_of_reviewed, item.continue_weeks_in_a_row):
        rule = ContinueAfter(item.continue_seen_in, item.continue_of_reviewed, item.continue_weeks_in_a_row)
    moments = [_cited(m) for m in item.moments]
    return ItemRow(
        id=item.id, uid=item.uid,
        manager=item.manager.name if item.manager else None,
        coach=item.coach.name if item.coach else None,
        moments=moments,
        evidence=[EvidenceRow(e.id, e.kind, e.text, e.on_date, e.field) for e in item.evidence],
        consequence=item.consequence or "",
        behavior_change=item.behavior_change.value,
        behavior_text=item.behavior_text or "",
        practice_kind=item.practice_kind.value,
        practice_task=item.practice_task or "",
        owner_does=item.owner_does or "", owner_reviews=item.owner_reviews or "",
        cadence=item.cadence or "", indicator=item.indicator or "",
        next_evidence=item.next_evidence or "", next_evidence_due=item.next_evidence_due,
        review_rule_text=item.review_rule_text or "", continue_after=rule,
        qualification_gap=item.qualification_gap, status=item.status.value,
        practice_done=bool(item.practice_done),
        created_at=_instant(item.created_at), updated_at=_instant(item.updated_at),
        call_ids=sorted({m.call_id for m in moments}),
        cycle_id=item.cycle_id,
        version=item.version or 1,
    )
