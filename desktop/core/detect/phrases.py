"""Phrase lists as data: shipped under resources/detect/, extended by the coach in the data folder.

Each file is a JSON object of named lists (`"deferral": ["let me think about it", ...]`). A
phrase is whole words, matched without case or punctuation. Inside a phrase:

- `a/b` is either word (`send me some information/info`),
- a trailing `?` makes a word optional (`some?`),
- `*` stands for up to three words (`circle back * quarter`),
- `{n}` is a number, in digits or words (`{n} percent`).

A coach's file of the same name in `<data folder>/detect/` adds to the shipped lists; a list
name the finder does not know is refused, naming the file, so a typo is not silently ignored.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from desktop.core.detect.text import NUMBER, NUMBER_WORDS
from desktop.errors import CallmarkError

_NUMBER_BODY = NUMBER.pattern[1:-1]  # without its own surrounding spaces


class PhraseListError(CallmarkError):
    """A phrase file that cannot be read; the message names the file and the problem."""


def _token_pattern(token: str) -> tuple[str, set[str] | None]:
    """(regex that consumes the token and one space, its literal words or None)."""
    if token == "*":
        return r"(?:\S+ ){0,3}", None
    optional = token.endswith("?") and len(token) > 1
    token = token.rstrip("?") if optional else token
    if token == "{n}":
        body, literal = rf"{_NUMBER_BODY} ", None
    else:
        alternatives = [a for a in token.split("/") if a]
        body = "(?:" + "|".join(re.escape(a) for a in alternatives) + ") "
        literal = set(alternatives)
    if optional:
        return f"(?:{body})?", None
    return body, literal


_NUMBER_WORDS = frozenset(NUMBER_WORDS)
_HAS_NUMBER: dict[frozenset, bool] = {}


def has_number(word_set: frozenset | set) -> bool:
    """Whether a line's words hold a number, in digits or words (asked by many phrases per line: kept)."""
    found = _HAS_NUMBER.get(word_set) if isinstance(word_set, frozenset) else None
    if found is None:
        found = not _NUMBER_WORDS.isdisjoint(word_set) or any(w[:1].isdigit() or w[:1] == "$" for w in word_set)
        if isinstance(word_set, frozenset):
            if len(_HAS_NUMBER) > 20000:
                _HAS_NUMBER.clear()
            _HAS_NUMBER[word_set] = found
    return found


@lru_cache(maxsize=4096)  # the pain and the objection lists ask about the same sentence
def stems_of(words: str) -> tuple[tuple[str, str], ...]:
    """(stem, word) for each word of five letters or more, in order."""
    return tuple((stem(w), w) for w in words.split() if len(w) > 4)


@lru_cache(maxsize=65536)  # a call repeats its words: each is cut once
def stem(word: str) -> str:
    """A word without its -ing, -ed, -es, -s and a final e: struggled, struggles, struggle -> struggl."""
    for suffix in ("ing", "ed", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            word = word[: -len(suffix)]
            break
    return word[:-1] if word.endswith("e") and len(word) > 4 else word


_COMMON = frozenset("""i i'll i'm we we'll we're the a an to of and you your it it's is are was so not no on in for my
our me that this what how do does be with at by can could will would just let's let get have has had there they
but or if all any more some about up out than then them he she her his who""".split())


def _rarity(alternatives: set[str]) -> tuple[int, int]:
    """How few lines hold one of these words: a common word anywhere in the set makes it a poor filter."""
    return (0 if alternatives & _COMMON else 1, min(len(a) for a in alternatives))


@dataclass
class PhraseGroup:
    """One named list compiled into one regular expression over a line's words."""

    name: str
    phrases: list[str] = field(default_factory=list)
    _regex: re.Pattern | None = None
    _keys: frozenset[str] | None = None  # a line without any of these words cannot match
    _starts: re.Pattern | None = None
    _key_set: frozenset[str] = frozenset()
    _by_key: dict | None = None
    _checks: list | None = None
    _keyless: list | None = None
    _required: list | None = None
    _stems: dict | None = None

    def add(self, phrases: Iterable[str]) -> None:
        for phrase in phrases:
            clean = " ".join(phrase.lower().replace("\u2019", "'").replace("-", " ").split())
            if clean and clean not in self.phrases:
                self.phrases.append(clean)
        self._regex = self._starts = None

    def _compile(self) -> None:
        patterns, keys, always = [], set(), False
        by_key: dict[str, list[int]] = {}
        checks: list = []  # per phrase: " literal " to test with `in`, or its own compiled pattern
        keyless: list[int] = []
        required: list = []  # per phrase: each word set the line must meet before its pattern is tried
        for n, phrase in enumerate(self.phrases):
            body, first, needs = "", None, []
            for token in phrase.split(" "):
                part, literal = _token_pattern(token)
                body += part
                if literal is not None:
                    needs.append(frozenset(literal))
                # a word the phrase cannot match without: the rarest of them skips the most lines
                if literal is not None and (first is None or _rarity(literal) > _rarity(first)):
                    first = literal
            patterns.append(body)
            plain = not any(c in phrase for c in "/*?{")
            checks.append(f" {phrase} " if plain else re.compile(" " + body))
            required.append((tuple(needs), "{n}" in phrase))
            if first is None:
                always = True
                keyless.append(n)
            else:
                keys |= first
                for key in first:
                    by_key.setdefault(key, []).append(n)
        self._regex = re.compile(" (?:" + "|".join(patterns) + ")") if patterns else re.compile(r"(?!x)x")
        self._keys = None if always else frozenset(keys)
        self._key_set = frozenset(keys)
        self._by_key, self._checks, self._keyless, self._required = by_key, checks, keyless, required
        self._stems = {stem(p): p for p in self.phrases if " " not in p and not any(c in p for c in "/*?{")}

    def find_inflected(self, words: str) -> str | None:
        """A one-word phrase of this list in another form ("complained" for "complain", "delays" for "delay")."""
        if self._regex is None:
            self._compile()
        stems = self._stems
        for cut, word in stems_of(words):
            if cut in stems:
                return word
        return None

    def starts(self) -> re.Pattern:
        """Leading runs of these phrases (`^ (so |okay |well )*`), longest first."""
        if getattr(self, "_starts", None) is None:
            alternatives = sorted((re.escape(p) for p in self.phrases), key=len, reverse=True)
            self._starts = re.compile(r" (?:(?:" + "|".join(alternatives) + r") )*")
        return self._starts

    def keys(self) -> frozenset[str] | None:
        """Words of which a matching line holds at least one (None: no such words)."""
        if self._regex is None:
            self._compile()
        return self._keys

    def search(self, words: str) -> str | None:
        """find() without the word check, for a caller that already knows the list might match."""
        if self._regex is None:
            self._compile()
        found = self._regex.search(words)
        return found.group(0).strip() if found else None

    def find(self, words: str, word_set: frozenset[str] | set[str] | None = None) -> str | None:
        """A phrase of this list found in `words` (as matched), or None.

        With `word_set` (every word of the line `words` comes from) only the phrases whose rarest
        word is in the line are tried: most lines hold none of a list's words.
        """
        if self._regex is None:
            self._compile()
        if word_set is None:
            found = self._regex.search(words)
            return found.group(0).strip() if found else None
        if self._key_set.isdisjoint(word_set):  # most lines: no set to build to learn that
            if not self._keyless:
                return None
            tried = self._keyless
        else:
            hits = self._key_set.intersection(word_set)
            if len(hits) == 1 and not self._keyless:
                tried = self._by_key[next(iter(hits))]  # already in list order: the common case costs no sort
            else:
                # the lists are each in list order: sorting them together is cheaper than a set's union, and a
                # phrase listed under two of the line's words is only tried twice, with the same answer
                tried = list(self._keyless)
                for key in hits:
                    tried += self._by_key[key]
                tried.sort()
        for n in tried:
            check = self._checks[n]
            if check.__class__ is str:
                if check in words:
                    return check.strip()
            else:
                needs, numbered = self._required[n]
                if numbered and not has_number(word_set):
                    continue  # "{n} hours a week" in a line without a number
                for needed in needs:
                    if needed.isdisjoint(word_set):
                        break  # a word the phrase cannot do without is not in the line: no pattern to run
                else:
                    found = check.search(words)
                    if found:
                        return found.group(0).strip()
        return None


class PhraseBook:
    """Every list the detectors use, by name."""

    def __init__(self) -> None:
        self.groups: dict[str, PhraseGroup] = {}
        self.sources: list[str] = []
        self._index: dict[str, set[str]] | None = None
        self._always: frozenset[str] = frozenset()

    def __getitem__(self, name: str) -> PhraseGroup:
        return self.groups[name]

    def find(self, name: str, words: str, word_set=None) -> str | None:
        return self.groups[name].find(words, word_set)

    def candidates(self, word_set: frozenset[str]) -> frozenset[str]:
        """The names of the lists that might match a line with these words (the others cannot)."""
        if self._index is None:
            index: dict[str, set[str]] = {}
            always = set()
            for name, group in self.groups.items():
                keys = group.keys()
                if keys is None:
                    always.add(name)
                else:
                    for key in keys:
                        index.setdefault(key, set()).add(name)
            self._index, self._always = index, frozenset(always)
        hits = [names for names in map(self._index.get, word_set) if names]
        return self._always.union(*hits) if hits else self._always

    def add_file(self, path: Path, *, known_only: bool) -> None:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError) as exc:
            raise PhraseListError(f"{path}: cannot read the phrase list ({exc})") from None
        except json.JSONDecodeError as exc:
            raise PhraseListError(f"{path}: not valid JSON (line {exc.lineno}: {exc.msg})") from None
        if not isinstance(data, dict):
            raise PhraseListError(f"{path}: a phrase file is a JSON object of named lists")
        for name, phrases in data.items():
            if name.startswith("_"):
                continue  # notes for the reader
            if not isinstance(phrases, list) or not all(isinstance(p, str) for p in phrases):
                raise PhraseListError(f"{path}: {name!r} must be a list of phrases (strings)")
            if name not in self.groups:
                if known_only:
                    known = ", ".join(sorted(self.groups))
                    raise PhraseListError(f"{path}: no phrase list {name!r} to add to (known: {known})")
                self.groups[name] = PhraseGroup(name)
            self.groups[name].add(phrases)
        self._index = None
        self.sources.append(str(path))

    def fingerprint(self) -> str:
        """Changes when any phrase changes (the cache of findings depends on it)."""
        import hashlib

        digest = hashlib.sha256()
        for name in sorted(self.groups):
            digest.update(name.encode())
            for phrase in self.groups[name].phrases:
                digest.update(b"\x1f" + phrase.encode())
        return digest.hexdigest()[:16]


SHIPPED = Path(__file__).resolve().parents[3] / "resources" / "detect"


def load_phrase_book(extra_dirs: Sequence[Path] = (), shipped: Path = SHIPPED) -> PhraseBook:
    """The shipped lists, then each extra folder's files of the same names added on top."""
    book = PhraseBook()
    files = sorted(shipped.glob("*.json"))
    if not files:
        raise PhraseListError(f"{shipped}: the shipped phrase lists are missing")
    for path in files:
        book.add_file(path, known_only=False)
    for folder in extra_dirs:
        folder = Path(folder)
        if folder.is_dir():
            for path in sorted(folder.glob("*.json")):
                book.add_file(path, known_only=True)
    return book


_DEFAULT: PhraseBook | None = None


def default_phrase_book() -> PhraseBook:
    """The shipped lists alone, read once."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = load_phrase_book()
    return _DEFAULT
