"""The transcription queue lives in the store

Calls waiting for Whisper were held in the window's memory: closing it, a
crash or a killed process lost the queue, and a coach who queued a folder of
a thousand calls had to queue them again. Each row is one call: waiting,
running (with the process that runs it, so a dead one's call is started
again) or failed (with the reason). Done calls leave the queue; their
transcript is saved in one transaction when complete, so a half-done call
leaves nothing behind.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01
"""
import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "transcription_job",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("call_id", sa.Integer(), nullable=False),
        sa.Column("state", sa.Enum("waiting", "running", "failed", name="queue_state", native_enum=False,
                                   create_constraint=True, length=32), nullable=False),
        sa.Column("priority", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("owner_pid", sa.Integer(), nullable=True),
        sa.Column("error", sa.Text(), nullable=True),
        sa.Column("queued_at", sa.DateTime(), nullable=False),
        sa.Column("started_at", sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(["call_id"], ["call.id"], name=op.f("fk_transcription_job_call_id_call"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_transcription_job")),
        sa.UniqueConstraint("call_id", name=op.f("uq_transcription_job_call_id")),
    )


def downgrade() -> None:
    op.drop_table("transcription_job")
