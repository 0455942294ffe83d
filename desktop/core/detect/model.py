"""What the moment finder reads and what it proposes: lines with roles in, findings out.

The labels are a closed set, spelled the same in the store, the command and
the workspace. Each label has a family (for the lane's colour and the list's
filter) and the moment kind it becomes when the coach accepts it.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from enum import StrEnum

REP = "rep"
CUSTOMER = "customer"
UNKNOWN = "unknown"
ROLES = (REP, CUSTOMER, UNKNOWN)

QUESTIONS = "questions"
STALLS = "stalls and next steps"
QUALIFICATION = "qualification"
FOLLOW_UP = "follow-up"

QUESTION_LABELS = ("rep_question_open", "rep_question_closed", "rep_question_leading", "customer_question")
STALL_LABELS = ("deferral", "deferral_accepted", "next_step_confirmed", "next_step_vague")
QUALIFICATION_LABELS = ("metrics", "economic_buyer", "decision_process", "pain", "champion", "competition",
                        "critical_event", "price", "objection")
FOLLOW_UP_LABELS = ("missed_follow_up",)
LABELS = QUESTION_LABELS + STALL_LABELS + QUALIFICATION_LABELS + FOLLOW_UP_LABELS

FAMILY_OF = {**{lab: QUESTIONS for lab in QUESTION_LABELS}, **{lab: STALLS for lab in STALL_LABELS},
             **{lab: QUALIFICATION for lab in QUALIFICATION_LABELS},
             **{lab: FOLLOW_UP for lab in FOLLOW_UP_LABELS}}
FAMILIES = (QUESTIONS, STALLS, QUALIFICATION, FOLLOW_UP)

#: the two groups the accuracy goals are set for (issue 19)
GROUP_A = ("deferral", "deferral_accepted", "next_step_confirmed", "next_step_vague",
           "rep_question_open", "rep_question_closed", "rep_question_leading")
GROUP_B = QUALIFICATION_LABELS + FOLLOW_UP_LABELS


def kind_for(label: str, role: str) -> str:
    """The moment kind a finding becomes on accept (a MomentKind value)."""
    if label in QUESTION_LABELS:
        return "question"
    if label in ("deferral_accepted", "missed_follow_up"):
        return "missed_intervention"
    if label.startswith("next_step_"):
        return "next_step"
    if label in QUALIFICATION_LABELS and role == CUSTOMER:
        return "answer"  # what the customer said in answer: budget owner, pain, competition
    return "other"


@dataclass(frozen=True, slots=True)
class Line:
    """One transcript line: who spoke, when, what."""

    start_ms: int
    end_ms: int
    speaker: str | None
    text: str


@dataclass(frozen=True, slots=True)
class Finding:
    """A moment worth coaching, proposed; it becomes a moment only when the coach accepts it."""

    id: str
    label: str
    start_ms: int
    end_ms: int
    speaker: str | None
    role: str
    quote: str
    reason: str
    kind: str

    @property
    def family(self) -> str:
        return FAMILY_OF[self.label]

    def to_json(self) -> dict:
        # by hand: dataclasses.asdict deep-copies, and a long call has thousands of findings
        return {"id": self.id, "label": self.label, "start_ms": self.start_ms, "end_ms": self.end_ms,
                "speaker": self.speaker, "role": self.role, "quote": self.quote, "reason": self.reason,
                "kind": self.kind}


def finding_id(label: str, text: str, occurrence: int) -> str:
    """Stable for the same label on the same line text (the n-th line with that text in the call).

    Times are left out on purpose: a new transcript version that keeps the line keeps the id, so
    the coach's verdict on it still applies.
    """
    return id_of(label, normal_text(text), occurrence)


def normal_text(text: str) -> str:
    """A line's text as its finding ids read it: case and spacing do not count."""
    return " ".join(text.casefold().split())


def id_of(label: str, normal: str, occurrence: int) -> str:
    """finding_id for a text already through normal_text (a line with several findings is cut once)."""
    return hashlib.sha1(f"{label}\x1f{normal}\x1f{occurrence}".encode()).hexdigest()[:16]


class Verdict(StrEnum):
    """What the coach decided about a suggestion."""

    ACCEPTED = "accepted"
    DISMISSED = "dismissed"
