"""Full-text search over transcript lines and moment quotes and notes

FTS5 external-content tables kept in sync by triggers on insert, update and
delete, so search never drifts from what the coach sees. On a team store (PostgreSQL) the
same words are kept in a tsvector column the server computes from the text, with
a GIN index: see db/server_search.py for why the words are split the way FTS5 does.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30
"""
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

TOKENIZE = "unicode61 remove_diacritics 2"


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        from db.server_search import create_search_columns

        create_search_columns(op.execute)
        return
    op.execute(
        "CREATE VIRTUAL TABLE segment_fts USING fts5("
        f"text, content='segment', content_rowid='id', tokenize='{TOKENIZE}')"
    )
    op.execute(
        "CREATE TRIGGER segment_fts_insert AFTER INSERT ON segment BEGIN "
        "INSERT INTO segment_fts(rowid, text) VALUES (new.id, new.text); END"
    )
    op.execute(
        "CREATE TRIGGER segment_fts_delete AFTER DELETE ON segment BEGIN "
        "INSERT INTO segment_fts(segment_fts, rowid, text) VALUES ('delete', old.id, old.text); END"
    )
    op.execute(
        "CREATE TRIGGER segment_fts_update AFTER UPDATE OF text ON segment BEGIN "
        "INSERT INTO segment_fts(segment_fts, rowid, text) VALUES ('delete', old.id, old.text); "
        "INSERT INTO segment_fts(rowid, text) VALUES (new.id, new.text); END"
    )
    op.execute(
        "CREATE VIRTUAL TABLE moment_fts USING fts5("
        f"quote, note, content='moment', content_rowid='id', tokenize='{TOKENIZE}')"
    )
    op.execute(
        "CREATE TRIGGER moment_fts_insert AFTER INSERT ON moment BEGIN "
        "INSERT INTO moment_fts(rowid, quote, note) VALUES (new.id, new.quote, coalesce(new.note, '')); END"
    )
    op.execute(
        "CREATE TRIGGER moment_fts_delete AFTER DELETE ON moment BEGIN "
        "INSERT INTO moment_fts(moment_fts, rowid, quote, note) "
        "VALUES ('delete', old.id, old.quote, coalesce(old.note, '')); END"
    )
    op.execute(
        "CREATE TRIGGER moment_fts_update AFTER UPDATE OF quote, note ON moment BEGIN "
        "INSERT INTO moment_fts(moment_fts, rowid, quote, note) "
        "VALUES ('delete', old.id, old.quote, coalesce(old.note, '')); "
        "INSERT INTO moment_fts(rowid, quote, note) VALUES (new.id, new.quote, coalesce(new.note, '')); END"
    )
    # Rows written before this revision existed.
    op.execute("INSERT INTO segment_fts(segment_fts) VALUES ('rebuild')")
    op.execute("INSERT INTO moment_fts(moment_fts) VALUES ('rebuild')")


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        from db.server_search import drop_search_columns

        drop_search_columns(op.execute)
        return
    for trigger in ("segment_fts_insert", "segment_fts_delete", "segment_fts_update",
                    "moment_fts_insert", "moment_fts_delete", "moment_fts_update"):
        op.execute(f"DROP TRIGGER IF EXISTS {trigger}")
    op.execute("DROP TABLE IF EXISTS segment_fts")
    op.execute("DROP TABLE IF EXISTS moment_fts")
