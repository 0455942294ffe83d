"""Library search on a team store (PostgreSQL): the words FTS5 would find, in a tsvector.

The SQLite store indexes lines with FTS5's unicode61 tokenizer (words are runs
of letters and digits, case folded, diacritics removed). PostgreSQL's own
text-search parser splits differently (it keeps "3.5", "e-mail", addresses and
URLs as single tokens), so a search would find other lines on a team store.
Here the server splits a line the FTS5 way instead: runs of letters and
digits, lower-cased, without diacritics, each word with its position (for the words of
one typed word such as "follow_up", which must stand next to each other). The
tsvector is a generated column, so it always follows the text, with a GIN index.
"""

from __future__ import annotations

import re

# Diacritics go as FTS5's remove_diacritics takes them off: decompose (NFD) and drop the combining
# marks, so "é" is "e" but "ß" and "ø" stay themselves (the unaccent extension would make "ss", "o").
# IMMUTABLE so it can compute a generated column.
_FUNCTIONS = r"""
CREATE OR REPLACE FUNCTION callmark_words(t text) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS $$
  SELECT array_remove(regexp_split_to_array(
           regexp_replace(normalize(lower(t), NFD), '[\u0300-\u036f]', '', 'g'), '[^[:alnum:]]+'), '')
$$;

CREATE OR REPLACE FUNCTION callmark_search_words(t text) RETURNS tsvector
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(string_agg('''' || w || ''':' || least(n, 16383), ' ')::tsvector, ''::tsvector)
  FROM unnest(callmark_words(coalesce(t, ''))) WITH ORDINALITY AS x(w, n)
$$;

-- The coach's typed words as a query: every word must appear (a word that splits in several, such
-- as "follow_up", as a phrase), the last one as a prefix. NULL when nothing searchable was typed.
CREATE OR REPLACE FUNCTION callmark_search_query(typed text[]) RETURNS tsquery
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  parts text[] := '{}';
  pieces text[];
  piece text;
  i int;
BEGIN
  FOR i IN 1 .. coalesce(array_length(typed, 1), 0) LOOP
    pieces := callmark_words(typed[i]);
    IF coalesce(array_length(pieces, 1), 0) = 0 THEN
      CONTINUE;
    END IF;
    piece := array_to_string(ARRAY(SELECT '''' || p || '''' FROM unnest(pieces) AS p), ' <-> ');
    IF i = array_length(typed, 1) THEN
      piece := piece || ':*';
    END IF;
    parts := parts || ('(' || piece || ')');
  END LOOP;
  IF array_length(parts, 1) IS NULL THEN
    RETURN NULL;
  END IF;
  RETURN array_to_string(parts, ' & ')::tsquery;
END
$$;
"""

_COLUMNS = """
ALTER TABLE segment ADD COLUMN search_words tsvector
  GENERATED ALWAYS AS (callmark_search_words(text)) STORED;
CREATE INDEX ix_segment_search_words ON segment USING gin (search_words);
ALTER TABLE moment ADD COLUMN search_words tsvector
  GENERATED ALWAYS AS (callmark_search_words(quote || ' ' || coalesce(note, ''))) STORED;
CREATE INDEX ix_moment_search_words ON moment USING gin (search_words);
"""


def create_search_columns(execute) -> None:
    execute(_FUNCTIONS)
    execute(_COLUMNS)


def drop_search_columns(execute) -> None:
    execute("DROP INDEX IF EXISTS ix_segment_search_words; DROP INDEX IF EXISTS ix_moment_search_words;"
            "ALTER TABLE segment DROP COLUMN IF EXISTS search_words;"
            "ALTER TABLE moment DROP COLUMN IF EXISTS search_words;"
            "DROP FUNCTION IF EXISTS callmark_search_query(text[]);"
            "DROP FUNCTION IF EXISTS callmark_search_words(text); DROP FUNCTION IF EXISTS callmark_words(text);")


_TYPED = re.compile(r"\w+", re.UNICODE)  # the words the SQLite search takes from what was typed

# As on SQLite (desktop/services/search.py) the newest matching lines are picked in the index, then
# their transcripts' calls are looked up, once per transcript (a handful), not once per line: joining
# call and transcript to every line cost more than the search itself. Lines of earlier transcript
# versions are left out there. The limit is written into the statement, not passed: the driver
# prepares a statement it runs often, and the server's plan for an unknown limit sorts every match
# of a common word.
HITS = """
    SELECT id, transcript_id, start_ms, end_ms, speaker, text FROM segment
    WHERE search_words @@ callmark_search_query(%(words)s) ORDER BY id DESC LIMIT {fetch:d}
"""
CURRENT = """
    SELECT t.id, t.call_id, c.title FROM transcript t JOIN call c ON c.id = t.call_id
    WHERE t.id = ANY(%(transcripts)s) AND t.is_current
"""
COUNT = ("SELECT count(*) FROM (SELECT 1 FROM segment WHERE search_words @@ callmark_search_query(%(words)s) "
         "LIMIT {fetch:d}) AS hit")


def typed_words(user_text: str) -> list[str]:
    return _TYPED.findall(user_text)
