"""Find and replace customers' personal data before anything leaves the machine.

Emails become `[email]`, phone numbers `[phone]`, payment-card numbers (only
when the Luhn check passes) `[card]`. Whisper often writes numbers as words
("four one five, five five five, one two one two", "oh" for zero, "double
five"), so runs of number words count like digits.

Numbers that are not personal data are left alone: prices, amounts with
thousands separators, dates, times, quarters, versions, percentages, years,
zip codes. The rules lean on the shapes people and Whisper write phone numbers
in; `tests/exchange/redaction_corpus.py` measures how well they do.

Each replacement is reported as a `Redaction` (character span in the original
text) so the export preview can list every one, and `mute_spans` turns them
into time spans of the recording to silence in audio clips.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import NamedTuple


class PiiKind(StrEnum):
    EMAIL = "email"
    PHONE = "phone"
    CARD = "card"

    @property
    def placeholder(self) -> str:
        return f"[{self.value}]"


@dataclass(frozen=True)
class Redaction:
    kind: PiiKind
    start: int  # character offsets in the original text, end exclusive
    end: int
    original: str


class Redacted(NamedTuple):
    text: str
    redactions: list[Redaction]


# ---- emails -----------------------------------------------------------------------

_TLDS = r"(?:com|org|net|io|co|edu|gov|us|uk|de|fr|ca|au|ai|biz|info|me|app|dev)"
_WRITTEN_EMAIL = re.compile(
    r"(?<![\w.+%-])[A-Za-z0-9][A-Za-z0-9._%+-]*@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}\b")
# "dana dot coach at acme dot com", as Whisper sometimes hears an address read out.
_NOT_A_MAILBOX = (r"(?!(?:me|us|him|her|them|you|it|we|met|meet|meeting|look|looked|based|work|works|"
                  r"worked|here|there|is|was|are|be|or|and|that|this|one|people|team|folks)\s+at\b)")
_SPOKEN_EMAIL = re.compile(
    r"\b" + _NOT_A_MAILBOX +
    r"[a-z0-9]+(?:(?:\s+(?:dot|underscore|dash|hyphen)\s+|[._-])[a-z0-9]+)*"
    r"\s+at\s+"
    r"[a-z0-9-]+(?:(?:\s+dot\s+|\.)[a-z0-9-]+)*?(?:\s+dot\s+|\.)" + _TLDS + r"\b",
    re.IGNORECASE)


def _find_emails(text: str) -> list[Redaction]:
    found = [Redaction(PiiKind.EMAIL, m.start(), m.end(), m.group()) for m in _WRITTEN_EMAIL.finditer(text)]
    taken = [(r.start, r.end) for r in found]
    for m in _SPOKEN_EMAIL.finditer(text):
        if "@" not in m.group() and not any(s < m.end() and m.start() < e for s, e in taken):
            found.append(Redaction(PiiKind.EMAIL, m.start(), m.end(), m.group()))
    return found


# ---- numbers, in digits or in words --------------------------------------------------

_UNITS = {"zero": "0", "oh": "0", "o": "0", "nought": "0", "naught": "0", "one": "1", "two": "2",
          "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7", "eight": "8", "nine": "9"}
_TEENS = {"ten": "10", "eleven": "11", "twelve": "12", "thirteen": "13", "fourteen": "14",
          "fifteen": "15", "sixteen": "16", "seventeen": "17", "eighteen": "18", "nineteen": "19"}
_TENS = {"twenty": "2", "thirty": "3", "forty": "4", "fifty": "5", "sixty": "6", "seventy": "7",
         "eighty": "8", "ninety": "9"}
_REPEATS = {"double": 2, "triple": 3}
_ZERO_LIKE = {"oh", "o"}  # only a digit between other digits ("oh, I see" is not a number)
_NUMBER_WORDS = set(_UNITS) | set(_TEENS) | set(_TENS) | set(_REPEATS) | {"hundred", "plus"}

_TOKEN = re.compile(r"[A-Za-z0-9]+|\+")
_GAP = re.compile(r"[\s,.\-()]{0,4}")
_CURRENCY = "$€£¥"


@dataclass
class _Token:
    text: str
    start: int
    end: int

    @property
    def word(self) -> str:
        return self.text.lower()

    @property
    def is_digits(self) -> bool:
        return self.text.isdigit()


def _number_runs(text: str) -> list[list[tuple[_Token, str]]]:
    """Maximal runs of number tokens, each with the gap text before it."""
    runs: list[list[tuple[_Token, str]]] = []
    current: list[tuple[_Token, str]] = []
    last_end = 0
    for m in _TOKEN.finditer(text):
        token = _Token(m.group(), m.start(), m.end())
        is_number = token.is_digits or token.word in _NUMBER_WORDS or token.text == "+"
        gap = text[last_end:token.start]
        joined = bool(current) and _GAP.fullmatch(gap) is not None
        if is_number and joined and token.text != "+":
            current.append((token, gap))
        else:
            if current:
                runs.append(current)
            current = [(token, "")] if is_number else []
        last_end = token.end
    if current:
        runs.append(current)
    return runs


def _spell(tokens: Sequence[_Token]) -> tuple[str, bool] | None:
    """Digits a window of tokens stands for, and whether it opens with 'plus'; None if not a number."""
    digits: list[str] = []
    plus = False
    i = 0
    while i < len(tokens):
        word = tokens[i].word
        nxt = tokens[i + 1].word if i + 1 < len(tokens) else None
        if tokens[i].text == "+" or word == "plus":
            if i != 0:
                return None
            plus = True
        elif tokens[i].is_digits:
            digits.append(tokens[i].text)
        elif word in _UNITS:
            digits.append(_UNITS[word])
        elif word in _TEENS:
            digits.append(_TEENS[word])
        elif word in _TENS:
            if nxt in _UNITS and nxt not in _ZERO_LIKE and _UNITS[nxt] != "0":
                digits.append(_TENS[word] + _UNITS[nxt])
                i += 1
            else:
                digits.append(_TENS[word] + "0")
        elif word in _REPEATS:
            if nxt not in _UNITS:
                return None
            digits.append(_UNITS[nxt] * _REPEATS[word])
            i += 1
        elif word == "hundred":
            # "eight hundred" as in 1-800; only after a single digit word.
            if i == 0 or tokens[i - 1].is_digits or tokens[i - 1].word not in _UNITS:
                return None
            digits.append("00")
        else:
            return None
        i += 1
    return "".join(digits), plus


def luhn_ok(digits: str) -> bool:
    total = 0
    for index, char in enumerate(reversed(digits)):
        value = int(char)
        if index % 2 == 1:
            value *= 2
            if value > 9:
                value -= 9
        total += value
    return total % 10 == 0


def _classify(window: Sequence[tuple[_Token, str]], text: str) -> PiiKind | None:
    tokens = [t for t, _ in window]
    gaps = [g for _, g in window[1:]]
    if tokens[0].word in _ZERO_LIKE or tokens[-1].word in _ZERO_LIKE:
        return None
    if tokens[-1].word in ("plus", "double", "triple", "hundred") or tokens[-1].text == "+":
        return None
    if tokens[0].start > 0 and text[tokens[0].start - 1] == "+":
        return None  # the country code's plus belongs to the number
    spelled = _spell(tokens)
    if spelled is None:
        return None
    digits, plus = spelled
    count = len(digits)
    if not digits:
        return None
    before = text[:tokens[0].start].rstrip()
    after = text[tokens[-1].end:]
    if (before and before[-1] in _CURRENCY) or after.lstrip().startswith("%"):
        return None
    spoken = any(not t.is_digits and t.text != "+" for t in tokens)
    if spoken:
        if not plus and 13 <= count <= 19 and luhn_ok(digits):
            return PiiKind.CARD
        if (plus and 8 <= count <= 15) or count in (7, 10) or (count == 11 and digits[0] in "01"):
            return PiiKind.PHONE
        return None
    return _classify_digits([t.text for t in tokens if t.text != "+"], gaps if not plus else gaps[1:],
                            digits, plus)


def _classify_digits(groups: list[str], gaps: list[str], digits: str, plus: bool) -> PiiKind | None:
    """Numbers written in digits: judged by how they are grouped."""
    if any("," in g for g in gaps):
        return None  # 4,200 and 1,250,000 are amounts; nobody writes a phone with commas
    if any(g.count(".") > 1 or (g.strip() == "" and "\n" in g) for g in gaps):
        return None
    sizes = [len(g) for g in groups]
    count = len(digits)
    dotted = any("." in g for g in gaps)
    if not plus and 13 <= count <= 19 and luhn_ok(digits) and not dotted:
        if len(sizes) == 1 or all(s == 4 for s in sizes[:-1]) or sizes == [4, 6, 5] or sizes == [4, 6, 4]:
            return PiiKind.CARD
    if plus:
        # International numbers group freely (Berlin: +49 30 901820).
        return PiiKind.PHONE if 8 <= count <= 15 and all(s <= 8 for s in sizes) else None
    if dotted and len(sizes) == 4:
        return None  # an IP address or a version number
    if sizes[-1] < 3 or len(sizes) > 5 or any(s > 5 for s in sizes[:-1] if len(sizes) > 1):
        return None
    if any(s < 2 for s in sizes[1:]) or (sizes[0] == 1 and digits[0] not in "01"):
        return None
    if count == 7:
        return PiiKind.PHONE if sizes == [3, 4] else None
    if count == 10 or (count == 11 and digits[0] in "01") or (count in (12, 13) and digits.startswith("00")):
        return PiiKind.PHONE
    return None


def _find_numbers(text: str) -> list[Redaction]:
    found: list[Redaction] = []
    for run in _number_runs(text):
        _search_run(run, text, found)
    return found


def _search_run(run: list[tuple[_Token, str]], text: str, found: list[Redaction]) -> None:
    """Longest window of the run that is a card or a phone; then the parts either side."""
    for length in range(len(run), 0, -1):
        for first in range(0, len(run) - length + 1):
            window = run[first:first + length]
            kind = _classify(window, text)
            if kind is None:
                continue
            start, end = window[0][0].start, window[-1][0].end
            if start > 0 and text[start - 1] == "(" and ")" in text[start:end]:
                start -= 1
            found.append(Redaction(kind, start, end, text[start:end]))
            left, right = run[:first], run[first + length:]
            if left:
                _search_run(left, text, found)
            if right:
                right = [(right[0][0], "")] + right[1:]
                _search_run(right, text, found)
            return


# ---- putting it together ---------------------------------------------------------

def find_pii(text: str) -> list[Redaction]:
    """Every email, phone number and card number in `text`, in order."""
    emails = _find_emails(text)
    # Blank the emails out so digits inside an address are not read as a phone.
    masked = list(text)
    for r in emails:
        masked[r.start:r.end] = " " * (r.end - r.start)
    numbers = [r for r in _find_numbers("".join(masked))]
    numbers = [Redaction(r.kind, r.start, r.end, text[r.start:r.end]) for r in numbers]
    return sorted(emails + numbers, key=lambda r: r.start)


def redact(text: str) -> Redacted:
    """`text` with personal data replaced by [email], [phone], [card], and what was replaced."""
    redactions = find_pii(text)
    pieces: list[str] = []
    cursor = 0
    for r in redactions:
        pieces.append(text[cursor:r.start])
        pieces.append(r.kind.placeholder)
        cursor = r.end
    pieces.append(text[cursor:])
    return Redacted("".join(pieces), redactions)


# ---- from characters to time ------------------------------------------------------

Word = tuple[int, int, str]  # start_ms, end_ms, text (as Whisper gives word timestamps)


def _locate_words(text: str, words: Sequence[Word]) -> list[tuple[int, int] | None]:
    spans: list[tuple[int, int] | None] = []
    cursor = 0
    for _, _, word in words:
        needle = word.strip()
        at = text.find(needle, cursor) if needle else -1
        if at < 0:
            spans.append(None)
            continue
        spans.append((at, at + len(needle)))
        cursor = at + len(needle)
    return spans


def mute_spans(text: str, words: Sequence[Word], redactions: Iterable[Redaction],
               pad_ms: int = 120) -> list[tuple[int, int]]:
    """Time spans (ms) to silence so the audio does not say what the text hides.

    `text` is the segment text the redactions were found in; `words` its word
    timestamps. A redaction whose words cannot be found is muted from the word
    before it to the word after it: when unsure, silence more, not less.
    """
    located = _locate_words(text, words)
    spans: list[tuple[int, int]] = []
    for r in redactions:
        hits = [i for i, span in enumerate(located) if span and span[0] < r.end and r.start < span[1]]
        if hits:
            first, last = hits[0], hits[-1]
        else:
            before = [i for i, span in enumerate(located) if span and span[1] <= r.start]
            after = [i for i, span in enumerate(located) if span and span[0] >= r.end]
            first = before[-1] if before else 0
            last = after[0] if after else len(words) - 1
        if not words:
            continue
        spans.append((max(0, words[first][0] - pad_ms), words[last][1] + pad_ms))
    return merge_spans(spans)


def merge_spans(spans: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    merged: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


def redact_words(words: Sequence[Word], pad_ms: int = 120) -> tuple[Redacted, list[tuple[int, int]]]:
    """Redact a run of timed words (a segment): the redacted text and the spans to mute."""
    text = "".join(w[2] for w in words).strip()
    result = redact(text)
    return result, mute_spans(text, words, result.redactions, pad_ms)
