"""Plain text helpers the detectors share: words, sentences, numbers, dates.

Every detector reads a line as lower-case words separated by single spaces
(punctuation gone, apostrophes kept), padded with a space at each end so a
phrase can be found as whole words with a plain substring test.
"""

from __future__ import annotations

import re
from typing import NamedTuple

_QUOTES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u201c": " ", "\u201d": " ", "\u2014": " ",
                         "\u2013": " ", "-": " ", "_": " "})
# A word: letters and digits with inner apostrophes (you'd, o'clock); a number with its thousands,
# decimals and unit ($25,000, 2.5x, 12%, 3rd).
_TOKEN = re.compile(r"\$?\d+(?:,\d{3})*(?:\.\d+)?[a-z%]*|[a-z0-9]+(?:'[a-z]+)*%?")
_SENTENCE_END = re.compile(r"(?<=[.?!])\s+(?=\S)")
# The same cuts, found faster: a sentence ends one past the start of each match.
_SENTENCE_STOP = re.compile(r"[.?!]\s+(?=\S)")
# _QUOTES as plain replacements: str.translate looks each character up, and most lines hold none of these
_REPLACE = tuple((chr(k), v) for k, v in _QUOTES.items())


def lowered(text: str) -> str:
    """text.lower().translate(_QUOTES), without a look-up per character."""
    text = text.lower()
    if text.isascii():  # most lines: of the characters replaced only these two can be there
        if "-" in text:
            text = text.replace("-", " ")
        if "_" in text:
            text = text.replace("_", " ")
        return text
    for old, new in _REPLACE:
        if old in text:
            text = text.replace(old, new)
    return text


def words_of(text: str) -> str:
    """' so you'd like ... ' form: lower case, whole words, one space between, a space at each end."""
    tokens = _TOKEN.findall(lowered(text))
    joined = " ".join(tokens)
    if "," in joined:
        joined = joined.replace(",", "")  # only numbers keep a comma this far: 25,000 -> 25000
    return f" {joined} "


class Sentence(NamedTuple):
    """One sentence of a line (a tuple: a 2-hour call makes thousands, and a frozen dataclass is
    several times dearer to build)."""

    text: str  # as written
    words: str  # words_of(text)
    asks: bool  # ends with a question mark
    word_set: frozenset[str]  # the whole line's words: what the rules ask of the line
    own: frozenset[str]  # this sentence's words alone: a phrase list none of whose words are here cannot match it


def sentences(text: str) -> list[Sentence]:
    """A line cut into sentences at . ? ! (Whisper often leaves one line as several sentences).

    Every sentence carries the whole line's word set (rules such as "the line has a number" read the
    line) and its own: a phrase list is tried on a sentence only when its words are in that sentence,
    not in another sentence of the line.
    """
    pieces = []
    text = text.strip()
    prepared = lowered(text)  # once a line, not once a sentence
    if len(prepared) != len(text):  # a letter whose lower case is longer: cut each sentence on its own
        prepared = None
    if _SENTENCE_STOP.search(text) is None:  # one sentence, the common case: the line's words are the sentence's
        if not text:
            return []
        if prepared is None:
            words = words_of(text)
        else:
            tokens = _TOKEN.findall(prepared)
            joined = " ".join(tokens)
            if "," in joined:
                joined = joined.replace(",", "")
                tokens = joined.split()
            words = f" {joined} "
        if len(words) <= 2:
            return []
        word_set = frozenset(words.split() if prepared is None else tokens)
        return [Sentence(text, words, text.rstrip("\"') ").endswith("?"), word_set, word_set)]
    start = 0
    for end in [m.start() + 1 for m in _SENTENCE_STOP.finditer(text)] + [len(text)]:
        piece = text[start:end].strip()
        if piece:
            if prepared is None:
                words = words_of(piece)
            else:
                joined = " ".join(_TOKEN.findall(prepared[start:end]))
                words = f" {joined.replace(',', '') if ',' in joined else joined} "
            if len(words) > 2:
                pieces.append((piece, words))
        start = end
    if not pieces:
        return []
    word_set = frozenset("".join(w for _p, w in pieces).split())
    return [Sentence(piece, words, piece.rstrip("\"') ").endswith("?"), word_set, frozenset(words.split()))
            for piece, words in pieces]


NUMBER_WORDS = ("one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
                "sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety "
                "hundred thousand million billion half dozen").split()
_NUMBER = r"(?:\$?\d[\d,.]*(?:k|m|%)?|" + "|".join(NUMBER_WORDS) + r")"
NUMBER = re.compile(rf" {_NUMBER}(?: (?:and |a )?{_NUMBER})* ")

WEEKDAYS = "monday tuesday wednesday thursday friday saturday sunday".split()
MONTHS = ("january february march april may june july august september october november december").split()
_ORDINAL = (r"(?:\d{1,2}(?:st|nd|rd|th)|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|"
            r"eleventh|twelfth|thirteenth|fourteenth|fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|twentieth|"
            r"thirtieth|twenty \w+|thirty first)")
ORDINAL = _ORDINAL  # a day of the month in words or digits ("the twenty third", "the 3rd")
_CLOCK_NUMBER = r"(?:\d{1,2}(?::?\d\d)?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|noon)"
# A date or time someone can put in a calendar; "next quarter" or "soon" are not one.
SPECIFIC_DATE = re.compile(
    r" (?<!every )(?:(?:next |this |on |by )?(?:" + "|".join(WEEKDAYS) + r")(?= )"
    r"|tomorrow|today|tonight|this (?:afternoon|morning|evening)"
    r"|end of (?:the )?(?:day|week|month)|eod|eow|(?:this|next) week|(?:over|on|at) the weekend|this weekend"
    r"|(?:" + "|".join(m for m in MONTHS if m != "may") + r"|may) (?:the )?" + _ORDINAL +
    r"|(?:the )?" + _ORDINAL + r" of (?:" + "|".join(MONTHS) + r")"
    r"|(?:on|for|by) the " + _ORDINAL + r"|week of the " + _ORDINAL +
    r"|\d{1,2} ?(?:am|pm)|" + _CLOCK_NUMBER + r" (?:am|pm|a m|p m|o'clock|thirty|fifteen|forty five)"
    r"|at " + _CLOCK_NUMBER + r"(?= |$)(?! (?:location|locations|site|sites|point|of|person|people|team|store|stores|"
    r"office|offices|place|stage|level|time|go|a|the|each|per|once|least|most|all))"
    r"|\d{1,2}/\d{1,2}|in (?:two|three|four|five|\d) (?:days|weeks)) ")


# Every date SPECIFIC_DATE finds holds a digit or one of these words: a line with neither is not searched.
_DATE_WORDS = frozenset(WEEKDAYS + MONTHS + """tomorrow today tonight afternoon morning evening end eod eow week weekend
days weeks noon one two three four five six seven eight nine ten eleven twelve twenty thirty first second third fourth
fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth fourteenth fifteenth sixteenth seventeenth
eighteenth nineteenth twentieth thirtieth""".split())
_DIGIT = re.compile(r"\d")


def specific_date(words: str, word_set: frozenset[str] | None = None) -> str | None:
    """The first calendar date or time in a line's words, or None (`word_set`: those words as a set, if known)."""
    if _DATE_WORDS.isdisjoint(words.split() if word_set is None else word_set) and _DIGIT.search(words) is None:
        return None  # the pattern is the dearest test of a line: most lines hold none of its words
    found = SPECIFIC_DATE.search(words)
    return found.group(0).strip() if found else None


def content_words(words: str) -> set[str]:
    """The words that carry a line's topic (for 'does the reply pick this up?')."""
    return {w.rstrip("s") for w in words.split() if len(w) > 2 and w not in STOPWORDS}


STOPWORDS = frozenset("""
about above after again against also although always another anything anyone around because been before
being below between both could doesn't don't didn't does doing down during each either else even ever every
from further getting going gonna good great have haven't having here hers herself himself into isn't it's
just know like maybe more most much must myself need never only other ours ourselves over really right same
should some something sort still such sure than that that's their theirs them themselves then there these
they they're thing things think this those though through thing today very want wanted wasn't well we're
were weren't what what's when where which while whom whose will with within without won't would wouldn't
yeah your yours yourself okay kind lot lots mean says said tell told make made take took give gave year
the and you for are but not was can has had our its his her who why how all any one two get got yes yep now way bit
did does new see say let per too off out use via ago own yet try way sir mrs him she they them see
""".split())
