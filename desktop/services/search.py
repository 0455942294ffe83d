"""Search across the library's transcripts with the FTS5 index.

The coach types words; every word must appear (the last one as a prefix, so
results come while typing). Results name the call, the time and the line, with
the match marked for highlighting: newest lines first (the lines written last
belong to the calls added last), then each call's lines in the order spoken.

Newest-first rather than bm25: every line shown contains every word typed, so
relevance ranking adds little, and ranking makes FTS5 score every match of a
common word before it can return the first 200 (65 ms on 10 M words against
under 1 ms for newest-first, which stops at the 200th match).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from db.store import Store

MARK_START, MARK_END = "\x02", "\x03"  # highlight markers; the UI turns them into bold
_WORD = re.compile(r"\w+", re.UNICODE)

# Pick the lines inside the index alone (newest first, stopping at `fetch`), then join
# only those: joining every match first made common words several times slower.
_QUERY = """
    SELECT s.id, t.call_id, s.start_ms, s.end_ms, s.speaker, s.text, c.title
    FROM (SELECT rowid AS id FROM segment_fts WHERE segment_fts MATCH ? ORDER BY rowid DESC LIMIT ?) AS hit
    JOIN segment s ON s.id = hit.id
    JOIN transcript t ON t.id = s.transcript_id
    JOIN call c ON c.id = t.call_id
    WHERE t.is_current = 1
"""
_COUNT = "SELECT count(*) FROM (SELECT 1 FROM segment_fts WHERE segment_fts MATCH ? LIMIT ?)"


@dataclass(frozen=True)
class SearchHit:
    call_id: int
    start_ms: int
    end_ms: int
    speaker: str | None
    text: str
    call_title: str
    query: str = ""

    @property
    def marked(self) -> str:
        """The line with the coach's words wrapped in MARK_START/MARK_END, for display.

        Done on demand for the lines shown, not in SQL: FTS5's highlight() re-tokenizes
        every row and doubled the query time.
        """
        return mark(self.text, highlight_pattern(self.query))

    def to_json(self) -> dict:
        return {"call_id": self.call_id, "start_ms": self.start_ms, "end_ms": self.end_ms,
                "speaker": self.speaker, "text": self.text}



def fts_query(user_text: str) -> str | None:
    """The coach's words as an FTS5 query: all words, the last one as a prefix. None if no words."""
    words = _WORD.findall(user_text)
    if not words:
        return None
    quoted = [f'"{w}"' for w in words]
    quoted[-1] += "*"
    return " ".join(quoted)


def search(store: Store, user_text: str, limit: int = 200) -> list[SearchHit]:
    fetch = limit + limit // 4  # room for lines of earlier transcript versions, filtered out below
    if store.dialect != "sqlite":
        rows = _search_server(store, user_text, limit, fetch)
        return _ordered(rows, user_text)
    query = fts_query(user_text)
    if query is None:
        return []
    # The plain DB-API cursor: this runs on every keystroke, and row objects cost more than the query.
    raw = store.engine.raw_connection()
    try:
        cursor = raw.cursor()
        while True:
            rows = cursor.execute(_QUERY, (query, fetch)).fetchall()
            if len(rows) >= limit:
                rows = rows[:limit]
                break
            matches = cursor.execute(_COUNT, (query, fetch + 1)).fetchone()[0]
            if matches <= fetch:
                break  # every match was looked at: the rest are lines of earlier versions
            fetch *= 4
        cursor.close()
    finally:
        raw.close()
    return _ordered(rows, user_text)


def _search_server(store, user_text: str, limit: int, fetch: int) -> list:
    """The same search on a team store: the same words in PostgreSQL's full-text index
    (db/server_search.py), on the store's plain reader (no pool check-out per keystroke)."""
    from db.server_search import COUNT, CURRENT, HITS, typed_words

    words = typed_words(user_text)
    if not words:
        return []
    reader = store.reader()
    while True:
        hits = reader.native(HITS.format(fetch=fetch), {"words": words}).fetchall()
        calls = {tid: (call_id, title) for tid, call_id, title in reader.native(
            CURRENT, {"transcripts": list({h[1] for h in hits})})}
        rows = [(sid, calls[tid][0], start, end, speaker, text, calls[tid][1])
                for sid, tid, start, end, speaker, text in hits if tid in calls]
        if len(rows) >= limit:
            return rows[:limit]
        matches = reader.native(COUNT.format(fetch=fetch + 1), {"words": words}).fetchone()[0]
        if matches <= fetch:
            return rows
        fetch *= 4


def _ordered(rows: list, user_text: str) -> list[SearchHit]:
    call_order: dict[int, int] = {}
    for r in rows:
        call_order.setdefault(r[1], len(call_order))
    rows.sort(key=lambda r: (call_order[r[1]], r[2]))
    return [SearchHit(r[1], r[2], r[3], r[4], r[5], r[6], user_text) for r in rows]


def highlight_pattern(user_text: str) -> re.Pattern | None:
    """Matches the coach's words in a line (the last word as a prefix), as the index does."""
    words = _WORD.findall(user_text)
    if not words:
        return None
    parts = [rf"\b{re.escape(w)}\b" for w in words[:-1]] + [rf"\b{re.escape(words[-1])}\w*"]
    return re.compile("|".join(parts), re.IGNORECASE)


def mark(line: str, pattern: re.Pattern | None) -> str:
    """The line with each match wrapped in MARK_START/MARK_END."""
    if pattern is None:
        return line
    return pattern.sub(lambda m: f"{MARK_START}{m.group(0)}{MARK_END}", line)
