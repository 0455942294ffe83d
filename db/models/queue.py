"""The transcription queue, kept in the store so it outlives the window, a crash or a killed process."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from sqlalchemy import ForeignKey, Integer, Text
from sqlalchemy.orm import Mapped, mapped_column

from db.base import Base, enum_type, utcnow


class QueueState(StrEnum):
    WAITING = "waiting"
    RUNNING = "running"  # a worker child is on it; `owner_pid` is the process that started the child
    FAILED = "failed"  # kept, with its reason, until re-queued or cleared


class TranscriptionJob(Base):
    """One call waiting for (or being given) a Whisper transcript. Done calls leave the queue."""

    __tablename__ = "transcription_job"

    id: Mapped[int] = mapped_column(primary_key=True)
    call_id: Mapped[int] = mapped_column(ForeignKey("call.id", ondelete="CASCADE"), unique=True)
    state: Mapped[QueueState] = mapped_column(enum_type(QueueState, "queue_state"), default=QueueState.WAITING)
    priority: Mapped[int] = mapped_column(Integer, default=0)  # higher goes first
    position: Mapped[int] = mapped_column(Integer)  # then in the order queued
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    owner_pid: Mapped[int | None] = mapped_column(Integer)
    error: Mapped[str | None] = mapped_column(Text)
    queued_at: Mapped[datetime] = mapped_column(default=utcnow)
    started_at: Mapped[datetime | None]
