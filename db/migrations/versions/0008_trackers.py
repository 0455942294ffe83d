"""Trackers: named phrase sets counted on every call, and the lines they found

`tracker` holds each tracker (name, side, phrases, exclusions); the trackers Callmark ships
(resources/trackers/trackers.json) are added here once, so one the coach removes stays removed.
`tracker_hit` keeps each line a tracker found on a call's current transcript; `tracker_call`
when a call was last counted. The shipped trackers start uncounted (`counted_version` 0): the
library is counted for them after this upgrade, in the background.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-01
"""
import json
import re
from datetime import datetime, timezone

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    tracker = op.create_table(
        "tracker",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=120), nullable=False),
        sa.Column("key", sa.String(length=120), nullable=False),
        sa.Column("side", sa.String(length=16), nullable=False),
        sa.Column("phrases", sa.JSON(), nullable=False),
        sa.Column("exclusions", sa.JSON(), nullable=False),
        sa.Column("label", sa.String(length=32), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("counted_version", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.CheckConstraint("side IN ('rep', 'customer', 'either')", name=op.f("ck_tracker_side")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tracker")),
        sa.UniqueConstraint("name", name=op.f("uq_tracker_name")),
        sa.UniqueConstraint("key", name=op.f("uq_tracker_key")),
    )
    op.create_table(
        "tracker_hit",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tracker_id", sa.Integer(), nullable=False),
        sa.Column("call_id", sa.Integer(), nullable=False),
        sa.Column("start_ms", sa.Integer(), nullable=False),
        sa.Column("end_ms", sa.Integer(), nullable=False),
        sa.Column("speaker", sa.String(length=200), nullable=True),
        sa.Column("role", sa.String(length=16), nullable=False),
        sa.Column("quote", sa.Text(), nullable=False),
        sa.Column("matched", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(["tracker_id"], ["tracker.id"], name=op.f("fk_tracker_hit_tracker_id_tracker"),
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["call_id"], ["call.id"], name=op.f("fk_tracker_hit_call_id_call"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tracker_hit")),
    )
    with op.batch_alter_table("tracker_hit", schema=None) as batch_op:
        batch_op.create_index("ix_tracker_hit_tracker_id_call_id", ["tracker_id", "call_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_tracker_hit_call_id"), ["call_id"], unique=False)
    op.create_table(
        "tracker_call",
        sa.Column("call_id", sa.Integer(), nullable=False),
        sa.Column("counted_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["call_id"], ["call.id"], name=op.f("fk_tracker_call_call_id_call"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("call_id", name=op.f("pk_tracker_call")),
    )
    from desktop import paths

    def tracker_key(name: str) -> str:  # as desktop.core.trackers.tracker_key was at this revision
        return re.sub(r"[^a-z0-9]+", "_", name.casefold()).strip("_")

    shipped = json.loads(paths.resource("trackers", "trackers.json").read_text(encoding="utf-8"))["trackers"]
    now = datetime.now(timezone.utc).replace(tzinfo=None)
    op.bulk_insert(tracker, [
        {"name": t["name"], "key": tracker_key(t["name"]), "side": t["side"], "phrases": t["phrases"],
         "exclusions": t.get("exclusions", []), "label": t.get("label"), "version": 1, "counted_version": 0,
         "created_at": now, "updated_at": now}
        for t in shipped
    ])


def downgrade() -> None:
    op.drop_table("tracker_call")
    with op.batch_alter_table("tracker_hit", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_tracker_hit_call_id"))
        batch_op.drop_index("ix_tracker_hit_tracker_id_call_id")
    op.drop_table("tracker_hit")
    op.drop_table("tracker")
