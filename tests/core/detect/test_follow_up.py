"""Missed follow-up: the rep moves on after a budget owner, a pain or an objection."""

from __future__ import annotations

from tests.core.detect.talk import found, labels_at

BUYER = "C: Anything over twenty five thousand has to be approved by our finance director, Dana Brooks."


def test_moving_on_after_the_budget_owner_is_missed():
    at = labels_at(BUYER, "R: Understood. We have flexible packages. Do you use any other reporting tools today?")
    assert "economic_buyer" in at[0] and "missed_follow_up" in at[1]
    (missed,) = [f for f in found(BUYER, "R: Understood. Do you use any other reporting tools?")
                 if f.label == "missed_follow_up"]
    assert missed.kind == "missed_intervention" and missed.speaker == "Riley Rep"
    assert "named who signs off" in missed.reason


def test_asking_about_the_budget_owner_is_a_follow_up():
    for reply in ("R: What would Dana need to see to approve it?",
                  "R: Tell me more about how that approval works.",
                  "R: Would it make sense to include her in the demo?"):
        assert "missed_follow_up" not in labels_at(BUYER, reply).get(1, set()), reply


def test_a_pain_picked_up_by_the_next_question_is_followed_up():
    at = labels_at("C: The numbers are already a week old when the managers see them. It's painful.",
                   "R: What happens when the numbers are a week old?")
    assert "missed_follow_up" not in at.get(1, set())


def test_an_objection_answered_with_a_pitch_is_missed():
    at = labels_at("C: Honestly, that's more than I expected.",
                   "R: Our platform gives you live dashboards and alerts out of the box.")
    assert "missed_follow_up" in at[1]


def test_no_trigger_no_follow_up():
    assert not [f for f in found("C: We have two analysts.", "R: Great. Do you use any other tools?")
                if f.label == "missed_follow_up"]


def test_answering_the_customers_own_question_is_not_a_missed_follow_up():
    at = labels_at("C: Honestly the reports are a nightmare. What does it cost anyway?",
                   "R: For a team your size it's usually one sixty nine a month.")
    assert "pain" in at[0] and "missed_follow_up" not in at.get(1, set())


def test_dwelling_on_the_pain_is_a_follow_up_and_a_pitch_is_not():
    pain = "C: Every other Sunday I lose three hours building the tips spreadsheet by hand."
    assert "missed_follow_up" not in labels_at(pain, "R: Three hours every other Sunday, that's brutal.").get(1, set())
    assert "missed_follow_up" in labels_at(pain, "R: Our platform builds the tips spreadsheet for you.")[1]


def test_a_backchannel_while_the_customer_goes_on_moves_nowhere():
    at = labels_at("C: Honestly, that's more than I expected.", "R: Oof.", "C: We'd have to cut something else.")
    assert "objection" in at[0] and "missed_follow_up" not in at.get(1, set())


def test_a_question_of_its_own_after_a_pain_is_not_a_pitch_over_it():
    pain = "C: Honestly the month end close is a nightmare, it takes us two weeks."
    assert "missed_follow_up" not in labels_at(pain, "R: Do you know the exact month your contract ends?").get(1, set())
    assert "missed_follow_up" in labels_at(pain, "R: We have great dashboards. Do you use Excel today?")[1]


def test_a_budget_owner_confirmed_to_the_reps_own_yes_no_question_needs_no_more():
    at = labels_at("R: And Grant, you're the one signing, or is there someone else?", "C: Just me, it's my clinic.",
                   "R: Great. I'll send the invite for Friday at eight.")
    assert "economic_buyer" in at[1] and "missed_follow_up" not in at.get(2, set())


def test_a_yes_no_question_about_something_else_does_not_excuse_moving_on_from_the_budget_owner():
    """Only a question about who decides has its answer in the budget owner's name; after "would that work?" the
    customer named someone new, and the rep moving on misses them."""
    for asked in ("R: If we got under twenty five thousand, would that work?", "R: Would the team use it on the road?"):
        at = labels_at(asked, "C: Maybe. But Dana, our finance director, signs off on anything.",
                       "R: Got it. We also do payroll, by the way.")
        assert "economic_buyer" in at[1] and "missed_follow_up" in at[2], asked
    at = labels_at("R: Do you sign off on this yourself?", "C: No, Dana, our finance director, signs off on anything.",
                   "R: Got it. We also do payroll, by the way.")
    assert "economic_buyer" in at[1] and "missed_follow_up" not in at.get(2, set())


def test_accepting_a_deferral_is_its_own_moment_not_a_missed_follow_up_too():
    at = labels_at("C: I need to talk to my partner, Steve, before we do anything.",
                   "R: Ok, no problem. I'll check back with you next week then.")
    assert "missed_follow_up" not in at.get(1, set())


def test_a_pain_told_after_the_customers_question_still_wants_a_follow_up():
    at = labels_at("C: The Eastgate one? Honestly the kiosk is a nightmare, it freezes every week.",
                   "R: Ok, we'll flag that with support. So, are you still on the annual plan?")
    assert "pain" in at[0] and "missed_follow_up" in at[1]
