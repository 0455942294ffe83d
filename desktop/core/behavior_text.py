"""Reading a behavior's text: its words, what is quoted, and which words are verbs.

Shared by the specificity check and its reading of two joined actions; Qt-free.
"""

from __future__ import annotations

import re

from desktop.core.behavior_words import ACTION_VERBS, SOFT_GOAL_VERBS, SURE_GOAL_VERBS

__all__ = ["QUOTED", "STOPWORDS", "WH_WORDS", "PEOPLE", "ALL_VERBS", "words_of", "base_verb",
           "is_verb", "key_words"]

# What is quoted is what the manager will say, not what the behavior is made of;
# so is everything after a colon ("Ask: what will you review?").
QUOTED = re.compile(r"\"[^\"]*\"|“[^”]*”|‘[^’]*’|'[^']*'(?=\W|$)|:\s.*$")
_STEM = re.compile(r"(ing|ed|es|s)$")
WH_WORDS = frozenset("what who whom whose which where when why how whether".split())
PEOPLE = frozenset("rep reps customer customers buyer buyers manager managers you your they "
                   "them their team prospect prospects client clients".split())
STOPWORDS = frozenset("""
    the a an to of in on at for with and or but if when before after what who how which that
    this they them their it its is are be will can you your our we he she his her as by from
    into about then than so not do does did have has had was were rep reps manager managers
    coach next each every one two three time times
""".split())
ALL_VERBS = ACTION_VERBS | SURE_GOAL_VERBS | SOFT_GOAL_VERBS

# An apostrophe counts only inside a word ("customer's"): a single quote around a
# phrase ('send me some information') is punctuation, not part of "information".
_WORD = re.compile(r"[a-z0-9]+(?:'[a-z0-9]+)*(?::[0-9]+)*(?:-[a-z0-9]+(?:'[a-z0-9]+)*)*")


def words_of(text: str) -> list[str]:
    return _WORD.findall(text.lower().replace("\u2019", "'"))


def base_verb(word: str) -> str:
    """'asks' -> 'ask', 'asking' -> 'ask', 'summarising' -> 'summarise', 'stopping' -> 'stop';
    '' when the word is no known verb in another form."""
    if word in ALL_VERBS:
        return word
    candidates = []
    if word.endswith("ing"):
        stem = word[:-3]
        candidates += [stem, stem + "e", stem[:-1] if len(stem) > 2 and stem[-1] == stem[-2] else ""]
    elif word.endswith("ies"):
        candidates.append(word[:-3] + "y")
    elif word.endswith("es"):
        candidates += [word[:-2], word[:-1]]
    elif word.endswith("s"):
        candidates.append(word[:-1])
    return next((c for c in candidates if c and c in ALL_VERBS), "")


def is_verb(word: str) -> bool:
    """A verb the check knows, in its base form (a behavior is written as an imperative)."""
    return word in ALL_VERBS


def key_words(text: str) -> set[str]:
    """The content words of a text, stemmed: what two actions may share."""
    return {_STEM.sub("", w) for w in words_of(text)
            if w not in STOPWORDS and w not in PEOPLE and len(w) > 2} - {""}
