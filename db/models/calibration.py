"""Two coaches on the same call, and what they agreed to coach."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Integer
from sqlalchemy.orm import Mapped, mapped_column

from db.base import Base, utcnow


class Calibration(Base):
    __tablename__ = "calibration"

    id: Mapped[int] = mapped_column(primary_key=True)
    call_id: Mapped[int] = mapped_column(ForeignKey("call.id", ondelete="CASCADE"), index=True)
    mine_coach_id: Mapped[int | None] = mapped_column(ForeignKey("person.id", ondelete="SET NULL"))
    theirs_coach_id: Mapped[int | None] = mapped_column(ForeignKey("person.id", ondelete="SET NULL"))
    tolerance_ms: Mapped[int] = mapped_column(Integer, default=5000)
    result: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    decisions: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    agreed_at: Mapped[datetime | None]
    agreed_by: Mapped[str | None]
