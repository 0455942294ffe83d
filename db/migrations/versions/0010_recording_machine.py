"""Each call remembers the machine its recording was added on

On a team store one library serves many machines, and a recording stays where
it is: on the laptop that recorded or imported it. The call already knows its
recording by SHA-256 (``media_sha256``) and the path it was added from
(``media_path``); this adds the machine's name, so a coach whose machine does
not have the file is told where it was (the path on which machine). Where a
recording lives on *this* machine is kept on this machine, never here.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-01
"""
import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("call") as batch:
        batch.add_column(sa.Column("media_machine", sa.String(length=255), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("call") as batch:
        batch.drop_column("media_machine")
