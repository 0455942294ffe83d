"""People, calls and their transcripts."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import JSON, Boolean, ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from db.base import Base, enum_type, utcnow
from desktop.core.enums import CallSource, Role, TranscriptOrigin

if TYPE_CHECKING:
    from db.models.crm import Opportunity


class Person(Base):
    """Someone the method speaks of: a coach, a manager being coached, a rep, a customer."""

    __tablename__ = "person"
    __table_args__ = (UniqueConstraint("name", "role"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    role: Mapped[Role] = mapped_column(enum_type(Role, "person_role"))
    email: Mapped[str | None] = mapped_column(String(320))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class Call(Base):
    """A recording the coach replays. The media stays where it is; the store keeps a reference."""

    __tablename__ = "call"

    id: Mapped[int] = mapped_column(primary_key=True)
    title: Mapped[str] = mapped_column(String(300))
    media_path: Mapped[str | None] = mapped_column(Text)  # None: known by hash only (imported record)
    media_sha256: Mapped[str] = mapped_column(String(64), unique=True)
    media_filename: Mapped[str | None] = mapped_column(String(300))
    # The machine the recording was added on (migration 0010): said when another machine lacks the file.
    media_machine: Mapped[str | None] = mapped_column(String(255))
    duration_ms: Mapped[int] = mapped_column(Integer)
    has_video: Mapped[bool] = mapped_column(Boolean, default=False)
    channels: Mapped[int | None] = mapped_column(Integer)
    recorded_at: Mapped[datetime | None]
    source: Mapped[CallSource | None] = mapped_column(enum_type(CallSource, "call_source"))
    rep_id: Mapped[int | None] = mapped_column(ForeignKey("person.id", ondelete="SET NULL"), index=True)
    manager_id: Mapped[int | None] = mapped_column(ForeignKey("person.id", ondelete="SET NULL"), index=True)
    opportunity_id: Mapped[int | None] = mapped_column(
        ForeignKey("opportunity.id", ondelete="SET NULL"), index=True
    )
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    rep: Mapped[Person | None] = relationship(foreign_keys=[rep_id])
    manager: Mapped[Person | None] = relationship(foreign_keys=[manager_id])
    opportunity: Mapped[Opportunity | None] = relationship()
    speakers: Mapped[list[Speaker]] = relationship(
        back_populates="call", cascade="all, delete-orphan", order_by="Speaker.label"
    )
    transcripts: Mapped[list[Transcript]] = relationship(
        back_populates="call", cascade="all, delete-orphan", order_by="Transcript.id"
    )


class Speaker(Base):
    """A voice in one call: the label the transcript uses, the name the coach gave it, its role."""

    __tablename__ = "speaker"
    __table_args__ = (UniqueConstraint("call_id", "label"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    call_id: Mapped[int] = mapped_column(ForeignKey("call.id", ondelete="CASCADE"))
    label: Mapped[str] = mapped_column(String(200))
    name: Mapped[str] = mapped_column(String(200))
    role: Mapped[Role | None] = mapped_column(enum_type(Role, "speaker_role"))
    channel: Mapped[int | None] = mapped_column(Integer)

    call: Mapped[Call] = relationship(back_populates="speakers")


class Transcript(Base):
    """One version of a call's transcript. Editing makes a new `edited` version; the original stays."""

    __tablename__ = "transcript"

    id: Mapped[int] = mapped_column(primary_key=True)
    call_id: Mapped[int] = mapped_column(ForeignKey("call.id", ondelete="CASCADE"), index=True)
    origin: Mapped[TranscriptOrigin] = mapped_column(enum_type(TranscriptOrigin, "transcript_origin"))
    model: Mapped[str | None] = mapped_column(String(200))
    language: Mapped[str | None] = mapped_column(String(16))
    source_file: Mapped[str | None] = mapped_column(Text)
    based_on_id: Mapped[int | None] = mapped_column(ForeignKey("transcript.id", ondelete="SET NULL"))
    is_current: Mapped[bool] = mapped_column(Boolean, default=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    call: Mapped[Call] = relationship(back_populates="transcripts")
    segments: Mapped[list[Segment]] = relationship(
        back_populates="transcript", cascade="all, delete-orphan", order_by="Segment.start_ms"
    )


class Segment(Base):
    __tablename__ = "segment"
    # What a line shows, in time order, straight from the index: opening a call reads no table rows
    # (and so none of the word timings, which are most of a row). Migration 0003.
    __table_args__ = (Index("ix_segment_lines", "transcript_id", "start_ms", "id", "end_ms", "speaker", "text"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    transcript_id: Mapped[int] = mapped_column(ForeignKey("transcript.id", ondelete="CASCADE"))
    start_ms: Mapped[int] = mapped_column(Integer)
    end_ms: Mapped[int] = mapped_column(Integer)
    speaker: Mapped[str | None] = mapped_column(String(200))
    text: Mapped[str] = mapped_column(Text)
    words: Mapped[list[Any] | None] = mapped_column(JSON)

    transcript: Mapped[Transcript] = relationship(back_populates="segments")


class Setting(Base):
    """What the coach set that belongs with their work (local coach, model choice), not UI state."""

    __tablename__ = "setting"

    key: Mapped[str] = mapped_column(String(100), primary_key=True)
    value: Mapped[Any] = mapped_column(JSON)
