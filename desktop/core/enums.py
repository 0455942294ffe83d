"""The method's vocabulary, as the portable record spells it (record-format.md)."""

from __future__ import annotations

from enum import StrEnum


class CallSource(StrEnum):
    ZOOM = "zoom"
    TEAMS = "teams"
    DIALER = "dialer"
    OTHER = "other"


class Role(StrEnum):
    COACH = "coach"
    MANAGER = "manager"
    REP = "rep"
    CUSTOMER = "customer"
    OTHER = "other"


class TranscriptOrigin(StrEnum):
    WHISPER = "whisper"
    IMPORT = "import"
    EDITED = "edited"


class MomentKind(StrEnum):
    QUESTION = "question"
    ANSWER = "answer"
    MISSED_INTERVENTION = "missed_intervention"
    NEXT_STEP = "next_step"
    OTHER = "other"

    @property
    def label(self) -> str:
        return self.value.replace("_", " ")

    @property
    def letter(self) -> str:
        """Shown beside the kind's colour (waveform, calibration report), so it is never told by colour alone."""
        return {"question": "Q", "answer": "A", "missed_intervention": "M", "next_step": "N"}.get(self.value, "O")


class BehaviorChange(StrEnum):
    START = "start"
    STOP = "stop"
    ADJUST = "adjust"


class PracticeKind(StrEnum):
    ROLE_PLAY = "role_play"
    CALL_REVIEW = "call_review"
    LIVE_PIPELINE_REVIEW = "live_pipeline_review"

    @property
    def label(self) -> str:
        return self.value.replace("_", " ")


class ItemStatus(StrEnum):
    OPEN = "open"
    DONE = "done"
    DROPPED = "dropped"


class Crm(StrEnum):
    SALESFORCE = "salesforce"
    HUBSPOT = "hubspot"
    OTHER = "other"


class ConversationModel(StrEnum):
    GROW = "grow"
    CLEAR = "clear"
    OSKAR = "oskar"


class SessionStatus(StrEnum):
    PLANNED = "planned"
    HELD = "held"
    MISSED = "missed"


class Seen(StrEnum):
    YES = "yes"
    NO = "no"
    PARTIAL = "partial"


class ObservationSource(StrEnum):
    CALL = "call"
    PIPELINE_REVIEW = "pipeline_review"
    ROLE_PLAY = "role_play"


class ReviewDecision(StrEnum):
    CONTINUE = "continue"
    ADAPT = "adapt"
    REPLACE = "replace"


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


MEDDICC = ("metrics", "economic_buyer", "decision_criteria", "decision_process",
           "identify_pain", "champion", "competition")
SPICED = ("situation", "pain", "impact", "critical_event", "decision")
QUALIFICATION_GAPS = tuple(f"meddicc:{c}" for c in MEDDICC) + tuple(f"spiced:{c}" for c in SPICED)
