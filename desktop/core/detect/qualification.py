"""Qualification (MEDDICC and SPICED): what the customer tells the rep about the deal.

Read on the customer's lines (the rep's own lines count for `price` - "most teams land between
twenty and forty thousand dollars a year" - and for a dated `critical_event` - "your contract renews
on January first"), three ways:

- by the customer's own words (the phrase lists),
- by the shape of what is said, whatever the words: a refusal ("I don't sign three-year deals"), who
  signs ("I'm the CFO", "run it by my partner"), an approval threshold ("anything over fifty goes to
  the board"), a count of time or money lost ("down for seven hours"), something due with its date,
- by the conversation around the line: the rep's question it answers ("Who would decide?" - "Their
  director, Lina."; "What would stop you?" - "Transition risk."), the price just named (the next
  amounts are prices; a customer weighing it pushes back).

A label said again far into the call, after four mentions, is a repeat rather than a new moment.
Each finding names what was said and quotes the words that said it.
"""

from __future__ import annotations

import re

from desktop.core.detect.lines import Reading, ReadLine
from desktop.core.detect.model import CUSTOMER, REP
from desktop.core.detect.phrases import has_number
from desktop.core.detect.text import MONTHS, NUMBER, ORDINAL, WEEKDAYS, specific_date

# A month in the past ("fees went up in January") or a call-back ("call me back in the fall") forces nothing.
_NOT_AN_EVENT = frozenset("went was were had looked tried did last ago used revisit back".split())
# A month is a critical event when something falls due then: "the contract ends in May", "we need it by June".
_FORCING = frozenset("""need needs needed has have must by before until till deadline due ends end expires expire renews
renew starts start kicks goes live launch launches opens open decide decided decision decisions budget budgets
contract audit exam inspection board planning cutoff locked lock cut freeze target targeting aiming aim plan planned
commit approve approval approved""".split())
# The rep's own amount for the product: "forty five a month", "twenty two a seat", "in the seven to eight hundred
# range", "we'd be at two ninety for three practitioners", "the bundle would be fourteen ninety"
_REP_RATE = re.compile(NUMBER.pattern + r"(?:(?:a|per) (?:month|year|seat|user|license|licence|location|vehicle|truck|"
                       r"practitioner|agent|endpoint|employee|head|line) |range )"
                       r"| (?:we'd be at|you'd be at|it'd be|it would be|would be|comes to|comes out to|lands at|it's) "
                       r"(?:about |around |roughly |just )?" + NUMBER.pattern[1:-1] +
                       r"(?: (?:for|a|per|all in|total|on the) )")
_RATE_KEYS = frozenset("""month year seat user license licence location vehicle truck practitioner agent endpoint
employee head line range be comes lands it's""".split())
# Something that falls due, with its date: "Renewal's August first", "the account cancels on the thirty first"
_EVENT_NOUNS = frozenset("""renewal renewal's renews renew contract contract's lease lease's exam audit deadline lapses
lapse cancels expires expire notice launch live inspection""".split())
_DATE_OF_MONTH = re.compile(r" (?:(?:" + "|".join(MONTHS) + r") (?:the )?" + ORDINAL + r"|(?:on |by |is |the )" +
                            ORDINAL + r"(?! (?:time|one|thing|step|call|meeting|week|quarter|year)))(?= )")


def _dated_event(words: str, own: frozenset) -> str | None:
    if _EVENT_NOUNS.isdisjoint(own) or not _NOT_AN_EVENT.isdisjoint(own):
        return None
    when = _DATE_OF_MONTH.search(words)
    if when is None:
        return None
    noun = next(w for w in words.split() if w in _EVENT_NOUNS)
    return f"{noun} … {when.group(0).strip()}"


_PER_PERIOD = re.compile(NUMBER.pattern + r"(?:(?:less|more|extra) )?(?:a|per) (?:month|year|seat|user) $")
_PERCENT = re.compile(r" \d[\d.]*% ")
_PERCENT_WORDS = re.compile(r"%| percent ")
_DOLLARS = re.compile(r" (?:\$\d[\d.]*(?:k|m)?|\d[\d.]*k) ")  # $25000, $2.5m, 30k

REASONS = {
    "metrics": "the customer puts a number on the impact or the goal ('{cue}')",
    "economic_buyer": "the customer names who signs or owns the budget ('{cue}')",
    "decision_process": "the customer describes how they buy: approvals, procurement, legal or security ('{cue}')",
    "pain": "the customer describes a problem ('{cue}')",
    "champion": "the customer offers to push for the deal inside ('{cue}')",
    "competition": "another vendor, tool or in-house build is in the picture ('{cue}')",
    "critical_event": "a date or event is forcing the decision ('{cue}')",
    "price": "an amount for the product or its budget ('{cue}')",
    "objection": "the customer pushes back ('{cue}')",
}


def _without(reading: Reading, words: str, negations: str, ws: frozenset) -> str:
    """The words with negated phrases taken out ('no problem' is not a pain)."""
    group = reading.book[negations]
    while True:
        found = group.find(words, ws)
        if not found:
            return words
        words = words.replace(f" {found} ", " ", 1)


def _money(reading: Reading, words: str, ws: frozenset, own: frozenset | None = None) -> str | None:
    """`ws`: the line's words; `own`: words holding every word of `words`, if fewer (a sentence's)."""
    if not has_number(ws):
        return None  # every amount has a number in it
    found = reading.find("money", words, ws if own is None else own)
    if found:
        return found
    dollars = _DOLLARS.search(words)
    return dollars.group(0).strip() if dollars else None


def _sentence_labels(reading: Reading, words: str, role: str, asks: bool, ws: frozenset,
                     cands: frozenset, line_words: str = "", text: str = "", date_in=specific_date,
                     own: frozenset | None = None) -> dict[str, str]:
    """`ws`, `cands`: the line's words and the lists they might match; `own`: the sentence's own words."""
    own = ws if own is None else own
    if role == REP and not has_number(ws):  # the rep's lines count for price and a dated event only
        dated = None if asks or _EVENT_NOUNS.isdisjoint(own) else _dated_event(words, own)
        return {"critical_event": dated} if dated else {}  # "your contract renews on the first": no number
    groups = reading.book.groups

    def find(name: str, text: str) -> str | None:
        # `text` is the sentence's words or fewer: a list none of whose words the sentence holds is skipped
        return groups[name].find(text, own) if name in cands else None

    def find_in_line(name: str) -> str | None:
        return groups[name].find(line_words, ws) if name in cands else None

    out: dict[str, str] = {}
    money = _money(reading, words, ws, own)
    # "forty nine a month per screen" is an amount only where the line talks about paying ("our plan", "the fees")
    if not money and (find_in_line("price_words") if line_words else find("price_words", words)):
        rate = find("money_rates", words)
        if rate:
            money = rate
    discount = find("discounts", words)  # "ten percent off for a two-year term": a price, not a metric
    impact = find("money_as_impact", words) if money else None
    offer = find("price_offers", words) if money is None else None  # "we could get to six and a half"
    if role == REP:
        if discount:
            out["price"] = discount
        elif offer or (rep_price := find("rep_price", words)):
            out["price"] = offer or rep_price  # "four percent of collected revenue"
        elif money and not impact and (find("price", words) or find("price_words", words)):
            out["price"] = money
        elif (not impact and not asks and not _RATE_KEYS.isdisjoint(own) and (rate := _REP_RATE.search(words))
              and not find("money_as_impact", words)):
            out["price"] = rate.group(0).strip()  # "for three staff it's forty five a month", "we'd be at two ninety"
        if not asks and (dated := _dated_event(words, own)):
            out["critical_event"] = dated  # "your phone contract renews on January first"
        return out
    counted = _without(reading, words, "metrics_negations", own) if "metrics_negations" in cands else words
    if money:
        counted = money_free(counted, money)  # "twenty thousand a year" is an amount, not a rate of anything
    metric = None if discount else (find("metrics", counted) or (_PERCENT.search(counted) or [None])[0])
    if metric and money and not impact and (find_in_line("price_words") if line_words else find("price_words", words)) and not find("metrics", money_free(words, money)):
        metric = None  # "forty nine per screen, we'd need six screens": what it costs, not what it is worth
    if metric and _PERCENT_WORDS.search(f" {metric.strip()} ") and find("price_nouns", words):
        out["price"], metric = metric.strip(), None  # "our renewal quote went up forty percent": what it costs
    if metric and _PER_PERIOD.match(f" {metric.strip()} ") and not impact:
        metric = None  # "sixty a month", "about a hundred less a month": an amount per month is what it costs
    if metric:
        out["metrics"] = metric.strip()
    elif money and impact:
        out["metrics"] = f"{money} … {impact}"
    if discount or offer:
        out["price"] = discount or offer
    buyer = find("economic_buyer", words)
    if not buyer:
        title = find("buyer_titles", words)
        if title and (approval := find("approval_words", words)):
            buyer = f"{title} … {approval}"
    if not buyer:
        buyer = _buyer_shape(words, own)
    if buyer:
        out["economic_buyer"] = buyer
    if money and not impact and find("price", words):
        out["price"] = money
    if not _THRESHOLD_KEYS.isdisjoint(own):
        threshold = _THRESHOLD.search(words)
        if threshold:
            out["decision_process"] = threshold.group(0).strip()  # "anything over fifty goes to the board"
    for label, negations in _WITH_NEGATIONS:
        said = _without(reading, words, negations, own) if negations in groups and negations in cands else words
        cue = find(label, said)
        if cue:
            out[label] = cue
    if "competition" not in out and not ws.isdisjoint(_TOOL_VERBS):
        named = _named_tool(text, ws)  # "We use Mindbody", "a two-year deal with FreightHub"
        if named:
            out["competition"] = named
    if "critical_event" not in out and not asks and (dated := _dated_event(words, own)):
        out["critical_event"] = dated  # "Renewal's August first", "our lease on the new space starts April first"
    if "critical_event" not in out and not asks and ws.isdisjoint(_NOT_AN_EVENT) and not date_in(words):
        said = _without(reading, words, "critical_event_negations", own) if "critical_event_negations" in cands else words
        when = find("event_times", said)  # "our contract ends in May", "decisions are made in June"
        if when and _FORCING.isdisjoint(own):
            when = None  # "we bring on three hundred people every November", "he left in July": a month forces nothing
        if when and not find("deferral_horizons", words) and not reading.find("deferral", words, own):
            out["critical_event"] = when
    if not asks:
        cleaned = _without(reading, words, "pain_negations", own) if "pain_negations" in cands else words
        pain = find("pain", cleaned) or groups["pain"].find_inflected(cleaned)
        if pain and not _conditional(cleaned, pain):
            out["pain"] = pain
    cleaned = _without(reading, words, "objection_negations", own) if "objection_negations" in cands else words
    objection = find("objection", cleaned) or groups["objection"].find_inflected(cleaned)
    if objection and _conditional(cleaned, objection):
        objection = None  # "if we're not ready, we're locked in": what would happen, not a push back
    if objection and objection in _BUT and find("deferral", words):
        objection = None  # "it looks good, but let me think about it": a stall, not a push back
    if objection:
        out["objection"] = objection
        # "the price is a problem", "he hates switching, last time it was a nightmare": a sentence that pushes back
        # is about the deal, not a problem they have today
        out.pop("pain", None)
    if "pain" in out and impact and "metrics" in out and " " not in out["pain"] and (
            out["pain"] in impact or impact in out["pain"]):
        out.pop("pain")  # "ninety thousand a quarter in wasted steel": the loss is counted, and that is a metric
    return out


# A problem is the customer's when it is theirs: "we lose", "my team", "our reports", "the managers hate it"
_OURS = frozenset("""i i'm i've i'd me my we we're we've we'd us our ours they they're them their people staff team
everyone everybody nobody guys""".split())

# An approval threshold: "anything over twenty five thousand has to be bid out", "over two million the board votes",
# "above that it goes into next year's planning"
_THRESHOLD = re.compile(
    r" (?:anything|everything|purchases?|spend|deals?|contracts?) (?:over|above|under|below) "
    r"(?:about |around |roughly )?" + NUMBER.pattern[1:] +
    r"| (?:over|above|under|below) " + NUMBER.pattern[1:-1] + r"(?: (?:k|thousand|million|grand))? "
    r"(?:the|it|it's|goes|has|needs|we|you|and) (?:\w+ )?"
    r"(?:votes|signs|approves|decides|goes|has to|needs|can sign|can approve|it's)? ?"
    r"| (?:above|over|under|below) that (?:it|it's|goes|the|we|you)(?= )")

_THRESHOLD_KEYS = frozenset("over above under below".split())

# Who signs, said by its shape: "I'm the CFO", "I sign it", "it's my clinic", "Dr. Mehta owns the practice",
# "I need to run this by my partner, Ron", "she's the one who'd approve it". Each shape is tried only on a
# sentence holding one of its words (most hold none).
_BUYER_SHAPES = tuple((frozenset(keys.split()), re.compile(pattern)) for keys, pattern in (
    ("cfo ceo coo owner founder president managing principal boss",
     r" i(?:'m| am) the (?:cfo|ceo|coo|owner|founder|president|managing partner|principal|boss)(?= )"),
    ("sign decide approve pick choose money budget",
     r"(?<!before)(?<!until)(?<!when)(?<! if) (?:i|we) "
     r"(?:sign|decide|approve|pick|choose|handle the money|hold the budget|have the budget|own the budget)(?= )"
     r"| (?:i|we) can (?:approve|sign)(?= )"),
    ("clinic shop company practice studio agency firm restaurant store salon gym",
     r" it's (?:my|our) (?:clinic|shop|company|practice|studio|agency|firm|restaurant|store|salon|gym)(?= )"),
    ("owns own", r" (?:owns|own) (?:the|it|half|this)(?= )"),
    ("partner partners brother sister wife husband dad father mom mother boss co cofounder",
     r" (?:talk to|run (?:it |this |all this |that |everything )?by|sit down with|check with) my (?:business )?"
     r"(?:partner|partners|brother|sister|wife|husband|dad|father|mom|mother|boss|co owner|cofounder|co founder)(?= )"
     r"| my business partner(?= )"),
    ("decide decides approve approves sign signs",
     r" (?:she's|he's|they're|she is|he is) (?:really |actually |the )?(?:the )?one who(?:'d| would| will)? "
     r"(?:decide|decides|approve|approves|sign|signs)(?= )"),
))


def _buyer_shape(words: str, own: frozenset) -> str | None:
    for keys, shape in _BUYER_SHAPES:
        if not keys.isdisjoint(own) and (found := shape.search(words)):
            return found.group(0).strip()
    return None


_WITH_NEGATIONS = tuple((label, f"{label}_negations") for label in
                        ("decision_process", "champion", "competition", "critical_event"))

_BUT = frozenset(("sounds nice but", "looks nice but", "seems nice but", "that's nice but", "sounds good but", "looks good but", "sounds great but", "that's great but", "i like it but",
                  "that's fine but", "i hear you but", "i get that but", "not sure", "unsure", "maybe but", "possibly but",
                  "yeah but", "yes but", "okay but", "ok but", "true but", "fair but", "i see but", "perhaps but"))

# "We use Mindbody", "signed a two-year deal with FreightHub", "we trialled Loop": a tool named by its capitals
_TOOL = re.compile(r"\b(?:we|they|we're|they're|we've|i|team|teams|staff|everyone|currently|already|still|also)\s+"
                   r"(?:(?:currently|already|still|also|mostly|just)\s+)?"
                   r"(?:use|uses|used|using|are using|run on|ran on|are on|tried|trialled|trialed|piloted|bought|"
                   r"licensed|evaluated|(?:switched|moved|migrated)(?: (?:everything|it|us|all|over|our \w+))? to|went with|signed with|signed a [\w-]+(?: [\w-]+)? (?:deal|contract) with|"
                   r"looked at|are looking at|are talking to|got a quote from|got a demo from|had a demo from)\s+"
                   r"((?:[A-Z][a-z]*[A-Z0-9][\w]*|[A-Z][a-z]{2,})(?:\s+[A-Z][\w]+)?)")
_TOOL_VERBS = frozenset("use uses used using on tried trialled trialed piloted bought licensed evaluated switched moved "
                        "migrated went signed looked looking talking quote demo from off replacing with paying pay lost"
                        " called".split())
_VERBS_BEFORE = frozenset("use uses used using on tried trialled trialed piloted bought licensed evaluated switched moved "
                          "migrated went signed looked looking talking quote demo".split())  # what _TOOL needs
_WORDS_BEFORE = frozenset("on from off replacing with for to called".split())  # what _TOOL_AFTER's name follows
_NOT_TOOLS = frozenset("""I Monday Tuesday Wednesday Thursday Friday Saturday Sunday January February March April May June July
August September October November December Excel Email It The This That Our Their A An Paper Spreadsheets Slack Zoom
CEO CFO CTO CIO COO IT HR Ops Finance Sales Legal Procurement""".split())


def _named_tool(text: str, ws: frozenset = frozenset()) -> str | None:
    tokens = text.split() if text else ()
    # a tool is named with a capital (or "7shifts") after the sentence's first word, right after the word leading to it
    after = [i for i in range(1, len(tokens)) if tokens[i][:1].isupper() or tokens[i][:1].isdigit()]
    if not after:
        return None
    shapes = [_TOOL] if not ws or not ws.isdisjoint(_VERBS_BEFORE) else []
    if any(tokens[i - 1].lower() in _WORDS_BEFORE for i in after):
        shapes.append(_TOOL_AFTER)
    for shape in shapes:
        for found in shape.finditer(text):
            name = found.group(1)
            if name.split()[0] not in _NOT_TOOLS and name.split()[0] not in _NOT_NAMES:
                return name
    return None


# "we've been on Mixpanel", "payroll is on ADP", "we get that from 7shifts", "we tried that with MarketMan",
# "a bake off with Databricks", "we're moving off Teradata", "lost a few jobs to Cool Breeze"
_TOOL_AFTER = re.compile(
    r"\b(?:been on|is on|are on|(?:we|they)'re on|(?:get|got|buy|bought) (?:it |that |this |them )?from|switched from|"
    r"moving off|move off|moved off|migrating off|replacing|tried (?:that |it |this )?with|bake off with|"
    r"(?:demo|trial|pilot|deal|contract|quote|proposal) (?:with|from)|paying for|pay for|lost (?:\w+ ){0,3}to|"
    r"renewal with|setup with|set up with|something called|thing called|one called)\s+"
    r"((?:[A-Z][a-z]*[A-Z0-9][\w]*|[A-Z][a-z]{2,}|[0-9][a-z]+[A-Za-z]*)(?:\s+[A-Z][\w]+)?)")


_CAPITALISED = re.compile(r"\b([A-Z][\w]*[a-z0-9][\w]*(?:\s+[A-Z][\w]+)?)")


def _named_thing(rl: ReadLine) -> str | None:
    """A product or company in the line: a capitalised word that is not a sentence's first, a title or a date."""
    for s in rl.sentences:
        for found in _CAPITALISED.finditer(s.text):
            name = found.group(1)
            first = name.split()[0]
            if found.start() == len(s.text) - len(s.text.lstrip()):
                continue  # a sentence's first word is capitalised whatever it is
            if first in _NOT_TOOLS or first in _NOT_NAMES or first.removesuffix("'s") in _NOT_TOOLS:
                continue
            return name
    return None


def _conditional(words: str, cue: str) -> bool:
    """The cue sits in an if-clause: "if nothing gets stuck", "if we're not ready, we're locked in"."""
    at = words.find(f" {cue} ")
    return at >= 0 and not _IF.isdisjoint(words[:at].split()[-5:])


_IF = frozenset(("if", "unless", "assuming"))
_DAY_OF_MONTH = re.compile(r" the " + ORDINAL + r" ")


_NAME = re.compile(r"(?<=[\s,])(?:Ms|Mr|Mrs|Dr)?\.?\s?([A-Z][a-z]+)")
# Capitalised but no one's name: the words a sentence starts with, and the calendar's ("every Monday").
_NOT_NAMES = frozenset("I I'm I'll I'd I've It It's The That This We Our And But So Yes No Not".split()
                       + [w.capitalize() for w in (*WEEKDAYS, *MONTHS)])


def _named(text: str) -> str | None:
    """A person named in a short answer ("Our general counsel, Ms. Obi."): a capitalised word after the first."""
    if len(text.split()) > 10:
        return None
    for found in _NAME.finditer(text):
        if found.group(1) not in _NOT_NAMES:
            return found.group(1)
    return None


def money_free(words: str, money: str) -> str:
    return words.replace(f" {money} ", " ", 1)


def read_qualification(reading: Reading) -> None:
    from desktop.core.detect.answers import answers
    from desktop.core.detect.qualification_talk import counted, price_talk, pushes_back, said_again

    for rl in reading.lines:
        if rl.role not in (REP, CUSTOMER):
            continue
        _read_line(reading, rl)
        answers(reading, rl)  # after: a label the words already gave keeps its own reason
        if rl.role == CUSTOMER and "objection" not in rl.labels:
            pushes_back(reading, rl)
    price_talk(reading)
    counted(reading)
    said_again(reading)


def _read_line(reading: Reading, rl: ReadLine) -> None:
    for s in rl.sentences:
        for label, cue in _sentence_labels(reading, s.words, rl.role, s.asks, s.word_set, rl.cands, rl.words,
                                           s.text, rl.date_in, s.own).items():
            reason = REASONS[label]
            if rl.role == REP:
                reason = "the rep puts an amount on the product ('{cue}')"
            reading.add(label, rl, s.text, reason.format(cue=cue), cue)
