"""Stalls and next steps: the customer's deferral, the rep's reply that accepts it, next steps.

- `deferral`: the customer pushes off ("just send me some information", "let me think about
  it", "circle back next quarter"). "I'll get back to you" with a day named is a next step.
- `deferral_accepted`: the rep's first reply after a deferral that neither asks what will be
  reviewed, who else is involved or when, nor proposes a date to meet.
- `next_step_confirmed`: a next step with a calendar date or time that the customer states or
  agrees to: the customer's own ("I'll send the contract by Friday"), the rep's proposal the
  customer says yes to and each customer's yes, the rep's recap of an agreed date, and the rep's
  dated promise of what the customer asked for. A yes to a question about something else, or a
  date for an event ("our campaign starts in June"), is not one.
- `next_step_vague`: a next step with no date ("let's touch base soon").
"""

from __future__ import annotations

import re

from desktop.core.detect.lines import Reading, ReadLine, quote_of
from desktop.core.detect.model import CUSTOMER, REP, UNKNOWN
from desktop.core.detect.phrases import has_number
from desktop.core.detect.text import MONTHS, WEEKDAYS, specific_date

# "I'll ping you in January": a time is named, if not a date; the step is not vague
_NAMED_TIMES = frozenset(MONTHS + WEEKDAYS + ["q1", "q2", "q3", "q4"])

REPLY_WINDOW_MS = 30_000  # a reply later than this is not an answer to the deferral


def _negated(reading: Reading, words: str, cue: str) -> bool:
    """'We don't want to just think about it': the phrase is there, the deferral is not."""
    at = words.find(f" {cue} ")
    before = " " + " ".join(words[:at].split()[-5:]) + " "
    return reading.find("deferral_negators", before) is not None


def _deferral_cue(reading: Reading, rl: ReadLine) -> tuple[str, str] | None:
    """(the phrases, the sentences that say them) if the customer's line defers."""
    cues, said = [], []
    for s in rl.sentences:
        cue = reading.find("deferral", s.words, s.own)
        if not cue or _negated(reading, s.words, cue):
            cue = reading.find("deferral_unless_dated", s.words, s.own)
            if cue and (rl.date_in(s.words) or _negated(reading, s.words, cue)):
                cue = None
        if cue and " check" in f" {cue}" and has_number(rl.word_set):
            cue = None  # "Maybe forty terabytes, maybe fifty. I'd have to check.": a figure to confirm, no decision put off
        if cue:
            cues.append(cue)
            said.append(s.text)
    if not cues:
        return None
    return "', '".join(cues), " ".join(said)


def _probes(reading: Reading, rl: ReadLine) -> bool:
    """Does the rep's reply ask what, who or when, or put a date on the table?"""
    date = rl.date()
    if date and reading.line_find("meeting_words", rl):
        return True
    if rl.question is None:
        return bool(reading.line_find("rep_probes", rl)) and "?" in rl.line.text
    style, sentence, _cue = rl.question
    if bool(date) or reading.line_find("rep_probes", rl):
        return True
    if reading.find("rep_errands", sentence.words, sentence.own):
        return False  # "What's the best email for you?", "Want me to send the deck?": the deferral's errand, run
    # "Is it more the tips or the hours that's the headache?", "Is the audit wrapping up in December?": asking
    # about what stands behind the deferral is not taking it
    return style in ("open", "closed")


def _answered(reading: Reading, proposed: ReadLine) -> str | None:
    """What the customer's reply to a rep's line with a next step answers: "dated", a proposal with a day; "when",
    a question for a day; None, neither.

    Naming a day answers a proposal that had one, or a question for one ("when would suit?"); "our campaign starts on
    the second of June" after "would a pilot help?" is an event, not a yes.
    """
    # "I'll send it tomorrow. When are you next talking to the board chair?": the day asked for is the question's
    asked = proposed.question[1].words if proposed.question is not None else None
    dated = proposed.date_in(asked) if asked and asked != proposed.words else proposed.date()
    if asked and not dated:
        # "Your renewal comes up on November first. Do you want to keep the same plan?": the question asks no day;
        # "I'll send it by Friday. Does that work?" puts the line's day to the customer
        if "when_questions" in proposed.cands and reading.find("when_questions", asked, proposed.word_set):
            answers = "when"
        elif proposed.date() and reading.find("proposal_questions", asked, proposed.word_set):
            answers = "dated"
        else:
            answers = None
    else:
        answers = "dated" if proposed.date() else "when" if reading.line_find("when_questions", proposed) else None
    if answers == "when" and reading.line_find("calendar_statements", proposed):
        return None  # "When's she usually free?": the answer tells a calendar, it agrees to nothing
    return answers


_UNREAD = object()


def _day_asked(reading: Reading, rl: ReadLine) -> str | None:
    """The day a rep's line with no next-step words puts to the customer, if it puts one (the line has a date)."""
    date = rl.date()
    short = len(rl.words) <= _SHORT_CHARS
    if rl.question is not None:
        style, sentence, _cue = rl.question
        asked = sentence.words
        if short and _day_words(date) and (asked.startswith(_HOW_ABOUT) or (
                style == "closed" and _VERBS.isdisjoint(asked.split()))):
            # "Monday at ten?", "How about the twenty second?": asking for a day proposes it
            return date
        if style == "closed":
            day = rl.date_in(asked)
            if day and _day_words(day) and _commits(reading, rl):
                return day  # "Can you get me the list by Friday?": a yes takes the day
        return None
    if short and _VERBS.isdisjoint(rl.word_set) and rl.index and _day_words(date):
        before = reading.lines[rl.index - 1]
        if before.role == CUSTOMER and _when_words(before) & _DAY_WORDS:
            return date  # "Monday we're closed, so Monday any time" - "Monday at ten.": a slot named, its mark dropped
    return None


def _agrees(reading: Reading, rl: ReadLine) -> bool:
    head = rl.sentences[0].words if rl.sentences else rl.words
    if reading.line_find("disagreement", rl):
        return False
    return bool(reading.find("agreement", head) or reading.line_find("agreement", rl))


def _commits(reading: Reading, rl: ReadLine) -> bool:
    """Said as something to do, not as something that happened ("our board meets Monday")."""
    return bool(reading.line_find("commitment", rl))


def _replies(reading: Reading, rl: ReadLine) -> list[ReadLine]:
    """The customer lines right after a rep line, up to two, until the rep speaks again."""
    out = []
    for nxt in reading.lines[rl.index + 1: rl.index + 3]:
        if nxt.role != CUSTOMER:
            break
        out.append(nxt)
    return out


def _offered(reading: Reading, answer: ReadLine) -> bool:
    """The rep's line before the customer's answer offered a next step ("Shall I put together a summary?")."""
    offer = reading.previous_of_role(answer.index, REP, within=1)
    return offer is not None and offer.question is not None and bool(
        reading.line_find("next_step_action", offer))


def _commits_dated(reading: Reading, rl: ReadLine) -> bool:
    """'I'll review it with our finance lead on Friday': the customer's own next step, with its date."""
    return bool((reading.line_find("next_step_action", rl) or _commits(reading, rl))
                and rl.date() and not reading.line_find("disagreement", rl))


def read_stalls(reading: Reading) -> None:
    deferred: dict[int, tuple[str, str]] = {}
    for rl in reading.lines:
        if rl.role == CUSTOMER:
            found = _deferral_cue(reading, rl)
            if found:
                cue, sentence = found
                deferred[rl.index] = found
                reading.add("deferral", rl, sentence,
                            f"the customer defers ('{cue}'): no decision, no date, no next step they own", cue)
    accepted: set[int] = set()
    for index, (cue, _sentence) in deferred.items():
        reply = reading.next_of_role(index, REP)
        said = reading.lines[index].line
        if reply is None or reply.index in accepted or reply.line.start_ms - said.end_ms > REPLY_WINDOW_MS:
            continue
        if _probes(reading, reply):
            continue
        accepted.add(reply.index)
        asks = "asks nothing" if reply.question is None else "asks nothing about what will be reviewed, who else is involved or when"
        reading.add("deferral_accepted", reply, reply.line.text,
                    f"the customer deferred ('{cue}'); the rep's reply sets no date and {asks}", cue)
    _next_steps(reading, set(deferred) | accepted, set(deferred))


def _next_steps(reading: Reading, skip: set[int], deferrals: set[int]) -> None:
    confirmed: set[int] = set()
    actions: dict[int, str | None] = {}  # each line's next-step phrase, looked for once (a reply asks of the line before)

    def action_of(rl: ReadLine) -> str | None:
        if rl.index not in actions:
            action = reading.line_find("next_step_action", rl)
            if not action and rl.role == REP and _DATE_HINTS.intersection(rl.word_set) and rl.date():
                action = _day_asked(reading, rl)
            actions[rl.index] = action
        return actions[rl.index]

    answered: dict[int, str | None] = {}  # a proposal's line -> what a reply to it answers (_answered), read once
    agreed_days: set[str] = set()  # the days and dates of next steps agreed so far ("wednesday", "twelfth")
    said: dict[int, ReadLine] = {}  # a confirmed line by its index: what a recap says back

    def confirm(rl: ReadLine, date: str, reason: str) -> None:
        confirmed.add(rl.index)
        agreed_days.update(_when_words(rl) & _DAY_WORDS)  # "the twenty second, ok, three o'clock": the day too
        said[rl.index] = rl
        reading.add("next_step_confirmed", rl, rl.line.text, reason, date)

    for rl in reading.lines:
        if rl.index in skip or rl.role not in (REP, CUSTOMER):
            continue
        action = action_of(rl)
        answers = None  # "dated": the line answers a dated proposal; "when": a question for a day
        if rl.role == CUSTOMER:
            proposed = reading.previous_of_role(rl.index, REP, within=1)
            if proposed is not None and action_of(proposed):
                answers = answered.get(proposed.index, _UNREAD)
                if answers is _UNREAD:
                    answers = answered[proposed.index] = _answered(reading, proposed)
        date = rl.date() if (action or answers or rl.index - 1 in confirmed) else None
        if date == "today" and (rl.index < _OPENING or _CURRENTLY.search(rl.words)):
            # "the rules, written however they're written today": today is how things are, not a day; "you booked a
            # call for today": at the call's start, today is this call
            date = None
        if not date and not action and rl.role == CUSTOMER and rl.index - 1 in confirmed and \
                reading.lines[rl.index - 1].role == CUSTOMER and len(rl.words) <= _SHORT_CHARS and _agrees(reading, rl):
            # "Nineteenth at ten, yes." - "Works for me.": the second customer's yes to the same step
            confirm(rl, "", "the customer agrees to the next step just agreed")
            continue
        if date and not action and not answers:
            # "Great, nine am on the eleventh": the day just agreed, said back
            before = reading.lines[rl.index - 1]
            if before.role != rl.role and before.index in said and _when_words(rl) & _when_words(before) \
                    and not reading.line_find("disagreement", rl):
                confirm(rl, date, f"the date just agreed is said back ('{date}')")
            continue
        if not (action or answers):
            continue  # checked first: the date pattern is the dearest test
        if answers == "dated" and not date:
            date = _time_named(rl.words)  # "nine's fine", "two is fine, two thirty is better"
        if not date:
            continue
        if rl.role == CUSTOMER and reading.line_find("calendar_statements", rl):
            continue  # "She's usually free Wednesday afternoons", "I have a board meeting in five weeks": a calendar told
        if not (_commits(reading, rl) or rl.role == REP and _day_words(date) & agreed_days or action == date or (
                answers == "dated" and (len(rl.words) <= _SHORT_CHARS or len(_when_words(rl)) > 1))):
            # "Thursday at four.", "Karen has Tuesday the twenty fourth at three": a time named as the answer
            continue
        disagrees = reading.line_find("disagreement", rl)
        if rl.role == CUSTOMER:
            # Stating one ("I'll send the contract by Friday") or naming the day the rep asked for
            # ("Thursday at four", "Let's say Friday the twenty first at two") is agreeing to it.
            if not disagrees or (answers and reading.find("disagreement", rl.words) in _HEDGES):
                confirm(rl, date, f"the customer commits to a next step with a date ('{date}')")
                offered = proposed.date_in(proposed.question[1].words) if answers and proposed.question is not None else None
                if answers == "dated" and offered and _day_words(offered) and proposed.index not in confirmed \
                        and proposed.index not in skip:
                    # "What if I call you on the fifth?" - "The fifth is bad, make it the seventh": the step is taken
                    # on another day
                    confirm(proposed, offered, f"the rep proposes a next step with a date ('{offered}') and the customer "
                            f"takes it ('{quote_of(rl.line.text, 40)}')")
            continue
        if not action:
            continue
        if rl.question is None and _day_words(date) & agreed_days and not disagrees:
            # "Alright, talk to you on the twelfth": the rep closes on the day agreed earlier
            confirm(rl, date, f"the rep says back the day agreed earlier ('{date}')")
            continue
        if rl.question is not None and not (rl.date_in(rl.question[1].words) or reading.find(
                "proposal_questions", rl.question[1].words, rl.word_set)):
            # "I'll send the DPA today. Is legal the one to review it?": a yes answers the question, not a proposal
            proposal = False
        else:
            proposal = True
        replies = _replies(reading, rl) if proposal else []
        before = reading.previous_of_role(rl.index, CUSTOMER, within=1)
        first = replies[0] if replies else None
        # "I can send our security packet today" - "That'd be great": thanks for a favour, not a step agreed
        offered_only = rl.question is None and date in _SOFT_DATES
        taken = first is not None and first.index not in skip and not offered_only and (
            _agrees(reading, first) or _commits_dated(reading, first) or _names_a_time(reading, first))
        asked_for = before is not None and before.question is not None and before.index not in skip
        if taken:
            # a proposal, asked or said ("Let's book Tuesday at nine"): each customer's yes is the agreement; a recap
            # of a day already agreed ("Let's say ten am on the twenty eighth, I'll send the invite") is not a
            # proposal, and its "great" is no agreement
            fresh = rl.question is not None or not (before is not None and before.index in confirmed
                                                    or _when_words(rl) & agreed_days)
            confirm(rl, date, f"the rep proposes a next step with a date ('{date}') and the customer agrees "
                        f"('{quote_of(first.line.text, 40)}')")
            if fresh:
                for reply in replies:
                    if reply.index not in skip and _agrees(reading, reply):
                        confirm(reply, date, f"the customer agrees to the next step on '{date}'")
        elif before is not None and before.index in confirmed:
            confirm(rl, date, f"the rep confirms the date the customer agreed ('{date}')")
        elif before is not None and before.index not in skip and _agrees(reading, before) and _offered(reading, before):
            # "Would it help if I put together a summary?" - "Yes, that would help." - "You'll have it by the ninth."
            confirm(rl, date, f"the customer took up the rep's offer and the rep puts a date on it ('{date}')")
        elif asked_for and date not in _SOFT_DATES and not disagrees and not (first is not None and reading.line_find("disagreement", first)):
            confirm(rl, date, f"the customer asked for it and the rep commits to a date ('{date}')")
    vague: set[int] = set()
    for rl in reading.lines:  # "Let's touch base in a few months" may also accept a deferral
        if rl.index in deferrals or rl.index in confirmed or rl.role not in (REP, CUSTOMER):
            continue
        cue = reading.line_find("vague_next_step", rl)
        if not cue and rl.question is None and action_of(rl):
            # "I'll check in in a couple of weeks", "let's set up a demo sometime": a step with a time no calendar holds;
            # "it takes a couple of weeks" is a time with no step
            cue = reading.line_find("vague_times", rl)
            if cue and not _commits(reading, rl):
                cue = None
        if cue and "next_step_vague_negations" in rl.cands:  # looked for only where a cue is: most lines have none
            words = _without(reading, "next_step_vague_negations", rl.words, rl.word_set)
            if words != rl.words:
                cue = reading.find("vague_next_step", words, rl.word_set)
                if not cue and rl.question is None:
                    cue = reading.find("vague_times", words, rl.word_set)
                    if cue and not (reading.line_find("next_step_action", rl) and _commits(reading, rl)):
                        cue = None
        reply = None
        if not cue:
            # "Talk soon", "just let me know": a goodbye at the end of a dated plan, but the next step itself
            # when it answers a deferral or a vague proposal
            reply = reading.line_find("vague_replies", rl)
            before = reading.lines[rl.index - 1] if rl.index else None
            if reply and before is not None and before.role not in (rl.role, UNKNOWN) and (
                    before.index in deferrals or before.index in vague):
                cue = reply
        date = rl.date() if cue else None
        if cue and (not date or date in _SOFT_DATES[1:]) and rl.word_set.isdisjoint(_NAMED_TIMES):
            vague.add(rl.index)
            reading.add("next_step_vague", rl, rl.line.text,
                        f"a next step with no date or owner ('{cue}'): nobody knows when it happens", cue)


def _without(reading: Reading, name: str, words: str, word_set: frozenset) -> str:
    """The words with the list's look-alikes taken out ('just to circle back on the price' names no next step)."""
    while found := reading.find(name, words, word_set):
        words = words.replace(f" {found} ", " ", 1)
    return words


_SHORT_CHARS = 48  # a question this short that names a day is about the day; an answer this short, a yes
_HEDGES = ("let me check", "i'll check", "maybe")  # "Let me check... two is fine": checked, then said yes
_CLOCK = re.compile(r" (?:at )?(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|noon|\d{1,2}(?::\d\d)?)"
                    r"(?:'s| is| o'clock)? (?:(?:thirty|fifteen|forty five) )?(?:is )?(?:fine|good|great|works|perfect|ok|okay)")
_DAY_WORDS = frozenset(WEEKDAYS + MONTHS + """first second third fourth fifth sixth seventh eighth ninth tenth eleventh
twelfth thirteenth fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth twentieth thirtieth""".split())


def _time_named(words: str) -> str | None:
    """'nine's fine', 'two is fine': an hour said as a yes, with no day (the day was asked already)."""
    found = _CLOCK.search(words)
    return found.group(0).strip() if found else None


def _names_a_time(reading: Reading, rl: ReadLine) -> bool:
    """'Thursday at four.', 'Nineteenth at ten, yes.': a short reply that names the time is a yes to a dated proposal."""
    return len(rl.words) <= _SHORT_CHARS and bool(rl.date() or _time_named(rl.words)) and (
        reading.line_find("disagreement", rl) in (None, *_HEDGES))


_HOW_ABOUT = (" how's ", " hows ", " how about ", " what about ", " what's ", " how is ")  # "How's Wednesday at two?"
_OPENING = 3  # the first lines of a call greet: "today" there is the call itself
_CURRENTLY = re.compile(r" (?:use|using|do|doing|done|run|running|have|handle|handling|handled|written|work|works|working|"
                        r"look|looks|set up|manage|managing|track|tracking|stands|pay|paying|spend|spending|process|system|"
                        r"protecting|covering|running) today ")
_SOFT_DATES = ("today", "this week", "next week")  # after today: a week is no day in a calendar
# "Monday at ten?" offers a day; "The market is this Saturday?" asks about one
_VERBS = frozenset("is are was were do does did will would can could have has had isn't aren't don't".split())
_HOURS = frozenset("one two three four five six seven eight nine ten eleven twelve noon".split())
_DATE_HINTS = _DAY_WORDS | frozenset(f"{d}'s" for d in WEEKDAYS)  # a day asked for names one of these
_WHEN_WORDS = _DAY_WORDS | _HOURS | frozenset(f"{d}'s" for d in WEEKDAYS) | frozenset(
    f"{n}{unit}" for n in range(1, 32) for unit in ("", "am", "pm", "st", "nd", "rd", "th", ":00", ":30", ":15", ":45"))


def _when_words(rl: ReadLine) -> set[str]:
    """The days, dates and hours a line names: what a recap says back ("monday's" says "monday")."""
    return {w.removesuffix("'s") for w in rl.word_set & _WHEN_WORDS}


def _day_words(date: str) -> set[str]:
    """The words of a date that name one day ('wednesday', 'eleventh'), not 'today' or 'next week'."""
    return {w.removesuffix("'s") for w in date.split()} & _DAY_WORDS
