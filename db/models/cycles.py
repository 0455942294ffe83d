"""The 90-day cycle: sessions, observations and reviews."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from sqlalchemy import JSON, Boolean, CheckConstraint, ForeignKey, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from db.base import Base, enum_type, utcnow
from desktop.core.enums import ConversationModel, ObservationSource, ReviewDecision, Seen, SessionStatus


class Cycle(Base):
    __tablename__ = "cycle"

    id: Mapped[int] = mapped_column(primary_key=True)
    manager_id: Mapped[int] = mapped_column(ForeignKey("person.id", ondelete="CASCADE"), index=True)
    coach_id: Mapped[int | None] = mapped_column(ForeignKey("person.id", ondelete="SET NULL"))
    start_date: Mapped[date]
    focus_behavior: Mapped[str | None] = mapped_column(Text)
    focus_pattern: Mapped[str | None] = mapped_column(String(64))  # picked in the baseline table
    conversation_model: Mapped[ConversationModel] = mapped_column(
        enum_type(ConversationModel, "conversation_model"), default=ConversationModel.GROW
    )
    baseline_notes: Mapped[str] = mapped_column(Text, default="")
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    sessions: Mapped[list[CoachingSession]] = relationship(
        back_populates="cycle", cascade="all, delete-orphan", order_by="CoachingSession.planned_date"
    )
    focus_changes: Mapped[list[FocusChange]] = relationship(
        back_populates="cycle", cascade="all, delete-orphan", order_by="FocusChange.id"
    )


class FocusChange(Base):
    """The focus behavior changed inside a cycle: kept with the reason the coach gave."""

    __tablename__ = "focus_change"

    id: Mapped[int] = mapped_column(primary_key=True)
    cycle_id: Mapped[int] = mapped_column(ForeignKey("cycle.id", ondelete="CASCADE"), index=True)
    changed_at: Mapped[datetime] = mapped_column(default=utcnow)
    old_behavior: Mapped[str | None] = mapped_column(Text)
    new_behavior: Mapped[str] = mapped_column(Text)
    reason: Mapped[str] = mapped_column(Text)

    cycle: Mapped[Cycle] = relationship(back_populates="focus_changes")


class CoachingSession(Base):
    __tablename__ = "coaching_session"
    __table_args__ = (
        CheckConstraint("oskar_score IS NULL OR (oskar_score BETWEEN 0 AND 10)", name="oskar_score"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    cycle_id: Mapped[int] = mapped_column(ForeignKey("cycle.id", ondelete="CASCADE"), index=True)
    planned_date: Mapped[date]
    held_date: Mapped[date | None]
    status: Mapped[SessionStatus] = mapped_column(
        enum_type(SessionStatus, "session_status"), default=SessionStatus.PLANNED
    )
    stage_notes: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    oskar_score: Mapped[int | None] = mapped_column(Integer)
    practice_action: Mapped[str] = mapped_column(Text, default="")
    action_owner: Mapped[str] = mapped_column(String(200), default="")
    evidence_place: Mapped[str] = mapped_column(Text, default="")
    close_reason: Mapped[str | None] = mapped_column(Text)
    action_done: Mapped[bool | None] = mapped_column(Boolean)
    item_id: Mapped[int | None] = mapped_column(ForeignKey("coaching_item.id", ondelete="SET NULL"))
    moment_id: Mapped[int | None] = mapped_column(ForeignKey("moment.id", ondelete="SET NULL"))
    example: Mapped[str | None] = mapped_column(Text)

    cycle: Mapped[Cycle] = relationship(back_populates="sessions")


class Observation(Base):
    """Whether the behavior appeared in later evidence: a later call or a pipeline review."""

    __tablename__ = "observation"

    id: Mapped[int] = mapped_column(primary_key=True)
    item_id: Mapped[int | None] = mapped_column(ForeignKey("coaching_item.id", ondelete="CASCADE"), index=True)
    cycle_id: Mapped[int | None] = mapped_column(ForeignKey("cycle.id", ondelete="CASCADE"), index=True)
    source: Mapped[ObservationSource] = mapped_column(enum_type(ObservationSource, "observation_source"))
    call_id: Mapped[int | None] = mapped_column(ForeignKey("call.id", ondelete="SET NULL"))
    moment_id: Mapped[int | None] = mapped_column(ForeignKey("moment.id", ondelete="SET NULL"))
    observed_on: Mapped[date]
    seen: Mapped[Seen | None] = mapped_column(enum_type(Seen, "seen"))  # None: still to check
    evidence: Mapped[str] = mapped_column(Text, default="")
    start_ms: Mapped[int | None] = mapped_column(Integer)  # the moment in the call it was read at
    uses_customer_evidence: Mapped[bool | None] = mapped_column(Boolean)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class Review(Base):
    """A continue / adapt / replace decision, with what the app proposed and why the coach chose."""

    __tablename__ = "review"

    id: Mapped[int] = mapped_column(primary_key=True)
    cycle_id: Mapped[int | None] = mapped_column(ForeignKey("cycle.id", ondelete="CASCADE"), index=True)
    item_id: Mapped[int | None] = mapped_column(ForeignKey("coaching_item.id", ondelete="CASCADE"))
    reviewed_on: Mapped[date]
    proposed: Mapped[ReviewDecision | None] = mapped_column(enum_type(ReviewDecision, "review_proposed"))
    decision: Mapped[ReviewDecision] = mapped_column(enum_type(ReviewDecision, "review_decision"))
    rationale: Mapped[str] = mapped_column(Text, default="")
