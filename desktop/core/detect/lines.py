"""A transcript read once for every detector: each line's role, sentences and words."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from operator import itemgetter

from desktop.core.detect.model import CUSTOMER, REP, UNKNOWN, Finding, Line, id_of, kind_for, normal_text
from desktop.core.detect.phrases import PhraseBook
from desktop.core.detect.text import Sentence, sentences, specific_date, words_of

_UNREAD = object()


@dataclass(slots=True)
class ReadLine:
    index: int
    line: Line
    role: str
    sentences: list[Sentence]
    words: str  # the whole line's words (text.words_of)
    word_set: frozenset[str]
    cands: frozenset[str]  # the phrase lists that might match this line (PhraseBook.candidates)
    question: tuple | None = None  # (style, sentence, cue) once the questions family has read it
    labels: dict[str, str] = field(default_factory=dict)  # label -> cue, as the families find them
    pieces: object = None  # what learned.features names of the line, made once (learned._Pieces)
    finds: dict[str, str | None] = field(default_factory=dict)  # line_find's answers: several readers ask the same
    _date: object = _UNREAD

    def date(self) -> str | None:
        """specific_date of the line's words, looked for once: several rules ask it of the same line."""
        if self._date is _UNREAD:
            self._date = specific_date(self.words, self.word_set)
        return self._date

    def date_in(self, words: str) -> str | None:
        """specific_date of one of the line's sentences (the line's own answer when it is the whole line)."""
        return self.date() if words == self.words else specific_date(words)


class Reading:
    """The lines, their roles and the phrase book, plus the findings made so far."""

    def __init__(self, lines: Sequence[Line], roles: Mapping[str | None, str], book: PhraseBook):
        self.book = book
        self._groups = book.groups
        self.lines: list[ReadLine] = []
        for i, line in enumerate(lines):
            role = roles.get(line.speaker, UNKNOWN) if line.speaker is not None else UNKNOWN
            if role not in (REP, CUSTOMER):
                role = UNKNOWN
            said = sentences(line.text)
            if len(said) == 1:
                words = said[0].words  # one sentence: the line's words are its words
            else:
                words = " " + " ".join(s.words.strip() for s in said) + " " if said else words_of(line.text)
            word_set = said[0].word_set if said else frozenset()
            self.lines.append(ReadLine(i, line, role, said, words, word_set, book.candidates(word_set)))
        self._found: list[tuple[int, int, str, str, str]] = []  # (start, line, label, quote, reason)
        self.threaded: set[tuple[int, str]] = set()  # (line, label) taken from the line before, not its own words
        self._turns: tuple[list[int], list[int]] | None = None

    def turns(self) -> tuple[list[int], list[int]]:
        """Each line's neighbours across a change of speaker: (the last line before it said by someone else, the
        first line after it said by someone else), -1 where there is none. A transcript cuts one person's turn
        into several lines wherever they pause; the line before a question's reply is still the question."""
        if self._turns is None:
            lines = self.lines
            n = len(lines)
            before, after = [-1] * n, [-1] * n
            for i in range(1, n):
                before[i] = before[i - 1] if lines[i].line.speaker == lines[i - 1].line.speaker else i - 1
            for i in range(n - 2, -1, -1):
                after[i] = after[i + 1] if lines[i].line.speaker == lines[i + 1].line.speaker else i + 1
            self._turns = (before, after)
        return self._turns

    def find(self, name: str, words: str, word_set=None) -> str | None:
        return self._groups[name].find(words, word_set)

    def line_find(self, name: str, rl: ReadLine) -> str | None:
        """find(name, rl.words, rl.word_set), skipping a list the line's words cannot match (rl.cands)."""
        if name not in rl.cands:
            return None
        finds = rl.finds
        if name in finds:
            return finds[name]
        found = finds[name] = self._groups[name].find(rl.words, rl.word_set)
        return found

    def add(self, label: str, at: ReadLine, quote: str, reason: str, cue: str = "") -> None:
        if label in at.labels:
            return
        at.labels[label] = cue
        self._found.append((at.line.start_ms, at.index, label, quote.strip() or at.line.text.strip(), reason))

    def drop(self, found: set[tuple[int, str]]) -> None:
        """Take back findings already made: (line index, label)."""
        for index, label in found:
            self.lines[index].labels.pop(label, None)
        self._found = [f for f in self._found if (f[1], f[2]) not in found]

    def next_of_role(self, after: int, role: str, within: int = 3) -> ReadLine | None:
        """The first line of `role` among the `within` lines after index `after`."""
        for rl in self.lines[after + 1: after + 1 + within]:
            if rl.role == role:
                return rl
        return None

    def previous_of_role(self, before: int, role: str, within: int = 2) -> ReadLine | None:
        for rl in reversed(self.lines[max(0, before - within): before]):
            if rl.role == role:
                return rl
        return None

    def findings(self) -> list[Finding]:
        seen: dict[tuple[str, str], int] = {}
        plain: dict[int, str] = {}  # a line's text as its ids read it: made once a line, not once a finding
        kinds: dict[tuple[str, str], str] = {}  # a few labels and roles, thousands of findings
        lines = self.lines
        out = []
        # in time order, then line order, each line's findings in the order they were made (a stable sort)
        for _start, index, label, quote, reason in sorted(self._found, key=itemgetter(0, 1)):
            rl = lines[index]
            line = rl.line
            text = plain.get(index)
            if text is None:
                text = plain[index] = normal_text(line.text)
            key = (label, text)
            occurrence = seen.get(key, 0)
            seen[key] = occurrence + 1
            kind = kinds.get((label, rl.role))
            if kind is None:
                kind = kinds[(label, rl.role)] = kind_for(label, rl.role)
            out.append(Finding(id_of(label, text, occurrence), label, line.start_ms, line.end_ms,
                               line.speaker, rl.role, quote, reason, kind))
        return out


def quote_of(text: str, limit: int = 60) -> str:
    """A short piece of a line for a reason: 'send me some information'."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"
