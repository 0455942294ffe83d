"""The moment finder's suggestions: a cache of findings per call, and the coach's verdicts

`suggestion_cache` keeps what the detection pass found on a call's current
transcript, under a fingerprint of that transcript (lines, roles, phrase lists,
rules): a pass over an unchanged transcript finds the fingerprint and does
nothing. `suggestion_verdict` keeps what the coach accepted or dismissed, by the
finding's id (its label and line text), so a verdict survives a new transcript
version where the line still exists.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""
import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

LABELS = ("rep_question_open", "rep_question_closed", "rep_question_leading", "customer_question", "deferral",
          "deferral_accepted", "next_step_confirmed", "next_step_vague", "metrics", "economic_buyer",
          "decision_process", "pain", "champion", "competition", "critical_event", "price", "objection",
          "missed_follow_up")


def upgrade() -> None:
    op.create_table(
        "suggestion_cache",
        sa.Column("call_id", sa.Integer(), nullable=False),
        sa.Column("transcript_id", sa.Integer(), nullable=True),
        sa.Column("fingerprint", sa.String(length=64), nullable=False),
        sa.Column("findings", sa.JSON(), nullable=False),
        sa.Column("figures", sa.JSON(), nullable=False),
        sa.Column("computed_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["call_id"], ["call.id"], name=op.f("fk_suggestion_cache_call_id_call"),
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["transcript_id"], ["transcript.id"],
                                name=op.f("fk_suggestion_cache_transcript_id_transcript"), ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("call_id", name=op.f("pk_suggestion_cache")),
    )
    op.create_table(
        "suggestion_verdict",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("call_id", sa.Integer(), nullable=False),
        sa.Column("finding_id", sa.String(length=32), nullable=False),
        sa.Column("label", sa.String(length=32), nullable=False),
        sa.Column("verdict", sa.Enum("accepted", "dismissed", name="suggestion_verdict", native_enum=False,
                                     create_constraint=True, length=32), nullable=False),
        sa.Column("coach_id", sa.Integer(), nullable=True),
        sa.Column("moment_id", sa.Integer(), nullable=True),
        sa.Column("start_ms", sa.Integer(), nullable=False),
        sa.Column("end_ms", sa.Integer(), nullable=False),
        sa.Column("quote", sa.Text(), nullable=False),
        sa.Column("decided_at", sa.DateTime(), nullable=False),
        sa.CheckConstraint("label IN (" + ", ".join(f"'{label}'" for label in LABELS) + ")",
                           name=op.f("ck_suggestion_verdict_label")),
        sa.ForeignKeyConstraint(["call_id"], ["call.id"], name=op.f("fk_suggestion_verdict_call_id_call"),
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["coach_id"], ["person.id"], name=op.f("fk_suggestion_verdict_coach_id_person"),
                                ondelete="SET NULL"),
        sa.ForeignKeyConstraint(["moment_id"], ["moment.id"], name=op.f("fk_suggestion_verdict_moment_id_moment"),
                                ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_suggestion_verdict")),
        sa.UniqueConstraint("call_id", "finding_id", name=op.f("uq_suggestion_verdict_call_id")),
    )
    with op.batch_alter_table("suggestion_verdict", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_suggestion_verdict_call_id"), ["call_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_suggestion_verdict_label"), ["label"], unique=False)
        batch_op.create_index(batch_op.f("ix_suggestion_verdict_coach_id"), ["coach_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_suggestion_verdict_moment_id"), ["moment_id"], unique=False)


def downgrade() -> None:
    op.drop_table("suggestion_verdict")
    op.drop_table("suggestion_cache")
