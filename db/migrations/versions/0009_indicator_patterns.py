"""Indicators tied to a detector, and observations that keep their moment

A coaching item's indicator may name the pattern it is read from (a
detection label today; a tracker later): then the app proposes, from each
later call, whether the behavior was seen. The cycle keeps the pattern its
focus was picked from in the baseline table. An observation confirmed from a
proposal keeps the moment it was read at (start_ms), so the coach can replay
the evidence.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-01
"""
import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("coaching_item") as batch:
        batch.add_column(sa.Column("indicator_pattern", sa.String(length=64), nullable=True))
    with op.batch_alter_table("cycle") as batch:
        batch.add_column(sa.Column("focus_pattern", sa.String(length=64), nullable=True))
    with op.batch_alter_table("observation") as batch:
        batch.add_column(sa.Column("start_ms", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("observation") as batch:
        batch.drop_column("start_ms")
    with op.batch_alter_table("cycle") as batch:
        batch.drop_column("focus_pattern")
    with op.batch_alter_table("coaching_item") as batch:
        batch.drop_column("indicator_pattern")
