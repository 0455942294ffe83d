"""What an export did not say: no Next step column, no Last Modified Date

An export without a Next step column says nothing about next steps, and one
without a Last Modified Date dates a change only by the import that found it.
The next-step check must know both to say "can't tell" instead of a verdict.
Rows stored before this were read as if both columns were there (the old
behaviour), so they keep that reading.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""
import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("opportunity") as batch:
        batch.add_column(sa.Column("next_step_seen_at", sa.DateTime(), nullable=True))
    op.execute("UPDATE opportunity SET next_step_seen_at = updated_at")
    with op.batch_alter_table("opportunity_snapshot") as batch:
        batch.add_column(sa.Column("next_step_known", sa.Boolean(), nullable=False, server_default=sa.true()))
        batch.add_column(sa.Column("dated_by_crm", sa.Boolean(), nullable=False, server_default=sa.true()))


def downgrade() -> None:
    with op.batch_alter_table("opportunity_snapshot") as batch:
        batch.drop_column("dated_by_crm")
        batch.drop_column("next_step_known")
    with op.batch_alter_table("opportunity") as batch:
        batch.drop_column("next_step_seen_at")
