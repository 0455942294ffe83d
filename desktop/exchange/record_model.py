"""The portable coaching record, version 1: the one source of its format.

The models follow /shared/record-format.md key for key. They are strict (no
coercion: a string is never an integer) and forbid unknown keys, because the
file travels between coaches and into other tools: a newer writer must bump
`version` instead of slipping in keys an older reader would drop.

Optional keys are `None` in Python and absent in the file (never `null`).

Run `python -m desktop.exchange.record_model` to regenerate the JSON Schema
shipped at resources/schema/coaching-record-1.schema.json.
"""

from __future__ import annotations

import json
import re
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (AfterValidator, BaseModel, ConfigDict, Field, PlainSerializer,
                      WithJsonSchema, model_validator)
from pydantic.json_schema import GenerateJsonSchema

from desktop import paths
from desktop.core.enums import (BehaviorChange, CallSource, Crm, ItemStatus, MomentKind,
                                PracticeKind, QUALIFICATION_GAPS, Role, TranscriptOrigin)

RECORD_FORMAT = "callmark.coaching-record"
RECORD_VERSION = 1
SCHEMA_ID = "https://callmark.invalid/schema/coaching-record-1.schema.json"
SCHEMA_PATH = paths.SCHEMA

_UUID_RE = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")
_SHA256_RE = re.compile(r"^[0-9a-fA-F]{64}$")


def _uuid(value: str) -> str:
    if not _UUID_RE.match(value):
        raise ValueError(f"{value!r} is not a UUID string (like 6f1c1d52-9a51-4a7c-8f0e-2b1d6f0a9c11)")
    # One spelling per id, so uniqueness and references compare plainly.
    return value.lower()


def _sha256(value: str) -> str:
    if not _SHA256_RE.match(value):
        raise ValueError(f"{value!r} is not a SHA-256 hex digest (64 hex digits)")
    return value.lower()


def _utc(value: datetime) -> datetime:
    offset = value.utcoffset()
    if offset is None:
        raise ValueError("instant has no time zone; write it in UTC ending in Z, like 2026-11-30T10:00:00Z")
    if offset != timedelta(0):
        raise ValueError("instant is not in UTC; write it ending in Z, like 2026-11-30T10:00:00Z")
    return value


def _instant_text(value: datetime) -> str:
    return value.replace(tzinfo=None).isoformat() + "Z"


RecordId = Annotated[str, AfterValidator(_uuid),
                     WithJsonSchema({"type": "string", "format": "uuid",
                                     "pattern": _UUID_RE.pattern})]
Sha256 = Annotated[str, AfterValidator(_sha256),
                   WithJsonSchema({"type": "string", "pattern": _SHA256_RE.pattern})]
Instant = Annotated[datetime, AfterValidator(_utc),
                    PlainSerializer(_instant_text, return_type=str, when_used="always"),
                    WithJsonSchema({"type": "string", "format": "date-time",
                                    "pattern": r"(Z|[+-]00:00)$",
                                    "description": "ISO 8601 instant in UTC, like 2026-11-30T10:00:00Z"})]
Millis = Annotated[int, Field(ge=0, description="milliseconds from the start of the recording")]
Text = Annotated[str, Field(min_length=1)]
Name = Annotated[str, Field(min_length=1, max_length=200)]
Email = Annotated[str, Field(pattern=r"^[^@\s]+@[^@\s]+$", max_length=320)]
QualificationGap = Literal[QUALIFICATION_GAPS]  # type: ignore[valid-type]


class RecordModel(BaseModel):
    """Base of every part of the record: strict, closed, frozen."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True,
                              use_enum_values=False, validate_default=False)


class Person(RecordModel):
    name: Name
    email: Email | None = None


class Media(RecordModel):
    sha256: Sha256
    duration_ms: Millis
    filename: Annotated[str, Field(min_length=1, max_length=255, pattern=r"^[^/\\\x00]+$")]


# The record's participants are the people on the call; a coach is not one.
ParticipantRole = Literal[Role.REP, Role.CUSTOMER, Role.MANAGER, Role.OTHER]


class Participant(RecordModel):
    name: Name
    role: ParticipantRole


class Manager(RecordModel):
    name: Name


class Opportunity(RecordModel):
    crm: Crm
    id: Annotated[str, Field(min_length=1, max_length=200)]
    name: Name
    next_step: str
    next_step_date: date | None = None


class Call(RecordModel):
    title: Text
    media: Media
    recorded_at: Instant | None = None
    source: CallSource | None = None
    participants: list[Participant] | None = None
    manager: Manager | None = None
    opportunity: Opportunity | None = None


class Segment(RecordModel):
    start_ms: Millis
    end_ms: Millis
    speaker: str
    text: str


class Transcript(RecordModel):
    origin: TranscriptOrigin
    model: str
    language: Annotated[str, Field(min_length=1, max_length=35)]
    segments: list[Segment]


class Moment(RecordModel):
    id: RecordId
    start_ms: Millis
    end_ms: Millis
    kind: MomentKind
    speaker: str | None = None
    quote: str
    note: str | None = None
    created_at: Instant


class Behavior(RecordModel):
    change: BehaviorChange
    text: Text


class Practice(RecordModel):
    kind: PracticeKind
    task: Text


class Owner(RecordModel):
    does: Name
    reviews: Name


class NextEvidence(RecordModel):
    description: Text
    due: date


class ContinueAfter(RecordModel):
    seen_in: Annotated[int, Field(ge=1)]
    of_reviewed: Annotated[int, Field(ge=1)]
    weeks_in_a_row: Annotated[int, Field(ge=1)]

    @model_validator(mode="after")
    def _seen_within_reviewed(self) -> ContinueAfter:
        if self.seen_in > self.of_reviewed:
            raise ValueError(f"seen_in ({self.seen_in}) is more than of_reviewed ({self.of_reviewed})")
        return self


class ReviewRule(RecordModel):
    text: Text
    continue_after: ContinueAfter | None = None


class CoachingItem(RecordModel):
    id: RecordId
    moment_ids: list[RecordId]
    consequence: Text
    behavior: Behavior
    practice: Practice
    owner: Owner
    cadence: Text
    indicator: Text
    next_evidence: NextEvidence
    review_rule: ReviewRule
    qualification_gap: QualificationGap | None = None
    status: ItemStatus


class Checksum(RecordModel):
    algorithm: Literal["sha256"]
    value: Sha256


class CoachingRecord(RecordModel):
    """One coach's coaching of one call."""

    format: Literal["callmark.coaching-record"]
    version: Literal[1]
    exported_at: Instant
    exported_by: Person
    call: Call
    transcript: Transcript | None = None
    moments: list[Moment]
    items: list[CoachingItem]
    checksum: Checksum


class _RecordSchema(GenerateJsonSchema):
    """Optional keys are absent, never null: drop the null branch and default."""

    def nullable_schema(self, schema: Any) -> Any:
        return self.generate_inner(schema["schema"])

    def default_schema(self, schema: Any) -> Any:
        result = super().default_schema(schema)
        if result.get("default", 0) is None:
            result = {k: v for k, v in result.items() if k != "default"}
        return result


def record_schema() -> dict[str, Any]:
    """The published JSON Schema of the record, version 1."""
    body = CoachingRecord.model_json_schema(schema_generator=_RecordSchema)
    schema: dict[str, Any] = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "Callmark coaching record, version 1",
        "description": ("One coach's coaching of one call (moments and coaching items), "
                        "as one UTF-8 JSON file named *.callmark.json."),
    }
    schema.update({k: v for k, v in body.items() if k not in ("title", "description")})
    return schema


def schema_text() -> str:
    return json.dumps(record_schema(), indent=2, ensure_ascii=False) + "\n"


def write_schema(path: Path = SCHEMA_PATH) -> Path:
    """Regenerate the committed schema file from the models."""
    from desktop.exchange.safe_write import atomic_write_text

    atomic_write_text(path, schema_text())
    return path


if __name__ == "__main__":
    print(write_schema())
