"""Alembic environment: runs on the connection the store hands over, batch mode for SQLite."""

from __future__ import annotations

from alembic import context

from db.models import Base

config = context.config
connection = config.attributes["connection"]

context.configure(
    connection=connection,
    target_metadata=Base.metadata,
    render_as_batch=True,
    compare_type=True,
)

with context.begin_transaction():
    context.run_migrations()
