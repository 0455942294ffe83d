"""Search across the library's transcripts with the FTS5 index.

The coach types words; every word must appear (the last one as a prefix, so
results come while typing). Results name the call, the time and the line, with
the match marked for highlighting.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from db.store import Store

MARK_START, MARK_END = "\x02", "\x03"  # highlight markers; the UI turns them into bold
_WORD = re.compile(r"\w+", re.UNICODE)

# Rank inside the index alone, then look up only the best lines by primary key:
# joining every match before sorting made common words several times slower.
_RANKED = "SELECT rowid FROM segment_fts WHERE segment_fts MATCH ? ORDER BY rank LIMIT ?"
_LINES = """
    SELECT s.id, t.call_id, s.start_ms, s.end_ms, s.speaker, s.text, c.title
    FROM segment s
    JOIN transcript t ON t.id = s.transcript_id
    JOIN call c ON c.id = t.call_id
    WHERE t.is_current = 1 AND s.id IN ({ids})
"""


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
    query = fts_query(user_text)
    if query is None:
        return []
    fetch = limit + limit // 4  # room for lines of earlier transcript versions, filtered out below
    # The plain DB-API cursor: this runs on every keystroke, and row objects cost more than the query.
    raw = store.engine.raw_connection()
    try:
        cursor = raw.cursor()
        while True:
            ids = [r[0] for r in cursor.execute(_RANKED, (query, fetch)).fetchall()]
            if not ids:
                return []
            found = {r[0]: r for r in cursor.execute(_LINES.format(ids=",".join(map(str, ids)))).fetchall()}
            rows = [found[i] for i in ids if i in found][:limit]
            if len(rows) >= limit or len(ids) < fetch:
                break
            fetch *= 4
        cursor.close()
    finally:
        raw.close()
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
