"""Opportunities from CRM exports, with the history of their next step."""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import ForeignKey, String, Text, UniqueConstraint, true
from sqlalchemy.orm import Mapped, mapped_column, relationship

from db.base import Base, enum_type, utcnow
from desktop.core.enums import Crm


class Opportunity(Base):
    __tablename__ = "opportunity"
    __table_args__ = (UniqueConstraint("crm", "external_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    crm: Mapped[Crm] = mapped_column(enum_type(Crm, "crm"))
    external_id: Mapped[str] = mapped_column(String(64))
    name: Mapped[str] = mapped_column(String(300), default="")
    account: Mapped[str | None] = mapped_column(String(300))
    stage: Mapped[str | None] = mapped_column(String(120))
    next_step: Mapped[str | None] = mapped_column(Text)
    next_step_date: Mapped[date | None]
    close_date: Mapped[date | None]
    owner: Mapped[str | None] = mapped_column(String(200))
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)
    #: when an import with a Next step column last saw it (None: no export had one)
    next_step_seen_at: Mapped[datetime | None]

    history: Mapped[list[OpportunitySnapshot]] = relationship(
        back_populates="opportunity", cascade="all, delete-orphan", order_by="OpportunitySnapshot.as_of"
    )


class OpportunitySnapshot(Base):
    """The opportunity's stage and next step as one import saw them."""

    __tablename__ = "opportunity_snapshot"

    id: Mapped[int] = mapped_column(primary_key=True)
    opportunity_id: Mapped[int] = mapped_column(ForeignKey("opportunity.id", ondelete="CASCADE"), index=True)
    as_of: Mapped[datetime]
    source_file: Mapped[str | None] = mapped_column(Text)
    stage: Mapped[str | None] = mapped_column(String(120))
    next_step: Mapped[str | None] = mapped_column(Text)
    next_step_date: Mapped[date | None]
    #: False when the export had no Next step column: next_step is then the older value
    next_step_known: Mapped[bool] = mapped_column(default=True, server_default=true())
    #: False when as_of is the import's time (the export had no Last Modified Date)
    dated_by_crm: Mapped[bool] = mapped_column(default=True, server_default=true())

    opportunity: Mapped[Opportunity] = relationship(back_populates="history")
