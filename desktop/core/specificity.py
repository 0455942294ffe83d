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
- behavior: one action the manager can start, stop or adjust; an error only where
  the check is sure it is not (no action, a trait, a goal with nothing to hear or
  see, plainly two behaviors), otherwise a warning with the reason. See
  desktop/core/behavior_check.py.
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

from desktop.core.behavior_check import METHOD_EXAMPLE, check_behavior
from desktop.core.behavior_text import STOPWORDS, words_of
from desktop.core.behavior_words import ACTION_VERBS
from desktop.core.enums import BehaviorChange, PracticeKind, Severity
from desktop.core.findings import Finding, passes

__all__ = ["Finding", "ItemDraft", "check_item", "check_behavior", "passes", "ACTION_VERBS",
           "METHOD_EXAMPLE"]

_words = words_of  # reading a text into words, as the behavior check does
_STOPWORDS = STOPWORDS


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
_WHERE_WORDS = re.compile(
    r"\b(call|calls|recordings?|pipeline|review|1:1|one-to-one|crm|salesforce|hubspot|"
    r"forecast|meeting|demo|opportunit(?:y|ies)|note|notes|session|role-play|zoom|teams)\b")


def _practice_words(text: str) -> set[str]:
    return {_STEM.sub("", w) for w in _words(text)
            if w not in _STOPWORDS and len(w) > 2} - {""}


_STEM = re.compile(r"(ing|ed|es|s)$")


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
    shared = _practice_words(task) & _practice_words(behavior)
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
