"""The behavior part of the specificity check: is this one action a manager can start, stop or adjust?

The method (coaching-framework.txt): "improve pipeline discipline" gives the
manager very little to try; "Ask the rep to state the next step the customer
confirmed before discussing how likely the deal is to close" is visible.

An error only where the check is sure it is not coachable: no action at all
("Deal hygiene issues", "Quality over quantity"), a trait or a feeling ("be more
...", "stop being ...", "show the team you care"), a goal with nothing to hear
or see ("improve ...", "lower the number of slipped deals", "close more deals"),
or plainly more than one behavior ("..., and also ...", a second action on work
apart from the conversation). Anything less sure is a warning with the reason:
a verb the check doesn't know, a word that is often an aim ("ensure ..."), a
goal verb followed by something exact ("deliver your feedback within 24
hours"), two actions that may be one behavior in two steps, nobody named. A
situation may come first ("When ..., ask ...", "Next time a deal slips, ask
..."), and so may a negation ("Don't ...; ask ...") or a modal ("Needs to ...").
The words it reads with are in behavior_words.py; two joined actions are read in
joined_actions.py.
"""

from __future__ import annotations

import re

from desktop.core.behavior_text import ALL_VERBS, PEOPLE, QUOTED, STOPWORDS, WH_WORDS, base_verb, words_of
from desktop.core.behavior_words import (ACTION_VERBS, DETERMINERS, GOAL_VERBS_AS_ACTIONS,
                                         GOAL_VERBS_WITH_DETAIL, MANNER_WORDS, METRIC_NOUNS, MODALS,
                                         SOFT_GOAL_VERBS, STATE_VERBS, SUBJECTS, SURE_GOAL_VERBS,
                                         TOPIC_VERBS, VAGUE_PHRASES, VERB_FOLLOWERS)
from desktop.core.enums import Severity
from desktop.core.findings import Finding
from desktop.core.joined_actions import second_actions

__all__ = ["check_behavior", "METHOD_EXAMPLE"]

METHOD_EXAMPLE = ("Ask the rep to state the next step the customer confirmed before "
                  "discussing how likely the deal is to close.")
_SUGGEST_BEHAVIOR = f"Write what the manager will do or say, e.g. \"{METHOD_EXAMPLE}\""


# Comparatives that turn an action into an aim ("ask better questions").
_COMPARATIVES = re.compile(r"\b(better|more|less|stronger|smarter|harder|deeper|clearer|"
                           r"greater|higher|faster|tighter|sharper|crisper|bigger|larger|stricter|"
                           r"fewer|shorter|longer)\b(?!\s+than)")
# Comparatives of quality are always aims; of quantity ("more questions about the
# budget") they may be concrete enough, so only a warning when the rest is.
_QUALITY_COMPARATIVES = frozenset("better stronger smarter deeper clearer greater tighter sharper "
                                  "crisper bigger larger higher stricter".split())
_ABSTRACT_NOUNS = re.compile(r"\b(discipline|accountability|proactivity|mindset|skills?|presence|"
                             r"empathy|strategic(?:ally)?|urgency|ownership|excellence|confidence|"
                             r"hygiene|alignment|engagement|leadership|expectations|energy|passion|enthusiasm|trust|"
                             r"rapport|culture|vision|attitude|motivation|morale|goals|targets|objectives|standards?|"
                             r"initiative|credibility|visibility|awareness|effectiveness|efficiency|"
                             r"capabilit(?:y|ies)|consistency|rigou?r|clarity|methodology|framework|importance|"
                             r"support|guidance|health|success|reality)\b")
# A state the manager should be in: "hold reps accountable", "make sure they are aligned".
_STATE_WORDS = re.compile(r"\b(accountable|proactive|effective(?:ly)?|aligned|engaged|motivated|"
                          r"organi[sz]ed|comfortable|confident|curious|customer-centric|"
                          r"empowered|inspired|positive|negative|data-driven)\b")
# Qualities a coach hopes for: "ask strong questions" is an aim; further on ("ask what a
# good outcome would be for the customer") the word may belong to what is asked.
_HOPED_FOR = frozenset("strong good great powerful impactful meaningful robust rigorous "
                       "rigorously thorough thoroughly solid insightful high-quality "
                       "world-class constructive actionable timely regular honest candid useful "
                       "valuable effective ongoing continuous continual probing tough difficult "
                       "smart".split())
_STATES = ("being", "feeling", "thinking", "trying", "worrying")
# A feeling the manager should have or give: "show the team you care", "make reps feel heard".
_FEELINGS = re.compile(r"\b(care|cares|feel|feels|trust|trusts|believe|appreciate[sd]?|enjoy|love|"
                       r"happy)\b")
_MOVING = frozenset("motivate inspire empower energise energize".split())
_ASKING = frozenset("ask probe question check confirm find listen quote repeat restate paraphrase "
                    "write note record".split())
# What makes a goal verb a plain action ("be the customer in a five-minute role-play",
# "deliver your feedback within 24 hours"): a number, a quote, a thing on screen.
_EXACT = re.compile(r"\d|[\"“‘?]|\b(one|two|three|four|five|six|seven|eight|nine|ten|once|twice|"
                    r"half|role-play|roleplay|field|timestamps?|recordings?|transcript|email|"
                    r"screen|whiteboard|crm|salesforce|hubspot|clip)\b")
# ... and for a goal verb, something exact about the act itself, not a count or a cadence
# ("coach reps on discovery twice a week" is still an aim).
_EXACT_ACT = re.compile(r"[\"“‘?]|\b(role-play|roleplay|field|timestamps?|recordings?|transcript|email|"
                        r"screen|whiteboard|crm|salesforce|hubspot|clip)\b|\bwithin (?:\d+|an?|one|two|"
                        r"three|24|48) |\b(?:first|last) (?:\w+ )?(?:minutes?|seconds?)\b|\b\w+-minute\b|"
                        r"\b(?:\d+|one|two|three|four|five|ten|fifteen|twenty|thirty) (?:minutes?|seconds?)\b")
# Endings of nouns: "Quality over quantity in pipeline reviews" starts with no action.
_NOUN_ENDING = re.compile(r"(ity|ness|ship|ism|acy|ency|ancy|tion|sion|ment)$")
_VERBS_LIKE_NOUNS = frozenset("implement experiment segment augment complement supplement "
                              "position function commission audition section caution station "
                              "partition petition motion".split())
# Something you could point to in the next call or review: a number, a quote, an occasion,
# a thing on screen. It makes a doubtful wording worth a warning rather than an error.
_DETAIL = re.compile(r"\d|[\"“‘?]|\b(one|two|three|four|five|six|seven|eight|nine|ten|once|twice|"
                     r"first|last)\b|\b(before|after|until|whenever|when|while|during|within|by the)"
                     r"\s+\w+|\b(field|timestamps?|recordings?|email|calendar|notes?|salesforce|"
                     r"hubspot|crm|whiteboard|screen|agenda|transcript)\b")
# What comes out of the work rather than what is done in it: "close more deals", "grow revenue".
_OUTCOMES = frozenset("deals revenue pipeline bookings wins sales business quota opportunities "
                      "meetings logos renewals upsells numbers results".split())
# Words that tie the behavior to someone or something concrete in the work.
_ANCHORS = re.compile(
    r"\b(rep|reps|customer|customers|buyer|buyers|prospect|client|next[- ]steps?|date|deadline|"
    r"crm|salesforce|hubspot|deal|deals|opportunit(?:y|ies)|forecast|pipeline review|"
    r"1:1|one-to-one|one-on-one|call|calls|demo|budget|pric(?:e|ing)|proposal|question|questions|"
    r"answer|meeting|criteri(?:on|a)|meddicc|spiced|stage|commit|risks?|words?|champion|decision|"
    r"talk time|recording|objection|competitor|discount|contract|email|session|review|transcript|"
    r"timestamps?|lines?|clips?|moments?|agenda|monologue)\b")
# A state to bring something into: "keep the forecast accurate", "make deal reviews count".
_MADE_SO = re.compile(r"(?:keep|make|get)(?: [\w'-]+){1,3} (?:accurate|clean|healthy|tidy|current|"
                      r"up to date|up-to-date|productive|efficient|consistent|focused|relevant|count|"
                      r"matter|stick|work|happen|easier|simpler)$"
                      r"|make(?: [\w'-]+){1,4} an? (?:habit|priority|focus|norm|standard|routine|"
                      r"must|given|reality)(?=$| for | on | across | in )")  # but "make it a habit to ask ..."
# Done so that someone grows, with nothing exact to do: "give reps space to develop".
_FOR_GROWTH = re.compile(r"\bto (?:develop|grow|improve|succeed|learn|thrive|shine|flourish)$")
# A mood to stay in: "stay calm when deals slip" (but "stay silent until ..." is heard).
_STAY_STATE = re.compile(r"(?:stay|remain|keep|be) (?:\w+ )?(?:calm|composed|patient|humble|present|open|"
                         r"neutral|relaxed|focused|positive|available|approachable|supportive|"
                         r"optimistic|upbeat|cool)\b")
# Words that name where the work happens but nothing in it: "Prepare for pipeline reviews",
# "Join rep calls" is an activity; "Confirm next steps" names what to hear.
_GENERIC = frozenset("""
    pipeline reviews review calls call meetings meeting 1:1s 1:1 one-on-ones one-to-ones deals deal
    forecast recordings sessions session coaching opportunities team reps rep rep's the a an your
    their more for on with to in about new weekly regularly often all every each own up out
""".split())
# Verbs that move a number: with a rate, a number or a result, a target, not an action.
_CHANGE_VERBS = frozenset("raise lift push lower reduce cut decrease double halve grow boost increase "
                          "improve maximise maximize minimise minimize reach beat hit".split())
_METRIC_OF = re.compile(r"\b(number|share|percentage|proportion|ratio)\s+of\b")
# ... except a number you can hear in the call itself: "cut your talk time to a third".
_HEARD_NUMBERS = re.compile(r"\b(talk time|talking|interrupt\w*|questions?|minutes?|seconds?|"
                            r"monologues?|slides?)\b")
_SITUATION_OPENERS = ("when ", "whenever ", "during ", "in ", "at ", "before ", "after ", "if ",
                      "once ", "each time ", "every time ", "on ", "for ", "as soon as ",
                      "next time ", "the next time ", "any time ", "anytime ", "each ", "every ")
_SOFTENERS = ("always ", "consistently ", "explicitly ", "deliberately ", "first ", "then ",
              "please ", "now ", "just ", "also ", "only ", "never ", "don't ", "don\u2019t ", "do not ",
              "no longer ")
_QUOTED = QUOTED
_PEOPLE = PEOPLE
_words = words_of
_base_verb = base_verb


def _manner(word: str) -> bool:
    """'constructively', 'proactively': how, not what ('only', 'early', 'reply' are not)."""
    return word in MANNER_WORDS or (word.endswith("ly") and len(word) > 5 and word not in ALL_VERBS
                                    and word not in ("early", "only", "weekly", "daily", "monthly"))


def _state_verb(word: str) -> bool:
    """'trusting' -> True: a verb of a state of mind, in any form ('overthinking' too)."""
    word = re.sub(r"^(?:over|under)(?=\w{4})", "", word)
    return any(form in STATE_VERBS for form in (word, word[:-3], word[:-3] + "e", word[:-1])
               if word.endswith(("ing", "s")) or form == word)


def _looks_like_action(clause: str) -> bool:
    """Does this clause start with something the manager does (a verb, known or not)?"""
    words = _words(_QUOTED.sub(" ' ", clause))
    if not words:
        return False
    first = words[0]
    if first in ACTION_VERBS or first in SURE_GOAL_VERBS or first in SOFT_GOAL_VERBS:
        return True
    if first in STOPWORDS or first in WH_WORDS or first in ("or", "but", "nor", "yet"):
        return False  # "..., and the customer has gone quiet, ask ...": still the situation
    return len(words) > 1 and words[1] in VERB_FOLLOWERS


def _strip_situation(text: str) -> str:
    """'When the customer asks for information, ask ...' -> 'ask ...'.

    A trigger clause may open with any words ("Next time a deal slips a quarter,
    ask ..."): it ends at the first comma, when what follows it is an action."""
    lowered = text.lower().strip()
    opens = lowered.startswith(_SITUATION_OPENERS)
    head_verb = (_words(lowered) or [""])[0]
    if "," in lowered and (opens or head_verb not in ACTION_VERBS):
        # The situation may hold commas of its own ("When the rep says X, and the customer
        # has gone quiet, ask ..."): it ends at the first comma an action follows.
        parts = lowered.split(",")
        after = next((",".join(parts[i:]) for i in range(1, len(parts))
                      if _looks_like_action(",".join(parts[i:]))), None)
        if after is not None:
            lowered = after.strip()
        elif opens:
            lowered = ",".join(parts[1:]).strip()
    changed = True
    while changed:
        changed = False
        for prefix in _SOFTENERS + SUBJECTS + MODALS:
            if lowered.startswith(prefix):
                lowered, changed = lowered[len(prefix):], True
    # "The manager asks ..." / "try asking ...": read the verb in its base form.
    first, _, rest = lowered.partition(" ")
    if first == "try" and rest.split(" ", 1)[0].endswith("ing"):
        first, _, rest = rest.partition(" ")
    base = _base_verb(first)
    return f"{base} {rest}".strip() if base else lowered


def check_behavior(text: str) -> list[Finding]:
    """Findings on one behavior text; [] means specific enough to coach.

    An error only where the check is sure: no action at all, a trait, a goal with
    nothing to hear or see, or plainly more than one behavior. Anything less sure
    (a verb it does not know, two actions that may be one behavior in two steps,
    nobody named) is a warning with the reason.
    """
    component = "behavior"
    stripped = (text or "").strip()
    if not stripped:
        return [Finding(component, Severity.ERROR, "No behavior written yet.", _SUGGEST_BEHAVIOR)]
    body = _strip_situation(stripped).strip(" .!?")
    words = _words(body)
    verb = words[0] if words else ""
    after = words[1] if len(words) > 1 else ""
    unquoted_body = _QUOTED.sub(" ", body)
    state = _STATE_WORDS.search(unquoted_body)
    if state and verb in _ASKING and WH_WORDS & set(_words(unquoted_body[:state.start()])):
        state = None  # "ask the rep how confident they feel": what is asked, not a trait
    hoped = next((w for w in _words(unquoted_body)[1:4] if w in _HOPED_FOR), None)
    if state is None and hoped:
        state = re.search(rf"\b({re.escape(hoped)})\b", unquoted_body)
    abstract = state or _ABSTRACT_NOUNS.search(unquoted_body, len(verb))  # not the verb itself
    comparative = _COMPARATIVES.search(unquoted_body)
    findings: list[Finding] = []

    def error(reason: str, suggestion: str = f"Start with the action. {_SUGGEST_BEHAVIOR}") -> None:
        findings.append(Finding(component, Severity.ERROR, reason, suggestion))

    def warning(reason: str, suggestion: str = _SUGGEST_BEHAVIOR) -> None:
        findings.append(Finding(component, Severity.WARNING, reason, suggestion))

    goal_reason = (f"\"{stripped}\" is a goal or a trait, not an action: "
                   "there is nothing to hear in the next call or pipeline review.")
    verb_known = verb in ACTION_VERBS
    causative = re.match(r"get (?:\w+ ){1,3}?to (\w+)", body)
    phrase = next((p for p in VAGUE_PHRASES if re.search(rf"\b{re.escape(p)}\b", unquoted_body)), None)
    if verb in ("stop", "start", "begin", "keep", "quit") and (
            after in _STATES or _base_verb(after) in SURE_GOAL_VERBS or _state_verb(after)):
        error(f"\"{verb} {after} ...\" describes a state of mind or an aim, not something you can hear.",
              f"Name what the manager will stop or start saying or doing. {_SUGGEST_BEHAVIOR}")
    elif not verb or _state_verb(verb) and after not in GOAL_VERBS_AS_ACTIONS.get(verb, ()):
        error(goal_reason)
    elif (len(words) <= 2 and verb not in ("stop", "quit") and not _QUOTED.search(body)
          and not _ANCHORS.search(" ".join(w for w in words if w not in ("question", "questions")))) \
            or (len(words) <= 4 and verb in ACTION_VERBS and not _EXACT.search(body)
                and all(w in _GENERIC for w in words[1:])):
        error(f"\"{stripped}\" names an activity, not a behavior: say when, to whom or what "
              "exactly, so you could hear it in the next call or pipeline review.")
    elif phrase and _DETAIL.search(unquoted_body) and verb not in SURE_GOAL_VERBS:
        warning(f"\"{phrase}\" often names an aim; check that what follows says what you would "
                "hear or see in the next call or pipeline review.")
    elif phrase:
        error(f"\"{phrase}\" names an aim, not an action: there is nothing to hear in the next "
              "call or pipeline review.")
    elif _MADE_SO.match(body) or _STAY_STATE.match(body) or (
            _FOR_GROWTH.search(body) and not _EXACT.search(body)):
        error(goal_reason)
    elif causative and verb == "get":
        if causative.group(1) not in ACTION_VERBS:
            error(goal_reason)
    elif len(words) > 1 and (
            (not _ANCHORS.search(stripped.lower())
             and all(w in MANNER_WORDS or w.endswith("ly") for w in words[1:]))
            or (len(words) <= 4 and _manner(words[-1]))):
        error(f"\"{stripped}\" says how or how often, not what: name what the manager will do "
              "or say.")
    elif verb in ("more", "less", "better") or _COMPARATIVES.match(body):
        error(f"\"{stripped}\" names an aim, not an action the manager can take.")
    elif verb in SURE_GOAL_VERBS and (after not in GOAL_VERBS_AS_ACTIONS.get(verb, ())
                                      or len(words) > 2 and words[2] in _PEOPLE) and not (
            verb in GOAL_VERBS_WITH_DETAIL and _EXACT_ACT.search(body)
            and (verb != "be" or after in DETERMINERS) and not _COMPARATIVES.match(after)
            and after not in ("more", "less")):
        error(goal_reason)
    elif verb in SURE_GOAL_VERBS:
        warning(f"\"{verb} {after} ...\" can be an action or an aim; check that you could hear "
                "or see it in the next call or pipeline review.")
    elif verb in _CHANGE_VERBS and (METRIC_NOUNS & set(words) or _METRIC_OF.search(body)) \
            and not _HEARD_NUMBERS.search(body):
        error(goal_reason)
    elif verb in SOFT_GOAL_VERBS:
        # "Support the reps": a person alone is nothing to hear; a call, a date, the CRM is.
        concrete = _ANCHORS.search(" ".join(w for w in _words(stripped) if w not in _PEOPLE))
        # "Make sure the team understands ...": a state of mind to bring about.
        minded = any(_state_verb(w) for w in words[1:])
        # "Make the rep name the next step": the rep's action, as with "have the rep ...".
        made = re.match(r"make (?:the |each |every |your )?(?:rep|reps|manager|team) (\w+)", body)
        # "Motivate reps to log next steps": the rep's mood is the aim, whatever they then do.
        moved = verb in _MOVING and not _EXACT_ACT.search(body)
        if abstract or comparative or not concrete or minded or moved:
            error(goal_reason)
        elif made and made.group(1) in ACTION_VERBS:
            pass
        else:
            warning(f"\"{verb}\" often names an aim rather than an action; check that you could "
                    "hear or see it in the next call or pipeline review.")
    elif not verb_known:
        if _NOUN_ENDING.search(verb) and verb not in _VERBS_LIKE_NOUNS:
            error(f"\"{stripped}\" names a topic or a quality, not an action: say what the manager "
                  "will do or say.")
        elif after in VERB_FOLLOWERS or len(words) == 1:
            warning(f"\"{verb}\" is not a verb the check knows; make sure it is something you "
                    "could hear or see the manager do.")
        elif not any(w in ACTION_VERBS for w in words):
            error(f"\"{stripped}\" names a topic or an aim: the check finds no action in it "
                  "saying what the manager will do.")
        else:
            warning(f"The behavior starts with \"{verb}\", which the check does not know as an "
                    "action; start with what the manager will do or say.")

    # "Talk to the reps about their deals" names a topic; "talk less than the rep" a share of the talk.
    talks = verb in TOPIC_VERBS and (after in ("to", "with", "about", "through", "over")
                                     or verb not in ("talk", "speak")) \
        or verb in ("have", "hold") and re.match(
        r"\w+ (?:an? |the )?(?:\w+ )?(?:conversations?|discussions?|chats?|talks?)\b", body)
    if talks and not _QUOTED.search(body) and "?" not in stripped and not _DETAIL.search(body) \
            and not any(f.severity == Severity.ERROR for f in findings):
        error(f"\"{verb}\" names a conversation, not what is said in it: there is nothing to "
              "listen for. Write the question or the point the manager will make.")
    elif talks and not _QUOTED.search(body) and "?" not in stripped:
        warning(f"\"{verb}\" names a conversation, not what is said in it; write the question "
                "or the point the manager will make.")

    # The situation counts here: "When the customer asks ..." says who it is about.
    # A quoted question is exactly "what the manager will say".
    anchored = bool(_ANCHORS.search(stripped.lower()) or "?" in stripped or _QUOTED.search(body))
    already = any(f.severity == Severity.ERROR for f in findings)
    feeling = _FEELINGS.search(unquoted_body)
    # What the customer cares about is something to ask ("ask what the customer cares about most").
    if feeling and not already and not _DETAIL.search(body) and verb not in _ASKING:
        error(f"\"{feeling.group(1)}\" names a feeling, not something you can hear or see.",
              _SUGGEST_BEHAVIOR)
        already = True
    trailing = comparative and not _words(unquoted_body[comparative.end():])  # "coach the reps more"
    if comparative and not already:
        compared = _words(unquoted_body[comparative.end():])[:2]
        rest = re.sub(rf"\b{comparative.group(1)}\b(?:\s+[\w'-]+){{0,2}}", " ", body, count=1)
        sure = (not anchored or abstract or trailing
                or comparative.group(1) in _QUALITY_COMPARATIVES
                or _OUTCOMES & set(compared)  # "close more deals": a result, not an action
                or not _DETAIL.search(rest))  # "ask more open questions": how many, when?
        (error if sure else warning)(
            f"\"{comparative.group(1)}\" makes this an aim; say exactly what will be asked or done.",
            "Write the question or the action itself, e.g. ask \"What will you review, and who "
            "else needs to be involved?\"")
    elif abstract and not already:
        # The quality is what the manager is asked to bring ("bring energy to the meeting"):
        # an aim. Further on it may belong to what is asked ("ask about strategic priorities").
        direct = abstract.group(1) in _words(unquoted_body)[1:3]
        (warning if verb_known and anchored and not state and not direct else error)(
            f"\"{abstract.group(1)}\" is an abstract quality, not something you can hear.",
            _SUGGEST_BEHAVIOR)

    negative = bool(re.match(r"(?:[^,;]*,\s*)?(?:don't|do not|never|no longer)\b",
                             stripped.lower().replace("\u2019", "'")))
    joined, marked = second_actions(body, negative)
    unrelated = [v for v, how in joined if not how]
    counted = [v for v, how in joined if how != "a step"]
    if marked or len(counted) >= 2 or unrelated:
        names = ", ".join(f"\"{v}\"" for v, _ in joined) or "\"and also\""
        error(f"This is more than one behavior ({names} adds another action).",
              "Keep one behavior here and write the other as a second item, or park it.")
    elif any(how == "same topic" for _, how in joined):
        second = next(v for v, how in joined if how == "same topic")
        warning(f"\"{second}\" adds a second action; keep it only if both are one "
                "behavior in two steps.",
                "Otherwise keep one behavior here and write the other as a second item.")

    if not findings and (not anchored or len(words) < 3):
        warning("The behavior doesn't say what the manager will say or to whom.",
                "Name the person or the thing it is about: the rep, the customer, the next step, "
                "a date, the exact question.")
    return findings
