"""Missed follow-up: the rep moves on right after the customer named a budget owner, a pain or an objection.

The rep's first line after the customer's turn follows up when it takes up what was just said: a
follow-up phrase ("tell me more", "what would she need to see"), an open question, a question
pointing back ("is that..."), the customer's own words (a name, "the numbers"), or a short reply
dwelling on them ("three hours every Sunday, that's brutal"). A pitch or a yes/no question about
something else moves on - though after a pain or a push back, a question of the rep's own is no
pitch talking over it. Nothing is missed when the rep answers the customer's own question, only says
"oof" while the customer goes on, accepts a deferral or agrees the next step (those are moments of
their own), or hears the budget owner confirmed to the rep's own question about who decides (after a
yes/no question on something else, the budget owner named is news, and moving on misses them).

The learned reading reads a turn the same way (missed) when it finds a budget owner, a pain or a push
back the rules did not.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator

from desktop.core.detect.lines import Reading, ReadLine, quote_of
from desktop.core.detect.model import CUSTOMER, REP
from desktop.core.detect.text import content_words

TRIGGERS = ("economic_buyer", "pain", "objection")
POINTING_BACK = ("that", "this", "those", "she", "he", "her", "him")  # a question about what was just said
# a reply speaking for the product or the rep's side: it answers instead of asking
PITCH = frozenset("we we're we've we'll our us let's platform sure".split())
_CLOSING = frozenset(("next_step_confirmed", "next_step_vague", "deferral_accepted"))
NAMED = {"economic_buyer": "named who signs off", "pain": "described a problem", "objection": "pushed back"}


def _follows_up(reading: Reading, reply: ReadLine, said: list[ReadLine], buyer: bool = False) -> bool:
    if reading.line_find("follow_up_cues", reply):
        return True
    if reply.question is None:
        # "Three hours every other Sunday, that's brutal": the rep dwells on it; a pitch or a reassurance
        # ("our platform connects to Toast", "I'm sure it's fine") answers for the customer instead
        return len(reply.words.split()) <= 12 and reply.word_set.isdisjoint(PITCH) and _echoes(reply, said)
    if reply.question[0] == "open":
        return True  # "What breaks most often?": the rep explores, whatever the words
    if not buyer and not any(not s.asks and not s.own.isdisjoint(PITCH) for s in reply.sentences):
        # "Do you know the exact month?" after a pain or a push back: a question of its own, not a pitch talking
        # over it (after a budget owner is named, a question about anything else moves on)
        return True
    asked_words = " ".join(s.words for s in reply.sentences if s.asks) or reply.question[1].words
    if any(f" {w} " in asked_words for w in POINTING_BACK):
        return True  # "Is that mostly one region?"
    return _echoes(reply, said)


def _about_the_buyer(reading: Reading, asked: ReadLine) -> bool:
    """The rep's question was about who decides ("is that you?", "does it go to the board?"), not another topic the
    customer answered by naming the budget owner ("if we got under twenty five, would that work?")."""
    return any(reading.line_find(name, asked) for name in ("decision_questions", "economic_buyer", "buyer_titles"))


def _echoes(reply: ReadLine, said: list[ReadLine]) -> bool:
    """The reply takes up the customer's own words."""
    topic = {w[:5] for rl in said for w in content_words(rl.words)}  # "reconciles" ~ "reconciliation"
    return any(w[:5] in topic for w in content_words(reply.words))


def customer_turns(reading: Reading, holding: Collection[int] | None = None) -> Iterator[tuple[list[ReadLine], int]]:
    """Each run of the customer's lines, with the index of the line after it (only the runs holding one of the lines
    `holding`, if given: those are looked at, not the whole call)."""
    lines = reading.lines
    done = 0  # where the last run yielded ends
    for j in range(len(lines)) if holding is None else sorted(holding):
        if j < done or lines[j].role != CUSTOMER:
            continue  # inside a run already yielded, or not the customer's
        start = end = j
        while start > done and lines[start - 1].role == CUSTOMER:
            start -= 1
        while end < len(lines) and lines[end].role == CUSTOMER:
            end += 1
        done = end
        yield lines[start:end], end


def missed(reading: Reading, turn: list[ReadLine], i: int) -> tuple[ReadLine, str, ReadLine] | None:
    """The rep's reply (line i) that moves on from what the customer's turn named: (the reply, the label it moved
    on from, the line that named it), or None when nothing is missed there."""
    lines = reading.lines
    if any("next_step_confirmed" in rl.labels for rl in turn):
        return None  # "I'll get our owner to sign it this week": the customer closes; nothing to dig into
    named = [(label, rl) for rl in turn for label in TRIGGERS if label in rl.labels]
    if not named or i >= len(lines) or lines[i].role != REP:
        return None
    reply = lines[i]
    start = turn[0].index
    asked = lines[start - 1] if start and lines[start - 1].role == REP else None
    if (named[0][0] == "economic_buyer" and asked is not None and asked.question is not None
            and asked.question[0] != "open" and _about_the_buyer(reading, asked)):
        return None  # "You're the one signing, right?" - "Just me.": the rep asked to confirm it, and has the answer
    last = turn[-1]
    if "customer_question" in last.labels and (last.sentences[-1].asks or not any(s.asks for s in last.sentences)):
        return None  # "What does it cost anyway?": the rep answers the customer's own question
    if (reply.question is None and len(reply.words.split()) <= 3 and i + 1 < len(lines)
            and lines[i + 1].role == CUSTOMER):
        return None  # "Oof." "Got it.": the customer goes on; the rep has not moved on yet
    if not _CLOSING.isdisjoint(reply.labels):
        return None  # the rep agrees the next step: that moment is the coach's under its own label
    if _follows_up(reading, reply, turn, buyer=named[0][0] == "economic_buyer"):
        return None
    label, said = named[0]
    return reply, label, said


def report(reading: Reading, reply: ReadLine, label: str, said: ReadLine) -> None:
    """The missed follow-up, with the customer's words it moved on from (the rule's cue, or the line's words when
    the learned reading found the label)."""
    cue = said.labels.get(label) or quote_of(said.line.text, 50)
    reading.add("missed_follow_up", reply, reply.line.text,
                f"the customer {NAMED[label]} ('{cue}'); the rep's next line moves on without asking about it", label)


def read_follow_up(reading: Reading) -> None:
    for turn, i in customer_turns(reading):
        found = missed(reading, turn, i)
        if found:
            report(reading, *found)
