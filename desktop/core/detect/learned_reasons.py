"""The words of a reason for a finding only the learned reading made: what the line reads as, and the words that
weighed most ("reads as who signs or owns the budget, as coaches labelled such lines: its words 'sign off' weigh
most"). Kept apart from the weighing itself (learned.py), which calls reason_of for each line it adds."""

from __future__ import annotations

import numpy as np

from desktop.core.detect.lines import Reading, quote_of

#: what each label reads as, for the reason of a finding the rules missed
READS_AS = {
    "metrics": "a quantified impact or goal",
    "economic_buyer": "who signs or owns the budget",
    "decision_process": "a step of how they decide or buy",
    "pain": "a problem the customer has",
    "champion": "someone inside who will sell it",
    "competition": "another vendor, tool or in-house build",
    "critical_event": "a date or event forcing the decision",
    "price": "an amount for the product or its budget",
    "objection": "a concern against buying",
    "missed_follow_up": "a reply that moves on from what the customer just said",
    "rep_question_open": "an open question",
    "rep_question_closed": "a yes-or-no or either-or question",
    "rep_question_leading": "a question that puts the answer in the customer's mouth",
    "customer_question": "the customer asking something",
    "deferral": "the customer putting the decision off",
    "deferral_accepted": "the rep accepting a put-off without asking what happens next",
    "next_step_confirmed": "a next step with a date the customer agrees to",
    "next_step_vague": "a next step with no date or owner",
}


def reason_of(weights, reading: Reading, looked: dict[str, tuple[np.ndarray, ...]], i: int, k: int, j: int) -> str:
    """'reads as who signs or owns the budget, as coaches labelled such lines: its words 'sign off' weigh most'
    (`looked`: the ids Weights._weigh looked the lines' words and pairs up as; `j`: the line before line i across a
    change of speaker, learned.near, -1 for none)."""
    column = weights.matrix[:, k]

    def heaviest(j: int, slot: int, kinds: str, most: int) -> list[str]:
        # the line's words and pairs of words that weigh for this label, of those that say something
        weighed = []
        for kind in kinds:
            found, at, where, _runs = looked[kind]
            run = where[j]
            if run < 0:
                continue  # the line was not read for this kind
            ids = found[at[run]: at[run + 1]]  # the line's run
            weight = column[weights.rows[kind][slot][ids]]
            heavy = (weight > 0) & weights.telling[kind][ids]
            keys = weights.keys[kind]
            weighed.extend((w, keys[piece] if kind == "w" else " ".join(keys[piece]))
                           for w, piece in zip(weight[heavy].tolist(), ids[heavy].tolist()))
        return [f"'{value}'" for _w, value in sorted(weighed, reverse=True)[:most]]

    own = heaviest(i, 0, "wb", 3)
    before = heaviest(j, 1, "w", 2) if j >= 0 and not own else []  # only when its own say nothing
    if own:
        said = f"its words {', '.join(own)} weigh most"
    elif before:
        said = f"the line before ({', '.join(before)}) weighs most"
    else:
        said = "the lines around it weigh most"
    label = weights.labels[k]
    if label == "missed_follow_up":  # what it moved on from, in the customer's words
        said = f"the customer said '{quote_of(reading.lines[j].line.text, 50)}'; {said}"
    return f"reads as {READS_AS[label]}, as coaches labelled such lines: {said}"
