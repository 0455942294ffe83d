"""Conversation figures for one call, from line times and roles (what Gong shows as interaction stats).

A figure that needs roles is None when the call's speakers have none, with the reason in
`reasons`: a guess is never shown as a fact.
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from desktop.core.detect.model import CUSTOMER, REP, UNKNOWN, Finding, Line

FIGURE_KEYS = ("rep_talk_share", "longest_rep_monologue_ms", "longest_customer_story_ms", "rep_questions_open",
               "rep_questions_closed", "rep_questions_leading", "customer_questions", "patience_ms",
               "interactivity_per_min")


@dataclass
class Figures:
    values: dict[str, float | int | None]
    reasons: dict[str, str] = field(default_factory=dict)  # key -> why it is None

    def to_json(self) -> dict:
        return {key: self.values[key] for key in FIGURE_KEYS}


def _role(roles: Mapping[str | None, str], speaker: str | None) -> str:
    role = roles.get(speaker, UNKNOWN) if speaker is not None else UNKNOWN
    return role if role in (REP, CUSTOMER) else UNKNOWN


def _longest_run(lines: Sequence[Line], who: list[str], role: str) -> int:
    """The longest stretch one side holds the floor: consecutive lines of that role, first start to last end."""
    best, start, end = 0, None, None
    for line, r in zip(lines, who):
        if r == role:
            if start is None:
                start = line.start_ms
            end = max(end or line.end_ms, line.end_ms)
            best = max(best, end - start)
        else:
            start = end = None
    return best


def conversation_figures(lines: Sequence[Line], roles: Mapping[str | None, str],
                         findings: Sequence[Finding]) -> Figures:
    lines = [ln for ln in lines if ln.text.strip()]
    who = [_role(roles, ln.speaker) for ln in lines]
    values: dict[str, float | int | None] = dict.fromkeys(FIGURE_KEYS)
    reasons: dict[str, str] = {}
    role_keys = [k for k in FIGURE_KEYS if k != "interactivity_per_min"]

    unknown = sorted({ln.speaker or "(no speaker)" for ln, r in zip(lines, who) if r == UNKNOWN})
    if not lines:
        why = "the call has no transcript lines"
        return Figures(values, dict.fromkeys(FIGURE_KEYS, why))
    if unknown or REP not in who or CUSTOMER not in who:
        if unknown:
            why = (f"no role for {', '.join(unknown)}: say who the rep is "
                   "(`callmark transcript set-rep CALL SPEAKER`) and the others count as the customer")
        else:
            missing = "rep" if REP not in who else "customer"
            why = f"no {missing} speaks in this transcript"
        reasons.update(dict.fromkeys(role_keys, why))
    else:
        talk = {REP: 0, CUSTOMER: 0}
        for ln, r in zip(lines, who):
            talk[r] += max(0, ln.end_ms - ln.start_ms)
        total = talk[REP] + talk[CUSTOMER]
        values["rep_talk_share"] = round(talk[REP] / total, 3) if total else None
        if not total:
            reasons["rep_talk_share"] = "the lines have no duration"
        values["longest_rep_monologue_ms"] = _longest_run(lines, who, REP)
        values["longest_customer_story_ms"] = _longest_run(lines, who, CUSTOMER)
        counts = {label: 0 for label in ("rep_question_open", "rep_question_closed", "rep_question_leading",
                                         "customer_question")}
        for f in findings:
            if f.label in counts:
                counts[f.label] += 1
        values["rep_questions_open"] = counts["rep_question_open"]
        values["rep_questions_closed"] = counts["rep_question_closed"]
        values["rep_questions_leading"] = counts["rep_question_leading"]
        values["customer_questions"] = counts["customer_question"]
        pauses = [max(0, cur.start_ms - prev.end_ms)
                  for prev, cur, a, b in zip(lines, lines[1:], who, who[1:]) if a == CUSTOMER and b == REP]
        if pauses:
            values["patience_ms"] = int(statistics.median(pauses))
        else:
            reasons["patience_ms"] = "the rep never speaks after the customer"
    speakers = [ln.speaker for ln in lines]
    if all(s is None for s in speakers):
        reasons["interactivity_per_min"] = "the transcript has no speakers"
    else:
        changes = sum(1 for a, b in zip(speakers, speakers[1:]) if a != b)
        span_ms = max(ln.end_ms for ln in lines) - lines[0].start_ms
        if span_ms > 0:
            values["interactivity_per_min"] = round(changes / (span_ms / 60_000), 2)
        else:
            reasons["interactivity_per_min"] = "the lines have no duration"
    return Figures(values, reasons)
