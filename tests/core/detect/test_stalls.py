"""Stalls and next steps: deferrals, the rep accepting them, confirmed and vague next steps, and their distractors."""

from __future__ import annotations

import pytest

from tests.core.detect.talk import found, labels_at, labels_on

STALL_LABELS = {"deferral", "deferral_accepted", "next_step_confirmed", "next_step_vague"}


@pytest.mark.parametrize("text", [
    "Honestly, we are swamped right now. Just send me some information and I'll take a look.",
    "Let me think about it.",
    "Let's circle back next quarter.",
    "It's not a priority right now.",
    "I'll get back to you.",
    "Can you email me some info? I'll run it by my team.",
])
def test_deferrals(text):
    assert "deferral" in labels_on(0, f"C: {text}")


@pytest.mark.parametrize("turn, expected", [
    ("C: I'll send the contract by Friday.", {"next_step_confirmed"}),
    ("C: Could you send me the agenda?", set()),
    ("C: This is a top priority for us this year.", set()),
    ("C: I don't want to just think about it. This matters to us.", set()),
    ("C: I'll get back to you with the numbers by Thursday.", {"next_step_confirmed"}),
])
def test_distractors_are_not_deferrals(turn, expected):
    assert labels_on(0, turn) & STALL_LABELS == expected


def test_a_reply_that_accepts_the_deferral():
    at = labels_at("C: Just send me some information and I'll take a look.", "R: Sure, I'll send that over today.",
                   "C: Great. Thanks.")
    assert "deferral" in at[0] and "deferral_accepted" in at[1]
    assert "next_step_confirmed" not in at.get(1, set()), "sending information is not a next step the customer agreed"
    (accepted,) = [f for f in found("C: Just send me some information.", "R: Sure, will do.")
                   if f.label == "deferral_accepted"]
    assert accepted.kind == "missed_intervention"
    assert accepted.reason == ("the customer deferred ('send me some information'); "
                               "the rep's reply sets no date and asks nothing")


@pytest.mark.parametrize("reply", [
    "R: Happy to. What will you review, and who else needs to be involved?",
    "R: Of course. When would be a good time to go through it together?",
    "R: Sure. Can we put twenty minutes on the calendar for Thursday at 2 to walk through it?",
    "R: Totally understand. What specifically would you want to think through?",
])
def test_a_reply_that_probes_does_not_accept_the_deferral(reply):
    assert "deferral_accepted" not in labels_on(1, "C: Let me think about it.", reply)


def test_a_next_step_with_a_date_the_customer_agrees_to():
    at = labels_at("R: How about Tuesday at 10 for the demo with your team?", "C: Tuesday at 10 works for me.")
    assert "next_step_confirmed" in at[0] and "next_step_confirmed" in at[1]
    assert {f.kind for f in found("R: How about Tuesday at 10 for the demo?", "C: Tuesday at 10 works for me.")
            if f.label == "next_step_confirmed"} == {"next_step"}


def test_a_proposed_date_the_customer_does_not_take_is_no_next_step():
    at = labels_at("R: Would you like to see a demo next week?", "C: Maybe. Honestly, we are swamped right now.")
    assert "next_step_confirmed" not in at.get(0, set()) | at.get(1, set())


def test_every_monday_is_a_habit_not_a_date():
    assert "next_step_confirmed" not in labels_on(0, "C: Sure. Every Monday, two analysts pull the data.")


@pytest.mark.parametrize("turn", ["R: Let's touch base soon.", "R: I'll follow up with you.",
                                  "C: Let's stay in touch."])
def test_vague_next_steps(turn):
    assert labels_on(0, turn) & STALL_LABELS == {"next_step_vague"}


def test_a_goodbye_is_not_a_next_step():
    assert labels_on(0, "R: Thanks, Casey. Talk soon.") & STALL_LABELS == set()


def test_a_proposal_two_customers_agree_to():
    at = labels_at("R: Shall we book the technical review for next Tuesday at eleven? Does that work for both of you?",
                   "C: Tuesday at eleven works for me.", "C: Same here.")
    assert all("next_step_confirmed" in at[i] for i in (0, 1, 2))


def test_a_yes_to_another_question_is_no_next_step():
    at = labels_at("R: Of course, I'll send our standard DPA today. Is your legal team the one to review it?",
                   "C: Yes, legal reviews it, then our CISO signs off.")
    assert "next_step_confirmed" not in at.get(0, set()) | at.get(1, set())


def test_the_rep_commits_to_what_the_customer_asked_for():
    at = labels_at("C: It might. Can you send me a revised quote?", "R: Yes, I'll send it tomorrow morning.")
    assert "next_step_confirmed" in at[1]


def test_naming_the_time_answers_a_dated_proposal():
    at = labels_at("R: Could we do fifteen minutes Thursday afternoon so I can walk you through it?",
                   "C: Thursday at four.", "R: Great, Thursday at four, I'll send the invite.")
    assert all("next_step_confirmed" in at[i] for i in (0, 1, 2))


def test_a_short_question_for_a_day_is_a_proposal():
    at = labels_at("C: Monday we're closed, so any time Monday.", "R: Monday at ten?", "C: Monday at ten, yes.",
                   "R: Great, see you Monday at ten.")
    assert all("next_step_confirmed" in at[i] for i in (1, 2, 3))


def test_a_second_customer_says_yes_to_the_same_step():
    at = labels_at("R: Could we lock the readout now, the nineteenth at ten?", "C: Nineteenth at ten, yes.",
                   "C: Works for me.")
    assert all("next_step_confirmed" in at[i] for i in (0, 1, 2))


def test_an_hour_said_as_a_yes():
    at = labels_at("R: How about Wednesday at two with your manager?", "C: Let me check his calendar... two is fine.")
    assert "next_step_confirmed" in at[1]


def test_a_favour_offered_for_today_is_no_agreed_step():
    at = labels_at("R: Ok, I can send our security packet today so it's not waiting on us.", "C: That'd be great.")
    assert "next_step_confirmed" not in at.get(0, set()) | at.get(1, set())


def test_a_recap_must_say_back_the_day_agreed():
    at = labels_at("R: Can you start Monday?", "C: I can start Monday.",
                   "R: Great, I'll set it up Friday afternoon so it's ready.")
    assert "next_step_confirmed" in at[1]
    assert "next_step_confirmed" not in at.get(2, set())


@pytest.mark.parametrize("turn", [
    "R: And I'll check in in a couple weeks?",
    "R: I'll give you a shout in a couple weeks to see what you thought.",
    "R: And then let's set up a demo for Howard sometime.",
    "R: I'll shoot you a follow up email with the deck and pricing.",
])
def test_a_step_with_a_time_no_calendar_holds_is_vague(turn):
    assert "next_step_vague" in labels_on(0, turn)


@pytest.mark.parametrize("turn", [
    "R: The custom connector might take a couple of weeks.",
    "R: Hey Cody, I'm just following up on the demo from a couple weeks ago.",
    "R: Just to circle back on the call back feature, is it the cost?",
    "R: When's a good time for me to call back, like later this week?",
])
def test_a_time_without_a_step_is_not_a_vague_next_step(turn):
    assert "next_step_vague" not in labels_on(0, turn)


@pytest.mark.parametrize("text", ["Call me next month, we're slammed.", "I'll call you if I'm interested."])
def test_call_me_later_is_a_deferral(text):
    assert "deferral" in labels_on(0, f"C: {text}")


@pytest.mark.parametrize("reply", [
    "R: I hear you on the audit, is that wrapping up in December?",
    "R: For sure. So I send the right thing, is it more the tip splitting or the hours tracking?",
])
def test_asking_about_what_stands_behind_the_deferral_does_not_accept_it(reply):
    assert "deferral_accepted" not in labels_on(1, "C: Circle back with me in the new year.", reply)


@pytest.mark.parametrize("reply", [
    "R: Sure thing, I can do that. What's the best email for you?",
    "R: Awesome. I'll send it right after this. Any other questions for me?",
])
def test_running_the_deferrals_errand_accepts_it(reply):
    assert "deferral_accepted" in labels_on(1, "C: Just send me something and I'll look at it.", reply)


def test_a_figure_to_check_is_no_deferral():
    assert "deferral" not in labels_on(0, "C: Maybe forty terabytes? Maybe fifty. I'd have to check.")


@pytest.mark.parametrize("text", ["I need to run all this by my partner before we do anything.",
                                  "Honestly I need to sit down with Mark, he's my business partner.",
                                  "Just send us something and we'll look at it with the team."])
def test_more_deferrals(text):
    assert "deferral" in labels_on(0, f"C: {text}")


@pytest.mark.parametrize("turns", [
    ("R: When's she usually free?", "C: She's usually free Wednesday afternoons."),
    ("R: When are you next talking to the board chair?", "C: We have a call on Friday."),
])
def test_a_calendar_told_is_no_agreed_step(turns):
    assert "next_step_confirmed" not in labels_on(1, *turns)


def test_asking_for_a_day_and_a_yes_is_an_agreed_step():
    at = labels_at("R: Can you get me the app list by Monday?", "C: Yes, I can do that.")
    assert "next_step_confirmed" in at[0] and "next_step_confirmed" in at[1]


def test_a_question_about_an_event_is_no_proposal():
    at = labels_at("R: The holiday market is this Saturday?", "C: Yeah, the fourteenth.")
    assert "next_step_confirmed" not in at.get(0, set()) | at.get(1, set())


@pytest.mark.parametrize("text", ["Our contract ends on March thirty first, so we'll need to decide before then.",
                                  "The board needs to sign off, and it has to be done by the fifteenth."])
def test_a_deadline_told_is_no_agreed_step(text):
    assert "next_step_confirmed" not in labels_on(0, f"C: {text}")


def test_today_as_how_things_are_is_no_date():
    at = labels_at("R: Could you send me two or three of those rules, written however they're written today?",
                   "C: Yeah, I can do that.")
    assert "next_step_confirmed" not in at.get(0, set()) | at.get(1, set())


def test_a_proposal_taken_on_another_day():
    at = labels_at("R: So what if I call you on the fifth, after you've moved in?",
                   "C: The fifth is a Monday, that's bad. Make it the seventh, Wednesday.")
    assert "next_step_confirmed" in at[0] and "next_step_confirmed" in at[1]


def test_closing_on_the_day_agreed():
    at = labels_at("R: How about the twenty second? Monday?", "C: The twenty second, ok, afternoon. Three o'clock.",
                   "R: Great, thanks.", "C: Thanks.", "R: Ok, talk to you on the twenty second.")
    assert "next_step_confirmed" in at[4]


def test_a_slot_named_without_its_question_mark():
    at = labels_at("C: Monday we're closed, so Monday any time.", "R: Monday at ten.", "C: Monday at ten, yes.")
    assert "next_step_confirmed" in at[1] and "next_step_confirmed" in at[2]


def test_the_yes_to_a_proposal_said_not_asked():
    at = labels_at("R: Let's book a planning session for Tuesday at nine with your team.", "C: Sounds good.")
    assert "next_step_confirmed" in at[0] and "next_step_confirmed" in at[1]


def test_the_great_after_a_recap_is_no_agreement():
    at = labels_at("R: Could we meet on the twenty eighth?", "C: The twenty eighth works for me.",
                   "C: Morning is better for him.", "R: Let's say ten am on the twenty eighth. I'll send the invite now.",
                   "C: Great.")
    assert "next_step_confirmed" not in at.get(4, set())


def test_the_call_itself_is_no_next_step():
    at = labels_at("R: Hey Devon, you booked a call for today, is now still good?", "C: Yeah, yeah, hi.")
    assert "next_step_confirmed" not in at.get(0, set()) | at.get(1, set())


def test_a_habit_told_in_answer_to_a_dated_proposal_is_no_yes():
    at = labels_at("R: When's a good time for Jess, could I grab her for twenty minutes this week?",
                   "C: You'd have to ask her. She's usually free Wednesday afternoons.")
    assert "next_step_confirmed" not in at.get(1, set())


def test_a_question_that_asks_no_day_gets_no_dated_yes():
    at = labels_at("R: Your renewal comes up on November first. Do you want to keep the same plan?",
                   "C: Probably, but at twelve thousand a year I'd want a better rate if we sign for two years.")
    assert "next_step_confirmed" not in at.get(0, set()) | at.get(1, set())
