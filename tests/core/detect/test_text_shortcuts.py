"""The moment finder's text shortcuts give the same answers as the long way round.

Sentence cutting, lower-casing and the calendar-date test each skip work on the common line (one
sentence, plain ASCII, no date word). A date form added to the pattern but not to the words that
let a line through would silently lose dates: these tests read every line of the development set
and a list of date phrases both ways.
"""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path

from desktop.core.detect import text

DEV = Path(__file__).resolve().parents[2] / "detection_eval" / "dev"

DATES = """by Friday | next Tuesday at 2pm | on the 3rd | the twenty first of June | March the ninth | tomorrow
at ten | end of the week | this afternoon | over the weekend | at 4:30 | 10 am | in two weeks | week of the
fifth | eleven o'clock | at noon | may the first | on the 21st | tonight | EOD | this week""".replace("\n", " ")


def dev_lines() -> list[str]:
    out = []
    for vtt in sorted(DEV.glob("*.vtt")):
        out += [ln.partition(": ")[2] or ln for ln in vtt.read_text(encoding="utf-8").splitlines() if ln.strip()]
    return out


def test_lowered_is_lower_case_with_quotes_and_dashes_as_the_table_says():
    samples = dev_lines() + ["Don\u2019t \u201cquote\u201d me \u2014 re-check the snake_case ÉTÉ"]
    for line in samples:
        assert text.lowered(line) == line.lower().translate(text._QUOTES)


def test_a_date_is_found_whether_or_not_the_line_is_let_through_first():
    def long_way(words: str) -> str | None:
        found = text.SPECIFIC_DATE.search(words)
        return found.group(0).strip() if found else None

    phrases = [p.strip() for p in DATES.split("|")]
    assert all(text.specific_date(text.words_of(f"We meet {p} okay")) for p in phrases)
    wordings = [text.words_of(line) for line in dev_lines()]
    wordings += [text.words_of(f"{a} {b}") for a, b in itertools.product(phrases, ["", "works", "at the office"])]
    for words in wordings:
        assert text.specific_date(words) == long_way(words), words


def test_one_sentence_lines_read_as_the_general_cut_reads_them():
    # The general cut: at each . ? ! followed by a space, each piece's own words, the line's word set.
    end = re.compile(r"(?<=[.?!])\s+(?=\S)")
    for line in dev_lines() + ["Okay.", "What about 25,000 seats?", "  So you'd like dashboards, right  "]:
        said = text.sentences(line)
        stripped = line.strip()
        pieces = [p.strip() for p in end.split(stripped) if p.strip()]
        kept = [p for p in pieces if len(text.words_of(p)) > 2]
        assert [s.text for s in said] == kept
        assert [s.words for s in said] == [text.words_of(p) for p in kept]
        whole = frozenset(w for p in kept for w in text.words_of(p).split())
        assert all(s.word_set == whole for s in said)
        assert all(s.own == frozenset(s.words.split()) for s in said)
        assert [s.asks for s in said] == [p.rstrip("\"') ").endswith("?") for p in kept]
