"""The quality review's five checks for one coaching item, as a checklist.

Each check is True (passes), False (fails) or None (can't be judged yet), with
the reason. The questions are the method's:
- evidence quality: can another coach find the moment and understand what happened?
  -> no error finding on the evidence.
- behavior clarity: can the manager show you what they're expected to do differently?
  -> no error finding on the behavior.
- action fit: does the practice resemble the situation where they'll need the behavior?
  -> no error finding on the practice, and the practice's situation suits where
     the behavior is needed (a behavior for pipeline reviews, forecast calls or
     1:1s is practised in a live pipeline review or a role-play; one for customer
     calls in a role-play or a call review).
- follow-through: did the manager complete the action and give you new evidence?
  -> the practice action is done and at least one observation exists; None when
     no action was agreed, or when it is not done but not due yet.
- adoption: does the behavior appear again in later calls or pipeline reviews?
  -> at least one live observation seen ("yes"); None before any was checked.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from desktop.core.enums import ObservationSource, PracticeKind, Seen, Severity
from desktop.core.review_rule import Observation
from desktop.core.specificity import Finding, ItemDraft, check_item

__all__ = ["QualityCheck", "review_item", "QUALITY_CHECKS"]

QUALITY_CHECKS = {
    "evidence_quality": ("Evidence quality",
                         "Can another coach find the moment and understand what happened?"),
    "behavior_clarity": ("Behavior clarity",
                         "Can the manager show you what they're expected to do differently?"),
    "action_fit": ("Action fit",
                   "Does the practice resemble the situation where they'll need the behavior?"),
    "follow_through": ("Follow-through",
                       "Did the manager complete the action and give you new evidence to review?"),
    "adoption": ("Adoption",
                 "Does the behavior appear again in later calls or pipeline reviews?"),
}


@dataclass(frozen=True)
class QualityCheck:
    key: str
    ok: bool | None
    reason: str

    @property
    def label(self) -> str:
        return QUALITY_CHECKS[self.key][0]

    @property
    def question(self) -> str:
        return QUALITY_CHECKS[self.key][1]

    def to_dict(self) -> dict[str, Any]:
        return {"key": self.key, "label": self.label, "ok": self.ok, "reason": self.reason}


_INTERNAL = re.compile(r"\b(pipeline review|deal review|forecast|1:1|one-to-one)s?\b")
_CUSTOMER = re.compile(r"\b(customer|buyer|prospect|client|demo|discovery)s?\b")
_FITS = {
    "internal": (PracticeKind.LIVE_PIPELINE_REVIEW, PracticeKind.ROLE_PLAY),
    "customer": (PracticeKind.ROLE_PLAY, PracticeKind.CALL_REVIEW),
}


def _errors(findings: Sequence[Finding], component: str) -> list[Finding]:
    return [f for f in findings if f.component == component and f.severity == Severity.ERROR]


def _from_findings(key: str, findings: Sequence[Finding], component: str, good: str) -> QualityCheck:
    errors = _errors(findings, component)
    if errors:
        return QualityCheck(key, False, errors[0].message)
    return QualityCheck(key, True, good)


def _action_fit(item: ItemDraft, findings: Sequence[Finding]) -> QualityCheck:
    errors = _errors(findings, "practice")
    if errors:
        return QualityCheck("action_fit", False, errors[0].message)
    if item.practice_kind is None:
        return QualityCheck("action_fit", False, "No practice situation chosen.")
    text = (item.behavior_text or "").lower()
    # Where the behavior is needed: a "when/during ..." situation names it best.
    where = "internal" if _INTERNAL.search(text) else "customer" if _CUSTOMER.search(text) else None
    if where and item.practice_kind not in _FITS[where]:
        needed = "pipeline reviews" if where == "internal" else "customer conversations"
        return QualityCheck("action_fit", False,
                            f"The behavior is needed in {needed}, but the practice is a "
                            f"{item.practice_kind.label}.")
    return QualityCheck("action_fit", True,
                        f"The {item.practice_kind.label} recreates the situation of the behavior.")


def _follow_through(item: ItemDraft, actions_done: bool | None,
                    observations: Sequence[Observation], today: date | None) -> QualityCheck:
    if actions_done is None:
        return QualityCheck("follow_through", None, "No practice action agreed yet.")
    if not actions_done:
        due = item.next_evidence_due
        if today is not None and due is not None and today < due:
            return QualityCheck("follow_through", None,
                                f"The practice isn't done yet; it is due by {due.isoformat()}.")
        return QualityCheck("follow_through", False, "The practice action hasn't been done.")
    if not observations:
        return QualityCheck("follow_through", False,
                            "The practice was done, but there is no new evidence to review yet.")
    return QualityCheck("follow_through", True,
                        f"The practice was done and {len(observations)} new piece(s) of "
                        "evidence were reviewed.")


def _adoption(observations: Sequence[Observation]) -> QualityCheck:
    live = [o for o in observations
            if o.source in (ObservationSource.CALL, ObservationSource.PIPELINE_REVIEW)]
    if not live:
        return QualityCheck("adoption", None, "No later call or pipeline review checked yet.")
    seen = sum(o.seen == Seen.YES for o in live)
    where = f"{seen} of {len(live)} later calls or pipeline reviews"
    if seen:
        return QualityCheck("adoption", True, f"Seen in {where}.")
    return QualityCheck("adoption", False, f"Not seen in any of {len(live)} later calls or "
                                           "pipeline reviews.")


def review_item(item: ItemDraft, findings: Sequence[Finding] | None = None,
                observations: Sequence[Observation] = (), actions_done: bool | None = None,
                today: date | None = None) -> list[QualityCheck]:
    """The five checks in the method's order. `findings` defaults to check_item(item)."""
    findings = check_item(item) if findings is None else findings
    return [
        _from_findings("evidence_quality", findings, "evidence",
                       "The moment has a time and a quote (or a dated note) to return to."),
        _from_findings("behavior_clarity", findings, "behavior",
                       "The behavior is one observable action."),
        _action_fit(item, findings),
        _follow_through(item, actions_done, observations, today),
        _adoption(observations),
    ]
