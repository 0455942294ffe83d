"""A store a team shares: who owns a moment or an item, when it was shared, an item's version

Every store gets the same columns; on SQLite they stay empty (one coach, one
file) except the item's version, which counts its saves. On a team store
(PostgreSQL) the server fills in the owner's role, and row-level security
keeps blind review: a coach sees their own moments and items and the others'
only once shared, and changes only their own; a manager reads only what was
shared (db/team.py names the roles).

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01
"""
from alembic import op
import sqlalchemy as sa

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

OWNED = ("moment", "coaching_item")


def upgrade() -> None:
    for table in OWNED:
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.add_column(sa.Column("owner_role", sa.String(length=63), nullable=True))
            batch_op.add_column(sa.Column("shared_at", sa.DateTime(), nullable=True))
    with op.batch_alter_table("coaching_item", schema=None) as batch_op:
        batch_op.add_column(sa.Column("version", sa.Integer(), nullable=False, server_default="1"))
    if op.get_bind().dialect.name == "postgresql":
        from db.team import create_policies

        create_policies(op.execute)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        from db.team import drop_policies

        drop_policies(op.execute)
    with op.batch_alter_table("coaching_item", schema=None) as batch_op:
        batch_op.drop_column("version")
    for table in OWNED:
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.drop_column("shared_at")
            batch_op.drop_column("owner_role")
