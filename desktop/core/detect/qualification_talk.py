"""Qualification read across the conversation, not line by line: a price on the table makes the next
amounts prices, a customer's own count of hours or money lost is a metric, a refusal or a weighing of the
rep's price is an objection, and the fifth mention of the same thing is a repeat, not a new moment."""

from __future__ import annotations

import re

from desktop.core.detect.lines import Reading, ReadLine, quote_of
from desktop.core.detect.model import CUSTOMER, REP
from desktop.core.detect.phrases import has_number
from desktop.core.detect.qualification import REASONS, _conditional, _money
from desktop.core.detect.text import NUMBER, specific_date

# The fifth mention of the same thing in a call, away from where it was last talked about, is rarely a moment
# of its own: a coach marks where a pain or a price comes up, not each time it is repeated.
_AGAIN_AFTER = 4
_NEAR = 4


def said_again(reading: Reading) -> None:
    seen: dict[str, int] = {}
    last: dict[str, int] = {}
    dropped = set()
    for rl in reading.lines:
        for label in rl.labels:
            if label not in REASONS:
                continue
            n = seen.get(label, 0)
            if n >= _AGAIN_AFTER and rl.index - last[label] > _NEAR:
                dropped.add((rl.index, label))
            seen[label] = n + 1
            last[label] = rl.index
    if dropped:
        reading.drop(dropped)


# A customer's own count of time or money, where no price is being talked about: "down for like seven hours",
# "ninety minutes of keying", "we spent a hundred and ten grand on fuel", "wrong by about two hundred thousand"
_COUNTED = re.compile(NUMBER.pattern + r"(?:(?:k|grand|thousand|million|bucks|dollars|minutes|hours|days|weeks|months|"
                      r"points|percentage points)(?= )(?! ago| from now| out| notice| trial| pilot)"
                      r"|(?:minute|hour|day|week|month) (?:project|delay|backlog|wait|turnaround|lag))")
_COUNT_KEYS = frozenset("k grand thousand million bucks dollars minutes hours days weeks months points minute hour day "
                        "week month".split())


def counted(reading: Reading) -> None:
    for rl in reading.lines:
        if rl.role != CUSTOMER or "metrics" in rl.labels or "price" in rl.labels or _COUNT_KEYS.isdisjoint(rl.word_set):
            continue
        if not has_number(rl.word_set) or reading.line_find("price_words", rl) or rl.labels.keys() & _NOT_COUNTED:
            continue  # what the product costs, when a step of buying takes, what date forces it: not a worth
        for sent in rl.sentences:
            if sent.asks:
                continue
            found = _COUNTED.search(sent.words)
            if found and sent.words[:found.start() + 1].split()[-1:] in (["every"],):
                found = None  # "I send him the hours every two weeks": a routine, not a worth
            if found and " minutes " in found.group(0) + " " and (
                    not _SPARE_TIME.isdisjoint(sent.own) or _CALL_TIME.search(sent.words)):
                found = None  # "I've got about fifteen minutes between patients", "I have about twenty minutes": the call's
            if found and not specific_date(sent.words) and not _conditional(sent.words, found.group(0).strip()):
                cue = found.group(0).strip()
                reading.add("metrics", rl, sent.text, REASONS["metrics"].format(cue=cue), cue)
                break


_CALL_TIME = re.compile(r" (?:have|got|give you|take) (?:about |only |just |like |maybe )?" + NUMBER.pattern[1:] + "minutes ")
_SPARE_TIME = frozenset("got go between another free spare quick call chat meeting".split())
_NOT_COUNTED = frozenset(("decision_process", "critical_event", "customer_question", "next_step_confirmed", "deferral"))


# Once a price is on the table, the next few lines' amounts are prices too, with no price word of their own:
# "Vanta was like twenty four K", "for three staff it's forty five a month".
_PRICE_TALK_LINES = 3


def price_talk(reading: Reading) -> None:
    talk_until = -1
    for rl in reading.lines:
        if "price" in rl.labels or (rl.role == CUSTOMER and "customer_question" in rl.labels and
                                     reading.line_find("price_question", rl)):
            talk_until = rl.index + _PRICE_TALK_LINES
            continue
        if rl.index > talk_until or rl.role not in (REP, CUSTOMER) or not has_number(rl.word_set) or rl.date():
            continue
        if "decision_process" in rl.labels or "economic_buyer" in rl.labels:
            continue  # "anything over twenty five thousand goes to our director": a threshold, not a price
        if "metrics" in rl.labels:
            continue  # "so three new patients is roughly twenty five hundred a month": a worth, already read
        found = _money(reading, rl.words, rl.word_set) or reading.line_find("money_rates", rl)
        if found:
            cue = found
            reading.add("price", rl, rl.line.text, f"the price is on the table and this names an amount ('{cue}')", cue)
            talk_until = rl.index + _PRICE_TALK_LINES


# "I don't sign three-year deals", "our chefs are not going to load recipes", "Ravi is going to say no"
_REFUSAL = re.compile(
    r" (?:(?:i|we|they|he|she|it|our \w+|my \w+|the \w+)(?: just| really| still| honestly)? "
    r"(?:don't|do not|won't|will not|can't|cannot|wouldn't|would never|never|are not going to|aren't going to|"
    r"is not going to|isn't going to|am not going to|are not|is not)"
    r"|(?:i'm|we're|they're|he's|she's|it's)(?: just| really| still| honestly)? (?:not|never)) "
    r"(?:going to )?(?:sign|use|load|allow|agree|pay|buy|move|switch|approve|download|accept|do (?:it|that|this|"
    r"anything)|love|like|go for|adding|add|touch|help|budge|commit|doing (?:it|that|this|anything)|moving|downloading|"
    r"switching|paying|signing|changing|buying|replacing|touching|putting|want to (?:buy|pay|rebuild|switch|change|move|"
    r"sign|add|commit|replace|learn|deal))")
_REFUSAL_KEYS = frozenset("don't won't can't cannot wouldn't never not".split())
_SAYS_NO = re.compile(r" (?:is|are|will be|would be|he's|she's|they're|it's|[a-z]+'s) (?:going to|gonna) say (?:no|we) "
                      r"| (?:would|will|he'll|she'll|they'll|he'd|she'd|they'd) (?:say no|veto|kill it|push back) ")
_SAYS_NO_KEYS = frozenset("say veto kill push".split())
# After the rep names the price: "Hm. That's not nothing.", "That's more than I figured", "we're paying a hundred sixty"
_HESITATION = frozenset("hm hmm hmmm mm mmm huh oof ugh whoa yikes ouch".split())
_WEIGHS_IT = frozenset("still more higher gap adds paying pay budgeted figured expected hoped steep much lot nothing "
                       "fortune cost costs afford".split())
_TAKES_IT = frozenset("works fine easy reasonable zone great good perfect affordable doable less cheaper better "
                      "cheap deal sounds love".split())


def pushes_back(reading: Reading, rl: ReadLine) -> None:
    """A push back read by its shape, not a listed phrase: a refusal, or a weighing of the rep's price."""
    for s in rl.sentences:
        # every refusal has one of these words: most sentences hold none
        found = ((not _REFUSAL_KEYS.isdisjoint(s.own) and _REFUSAL.search(s.words))
                 or (not _SAYS_NO_KEYS.isdisjoint(s.own) and _SAYS_NO.search(s.words)))
        if found and not _conditional(s.words, found.group(0).strip().split()[0]) and "economic_buyer" not in rl.labels:
            cue = found.group(0).strip()
            reading.add("objection", rl, s.text, REASONS["objection"].format(cue=cue), cue)
            return
    before = reading.lines[rl.index - 1] if rl.index else None
    if before is None or before.role != REP or "price" not in before.labels or all(s.asks for s in rl.sentences):
        return
    first = rl.words.split()[:1]
    weighs = not _WEIGHS_IT.isdisjoint(rl.word_set) or (first and first[0] in _HESITATION and has_number(rl.word_set))
    if weighs and _TAKES_IT.isdisjoint(rl.word_set) and not rl.sentences[0].asks:
        cue = quote_of(rl.sentences[0].text, 40)
        reading.add("objection", rl, rl.line.text,
                    f"the rep named the price, the customer weighs it ('{cue}')", cue)
