"""Declarative base with named constraints, and small column helpers shared by the models."""

from __future__ import annotations

import uuid
from datetime import datetime, timezone

from sqlalchemy import MetaData, String
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


def utcnow() -> datetime:
    return datetime.now(timezone.utc).replace(tzinfo=None)


def new_uid() -> str:
    return str(uuid.uuid4())


def uid_column() -> Mapped[str]:
    """The UUID a row travels under in the portable record."""
    return mapped_column(String(36), unique=True, default=new_uid, nullable=False)


def enum_type(enum_cls, name: str):
    """Store a StrEnum by its value, checked by a named CHECK constraint."""
    from sqlalchemy import Enum

    return Enum(
        enum_cls,
        name=name,
        values_callable=lambda e: [m.value for m in e],
        native_enum=False,
        create_constraint=True,
        validate_strings=True,
        length=32,
    )
