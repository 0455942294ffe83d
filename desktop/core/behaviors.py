"""The behavior library: wordings already written, offered as the coach types.

Reusing a wording keeps the behavior stable across a cycle (the method keeps
one behavior per cycle). The seed holds the method's two examples.

Ranking for autocompletion, `suggest(text, known, limit)`:
1. behaviors that start with what was typed (case and spacing ignored), in
   library order (seed first, then `known` as given — the store passes them
   most recently used first);
2. then behaviors sharing words with what was typed, most shared words first
   (the last typed word also matches as a prefix: "ask who ot" finds "other"),
   ties in library order.
Duplicates (same words, any case or punctuation at the end) are offered once.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

__all__ = ["SEED", "library", "suggest"]

SEED: tuple[str, ...] = (
    "Ask the rep to state the next step the customer confirmed before discussing how likely "
    "the deal is to close.",
    "When the customer asks for information, ask what they will review and who else needs to "
    "be involved.",
)

# Words too common to say two behaviors are alike.
_COMMON = frozenset("""
    the a an to of in on at for with and or if when before after what who how is are be will
    they them their it its you your this that rep
""".split())


def _normal(text: str) -> str:
    return " ".join(re.findall(r"[a-z0-9:'-]+", text.lower()))


def _tokens(text: str) -> list[str]:
    return _normal(text).split()


def library(known: Sequence[str] = ()) -> list[str]:
    """Seed then known behaviors, each wording once."""
    seen: set[str] = set()
    result = []
    for text in (*SEED, *known):
        key = _normal(text)
        if key and key not in seen:
            seen.add(key)
            result.append(text.strip())
    return result


def suggest(prefix_or_words: str, known: Sequence[str] = (), limit: int = 5) -> list[str]:
    """Behaviors to offer for what the coach has typed so far; see the module doc for the order."""
    if limit <= 0:
        return []
    candidates = library(known)
    typed = _normal(prefix_or_words or "")
    if not typed:
        return candidates[:limit]
    prefix_hits = [b for b in candidates if _normal(b).startswith(typed)]
    words = [w for w in typed.split() if w not in _COMMON]
    partial = None if (prefix_or_words or "").endswith((" ", ".", ",")) else typed.split()[-1]
    scored = []
    for order, behavior in enumerate(candidates):
        if behavior in prefix_hits:
            continue
        tokens = set(_tokens(behavior)) - _COMMON
        overlap = sum(1 for w in set(words) if w in tokens)
        if partial and partial not in tokens and partial not in _COMMON \
                and any(t.startswith(partial) for t in tokens):
            overlap += 1
        if overlap:
            scored.append((-overlap, order, behavior))
    ranked = prefix_hits + [b for _, _, b in sorted(scored)]
    return ranked[:limit]
