"""Qualification read from the rep's question a customer line answers: "Who would decide?" - "Their director,
Lina."; "How often does it happen?" - "Five or six times a day"; "When does the committee meet?" - "First
Monday of every month." Each answer's finding says what was asked."""

from __future__ import annotations

import re

from desktop.core.detect.lines import Reading, ReadLine, quote_of
from desktop.core.detect.model import CUSTOMER, REP
from desktop.core.detect.qualification import _DAY_OF_MONTH, _money, _named, _named_thing
from desktop.core.detect.text import NUMBER, content_words


def _asked_before(reading: Reading, rl: ReadLine) -> ReadLine | None:
    """The rep's question this customer line answers, if the line right before is one."""
    if rl.role != CUSTOMER:
        return None
    asked = reading.previous_of_role(rl.index, REP, within=1)
    return asked if asked is not None and asked.question is not None else None


# (label, what the rep asked about, what the answer must hold, reason): an answer says what was asked
ANSWERS = (
    ("economic_buyer", "decision_questions", "answer_titles", "asked who decides, the customer names them ('{cue}')"),
    ("pain", "pain_questions", None, "asked what hurts, the customer says ('{cue}')"),
    ("metrics", "quantity_questions", "{number}", "asked how much or how often, the customer puts a number on it ('{cue}')"),
    ("competition", "competition_questions", None, "asked about other vendors or tools, the customer names one ('{cue}')"),
    ("decision_process", "process_questions", None, "asked how they buy, the customer describes a step ('{cue}')"),
    ("critical_event", "timeline_questions", "time_words", "asked about timing, the customer names a date or event ('{cue}')"),
    ("price", "spend_questions", "{money}", "asked what they pay or can spend, the customer names an amount ('{cue}')"),
    ("objection", "concern_questions", None, "asked what holds them back, the customer says ('{cue}')"),
)


def _about_the_pain(reading: Reading, asked: ReadLine, cue: str) -> bool:
    """'Slower in what way?' after 'slower than the spreadsheets': the question is about the pain itself."""
    if reading.line_find("follow_up_cues", asked):
        return True
    stems = {w[:5] for w in content_words(f" {cue} ")}
    return any(w[:5] in stems for w in content_words(asked.words))


# "Just me.", "Me and the managing partner, Richard." answer "who decides?" ("Friday works for me" does not)
# "I'm guessing you're struggling, right?" - "Um, yeah, I mean we've got twenty three locations...": the customer
# takes up the problem the rep put to them
_AFFIRMS = re.compile(r" (?:(?:um|uh|so|well|oh) )*(?:yeah|yes|yep|totally|definitely|absolutely|exactly|i mean|honestly|it's)")
_SELF = re.compile(r"^ (?:(?:yeah|yes|well|honestly|oh|no|nope) )*"
                   r"(?:(?:just|only|that's|that'd be|it's|that would be) )*(?:me|myself|i do|i am|i'm the one)(?= )")


_STEP_NOUNS = frozenset("""committee board counsel legal procurement purchasing security review approval approvals rfp
tender panel council regents trustees governors""".split())


def answers(reading: Reading, rl: ReadLine) -> None:
    asked = _asked_before(reading, rl)
    if asked is None or not rl.sentences:
        return
    head = rl.sentences[0].words
    if (len(rl.words.split()) < 3 and not rl.date() and not _SELF.search(rl.words)) or reading.find(
            "no_answer", " " + " ".join(head.split()[:1]) + " "):
        return  # "It is.", "No, not really." ("July first." answers "when?")
    said_before = reading.previous_of_role(asked.index, CUSTOMER, within=1)
    if "decision_process" not in rl.labels and not _STEP_NOUNS.isdisjoint(asked.word_set) and (
            " when " in asked.words or " how long " in asked.words or " how often " in asked.words):
        # "When does the committee meet?" - "First Monday of every month."; "How long did counsel take?" -
        # "Three weeks.": when and how long a step of their buying takes is how they buy
        reading.add("decision_process", rl, rl.line.text, f"asked when or how long a step of buying takes, the "
                    f"customer says ('{quote_of(rl.sentences[0].text, 40)}')", quote_of(rl.sentences[0].text, 40))
    if (asked.question[0] == "open" and said_before is not None and "pain" in said_before.labels
            and (said_before.index, "pain") not in reading.threaded and "pain" not in rl.labels
            and _about_the_pain(reading, asked, said_before.labels["pain"])):
        # "Slower in what way?" - the rep asked more about the pain: the answer goes on with it (one step only).
        reading.threaded.add((rl.index, "pain"))
        reading.add("pain", rl, rl.line.text, f"asked more about the problem, the customer goes on "
                    f"('{quote_of(rl.sentences[0].text, 40)}')", said_before.labels["pain"])
    for label, topic, holds, reason in ANSWERS:
        if label in rl.labels or (label == "pain" and asked.question[0] != "open" and not (
                asked.question[0] == "leading" and _AFFIRMS.match(rl.words) and len(rl.word_set) >= 8)) or (
                label == "price" and "economic_buyer" in rl.labels):  # "I do, but over fifty thousand our CFO signs"
            continue  # "That must be frustrating, isn't it?" - "It is." names no pain of its own
        if topic not in asked.cands:
            continue  # the rep's line holds none of the words this topic is asked with
        if label == "objection":  # the asking sentence itself: "No worries! So what are you using?" asks no concern
            asking = " ".join(s.words for s in asked.sentences if s.asks) or asked.question[1].words
            about = reading.find(topic, asking)
        else:
            about = reading.line_find(topic, asked)
        if not about or (label == "decision_process" and reading.line_find("timeline_questions", asked)):
            continue  # "When does the board meet?" asks for a date, not for a step
        if label == "decision_process" and (asked.question[0] != "open" or "economic_buyer" in rl.labels):
            continue  # "Would she be involved?" - "She might.": a yes or a name is no step of how they buy
        if label == "critical_event" and "every" in rl.word_set:
            continue  # "Every other Monday": a routine, not a date that forces the decision
        if label == "competition":
            # "Tenable, and Qualys obviously wants to keep us.", "Spreadsheets, mostly.": a tool named, not "Just us."
            cue = _named_thing(rl) or reading.line_find("homegrown", rl)
        elif holds is None:
            cue = quote_of(rl.sentences[0].text, 40)
        elif holds == "{money}":
            cue = _money(reading, rl.words, rl.word_set) or (NUMBER.search(rl.words) or [None])[0]
            cue = cue.strip() if cue else None
        elif holds == "{number}":
            if reading.line_find("process_questions", asked) or (
                    said_before is not None and "decision_process" in said_before.labels):
                continue  # "How long does that usually take?" about the approvals: a step's length, not an impact
            found = NUMBER.search(rl.words)
            cue = found.group(0).strip() if found else None
        else:
            cue = reading.line_find(holds, rl)
            if not cue and label == "economic_buyer":
                self_named = _SELF.search(rl.words)
                # "Me and the managing partner, Richard.", "Our general counsel, Ms. Obi."
                cue = self_named.group(0).strip() if self_named else _named(rl.sentences[0].text)
            if not cue and label == "critical_event":
                # "When do they meet next?" - "First Tuesday, so the fourth.", "The twenty third."
                cue = rl.date() or (_DAY_OF_MONTH.search(rl.words) or [None])[0]
        if cue:
            reading.add(label, rl, rl.line.text, reason.format(cue=cue), cue)
