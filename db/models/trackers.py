"""Trackers the coach follows across the library, and the lines each one found on each call."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, CheckConstraint, ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from db.base import Base, utcnow

SIDE_CHECK = "side IN ('rep', 'customer', 'either')"


class Tracker(Base):
    """A named set of phrases with a side; `version` moves on each edit, `counted_version` once the
    whole library has been counted for it (they differ while a recount is due)."""

    __tablename__ = "tracker"
    __table_args__ = (CheckConstraint(SIDE_CHECK, name="side"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(120), unique=True)
    key: Mapped[str] = mapped_column(String(120), unique=True)  # the filter's word: next_step_with_a_date
    side: Mapped[str] = mapped_column(String(16), default="either")
    phrases: Mapped[list[Any]] = mapped_column(JSON)
    exclusions: Mapped[list[Any]] = mapped_column(JSON)
    label: Mapped[str | None] = mapped_column(String(32))  # the detection label a shipped tracker follows
    version: Mapped[int] = mapped_column(Integer, default=1)
    counted_version: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class TrackerHit(Base):
    """One transcript line a tracker found on a call's current transcript."""

    __tablename__ = "tracker_hit"
    __table_args__ = (Index("ix_tracker_hit_tracker_id_call_id", "tracker_id", "call_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    tracker_id: Mapped[int] = mapped_column(ForeignKey("tracker.id", ondelete="CASCADE"))
    call_id: Mapped[int] = mapped_column(ForeignKey("call.id", ondelete="CASCADE"), index=True)
    start_ms: Mapped[int] = mapped_column(Integer)
    end_ms: Mapped[int] = mapped_column(Integer)
    speaker: Mapped[str | None] = mapped_column(String(200))
    role: Mapped[str] = mapped_column(String(16))
    quote: Mapped[str] = mapped_column(Text)
    matched: Mapped[str] = mapped_column(Text)


class TrackerCall(Base):
    """When a call was last counted for every tracker (a library recount started before that leaves it)."""

    __tablename__ = "tracker_call"

    call_id: Mapped[int] = mapped_column(ForeignKey("call.id", ondelete="CASCADE"), primary_key=True)
    counted_at: Mapped[datetime] = mapped_column(default=utcnow)
