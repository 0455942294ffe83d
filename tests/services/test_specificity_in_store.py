"""The specificity check on wording it was not written from, through a real store and the indicator.

Complete coaching items (evidence, practice, next evidence, owner) that differ only in
their behavior: the feedback-specificity indicator counts the ones with no error, and a
warning (advice) does not take an item out of the count.
"""

from __future__ import annotations

from datetime import date, datetime

import pytest

from db.models import CoachingItem
from desktop.services import cycles, indicators, items

pytestmark = pytest.mark.both_stores

START = date(2026, 9, 7)
AS_OF = date(2026, 11, 25)
MANAGER = "Morgan Manager"

# Good behaviors a coach wrote in their own words: none may be an error.
GOOD = [
    "Role-play the pricing objection with each new rep before their first live demo",
    "Keep your own talk time under half of each one-on-one",
    "Next time a deal slips a quarter, ask the rep what the customer said had changed",
    "Pause for three seconds after asking the rep a question and let them answer first",
    "Don't suggest a close date; ask the rep what the customer said",
    "Open the CRM record and read the last activity aloud",  # a warning at most: maybe two steps
]
# Not coachable as written: plainly two behaviors, a metric target, a feeling.
NOT_COACHABLE = {
    "Stop interrupting reps during deal reviews, and move the team meeting to Tuesday mornings":
        "more than one behavior",
    "Lower the number of slipped deals": "goal or a trait",
    "Show the team you care": "feeling",
}


def _item(store, behavior: str) -> int:
    row = items.create_item(
        store, [], manager=MANAGER, consequence="The rep doesn't know what the customer will do next.",
        behavior_change="adjust", behavior_text=behavior, practice_kind="role_play",
        practice_task="Role-play this moment three times with me on Thursday.",
        owner_does=MANAGER, owner_reviews="Me",
        next_evidence="the next two recordings", next_evidence_due="2026-10-30")
    items.add_evidence(store, row.id, "note", "Casey accepted 'send me some information' as the next step",
                       "2026-09-10")
    with store.write() as s:  # written during the cycle
        s.get(CoachingItem, row.id).created_at = datetime(2026, 10, 2, 9)
    return row.id


def test_the_indicator_counts_the_items_the_check_lets_through(store):
    cycle = cycles.add_cycle(store, MANAGER, START, model="grow",
                             baseline_notes="Next steps accepted without a date in 4 of 5 calls.")
    ids = {text: _item(store, text) for text in GOOD + list(NOT_COACHABLE)}
    for item_id in ids.values():
        cycles.attach_item(store, cycle.id, item_id)

    for text in GOOD:
        found = items.findings(items.get_item(store, ids[text]))
        assert not [f.message for f in found if f.severity == "error"], text
    for text, reason in NOT_COACHABLE.items():
        errors = [f.message for f in items.findings(items.get_item(store, ids[text])) if f.severity == "error"]
        assert errors and reason in errors[0], (text, errors)
    warned = items.findings(items.get_item(store, ids[GOOD[-1]]))
    assert any(f.component == "behavior" and f.severity == "warning" for f in warned)

    figure = indicators.report(store, MANAGER, as_of=AS_OF).to_json()["feedback_specificity"]
    assert (figure["numerator"], figure["denominator"]) == (len(GOOD), len(GOOD) + len(NOT_COACHABLE))
