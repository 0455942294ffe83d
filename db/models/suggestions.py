"""What the moment finder proposed for a call (a cache) and what the coach decided about it."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, CheckConstraint, ForeignKey, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from db.base import Base, enum_type, utcnow
from desktop.core.detect.model import LABELS, Verdict

LABEL_CHECK = "label IN (" + ", ".join(f"'{label}'" for label in LABELS) + ")"


class SuggestionCache(Base):
    """The findings and figures of a call's current transcript, kept until that transcript changes.

    `fingerprint` covers the lines, the speakers' roles, the phrase lists and the rules: the same
    fingerprint means the pass would find the same again, so it does not run.
    """

    __tablename__ = "suggestion_cache"

    call_id: Mapped[int] = mapped_column(ForeignKey("call.id", ondelete="CASCADE"), primary_key=True)
    transcript_id: Mapped[int | None] = mapped_column(ForeignKey("transcript.id", ondelete="SET NULL"))
    fingerprint: Mapped[str] = mapped_column(String(64))
    findings: Mapped[list[Any]] = mapped_column(JSON)
    figures: Mapped[dict[str, Any]] = mapped_column(JSON)
    computed_at: Mapped[datetime] = mapped_column(default=utcnow)


class SuggestionVerdict(Base):
    """The coach accepted or dismissed a suggestion. Kept by finding id (label + line text), so it
    holds for a new transcript version where the line still exists."""

    __tablename__ = "suggestion_verdict"
    __table_args__ = (
        UniqueConstraint("call_id", "finding_id"),
        CheckConstraint(LABEL_CHECK, name="label"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    call_id: Mapped[int] = mapped_column(ForeignKey("call.id", ondelete="CASCADE"), index=True)
    finding_id: Mapped[str] = mapped_column(String(32))
    label: Mapped[str] = mapped_column(String(32), index=True)
    verdict: Mapped[Verdict] = mapped_column(enum_type(Verdict, "suggestion_verdict"))
    coach_id: Mapped[int | None] = mapped_column(ForeignKey("person.id", ondelete="SET NULL"), index=True)
    moment_id: Mapped[int | None] = mapped_column(ForeignKey("moment.id", ondelete="SET NULL"), index=True)
    start_ms: Mapped[int] = mapped_column(Integer)
    end_ms: Mapped[int] = mapped_column(Integer)
    quote: Mapped[str] = mapped_column(Text, default="")
    decided_at: Mapped[datetime] = mapped_column(default=utcnow)
