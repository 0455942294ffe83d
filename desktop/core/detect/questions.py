"""Questions: the rep's open, closed and leading questions, and the customer's questions.

A sentence is a question when it ends with a question mark or, since Whisper
often drops it, when it is built like one ("how do you...", "could you...",
"is it..."). Rhetorical tags ("you know?") are not questions. A rep question
is leading when it supplies the answer ("so you'd like dashboards, right?"),
open when it asks what / how / why / which / when / who or asks the customer
to walk through something, closed otherwise (yes/no or either/or).
"""

from __future__ import annotations

import re

from desktop.core.detect.lines import Reading, ReadLine, quote_of
from desktop.core.detect.model import CUSTOMER, REP
from desktop.core.detect.phrases import PhraseBook, has_number
from desktop.core.detect.text import Sentence, words_of

#: a question word's contractions ask as it does: "who'd sign off", "what'd you think", "how're things"
_WH_CONTRACTED = frozenset(w + end for w in ("what", "how", "why", "when", "where", "who")
                           for end in ("'d", "'re", "'ve", "'ll"))
WH = frozenset("what what's whats how how's hows why why's when when's where where's wheres which who who's whos whom whose"
               .split()) | _WH_CONTRACTED  # whos, hows: Whisper drops the apostrophe
AUX = frozenset("""do does did is are was were can could would will should have has had may might shall am
isn't aren't don't doesn't didn't won't wouldn't can't couldn't haven't hasn't shouldn't wasn't weren't""".split())
NEGATIVE_AUX = frozenset("isn't aren't don't doesn't didn't won't wouldn't can't couldn't haven't hasn't shouldn't".split())
SUBJECTS = frozenset("""you your we they it that this there he she i anyone anybody someone somebody the a an any our
their everyone these those y'all my his her its everything anything something people folks""".split())
# After "what": these start a statement ("what we need is...", "what a week").
NOT_AFTER_WHAT = frozenset("we i you they he she it a an i'm we're you're they're really i'd we'd i'll we'll".split())
NOT_A_SUBJECT = frozenset("""be been do done let no not so too great fine nice good better worse well that's just also still really
wait complain say happen work help to""".split())
HAVE_SUBJECTS = frozenset("you y'all they we he she i anyone anybody any".split())
AFTER_HOW = AUX | frozenset("you much many long often soon big far come about quickly fast exactly well else would".split())
AFTER_WH = AUX | frozenset("""else much many long often kind sort type part if about exactly specifically happens happened
made makes prompted led brought drives drove matters works worked""".split())
NOT_QUESTION_STARTS = (" which is why ", " which means ", " which makes ", " what's more ", " what's funny ", " what's worse ",
                       " what's crazy ", " what's interesting is ", " have a good ", " have a great ", " have a nice ",
                       " how about that ")


def strip_fillers(words: str, book: PhraseBook) -> str:
    """' so okay how do you ... ' -> ' how do you ... ' (words a question often opens with)."""
    found = book.groups["opening_fillers"].starts().match(words)
    rest = words[found.end() - 1:] if found and found.end() > 1 else words
    return rest if rest.strip() else words


def _built_as_question(core: str) -> bool:
    tokens = core.split()
    if not tokens or core.startswith(NOT_QUESTION_STARTS):
        return False
    first, second = tokens[0], tokens[1] if len(tokens) > 1 else ""
    if first in ("what", "whats"):
        return bool(second) and second not in NOT_AFTER_WHAT
    if first == "what's" and _WHAT_IS.match(core):
        return False  # "What's not great is the claims part": a statement about what is
    if first in ("how",):
        return second in AFTER_HOW or (len(tokens) > 2 and tokens[2] in AUX)  # "how important is that"
    if first in _WH_CONTRACTED or first in WH and (first.endswith("'s") or first in ("whos", "hows", "wheres", "whats")):
        return True
    if first in ("who", "whom", "whose", "which"):
        return bool(second)
    if first in WH:
        return second in AFTER_WH
    if first in NEGATIVE_AUX:
        return second in SUBJECTS  # "Don't worry", "Can't complain" ask nothing
    if first == "may" and second not in SUBJECTS:
        return False  # "May is our busiest month", "May twelfth": the month, not "may I ask"
    if first == "have" and second not in HAVE_SUBJECTS:
        return False  # "Have your paper book with you", "have it ready Thursday": an instruction
    return first in AUX and bool(second) and second not in NOT_A_SUBJECT  # "do managers ever...", not "will do"


_UNASKED = object()  # not looked up yet


class _Every:
    """Stands for every list's name: no line's candidates known, so every list is tried."""

    def __contains__(self, name: str) -> bool:
        return True


_EVERY = _Every()


def read_sentence(s: Sentence, book: PhraseBook, names: frozenset[str] = frozenset(),
                  cands: frozenset[str] | None = None, rep: bool = False,
                  first_sentence: bool = True) -> tuple[str, str] | None:
    """(style, cue) if the sentence is a question: style is open, closed or leading; else None.

    `names`: the speakers' first names, lower case ("so greg how are you..." opens with a name).
    `cands`: the phrase lists the sentence's line might match (ReadLine.cands); the others are not tried.
    `rep`: the rep said it (a guess said as a statement is a leading question only from the rep).
    `first_sentence`: the sentence opens its line ("Which is all our revenue." later in a line goes on from the last).
    """
    groups = book.groups
    if cands is None:
        cands = _EVERY
    if not s.asks and s.own.isdisjoint(_could_ask(book)) and not (rep and "leading_guesses" in cands) \
            and (s.own.isdisjoint(_ELLIPTICAL_WORDS) or _ELLIPTICAL.search(s.words) is None) \
            and not s.words.endswith(_OR_NOT):
        return None  # no question word in the sentence: a statement
    ws = s.own  # core is the sentence's words, or fewer of them, until a clause replaces it
    core = strip_fillers(s.words, book)
    first = core[1:core.find(" ", 1)]
    if first in names and len(core) > len(first) + 3:
        core = strip_fillers(core[len(first) + 1:], book)
        after = core.split()
        if not s.asks and len(after) > 1 and after[0] in AUX and after[1] not in SUBJECTS:
            return None  # "Phil would know better", "Mira can see it too": the name is who, not whom it asks
    elif first == "which" and not s.asks and core.split()[-1] not in WH and core.split()[1:2] and (
            core.split()[1] in _GOES_ON or not first_sentence and core.split()[1] not in _WHICH_ASKS):
        return None  # "Which is, like, all our revenue.": a clause that goes on from the last sentence
    if "rhetorical" in cands and groups["rhetorical"].find(core, ws) == core.strip():
        return None  # the whole sentence is a tag or a figure of speech: "you know?", "who knows?"
    asks = s.asks
    tail = groups["rhetorical_tails"].find(core, ws) if "rhetorical_tails" in cands else None
    if tail and core.endswith(f" {tail} "):
        core = core[: -len(tail) - 1]
        asks = False  # "it's hard, you know?" asks nothing unless what is left is built as a question
    built = _built_as_question(core)
    if not built:
        # "Nina, what does the process look like?", "Before I show anything, what prompted...": the question
        # starts after a name or a lead-in
        clauses = _clauses(s.text, book) if ("," in s.text or ":" in s.text or ";" in s.text) else ()
        for at, clause in enumerate(clauses):
            last = at == len(clauses) - 1
            if _built_as_question(clause) and (s.asks or clause.split()[0] not in RELATIVE or (
                    last and clause.split()[0] != "which" and _leads_in(s.words, names))) or (
                    last and not s.asks and _ELLIPTICAL.match(clause)):
                # "If you changed providers, who signs off on it", "hey Gus, it's Kayla, you got a sec"
                core, built = clause, True
                ws = s.word_set  # a clause is cut from the text again ("$25,000" -> "$25", "000"): not the sentence's words
                break
    if not (built or asks):
        # Whisper runs sentences together: "ok that's in the range for our mid tier who else would be involved"
        inside = _RUN_ON.search(core)
        if inside and inside.start() > 0:
            core, built = " " + core[inside.start() + 1:], True
        elif len(core) < _SHORT_CORE and (_SHORT_ASK.fullmatch(core) or _SHORT_WH.fullmatch(core)):
            core, built = core, True  # "chaotic how", "slower why", "slower in what way", "why before the board meeting"
        elif not ws.isdisjoint(_ELLIPTICAL_WORDS) and _ELLIPTICAL.match(core):
            built = True  # "you ever looked at Gusto", "anyone else involved", "that work for you": the verb dropped
    opener = tag = _UNASKED  # what is looked up here is not looked up again for the style
    if not (asks or built):
        opener = groups["open_starters"].find(core, ws) if "open_starters" in cands else None
        if opener and _reported(core, opener):
            return None  # "Zoe was just walking me through the numbers"
        if not opener and not ("closed_starters" in cands and groups["closed_starters"].find(s.words, ws)):
            # "So you'd like dashboards, right" without its question mark is still a question
            tag = _tag(s, core, book)
            if not tag:
                guess = groups["leading_guesses"].find(core, ws) if rep and "leading_guesses" in cands else None
                if guess and len(core.split()) > len(guess.split()) + 2:
                    # "I bet your food cost is a big pain point.", "And it's a nightmare, I'm guessing.": the rep
                    # says the customer's answer for them and waits for the yes
                    return "leading", guess
                return None
    style = _style(s, core, built, book, opener, tag, ws, cands)
    return style



# A question that starts inside a run-on line: only the forms no statement takes
_RUN_ON = re.compile(r" (?:who else|who would|who will|who's going|what would you|what do you|what does your|how do you|"
                     r"how would you|how does your|when do you|when would you|why do you|where do you|what are you|"
                     r"how are you|what's your|where (?:are|do|does|would) you|(?:would|will|does|did|is|can|could) (?:that|it|this) (?:help|work|make|be|sound|change)|"
                     r"(?:is|are) there (?:anything|any|anyone|anybody)|or (?:is|are|do|does|did|would|will|can|should|was) "
                     r"(?:there|it|you|he|she|they|that|we|your)|if you (?:can|could|don't mind|get a chance)(?= $)|or not(?= $)|or no(?= $)|(?:can|could|should|shall) (?:we|i) (?:do|get|set|book|grab|put|send|schedule)|(?:can|could|would) you (?:send|share|show|give|email|walk|set)|how (?:much|many|long|often)(?: \S+){0,3} (?:do|does|did|are|is|would|will|can) "
                     r"(?:you|your|they|we))(?= )")
# Yes/no questions said without their first word, as people speak: only forms no statement starts with
_ELLIPTICAL = re.compile(r" (?:(?:you|you guys|y'all) (?:ever|still) \S+|(?:want|need) me to |(?:you )?want to (?:set|see|try|hop|jump|get|do|go|book|grab|take|start|walk|give) |(?:you |you guys |y'all )?got (?:like )?(?:a|a few|a couple|one|two|five) "
                         r"(?:sec|secs|second|seconds|minute|minutes|moment|mins)|(?:have you |you )?ever (?:tried|used|looked|heard|"
                         r"thought|considered|worked|had|seen|done|talked|spoken|gone)|(?:anyone|anybody) else|any (?:other|plans|chance|"
                         r"idea|thoughts|luck|news|update|updates|questions|objections|concerns|changes|issues|problems|feedback|surprises) |anything else|(?:that|this|it) "
                         r"(?:work|sound|make sense) |make sense $|sound (?:good|fair|ok|okay|right) $)")
_OR_NOT = (" or not ", " or no ")  # "you're still on the old system or not"
_ELLIPTICAL_WORDS = frozenset("ever still got anyone anybody any anything work sound make want need".split())  # one is in each form
_SHORT_CORE = 48  # the short forms below are a few words long: a longer sentence is not tried
_SHORT_WH = re.compile(r" (?:\S+ ){0,2}(?:in|for|from|by|with|to|about) (?:what|which|who|whom)(?: way| sense| reason| part| kind)? "
                       r"| (?:\S+ )?how (?:badly|bad|much|many|long|often|so|come|exactly) | why (?:\S+ ){0,4}")
# A lead-in before a question that starts with who/when/which: "If you changed providers, who signs off on it"
_LEAD_INS = frozenset("if once when after before and so to just okay ok now then also besides since say".split())


def _leads_in(words: str, names: frozenset[str]) -> bool:
    first = words.split(" ", 2)[1]
    return first in _LEAD_INS or first in names


_SHORT_ASK = re.compile(r" \S+(?: \S+)? (?:how|why|where|when) ")

_ASKING: dict[int, frozenset[str]] = {}


def _could_ask(book: PhraseBook) -> frozenset[str]:
    """Words without which a sentence lacking a question mark cannot be a question here."""
    key = id(book)
    found = _ASKING.get(key)
    if found is None:
        words = set(WH) | AUX | {"right", "correct"}  # a tag without its question mark: "..., right"
        for name in ("open_starters", "closed_starters"):
            words |= book[name].keys() or set()
        found = _ASKING[key] = frozenset(words)
    return found


_TAG_ENDS: dict[int, frozenset[str]] = {}


def _tag_ends(book: PhraseBook) -> frozenset[str]:
    """The words a leading tag can end on."""
    found = _TAG_ENDS.get(id(book))
    if found is None:
        ends = set()
        for phrase in book["leading_tags"].phrases:
            ends.update(phrase.split()[-1].rstrip("?").split("/"))
        found = _TAG_ENDS[id(book)] = frozenset(ends)
    return found


def _clauses(text: str, book: PhraseBook) -> list[str]:
    """The words after each comma, fillers stripped; not a question someone else asked ("the manager's like,
    why can't my new person log in") nor a search for a word ("with, uh, what's it called, the BirdEye thing")."""
    parts = re.split(r"[,:;]", text)  # "Back to quality: how are you tracking defects?"
    out = []
    for before, part in zip(parts, parts[1:]):
        if not part.strip() or before.rstrip().lower().endswith(_REPORTING):
            continue
        words = strip_fillers(words_of(part), book)
        if words not in _WORD_SEARCHES:
            out.append(words)
    return out


_REPORTING = (" like", " said", " says", " asked", " asks", " goes", " went", " quote", " wondering")
_WORD_SEARCHES = frozenset(f" {w} " for w in ("what's it called", "whats it called", "what is it called", "what do they call it",
                                             "what do you call it", "what's the word", "what was it called", "what's his name",
                                             "what's her name", "what's that called", "what was it"))


def _tag(s: Sentence, core: str, book: PhraseBook) -> str | None:
    """A tag at the end of a statement ('..., right?', '..., isn't it?') that hands over the answer."""
    if core.rsplit(None, 1)[-1:] and core.rsplit(None, 1)[-1] not in _tag_ends(book):
        return None  # every tag ends on one of a few words ("right", "it", "you"): most sentences end on none
    tags = book["leading_tags"]
    text = s.text.rstrip(" ?.!\"'").lower().replace("\u2019", "'")
    if "," not in text:
        # Whisper without commas: "you'd want all carriers in one view right"
        tokens = core.split()
        if len(tokens) < 5 or _built_as_question(core):
            return None
        for size in (2, 1):
            last = " " + " ".join(tokens[-size:]) + " "
            found = tags.find(last)
            if found and last.strip() == found and found not in ("yeah", "yes", "no", "true", "agreed") \
                    and tokens[-size - 1] not in _NOT_BEFORE_TAG:
                return found
        return None
    head, _, last = text.rpartition(",")
    last = " " + " ".join(last.split()) + " "
    found = tags.find(last)
    if not found or last.strip() != found:
        return None
    if found in ("yeah", "yes", "no", "true", "agreed") and not s.asks:
        return None
    head_core = strip_fillers(" " + " ".join(head.replace(",", " ").split()) + " ", book)
    if len(head_core.split()) < 2 or _built_as_question(head_core) or set(head_core.split()) <= _ECHOES:
        return None  # "Oh, right, right.": an echo, not a statement with a tag
    return found


def _style(s: Sentence, core: str, built: bool, book: PhraseBook, opener=_UNASKED, tag=_UNASKED,
           ws: frozenset | None = None, cands=None) -> tuple[str, str]:
    """`opener`, `tag`: the open starter and the leading tag of `core`, when already looked up;
    `ws`: words that hold every word of `core` (the line's, if not given)."""
    ws = s.word_set if ws is None else ws
    cands = _EVERY if cands is None else cands
    lead = book.groups["leading_phrases"].find(core, ws) if "leading_phrases" in cands else None
    if lead and not _embedded(core, lead):
        return "leading", lead
    if tag is _UNASKED:
        tag = _tag(s, core, book)
    if tag:
        return "leading", f"…, {tag}?"
    tokens = core.split()
    if tokens and tokens[0] in NEGATIVE_AUX and len(tokens) > 1 and tokens[1] in SUBJECTS:
        return "leading", f"{tokens[0]} {tokens[1]}…"
    if opener is _UNASKED:
        opener = book.groups["open_starters"].find(core, ws) if "open_starters" in cands else None
    if opener and not _reported(core, opener):
        after = core[core.find(f" {opener} ") + len(opener) + 1:]
        if after.startswith(_YES_NO_AFTER):
            return "closed", opener  # "I'd love to know whether that's set": a yes or a no answers it
        return "open", opener
    if tokens and tokens[0] in WH and not core.startswith(_CLOSED_WH):
        if "," in s.text and _narrowed(s.text, book):
            return "closed", " ".join(tokens[:2])
        return "open", " ".join(tokens[:2])
    if tokens and tokens[-1] in WH and len(tokens) <= 4:
        return "open", tokens[-1]  # "chaotic how", "hated it why"
    if (s.asks or built) and tokens and tokens[0] not in AUX and len(tokens) <= 6 and not core.startswith(_CLOSED_WH):
        asked = next((t for t in tokens if t in WH), None)
        if asked:  # "Slower in what way?", "And that's based on what?"
            return "open", asked
    tail = _CLAUSE_CUT.split(s.text)[-1] if s.asks and "," in s.text else ""
    if tail and _WH_WORD.search(tail):
        last = strip_fillers(words_of(tail), book)
        if last.split()[:1] and last.split()[0] in WH and _built_as_question(last) and not last.startswith(_CLOSED_WH):
            # "Angela, can I bring you in, where do you sit in all this?": the question asked is the last one
            return "open", " ".join(last.split()[:2])
    if s.asks and s.words.startswith(" and ") and len(tokens) <= 6 and tokens[0] in _ABOUT_WORDS:
        return "open", " ".join(tokens[:2])  # "And the goal for April?", "And since he left?": what about it
    return "closed", " ".join(tokens[:2])


_CLAUSE_CUT = re.compile(r"[,:;]")


def _narrowed(text: str, book: PhraseBook) -> bool:
    """'Who owns it day to day, is that you?', 'How do you do it today, is there a compliance person?': the open
    question ends on a yes or no to say."""
    last = strip_fillers(words_of(_CLAUSE_CUT.split(text)[-1]), book)
    tokens = last.split()
    return len(tokens) > 1 and tokens[0] in AUX and tokens[1] in SUBJECTS and _built_as_question(last)
_WH_WORD = re.compile(r"\b(?:what|how|why|when|where|which|who)", re.IGNORECASE)
_WHAT_IS = re.compile(r" what's (?:not |really |been |most |more |less |so )?\S+ (?:\S+ )?(?:is|was) (?!it |that |there |this |he |she |they )")
_YES_NO_AFTER = (" if ", " whether ")
_ABOUT_WORDS = frozenset("the your since after before for on with in".split())
_REPORTED = frozenset("was were is are been just had has".split())


def _reported(core: str, opener: str) -> bool:
    """'Zoe was just walking me through the numbers': the words of a request, told as what happened."""
    at = core.find(f" {opener} ")
    return at > 0 and core[:at].split()[-1] in _REPORTED


# "How about Tuesday?", "What if I call you on the fifth?": a proposal to say yes or no to
_CLOSED_WH = (" how about ", " what if i ", " what if we ", " what if you ", " what if the ")


def _embedded(core: str, lead: str) -> bool:
    """'Is there a date you'd want to be switched by?': 'you'd want' inside the question asks, it does not tell."""
    if not lead.startswith("you"):
        return False
    at = core.find(f" {lead} ")
    return at > 0 and core[:at].split()[-1] not in _BEFORE_TELLING


_ECHOES = frozenset("oh ah ok okay right yeah yes yep sure no so well hmm mm".split())
_BEFORE_TELLING = frozenset("so and then but now".split())
# ", which is the problem", ", who'd know" ask nothing
RELATIVE = frozenset("which who whom whose where when who'd who'll who've where'd when'd".split())
_NOT_BEFORE_TAG = frozenset("that's that is it's you're are all exactly quite just alright about".split())

_PRIORITY = {"leading": 0, "open": 1, "closed": 2}

OPEN_REASON = "the rep asks an open question ('{cue}…'): the customer has to answer in their own words"
CLOSED_REASON = "the rep asks a yes/no or either/or question ('{cue}…'): one word answers it"
LEADING_REASON = "the rep's question puts the answer in the customer's mouth ('{cue}')"
CUSTOMER_REASON = "the customer asks a question ('{quote}'): what the customer wants to know"


def read_questions(reading: Reading) -> None:
    names = frozenset(ln.line.speaker.split()[0].lower() for ln in reading.lines if ln.line.speaker
                      and ln.line.speaker.split())
    for rl in reading.lines:
        if rl.role not in (REP, CUSTOMER):
            continue
        asked = []
        for s in rl.sentences:
            found = read_sentence(s, reading.book, names, rl.cands, rl.role == REP, s is rl.sentences[0])
            if found and not (rl.role == CUSTOMER and _estimate(s, reading.book) and _answers(reading, rl, s)):
                asked.append((found[0], s, found[1]))
        if not asked:
            continue
        if len(asked) > 1 and asked[-1][0] == "closed" and asked[0][0] == "open" and len(asked[0][1].words) > 20:
            # "Where do you sit on this? Is this something the board would approve?": the open question is
            # narrowed to a yes or no, and the yes or no is what the customer answers
            asked = [a for a in asked if a[0] != "open"]
        style, sentence, cue = min(asked, key=lambda a: _PRIORITY[a[0]])
        rl.question = (style, sentence, cue)
        if rl.role == REP:
            reason = {"open": OPEN_REASON, "closed": CLOSED_REASON, "leading": LEADING_REASON}[style]
            reading.add(f"rep_question_{style}", rl, sentence.text, reason.format(cue=cue.strip("…")), cue)
        else:
            reading.add("customer_question", rl, sentence.text,
                        CUSTOMER_REASON.format(quote=quote_of(sentence.text)), cue)


def _estimate(s: Sentence, book: PhraseBook) -> bool:
    """'Maybe forty terabytes?', 'Twenty? Twenty five maybe': a figure said with a rising voice answers, it asks nothing."""
    core = strip_fillers(s.words, book)
    tokens = core.split()
    if not tokens or _built_as_question(core) or len(tokens) > 6 or not WH.isdisjoint(tokens):
        return False
    return tokens[0] in _HEDGE_WORDS or has_number(frozenset(tokens))


def _answers(reading: Reading, rl: ReadLine, s: Sentence) -> bool:
    """The figure answers the rep's question just asked, or follows the customer's own guess ('Maybe fifty?')."""
    if s is not rl.sentences[0]:
        return True
    before = reading.lines[rl.index - 1] if rl.index else None
    return before is not None and before.role == REP and before.question is not None


# "Which is all our revenue", "Which I built": the sentence goes on from the one before
_WHICH_ASKS = frozenset("of one ones part kind type way parts".split())  # "Which of the sixty scare you most"
_GOES_ON = frozenset("is was means meant makes made i we he she they you would will has had isn't wasn't".split())
_HEDGE_WORDS = frozenset("maybe probably about around roughly like approximately possibly".split())


def is_question(rl: ReadLine) -> bool:
    return rl.question is not None
