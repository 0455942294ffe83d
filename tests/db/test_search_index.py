"""The FTS5 index follows every insert, update and delete of segments and moments."""

from __future__ import annotations

from sqlalchemy import text

from db.models import Call, Moment, Segment, Transcript
from desktop.core.enums import TranscriptOrigin


def _hits(store, table, query):
    with store.read() as s:
        return sorted(r[0] for r in s.execute(text(f"SELECT rowid FROM {table} WHERE {table} MATCH :q"),
                                              {"q": query}))


def test_segment_index_follows_changes(store):
    with store.write() as s:
        call = Call(title="c", media_sha256="c" * 64, duration_ms=10000, has_video=False)
        s.add(call)
        s.flush()
        tr = Transcript(call_id=call.id, origin=TranscriptOrigin.IMPORT)
        s.add(tr)
        s.flush()
        s.add_all([Segment(transcript_id=tr.id, start_ms=0, end_ms=900, text="Just send me some information"),
                   Segment(transcript_id=tr.id, start_ms=1000, end_ms=1900, text="Who owns the budget?")])
    assert len(_hits(store, "segment_fts", "information")) == 1
    with store.write() as s:
        seg = s.query(Segment).filter(Segment.text.like("Who%")).one()
        seg.text = "Who signs off on the spend?"
    assert _hits(store, "segment_fts", "budget") == []
    assert len(_hits(store, "segment_fts", "spend")) == 1
    with store.write() as s:
        s.query(Segment).filter(Segment.text.like("Just%")).delete()
    assert _hits(store, "segment_fts", "information") == []


def test_moment_index_covers_quote_and_note(store):
    with store.write() as s:
        call = Call(title="c", media_sha256="d" * 64, duration_ms=10000, has_video=False)
        s.add(call)
        s.flush()
        s.add(Moment(call_id=call.id, start_ms=0, end_ms=10, quote="send me some information",
                     note="rep accepted it"))
    assert len(_hits(store, "moment_fts", "accepted")) == 1
    with store.write() as s:
        s.query(Moment).one().note = "follow up on the economic buyer"
    assert _hits(store, "moment_fts", "accepted") == []
    assert len(_hits(store, "moment_fts", "economic")) == 1
