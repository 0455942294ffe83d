"""A transcript's lines come out of one index, without their word timings

Opening a call reads every line of its transcript: start, end, speaker, text,
in time order. The old index (transcript_id, start_ms) only ordered them; each
line was then read from the table row, which also holds the line's word
timings (a Whisper line's JSON is ten times its text), so a 2-hour call read
several megabytes to show a quarter of one. This index holds what a line shows,
so that read never touches the table; the word timings are read when first
needed (desktop/services/rows.py). It replaces the old index, whose columns it
begins with.

On PostgreSQL a B-tree entry may not exceed a third of a page, and a long
imported line would be refused: there the index holds the order only.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

LINE_COLUMNS = ["transcript_id", "start_ms", "id", "end_ms", "speaker", "text"]


def upgrade() -> None:
    columns = LINE_COLUMNS if op.get_bind().dialect.name == "sqlite" else LINE_COLUMNS[:3]
    op.create_index("ix_segment_lines", "segment", columns, unique=False)
    op.drop_index("ix_segment_transcript_start", table_name="segment")


def downgrade() -> None:
    op.create_index("ix_segment_transcript_start", "segment", ["transcript_id", "start_ms"], unique=False)
    op.drop_index("ix_segment_lines", table_name="segment")
