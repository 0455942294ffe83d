"""The specificity check: is this coaching item something a manager can try next time?

The method (coaching-framework.txt): "improve pipeline discipline" gives the
manager very little to try; "Ask the rep to state the next step the customer
confirmed before discussing how likely the deal is to close" is visible. The
check works like a spell-checker: each rule that fails gives a `Finding` with
the component, a severity, the reason and a suggestion. An item *passes* when no
finding is an error; warnings and infos are advice.

Rules, per component:
- evidence: at least one moment with a time and a quote, or a CRM / 1:1 note
  with a date (another coach must be able to return to it).
- behavior: starts with an observable action (ask, state, confirm, pause,
  summarise, stop, name, repeat, write, open with, close with, ...), after an
  optional situation ("When the customer asks for information, ask ...");
  is not a goal or a trait ("improve ...", "be more ...", "better ...");
  is one behavior ("and also", two actions joined); names what the manager
  will do or say (who or what it is about: the rep, the customer, the next step,
  a date, a quoted question ...).
- practice: has a situation (role-play, call review, live pipeline review) and
  a task tied to the behavior (shares a key word with it or refers to it).
- next_evidence: names where to look (a call, recording, pipeline review, 1:1,
  the CRM ...) and has a date.
Consequence and owner are advised (warnings), not required for passing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date

from desktop.core.enums import BehaviorChange, PracticeKind, Severity

__all__ = ["Finding", "ItemDraft", "check_item", "check_behavior", "passes", "ACTION_VERBS",
           "METHOD_EXAMPLE"]

METHOD_EXAMPLE = ("Ask the rep to state the next step the customer confirmed before "
                  "discussing how likely the deal is to close.")
_SUGGEST_BEHAVIOR = f"Write what the manager will do or say, e.g. \"{METHOD_EXAMPLE}\""


@dataclass(frozen=True)
class Finding:
    component: str  # evidence, behavior, practice, next_evidence, consequence, owner
    severity: Severity
    message: str
    suggestion: str = ""

    def to_dict(self) -> dict[str, str]:
        return {"component": self.component, "severity": str(self.severity),
                "message": self.message, "suggestion": self.suggestion}


@dataclass
class ItemDraft:
    """A coaching item as the editor holds it; plain data, filled from the store."""
    moments: list[tuple[int | None, str]] = field(default_factory=list)  # (start_ms, quote)
    notes: list[tuple[str, date | None]] = field(default_factory=list)  # CRM field or 1:1 note
    consequence: str = ""
    behavior_change: BehaviorChange | None = None
    behavior_text: str = ""
    practice_kind: PracticeKind | None = None
    practice_task: str = ""
    owner_does: str = ""
    owner_reviews: str = ""
    next_evidence: str = ""
    next_evidence_due: date | None = None
    created_on: date | None = None  # for week-by-week indicators


def passes(findings: list[Finding]) -> bool:
    return not any(f.severity == Severity.ERROR for f in findings)


# Verbs a coach can hear or see the manager do. Both spellings where British and
# American differ, since coaches write both.
ACTION_VERBS = frozenset("""
    ask state confirm pause summarise summarize stop name repeat write open close
    check say read play let wait record log quote request restate paraphrase probe
    invite tell note share set agree replace listen start begin end finish use
    list point show-the replay review call book send schedule follow mark look
    put add type compare bring answer explain
""".split())
# Verbs that name a goal, a trait or a state of mind: nothing to hear in the next call.
_GOAL_VERBS = frozenset("""
    improve be become get drive focus work increase own hold make have try think
    understand demonstrate show prioritise prioritize leverage coach develop build
    enhance boost grow master embrace adopt strengthen optimise optimize learn
    encourage empower foster support manage handle consider remember need should
    sell know feel care maintain ensure create keep
""".split())
# Comparatives that turn an action into an aim ("ask better questions").
_COMPARATIVES = re.compile(r"\b(better|more|less|stronger|smarter|harder|deeper|clearer|"
                           r"greater|higher|faster)\b(?!\s+than)")
_ABSTRACT_NOUNS = re.compile(r"\b(discipline|accountability|proactive|proactivity|mindset|"
                             r"skills?|presence|empathy|strategic|effective(?:ly)?|urgency|"
                             r"ownership|excellence|confidence)\b")
# Words that tie the behavior to someone or something concrete in the work.
_ANCHORS = re.compile(
    r"\b(rep|reps|customer|customers|buyer|prospect|client|next[- ]steps?|date|deadline|"
    r"crm|salesforce|hubspot|deal|deals|opportunit(?:y|ies)|forecast|pipeline review|"
    r"1:1|one-to-one|call|demo|budget|pric(?:e|ing)|proposal|question|answer|meeting|"
    r"criteri(?:on|a)|meddicc|spiced|stage|commit|risks?|words?|champion|decision)\b")
_SITUATION_OPENERS = ("when ", "whenever ", "during ", "in ", "at ", "before ", "after ", "if ",
                      "once ", "each time ", "every time ", "on ", "for ", "as soon as ")
_SOFTENERS = ("always ", "consistently ", "explicitly ", "deliberately ", "first ", "then ",
              "please ", "now ")
_QUOTED = re.compile(r"\"[^\"]*\"|“[^”]*”|'[^']*'(?=\W|$)|:\s.*$")
_STEM = re.compile(r"(ing|ed|es|s)$")


# An apostrophe counts only inside a word ("customer's"): a single quote around a
# phrase ('send me some information') is punctuation, not part of "information".
_WORD = re.compile(r"[a-z0-9]+(?:'[a-z0-9]+)*(?::[0-9]+)*(?:-[a-z0-9]+(?:'[a-z0-9]+)*)*")


def _words(text: str) -> list[str]:
    return _WORD.findall(text.lower().replace("\u2019", "'"))


def _strip_situation(text: str) -> str:
    """'When the customer asks for information, ask ...' -> 'ask ...'."""
    lowered = text.lower()
    if lowered.startswith(_SITUATION_OPENERS) and "," in lowered:
        lowered = lowered.split(",", 1)[1].strip()
    changed = True
    while changed:
        changed = False
        for softener in _SOFTENERS:
            if lowered.startswith(softener):
                lowered, changed = lowered[len(softener):], True
    return lowered


def _verb_of(clause: str) -> str:
    words = _words(clause)
    return words[0] if words else ""


def _extra_actions(body: str) -> list[str]:
    """Second imperative actions joined to the first ('..., confirm the date, and write ...')."""
    unquoted = _QUOTED.sub(" ", body)
    found = []
    if re.search(r"\band also\b|\bas well as\b|;", unquoted):
        found.append("and also")
    for m in re.finditer(r"(?:,\s*(?:and\s+)?(?:then\s+)?|\band\s+(?:then\s+)?|\bthen\s+)([a-z]+)\b",
                         unquoted):
        verb = m.group(1)
        preceding = unquoted[:m.start()].rstrip()
        # "ask the rep to state X and confirm Y" describes what the rep does, not a second action.
        if verb in ACTION_VERBS and not re.search(r"\bto\s+\w+[^,]*$", preceding):
            found.append(verb)
    return found


def check_behavior(text: str) -> list[Finding]:
    """Findings on one behavior text; [] means specific enough to coach."""
    component = "behavior"
    stripped = (text or "").strip()
    if not stripped:
        return [Finding(component, Severity.ERROR, "No behavior written yet.", _SUGGEST_BEHAVIOR)]
    body = _strip_situation(stripped).strip(" .!?")
    words = _words(body)
    verb = words[0] if words else ""
    findings: list[Finding] = []

    if verb in ACTION_VERBS and verb in ("stop", "start", "begin", "keep") and len(words) > 1 \
            and words[1] in ("being", "feeling", "thinking", "trying", "worrying"):
        findings.append(Finding(
            component, Severity.ERROR,
            f"\"{verb} {words[1]} ...\" describes a state of mind, not something you can hear.",
            f"Name what the manager will stop or start saying or doing. {_SUGGEST_BEHAVIOR}"))
    elif verb not in ACTION_VERBS:
        if verb in _GOAL_VERBS or not verb:
            reason = (f"\"{stripped}\" is a goal or a trait, not an action: "
                      "there is nothing to hear in the next call or pipeline review.")
        elif _COMPARATIVES.match(body) or verb in ("more", "less", "better"):
            reason = f"\"{stripped}\" names an aim, not an action the manager can take."
        else:
            reason = (f"The behavior starts with \"{verb}\", which is not an observable action "
                      "(ask, state, confirm, pause, summarise, stop, name, repeat, write, "
                      "open with, close with ...).")
        findings.append(Finding(component, Severity.ERROR, reason,
                                f"Start with the action. {_SUGGEST_BEHAVIOR}"))

    unquoted_body = _QUOTED.sub(" ", body)
    # The situation counts here: "When the customer asks ..." says who it is about.
    # A quoted question is exactly "what the manager will say".
    anchored = bool(_ANCHORS.search(stripped.lower()) or "?" in stripped or _QUOTED.search(body))
    if comparative := _COMPARATIVES.search(unquoted_body):
        severity = Severity.WARNING if anchored and not _ABSTRACT_NOUNS.search(unquoted_body) \
            else Severity.ERROR
        findings.append(Finding(
            component, severity,
            f"\"{comparative.group(1)}\" makes this an aim; say exactly what will be asked or done.",
            "Write the question or the action itself, e.g. ask \"What will you review, and who "
            "else needs to be involved?\""))
    elif abstract := _ABSTRACT_NOUNS.search(unquoted_body):
        findings.append(Finding(
            component, Severity.ERROR,
            f"\"{abstract.group(1)}\" is an abstract quality, not something you can hear.",
            _SUGGEST_BEHAVIOR))

    extra = _extra_actions(body)
    if extra:
        joined = "\"and also\"" if extra == ["and also"] else \
            ", ".join(f"\"{v}\"" for v in extra if v != "and also")
        findings.append(Finding(
            component, Severity.ERROR,
            f"This is more than one behavior ({joined} adds another action).",
            "Keep one behavior here and write the other as a second item, or park it."))

    if not findings and (not anchored or len(words) < 3):
        findings.append(Finding(
            component, Severity.ERROR,
            "The behavior doesn't say what the manager will say or to whom.",
            "Name the person or the thing it is about: the rep, the customer, the next step, "
            "a date, the exact question."))
    return findings


_SITUATION_WORDS = {
    PracticeKind.ROLE_PLAY: ("role-play", "role play", "roleplay", "rehearse", "practise", "practice"),
    PracticeKind.CALL_REVIEW: ("call review", "recording", "listen", "replay", "call"),
    PracticeKind.LIVE_PIPELINE_REVIEW: ("pipeline review", "pipeline", "forecast", "deal review"),
}
# "the moment", "this question", and the moment named by its quote: "the 'send me
# some information' moment" (straight or curly, single or double quotes).
_REFERS_TO_BEHAVIOR = re.compile(
    r"\b(the|this|that)\s+(?:(?:\"[^\"]*\"|“[^”]*”|'[^']*'|‘[^’]*’)\s+)?(behaviou?r|question|"
    r"intervention|moment|action|line|step)\b")
_STOPWORDS = frozenset("""
    the a an to of in on at for with and or but if when before after what who how which that
    this they them their it its is are be will can you your our we he she his her as by from
    into about then than so not do does did have has had was were rep reps manager managers
    coach next each every one two three time times
""".split())
_WHERE_WORDS = re.compile(
    r"\b(call|calls|recordings?|pipeline|review|1:1|one-to-one|crm|salesforce|hubspot|"
    r"forecast|meeting|demo|opportunit(?:y|ies)|note|notes|session|role-play|zoom|teams)\b")


def _key_words(text: str) -> set[str]:
    return {_STEM.sub("", w) for w in _words(text)
            if w not in _STOPWORDS and len(w) > 2} - {""}


def _check_evidence(item: ItemDraft) -> list[Finding]:
    good_moments = [m for m in item.moments if m[0] is not None and (m[1] or "").strip()]
    good_notes = [n for n in item.notes if (n[0] or "").strip() and n[1] is not None]
    if good_moments or good_notes:
        return []
    if item.moments:
        message = "The cited moment has no quote (or no time): another coach couldn't find it."
    elif item.notes:
        message = "The CRM or 1:1 note has no date: another coach couldn't find it."
    else:
        message = "No evidence cited: link a moment, or a CRM field or 1:1 note with its date."
    return [Finding("evidence", Severity.ERROR, message,
                    "Mark the exact line in the recording (time and quote), or add the note's date.")]


def _check_practice(item: ItemDraft) -> list[Finding]:
    findings = []
    task = (item.practice_task or "").strip()
    if item.practice_kind is None:
        findings.append(Finding(
            "practice", Severity.ERROR, "No practice situation chosen.",
            "Choose where the manager practises: role-play, call review or live pipeline review."))
    if not task:
        findings.append(Finding(
            "practice", Severity.ERROR, "No practice task written.",
            "Recreate the moment, e.g. \"Role-play the 'send me some information' moment three "
            "times.\""))
        return findings
    behavior = item.behavior_text or ""
    shared = _key_words(task) & _key_words(behavior)
    if not shared and not _REFERS_TO_BEHAVIOR.search(task.lower()):
        findings.append(Finding(
            "practice", Severity.ERROR, "The practice task isn't tied to the behavior.",
            "Say what the manager practises: use the behavior's words or refer to the moment."))
    if item.practice_kind is not None:
        other = [k for k, words in _SITUATION_WORDS.items()
                 if k != item.practice_kind and k != PracticeKind.CALL_REVIEW
                 and any(w in task.lower() for w in words)
                 and not any(w in task.lower() for w in _SITUATION_WORDS[item.practice_kind])]
        if other:
            findings.append(Finding(
                "practice", Severity.WARNING,
                f"The task reads like a {other[0].label}, but the situation is "
                f"{item.practice_kind.label}.", "Make the situation and the task agree."))
    return findings


def _check_next_evidence(item: ItemDraft) -> list[Finding]:
    findings = []
    text = (item.next_evidence or "").strip()
    if not text:
        findings.append(Finding(
            "next_evidence", Severity.ERROR, "No next evidence point: where will you look?",
            "Name the call or review, e.g. \"Next two discovery recordings\"."))
    elif not _WHERE_WORDS.search(text.lower()):
        findings.append(Finding(
            "next_evidence", Severity.ERROR,
            "The next evidence point doesn't say where to look.",
            "Name a call, recording, pipeline review, 1:1 or CRM field."))
    if item.next_evidence_due is None:
        findings.append(Finding(
            "next_evidence", Severity.ERROR, "The next evidence point has no date.",
            "Set the date by which you'll look."))
    return findings


def check_item(item: ItemDraft) -> list[Finding]:
    """All findings for a coaching item, component by component."""
    findings = _check_evidence(item)
    if not (item.consequence or "").strip():
        findings.append(Finding(
            "consequence", Severity.WARNING,
            "No consequence: what does the manager or rep still not know because of this moment?",
            "e.g. \"The rep doesn't know what the customer will review or who else is involved.\""))
    findings += check_behavior(item.behavior_text)
    if item.behavior_change is None:
        findings.append(Finding("behavior", Severity.WARNING,
                                "Say whether the manager starts, stops or adjusts this.",
                                "Choose start, stop or adjust."))
    findings += _check_practice(item)
    if not (item.owner_does or "").strip() or not (item.owner_reviews or "").strip():
        findings.append(Finding("owner", Severity.WARNING,
                                "Say who does the practice and who reviews it.",
                                "e.g. the manager does it, you review it."))
    findings += _check_next_evidence(item)
    return findings
