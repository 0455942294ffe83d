"""Short made-up calls for the detector tests: 'R: ...' is the rep, 'C: ...' the customer.

These read the rules alone (detect.read_rules): each test states what a rule decides about a line. The
learned reading that weighs the rules' findings afterwards is tested on its own (test_learned.py) and,
with everything, on whole labelled calls (tests/detection_eval)."""

from __future__ import annotations

from desktop.core.detect import Line, read_rules

REP_NAME, CUSTOMER_NAME = "Riley Rep", "Casey Customer"
ROLES = {REP_NAME: "rep", CUSTOMER_NAME: "customer"}
STEP_MS = 4000


def lines(*turns: str) -> list[Line]:
    out = []
    for i, turn in enumerate(turns):
        who, text = turn.split(": ", 1)
        speaker = {"R": REP_NAME, "C": CUSTOMER_NAME}[who]
        out.append(Line(i * STEP_MS, i * STEP_MS + STEP_MS - 500, speaker, text))
    return out


def found(*turns: str, roles=ROLES, book=None) -> list:
    return read_rules(lines(*turns), roles, book).findings()


def labels_at(*turns: str, roles=ROLES) -> dict[int, set[str]]:
    """Line number -> the labels found on it."""
    out: dict[int, set[str]] = {}
    for f in found(*turns, roles=roles):
        out.setdefault(f.start_ms // STEP_MS, set()).add(f.label)
    return out


def labels_on(turn_index: int, *turns: str) -> set[str]:
    return labels_at(*turns).get(turn_index, set())
