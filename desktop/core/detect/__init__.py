"""The moment finder: reads a transcript with its speakers' roles and proposes moments worth coaching.

Qt-free and offline. Rules are plain and explainable; every finding says why in words. The
phrase lists are data (resources/detect/, extended from the coach's data folder).

    findings = detect(lines, roles)            # roles: speaker -> "rep" | "customer" | "unknown"
    figures = conversation_figures(lines, roles, findings)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from desktop.core.detect.figures import FIGURE_KEYS, Figures, conversation_figures
from desktop.core.detect.follow_up import read_follow_up
from desktop.core.detect.learned import LearnedWeightsError, Weights, default_weights, read_learned
from desktop.core.detect.lines import Reading
from desktop.core.detect.model import (
    CUSTOMER,
    FAMILIES,
    FAMILY_OF,
    GROUP_A,
    GROUP_B,
    LABELS,
    REP,
    UNKNOWN,
    Finding,
    Line,
    kind_for,
)
from desktop.core.detect.phrases import PhraseBook, PhraseListError, default_phrase_book, load_phrase_book
from desktop.core.detect.qualification import read_qualification
from desktop.core.detect.questions import read_questions
from desktop.core.detect.stalls import read_stalls

#: bump when a rule changes, so cached findings are made again
RULES_VERSION = "8"

__all__ = ["CUSTOMER", "FAMILIES", "FAMILY_OF", "FIGURE_KEYS", "Figures", "Finding", "GROUP_A", "GROUP_B", "LABELS",
           "LearnedWeightsError", "Line", "PhraseBook", "PhraseListError", "REP", "RULES_VERSION", "UNKNOWN",
           "Weights", "conversation_figures", "default_phrase_book", "default_weights", "detect", "kind_for",
           "load_phrase_book", "read_rules"]


def read_rules(lines: Sequence[Line], roles: Mapping[str | None, str], book: PhraseBook | None = None) -> Reading:
    """The transcript read by the rules alone (what the learned reading weighs, and what it is trained on)."""
    reading = Reading(lines, roles, book or default_phrase_book())
    read_questions(reading)       # first: the others ask whether a reply is a question
    read_qualification(reading)   # before follow-up: it looks for a budget owner, a pain, an objection
    read_stalls(reading)
    read_follow_up(reading)
    return reading


def detect(lines: Sequence[Line], roles: Mapping[str | None, str], book: PhraseBook | None = None,
           labels: Iterable[str] | None = None, weights: Weights | None = None) -> list[Finding]:
    """Every finding in the transcript, in time order (only `labels`, if given)."""
    reading = read_rules(lines, roles, book)
    read_learned(reading, weights)  # last: it weighs every rule's findings
    found = reading.findings()
    if labels is not None:
        wanted = set(labels)
        unknown = wanted - set(LABELS)
        if unknown:
            raise ValueError(f"unknown label(s): {', '.join(sorted(unknown))}")
        found = [f for f in found if f.label in wanted]
    return found
