"""One behavior or two: how a second action joined to the first ("..., and move ...") is tied to it.

The method asks for one behavior per item. Two verbs are often one behavior in
steps ("Pause ... and let them answer", "Greet the customer, then hand the call
to the rep", "Don't suggest a date; ask what the customer said"); they are two
behaviors when the second acts on something of its own that the first never
touches ("Stop interrupting reps during deal reviews, and move the team meeting
to Tuesday mornings"). Qt-free plain text rules; the words are in behavior_words.
"""

from __future__ import annotations

import re

from desktop.core.behavior_text import QUOTED, STOPWORDS, WH_WORDS, is_verb, key_words, words_of
from desktop.core.behavior_words import (BACK_REFERENCES, DETERMINERS, NEGATIONS,
                                         PARTICLES, PREPOSITIONS, SEPARATE_WORK, TOPIC_GROUPS,
                                         VERB_FOLLOWERS)

__all__ = ["second_actions"]

# A join: ", and", "; ", "and", "then", ", ", followed by a word that may be a verb.
_JOIN = re.compile(r"(?:([,;:]|\s[-–—])\s*(?:and\s+)?(?:then\s+)?|(?:\band|\s[&+])\s+(?:then\s+)?|\bthen\s+)"
                   r"(?:(?:just|also|immediately|straight|only|always|never|don't|do not)\s+)?([a-z][a-z-]*)\b")


# A one-off task with its own deadline: "..., and rebuild the territory plan by Friday".
_DEADLINE = re.compile(r"\bby (?:the end of |end of )?(?:monday|tuesday|wednesday|thursday|friday|"
                       r"month end|quarter end|year end|january|february|march|april|may|june|july|"
                       r"august|september|october|november|december|next week|next month|q[1-4])\b")
_LONGEST = 1000  # characters; a behavior is a sentence or two

# Verbs that leave something out: what follows them may be what replaces it.
_LEAVES = frozenset("skip drop cut replace swap".split())


def _has_own_object(after: list[str]) -> bool:
    """Does the second verb act on a thing of its own ("move the team meeting"), rather than
    going on with the first ("and wait for the answer", "and stay on mute", "and move on")?"""
    if not after:
        return False
    first = after[0]
    if first in PARTICLES:  # "clean up the dashboards", but "move on when it rings"
        return len(after) > 1 and (after[1] in DETERMINERS or after[1] not in VERB_FOLLOWERS
                                   and after[1] not in PREPOSITIONS and after[1] not in WH_WORDS)
    return first not in PREPOSITIONS and first not in WH_WORDS and first not in BACK_REFERENCES


def _related(first: str, second: list[str], sequence: bool, replaces: bool, stops: bool) -> str:
    """How the second action is tied to the first: "refers back", "a step", "same topic" or ""."""
    rest = second[1:]
    if any(w in BACK_REFERENCES or w == "why" for w in rest):
        return "refers back"
    if not _has_own_object(rest):
        return "a step"
    # Work apart from the conversation: "..., then send the quarterly report to finance",
    # "..., and move the team meeting to Tuesday mornings".
    own_work = bool(SEPARATE_WORK & set(rest) and not SEPARATE_WORK & set(words_of(first))
                    or rest[0] in ("move", "reschedule", "cancel", "organise", "organize")
                    and {"meeting", "lunch", "offsite", "call", "session"} & set(rest[1:5])
                    or _DEADLINE.search(" ".join(rest)) and not _DEADLINE.search(first))
    if own_work:
        return ""
    if replaces:
        return "a step"  # "Don't suggest a date; ask what the customer said": one change
    if stops and not own_work:
        return "same topic"  # "Skip the status update and start with the hardest deal"
    if key_words(first) & key_words(" ".join(rest)):
        return "same topic"
    a, b = set(words_of(first)), set(rest)
    if any(a & group and b & group for group in TOPIC_GROUPS):
        return "same topic"
    if len(rest) < 2:
        return "a step"  # "..., and move on"
    # "Open the CRM record and read the last activity aloud", "greet the customer, then hand
    # the call over": two steps of one moment as often as two behaviors; not sure either way.
    return "same topic"


def second_actions(body: str, negative: bool = False) -> tuple[list[tuple[str, str]], bool]:
    """Actions joined to the first: [(verb, how it is tied to what comes before)], and
    whether the text says "and also" (or "as well as"): plainly another behavior.

    `negative`: the behavior opens with what the manager stops doing ("Don't ...")."""
    # A pasted page is read as far as a behavior goes: the check runs as the coach types.
    unquoted = QUOTED.sub(" ", body[:_LONGEST])
    marked = bool(re.search(r"\band also\b|\bas well as\b|[,;]\s*also\b|\balso\s+\w+$", unquoted)
                  and len(words_of(unquoted)) > 4)
    found = []
    for m in _JOIN.finditer(unquoted):
        verb = m.group(2)
        preceding = unquoted[:m.start()].rstrip()
        after = words_of(unquoted[m.end():])
        separator = (m.group(1) or "").strip()
        plain_and = not separator and "and" in m.group(0)
        # "ask the rep to state X and confirm Y" describes what the rep does, not a second action.
        to_verb = re.search(r"\bto\s+([a-z-]+)[^,;]*$", preceding)
        if plain_and and to_verb and is_verb(to_verb.group(1)):
            continue
        if (verb in STOPWORDS and not is_verb(verb)) or verb in WH_WORDS or verb in DETERMINERS:
            continue
        if not is_verb(verb):
            # A word the check does not know is a verb when an object follows it ("and rebuild the plan").
            if not after or verb.endswith(("ing", "s")) or not (
                    after[0] in DETERMINERS or after[0] in PARTICLES and len(after) > 1
                    and after[1] in DETERMINERS):
                continue
        # A verb is followed by its object or a particle ("and move the meeting"); "and call length" is a noun.
        # In a list of actions ("Review deals, give feedback and role-play objections") a known
        # verb may take a bare noun.
        listed = is_verb(verb) and (separator == "," or bool(found))
        if after and after[0] not in VERB_FOLLOWERS and after[0] not in PREPOSITIONS \
                and after[0] not in PARTICLES and not after[0].endswith("ing") and not listed:
            continue
        if not after and separator in (",", ":"):
            continue  # "..., listen." at the end: a last step
        sequence = "then" in m.group(0) or bool(re.search(r"\b(afterwards|after that)\b",
                                                            unquoted[m.end():]))
        stops = negative or any(w in NEGATIONS or w in _LEAVES or w == "not"
                                for w in words_of(preceding)[:2])
        replaces = stops and separator in (";", ":", "-", "–", "—") or bool(
            re.search(r"\b(instead|rather)\b", unquoted[m.end():]))
        clause = [verb] + after
        found.append((verb, _related(preceding, clause, sequence, replaces, stops)))
        if len(found) >= 8:
            break  # plainly more than one behavior already
    return found, marked
