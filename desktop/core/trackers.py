"""Trackers: a named set of phrases the coach follows across every call (Gong and Chorus call them that).

A tracker has a side (the rep's lines, the customer's, or either), phrases and exclusions. A phrase is
whole words matched on their forms: "send over" also finds "sending over" and "sent over". Inside a
phrase:

- `budget*` is any word starting with "budget" (budgets, budgeting, budgetary),
- a lone `*` stands for up to three words (`send * over`),
- `a/b` is either word (`cfo/controller`).

An exclusion is a phrase that cancels a hit on the same line ("no budget" cancels "budget*").
Qt-free and offline; the store keeps the hits (desktop.services.trackers).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property

from desktop.core.detect.model import CUSTOMER, REP, Line
from desktop.core.detect.text import _QUOTES, _TOKEN, words_of
from desktop.errors import CallmarkError

EITHER = "either"
SIDES = (REP, CUSTOMER, EITHER)
GAP_WORDS = 3  # a lone * stands for up to this many words


class TrackerError(CallmarkError):
    """A tracker that cannot be kept as written; the message names the tracker and the problem."""


# Past forms that do not end in -ed, to their plain form (so "sent over" is "send over").
_IRREGULAR_BASE = {
    "sent": "send", "spent": "spend", "bought": "buy", "brought": "bring", "thought": "think", "took": "take",
    "taken": "take", "gave": "give", "given": "give", "got": "get", "gotten": "get", "made": "make",
    "went": "go", "gone": "go", "came": "come", "told": "tell", "said": "say", "says": "say", "paid": "pay",
    "met": "meet", "spoke": "speak", "spoken": "speak", "wrote": "write", "written": "write", "saw": "see",
    "seen": "see", "knew": "know", "known": "know", "left": "leave", "held": "hold", "kept": "keep",
    "found": "find", "felt": "feel", "built": "build", "sold": "sell", "ran": "run", "began": "begin",
    "begun": "begin", "chose": "choose", "chosen": "choose", "did": "do", "done": "do", "does": "do",
    "has": "have", "had": "have", "having": "have", "lost": "lose", "meant": "mean", "heard": "hear",
    "understood": "understand", "using": "use", "was": "be", "were": "be", "is": "be", "are": "be",
    "been": "be", "am": "be",
}
_UNDOUBLE_KEEP = set("lsfz")  # "calling" stays "call"; "planning" becomes "plan"


def _plain_form(word: str) -> str:
    if word.endswith("'s"):
        word = word[:-2]
    if len(word) <= 3:
        return word
    stripped = ""
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith("ied") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith("ing") and len(word) - 3 >= 3:
        word, stripped = word[:-3], "ing"
    elif word.endswith("ed") and len(word) - 2 >= 3:
        word, stripped = word[:-2], "ed"
    elif word.endswith("es") and len(word) - 2 >= 3 and word[:-2].endswith(("s", "x", "z", "ch", "sh")):
        word = word[:-2]
    elif word.endswith("s") and not word.endswith(("ss", "us", "is")) and len(word) - 1 >= 3:
        word = word[:-1]
    if stripped and len(word) >= 3 and word[-1] == word[-2] and word[-1] not in _UNDOUBLE_KEEP \
            and word[-1] not in "aeiou":
        word = word[:-1]
    if word.endswith("e") and len(word) > 3:
        word = word[:-1]
    return word


_FORMS: dict[str, str] = {}


def word_form(word: str) -> str:
    """The form a word is matched on: sending, sends, sent -> send; pricing, priced, price -> pric."""
    found = _FORMS.get(word)
    if found is None:
        base = _IRREGULAR_BASE.get(word)
        found = _plain_form(base) if base is not None else _plain_form(word)
        if len(_FORMS) < 500_000:  # a library's vocabulary; the bound only guards against odd input
            _FORMS[word] = found
    return found


def _words_sharing(form: str) -> set[str]:
    """The irregular words whose form is ``form`` ("send" -> {"sent"}): for an index that knows only words."""
    return {w for w, base in _IRREGULAR_BASE.items() if _plain_form(base) == form}


def tracker_key(name: str) -> str:
    """The name as the library filter and the columns use it: "Next step with a date" -> next_step_with_a_date."""
    return re.sub(r"[^a-z0-9]+", "_", name.casefold()).strip("_")


# --- phrases ------------------------------------------------------------------------------------------

FORM, PREFIX, GAP = "form", "prefix", "gap"


@dataclass(frozen=True, slots=True)
class Term:
    kind: str
    forms: frozenset[str] = frozenset()  # FORM: any of these forms
    prefix: str = ""  # PREFIX: a word starting with this


def _one_word(text: str, phrase: str, owner: str) -> str:
    found = words_of(text).split()
    if len(found) != 1:
        raise TrackerError(f"{owner}: {text!r} in {phrase!r} is not one word")
    return found[0]


@dataclass(frozen=True)
class Phrase:
    """One phrase, compiled: its terms in order."""

    text: str
    terms: tuple[Term, ...]

    @classmethod
    def parse(cls, text: str, owner: str = "tracker") -> Phrase:
        clean = " ".join(text.casefold().replace("\u2019", "'").replace("-", " ").split())
        terms: list[Term] = []
        for raw in clean.split(" "):
            if raw == "*":
                terms.append(Term(GAP))
                continue
            if "*" in raw[:-1]:
                raise TrackerError(f"{owner}: {raw!r} in {text!r}: a * goes alone or at the end of a word")
            if raw.endswith("*"):
                stem = raw[:-1]
                if "/" in stem:
                    raise TrackerError(f"{owner}: {raw!r} in {text!r}: a word* cannot also have / choices")
                terms.append(Term(PREFIX, prefix=_one_word(stem, text, owner)))
                continue
            choices = [c for c in raw.split("/") if c]
            if len(choices) > 1:
                terms.append(Term(FORM, forms=frozenset(word_form(_one_word(c, text, owner)) for c in choices)))
                continue
            for word in words_of(raw).split():  # "o'clock" stays one; punctuation goes
                terms.append(Term(FORM, forms=frozenset({word_form(word)})))
        while terms and terms[0].kind == GAP:
            terms.pop(0)
        while terms and terms[-1].kind == GAP:
            terms.pop()
        if not terms:
            raise TrackerError(f"{owner}: the phrase {text!r} has no word to look for")
        return cls(clean, tuple(terms))

    @cached_property
    def key_forms(self) -> frozenset[str] | None:
        """Forms of which a matching line holds one (the longest word's); None: only word* terms."""
        best: frozenset[str] | None = None
        for term in self.terms:
            if term.kind == FORM and (best is None or min(map(len, term.forms)) > min(map(len, best))):
                best = term.forms
        return best

    def find(self, words: Sequence[str], forms: Sequence[str]) -> tuple[int, int] | None:
        """(first word, past the last word) of the first match in a line, or None."""
        first = self.terms[0]
        if first.kind == FORM:
            wanted = first.forms
            starts = [i for i, f in enumerate(forms) if f in wanted]
        else:
            prefix = first.prefix
            starts = [i for i, w in enumerate(words) if w.startswith(prefix)]
        if len(self.terms) == 1:
            return (starts[0], starts[0] + 1) if starts else None
        for start in starts:
            end = _match(self.terms, 1, words, forms, start + 1)
            if end >= 0:
                return start, end
        return None

    def index_query(self) -> str | None:
        """An FTS5 query every line this phrase matches also matches (more, never fewer); None: none."""
        parts = []
        for term in self.terms:
            choices = _index_words(term)
            if choices:
                parts.append("(" + " OR ".join(choices) + ")")
        return " AND ".join(parts) if parts else None


def _term_matches(term: Term, word: str, form: str) -> bool:
    if term.kind == FORM:
        return form in term.forms
    return word.startswith(term.prefix)


def _match(terms: tuple[Term, ...], i: int, words: Sequence[str], forms: Sequence[str], pos: int) -> int:
    if i == len(terms):
        return pos
    term = terms[i]
    if term.kind == GAP:
        for skip in range(GAP_WORDS + 1):
            if pos + skip > len(words):
                break
            end = _match(terms, i + 1, words, forms, pos + skip)
            if end >= 0:
                return end
        return -1
    if pos < len(words) and _term_matches(term, words[pos], forms[pos]):
        return _match(terms, i + 1, words, forms, pos + 1)
    return -1


def _index_words(term: Term) -> list[str]:
    """FTS5 prefix queries covering a term, or [] when it cannot help (too short, an apostrophe)."""
    if term.kind == GAP:
        return []
    if term.kind == PREFIX:
        roots = [term.prefix]
    else:
        roots = []
        for form in term.forms:
            # a form's words start with it, but for -y forms ("company": companies) and irregular ones
            roots.append(form[:-1] if form.endswith("y") else form)
            roots.extend(_words_sharing(form))
    if any(len(r) < 3 or not re.fullmatch(r"[a-z0-9]+", r) for r in roots):
        return []  # FTS5 splits at apostrophes, and a two-letter prefix reads half the index
    return [f'"{r}"*' for r in sorted(set(roots))]


# --- a tracker ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TrackerSpec:
    """A tracker as the coach writes it."""

    name: str
    side: str = EITHER
    phrases: tuple[str, ...] = ()
    exclusions: tuple[str, ...] = ()

    @property
    def key(self) -> str:
        return tracker_key(self.name)

    def checked(self) -> TrackerSpec:
        """The same tracker tidied (no blank or repeated phrases), or TrackerError saying what is wrong."""
        name = " ".join(self.name.split())
        if not name or not self.key:
            raise TrackerError("a tracker needs a name with a letter or digit in it")
        if self.side not in SIDES:
            raise TrackerError(f"tracker {name!r}: side {self.side!r} is not one of {', '.join(SIDES)}")
        phrases = _tidy(self.phrases)
        if not phrases:
            raise TrackerError(f"tracker {name!r}: needs at least one phrase to look for")
        exclusions = _tidy(self.exclusions)
        spec = TrackerSpec(name, self.side, phrases, exclusions)
        spec.matcher()  # every phrase parses
        return spec

    def matcher(self) -> Matcher:
        return Matcher(self)


def _tidy(phrases: Iterable[str]) -> tuple[str, ...]:
    out: list[str] = []
    for p in phrases:
        clean = " ".join(str(p).split())
        if clean and clean.casefold() not in (o.casefold() for o in out):
            out.append(clean)
    return tuple(out)


@dataclass(frozen=True, slots=True)
class Hit:
    """A line a tracker found."""

    line: int  # its position in the transcript
    start_ms: int
    end_ms: int
    speaker: str | None
    role: str
    quote: str  # the line as written
    matched: str  # the words the phrase matched ("sending over")


class Matcher:
    """A tracker compiled once, to run over many lines."""

    def __init__(self, spec: TrackerSpec):
        owner = f"tracker {spec.name!r}"
        self.spec = spec
        self.phrases = [Phrase.parse(p, owner) for p in spec.phrases]
        self.exclusions = [Phrase.parse(p, owner) for p in spec.exclusions]
        keys = [p.key_forms for p in self.phrases]
        # a line with none of these forms cannot match (None: a phrase of word* terms only, try every line)
        self.key_forms: frozenset[str] | None = None if any(k is None for k in keys) else frozenset().union(*keys)

    def wants(self, role: str) -> bool:
        return self.spec.side == EITHER or role == self.spec.side

    def find(self, words: Sequence[str], forms: Sequence[str], form_set: frozenset[str] | set[str]) -> str | None:
        """The words a phrase matched in one line, unless an exclusion cancels it; None: no hit."""
        if self.key_forms is not None and self.key_forms.isdisjoint(form_set):
            return None
        for phrase in self.phrases:
            if phrase.key_forms is not None and phrase.key_forms.isdisjoint(form_set):
                continue
            span = phrase.find(words, forms)
            if span is not None:
                if any(ex.find(words, forms) for ex in self.exclusions):
                    return None
                return " ".join(words[span[0]:span[1]])
        return None

    def index_query(self) -> str | None:
        """An FTS5 query finding every line this tracker can hit (and some more); None: read every line."""
        parts = [p.index_query() for p in self.phrases]
        if any(q is None for q in parts):
            return None
        return " OR ".join(f"({q})" for q in parts)


@dataclass(frozen=True, slots=True)
class ReadLine:
    """A line cut into words and forms once, for every tracker to look at."""

    words: tuple[str, ...]
    forms: tuple[str, ...]
    form_set: frozenset[str]


def read_line(text: str) -> ReadLine:
    # words_of's words without its padding (the same tokens; a number keeps its comma, harmless here)
    words = tuple(_TOKEN.findall(text.lower().translate(_QUOTES)))
    try:
        forms = tuple(map(_FORMS.__getitem__, words))  # every word seen before: no Python call per word
    except KeyError:
        forms = tuple(map(word_form, words))
    return ReadLine(words, forms, frozenset(forms))


def find_hits(matchers: Sequence[Matcher], lines: Sequence[Line], roles: Mapping[str | None, str],
              positions: Sequence[int] | None = None) -> list[list[Hit]]:
    """Each tracker's hits in a transcript (one per line at most), in the order of ``matchers``.

    ``positions``: only these lines' positions are read (the ones an index says might match).
    """
    out: list[list[Hit]] = [[] for _ in matchers]
    keyless = any(m.key_forms is None for m in matchers)
    every_key = frozenset().union(*(m.key_forms for m in matchers if m.key_forms is not None))
    for n in positions if positions is not None else range(len(lines)):
        line = lines[n]
        role = roles.get(line.speaker, "unknown")
        if not any(m.wants(role) for m in matchers):
            continue
        read = read_line(line.text)
        if not keyless and every_key.isdisjoint(read.form_set):
            continue
        for i, m in enumerate(matchers):
            if not m.wants(role):
                continue
            matched = m.find(read.words, read.forms, read.form_set)
            if matched is not None:
                out[i].append(Hit(n, line.start_ms, line.end_ms, line.speaker, role, line.text, matched))
    return out
