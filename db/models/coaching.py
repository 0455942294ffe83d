"""Moments and the coaching items they feed: the seven components of the method."""

from __future__ import annotations

from datetime import date, datetime
from typing import TYPE_CHECKING

from sqlalchemy import Boolean, CheckConstraint, FetchedValue, ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from db.base import Base, enum_type, uid_column, utcnow
from desktop.core.enums import BehaviorChange, ItemStatus, MomentKind, PracticeKind

if TYPE_CHECKING:
    from db.models.calls import Call, Person


class Moment(Base):
    """An exact stretch of a call a coach marked: a question, an answer, a missed intervention."""

    __tablename__ = "moment"
    __table_args__ = (
        CheckConstraint("start_ms >= 0 AND end_ms >= start_ms", name="span"),
        Index("ix_moment_call_start", "call_id", "start_ms"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    uid: Mapped[str] = uid_column()
    call_id: Mapped[int] = mapped_column(ForeignKey("call.id", ondelete="CASCADE"))
    coach_id: Mapped[int | None] = mapped_column(ForeignKey("person.id", ondelete="SET NULL"), index=True)
    start_ms: Mapped[int] = mapped_column(Integer)
    end_ms: Mapped[int] = mapped_column(Integer)
    kind: Mapped[MomentKind] = mapped_column(enum_type(MomentKind, "moment_kind"), default=MomentKind.OTHER)
    speaker: Mapped[str | None] = mapped_column(String(200))
    quote: Mapped[str] = mapped_column(Text, default="")
    note: Mapped[str | None] = mapped_column(Text)
    # A moment feeds at most one item; an item may cite several moments.
    item_id: Mapped[int | None] = mapped_column(ForeignKey("coaching_item.id", ondelete="SET NULL"), index=True)
    # Imported from another coach's record: hidden until the coach chooses to compare (blind review).
    imported: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)
    # On a team store: the coach's database role (the server fills it in), and when the coach shared
    # the moment with the team; until then only its owner sees it (row-level security, db/team.py).
    owner_role: Mapped[str | None] = mapped_column(String(63), server_default=FetchedValue())
    shared_at: Mapped[datetime | None]

    call: Mapped[Call] = relationship()
    coach: Mapped[Person | None] = relationship()
    item: Mapped[CoachingItem | None] = relationship(back_populates="moments")


class CoachingItem(Base):
    """One behavior for one manager, with its evidence, practice, owner, cadence, indicator and rule."""

    __tablename__ = "coaching_item"
    __table_args__ = (
        CheckConstraint(
            "continue_seen_in IS NULL OR continue_of_reviewed IS NULL "
            "OR continue_seen_in <= continue_of_reviewed",
            name="continue_after",
        ),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    uid: Mapped[str] = uid_column()
    coach_id: Mapped[int | None] = mapped_column(ForeignKey("person.id", ondelete="SET NULL"), index=True)
    manager_id: Mapped[int | None] = mapped_column(ForeignKey("person.id", ondelete="SET NULL"), index=True)
    cycle_id: Mapped[int | None] = mapped_column(ForeignKey("cycle.id", ondelete="SET NULL"), index=True)
    consequence: Mapped[str] = mapped_column(Text, default="")
    behavior_change: Mapped[BehaviorChange] = mapped_column(
        enum_type(BehaviorChange, "behavior_change"), default=BehaviorChange.START
    )
    behavior_text: Mapped[str] = mapped_column(Text, default="")
    practice_kind: Mapped[PracticeKind] = mapped_column(
        enum_type(PracticeKind, "practice_kind"), default=PracticeKind.ROLE_PLAY
    )
    practice_task: Mapped[str] = mapped_column(Text, default="")
    owner_does: Mapped[str] = mapped_column(String(200), default="")
    owner_reviews: Mapped[str] = mapped_column(String(200), default="")
    cadence: Mapped[str] = mapped_column(Text, default="")
    indicator: Mapped[str] = mapped_column(Text, default="")
    # The pattern the indicator is read from (a detection label, or a tracker's name): later calls
    # then get proposed observations (desktop.services.adoption).
    indicator_pattern: Mapped[str | None] = mapped_column(String(64))
    next_evidence: Mapped[str] = mapped_column(Text, default="")
    next_evidence_due: Mapped[date | None]
    review_rule_text: Mapped[str] = mapped_column(Text, default="")
    continue_seen_in: Mapped[int | None] = mapped_column(Integer)
    continue_of_reviewed: Mapped[int | None] = mapped_column(Integer)
    continue_weeks_in_a_row: Mapped[int | None] = mapped_column(Integer)
    qualification_gap: Mapped[str | None] = mapped_column(String(64))
    status: Mapped[ItemStatus] = mapped_column(enum_type(ItemStatus, "item_status"), default=ItemStatus.OPEN)
    practice_done: Mapped[bool] = mapped_column(Boolean, default=False)
    calibration_id: Mapped[int | None] = mapped_column(ForeignKey("calibration.id", ondelete="SET NULL"))
    imported: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)
    owner_role: Mapped[str | None] = mapped_column(String(63), server_default=FetchedValue())  # as on Moment
    shared_at: Mapped[datetime | None]
    # Raised by every save: two coaches saving the same item from the same version is a conflict,
    # never a lost update (desktop/services/items.py).
    version: Mapped[int] = mapped_column(Integer, default=1)

    __mapper_args__ = {"version_id_col": version}

    coach: Mapped[Person | None] = relationship(foreign_keys=[coach_id])
    manager: Mapped[Person | None] = relationship(foreign_keys=[manager_id])
    moments: Mapped[list[Moment]] = relationship(back_populates="item", order_by="Moment.start_ms")
    evidence: Mapped[list[ItemEvidence]] = relationship(
        back_populates="item", cascade="all, delete-orphan", order_by="ItemEvidence.id"
    )


class ItemEvidence(Base):
    """Evidence that is not a moment: a CRM field as of an import, or a note from a 1:1."""

    __tablename__ = "item_evidence"

    id: Mapped[int] = mapped_column(primary_key=True)
    item_id: Mapped[int] = mapped_column(ForeignKey("coaching_item.id", ondelete="CASCADE"), index=True)
    kind: Mapped[str] = mapped_column(String(32))  # "crm" or "note"
    text: Mapped[str] = mapped_column(Text)
    on_date: Mapped[date | None]
    opportunity_id: Mapped[int | None] = mapped_column(ForeignKey("opportunity.id", ondelete="SET NULL"))
    field: Mapped[str | None] = mapped_column(String(64))

    item: Mapped[CoachingItem] = relationship(back_populates="evidence")


class ParkedObservation(Base):
    """Something the coach noticed but will not coach in this cycle: kept on the manager for later."""

    __tablename__ = "parked_observation"

    id: Mapped[int] = mapped_column(primary_key=True)
    manager_id: Mapped[int | None] = mapped_column(ForeignKey("person.id", ondelete="SET NULL"), index=True)
    coach_id: Mapped[int | None] = mapped_column(ForeignKey("person.id", ondelete="SET NULL"))
    moment_id: Mapped[int | None] = mapped_column(ForeignKey("moment.id", ondelete="SET NULL"))
    note: Mapped[str] = mapped_column(Text, default="")
    promoted_item_id: Mapped[int | None] = mapped_column(ForeignKey("coaching_item.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    moment: Mapped[Moment | None] = relationship()
