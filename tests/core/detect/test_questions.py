"""Questions: open, closed, leading, the customer's; with or without a question mark; tags are not questions."""

from __future__ import annotations

import pytest

from tests.core.detect.talk import found, labels_on

QUESTION_LABELS = {"rep_question_open", "rep_question_closed", "rep_question_leading", "customer_question"}


@pytest.mark.parametrize("text", [
    "Could you walk me through how you report on delivery performance today?",
    "What happens when the numbers are a week old?",
    "How many analysts pull the data",          # Whisper dropped the question mark
    "Why did you move off the old tool?",
    "Which regions see the most late deliveries",
    "When does the new warehouse open?",
    "Tell me about the last time a carrier was late.",
    "So, how do you decide which carrier gets a route?",
])
def test_open_questions(text):
    assert labels_on(0, f"R: {text}") & QUESTION_LABELS == {"rep_question_open"}


@pytest.mark.parametrize("text", [
    "Would you like to see a demo next week?",
    "Do you use any other reporting tools today?",
    "Is it mostly the analysts who use it",     # no question mark
    "Is that a weekly report or a monthly one?",  # either/or
    "Are you the one who runs the Monday report?",
])
def test_closed_questions(text):
    assert labels_on(0, f"R: {text}") & QUESTION_LABELS == {"rep_question_closed"}


@pytest.mark.parametrize("text", [
    "That sounds painful. So you'd like real time dashboards, right?",
    "So you'd like real time dashboards, right",  # no question mark
    "Wouldn't it be great to have all of that automated?",
    "You'd agree that spreadsheets don't scale?",
    "Don't you think your managers deserve live numbers?",
    "That's a big risk for you, isn't it?",
])
def test_leading_questions(text):
    assert labels_on(0, f"R: {text}") & QUESTION_LABELS == {"rep_question_leading"}


@pytest.mark.parametrize("text", [
    "Could you send me the agenda?",
    "How much does something like that cost?",
    "Does it connect to our routing system",
])
def test_customer_questions(text):
    assert labels_on(0, f"C: {text}") & QUESTION_LABELS == {"customer_question"}


@pytest.mark.parametrize("turn", [
    "C: It's been a crazy quarter, you know?",
    "C: We tried that once. Who knows?",
    "R: When we launched this in Europe, adoption doubled.",
    "R: What we hear from most teams is that Monday is the worst day.",
    "R: That's right. We can do that.",
    "C: Really?",
    "R: Have a great weekend.",
])
def test_statements_and_rhetorical_tags_are_not_questions(turn):
    assert labels_on(0, turn) & QUESTION_LABELS == set()


def test_a_question_finding_says_why_and_becomes_a_question_moment():
    (finding,) = [f for f in found("R: Would you like to see a demo next week?") if f.label.startswith("rep_q")]
    assert finding.kind == "question" and finding.role == "rep" and finding.speaker == "Riley Rep"
    assert finding.quote == "Would you like to see a demo next week?"
    assert "yes/no" in finding.reason and "would you" in finding.reason


def test_unknown_roles_give_no_rep_or_customer_questions():
    assert found("R: How do you report today?", roles={}) == []


@pytest.mark.parametrize("text, label", [
    ("so casey how are you guys tracking deliveries right now", "rep_question_open"),  # her name, no punctuation
    ("Nina, what does the buying process usually look like on your side?", "rep_question_open"),
    ("do managers ever end up short staffed", "rep_question_closed"),
    ("wow ok so a shared schedule would help a lot wouldn't it", "rep_question_leading"),
    ("got it you'd want all carriers in one view right", "rep_question_leading"),
    ("Slower in what way?", "rep_question_open"),
    ("whos the person who signs off on a tool like this", "rep_question_open"),
])
def test_questions_as_whisper_and_people_say_them(text, label):
    assert label in labels_on(1, "C: Hello.", f"R: {text}")  # Casey speaks too: her name is known


def test_a_relative_clause_is_not_a_question():
    assert labels_on(0, "C: We can't see store level, which is the problem.") & QUESTION_LABELS == set()


@pytest.mark.parametrize("text", [
    "What if I call you on the fifth, after you've moved in?",   # a proposal to say yes or no to
    "How about the twenty second?",
    "Where do you sit on this? Is this something the board would need to approve?",  # narrowed to a yes or no
    "you ever looked at Gusto",                                  # the verb dropped, no question mark
    "anyone else involved in that decision",
    "that work for you",
    "Curious if you've looked at anyone else.",
])
def test_closed_questions_people_say(text):
    assert labels_on(0, f"R: {text}") & QUESTION_LABELS == {"rep_question_closed"}


@pytest.mark.parametrize("text", [
    "Angela, can I bring you in, where do you sit in all this?",  # the question asked is the last one
    "And the DOT work, how important is that to the firm?",
    "And the goal for April?",
    "Can I ask, what's happening now that made you call?",
    "hey, Chad with GreenRoute, how you doing today",
])
def test_open_questions_people_say(text):
    assert labels_on(0, f"R: {text}") & QUESTION_LABELS == {"rep_question_open"}


@pytest.mark.parametrize("text", [
    "what'd you think of their offer",          # a question word's contraction, as people say it
    "And who'd make the final call on this",
    "how'd the pilot land with the team",
    "where'd you hear about us",
    "who'll be there from your side",
])
def test_open_questions_with_a_contracted_question_word(text):
    assert labels_on(0, f"R: {text}") & QUESTION_LABELS == {"rep_question_open"}


def test_a_contracted_who_after_a_comma_tells_who_it_asks_nothing():
    assert labels_on(0, "R: I talked to Dana, who'd be the one to sign off.") & QUESTION_LABELS == set()


@pytest.mark.parametrize("turn", [
    "R: So what we'd typically propose for a firm your size is the managed plan.",
    "R: Zoe was just walking me through the September numbers.",
    "R: And have your paper book with you, we'll type it in together.",
    "C: It works, but usage is low.",
])
def test_statements_built_like_questions_are_not_questions(turn):
    assert labels_on(0, turn) & QUESTION_LABELS == set()


@pytest.mark.parametrize("text", [
    "And I bet your food cost is a big pain point.",   # a guess said as a statement, waiting for the yes
    "Four months. And I'm guessing the audit fee went up too?",
    "And it's a nightmare, I'm guessing.",
])
def test_a_guess_handed_to_the_customer_is_leading(text):
    assert labels_on(0, f"R: {text}") & QUESTION_LABELS == {"rep_question_leading"}


@pytest.mark.parametrize("text", [
    "And last thing, is there a date you'd want to be switched by?",   # 'you'd want' inside the question asks
    "So does that sound like something you'd want to move forward on?",
])
def test_you_would_want_inside_a_question_is_not_leading(text):
    assert labels_on(0, f"R: {text}") & QUESTION_LABELS == {"rep_question_closed"}


def test_an_echo_is_not_a_tag():
    assert labels_on(0, "R: Oh, right, right. So I'll just keep an eye out for the RFP then.") & QUESTION_LABELS == set()
    assert labels_on(0, "C: I bet that was hard on the team.") & QUESTION_LABELS == set()


def test_a_name_at_the_start_of_a_statement_is_not_whom_it_asks():
    from tests.core.detect.talk import labels_at
    at = labels_at("R: Who else would weigh in?", "C: Riley would know better. Riley can see it too.")
    assert "customer_question" not in at.get(1, set())


@pytest.mark.parametrize("turn", [
    "C: Which is, like, all our revenue.",
    "C: I have thirty for the whole thing. Which I know is tight.",
])
def test_a_sentence_going_on_with_which_is_no_question(turn):
    assert labels_on(0, turn) & QUESTION_LABELS == set()


def test_a_figure_said_with_a_rising_voice_answers():
    from tests.core.detect.talk import labels_at
    at = labels_at("R: How much data do you have?", "C: Maybe forty terabytes? Maybe fifty.")
    assert "customer_question" not in at.get(1, set())
    at = labels_at("R: It's around ninety a month per user.", "C: For all two hundred?")
    assert "customer_question" in at[1]


@pytest.mark.parametrize("text, style", [
    # speech to text drops the question mark: the question is read from how it is built
    ("If you changed providers, who signs off on it.", "rep_question_open"),
    ("And the renewal with your current vendor, when is that.", "rep_question_open"),
    ("Slower in what way.", "rep_question_open"),
    ("Why before the board meeting.", "rep_question_open"),
    ("Ha, yeah, when is it.", "rep_question_open"),
    ("Eighty percent is better than most. Which of the sixty scare you the most to move.", "rep_question_open"),
    ("hey Gus, it's Kayla from ShopLogic, your account rep, you got a sec", "rep_question_closed"),
    ("Want me to set up a quick trial for two of your agents.", "rep_question_closed"),
    ("we can do a bundle for multi location would that help", "rep_question_closed"),
    ("Have I caught you at an okay time.", "rep_question_closed"),
])
def test_questions_without_their_question_mark(text, style):
    assert labels_on(0, f"R: {text}") & QUESTION_LABELS == {style}


@pytest.mark.parametrize("text", ["And here is the audit log, which shows every change.",
                                  "So that's ten hours a day lost, which is more than the price difference."])
def test_a_which_clause_after_a_lead_in_is_no_question(text):
    assert labels_on(0, f"R: {text}") & QUESTION_LABELS == set()


@pytest.mark.parametrize("text, style", [
    ("and Grant, you're the one signing, or is there someone else, like a business partner", "rep_question_closed"),
    ("want to set it up right now. it takes ten minutes", "rep_question_closed"),
    ("And Ingrid, the app list by Monday if you can.", "rep_question_closed"),
    ("otherwise how's call volume been, any changes at the clinic.", "rep_question_open"),
])
def test_more_questions_without_their_question_mark(text, style):
    assert labels_on(0, f"R: {text}") & QUESTION_LABELS == {style}


@pytest.mark.parametrize("text, style", [
    ("Can you share the MSA template early?", "rep_question_closed"),   # a document asked for, not a story
    ("Could you share how you report on it today?", "rep_question_open"),
    ("Just wondering if you've had a chance to look at it", "rep_question_closed"),
    ("Would love to hear how you handle that today", "rep_question_open"),
    ("I'd love to know whether that's set for this year", "rep_question_closed"),
])
def test_requests_and_wonderings(text, style):
    assert labels_on(0, f"R: {text}") & QUESTION_LABELS == {style}


@pytest.mark.parametrize("turn", [
    "C: What's not great is the insurance claims part.",
    "C: My manager says we could do this with, uh, what's it called, the BirdEye thing.",
    "C: And then the manager's like, why can't my new person log in, and it's our fault.",
])
def test_statements_holding_a_question_word_are_not_questions(turn):
    assert labels_on(0, turn) & QUESTION_LABELS == set()


def test_whats_then_is_it_still_asks():
    assert labels_on(0, "R: What's your timeline, is it this quarter?") & QUESTION_LABELS


@pytest.mark.parametrize("text", [
    "Who would sign off on this on your side, is that you?",    # the question ends on a yes or no to say
    "How are you doing it today, is there any compliance person?",
    "who made the final call, was it you or your partner",
])
def test_an_open_question_narrowed_to_a_yes_or_no_is_closed(text):
    assert labels_on(0, f"R: {text}") & QUESTION_LABELS == {"rep_question_closed"}


def test_an_open_question_with_a_tail_that_asks_nothing_stays_open():
    assert labels_on(0, "R: And what do you pay for it today, roughly?") & QUESTION_LABELS == {"rep_question_open"}


@pytest.mark.parametrize("text", [
    "Just so I have it right, the regional managers are still the ones who decide.",  # a check said as a statement
    "Okay, so just to confirm, you're the decision maker here.",
    "you're still on the old system or not",
])
def test_a_check_said_as_a_statement_is_closed(text):
    assert labels_on(0, f"R: {text}") & QUESTION_LABELS == {"rep_question_closed"}


def test_wanting_to_confirm_later_asks_nothing():
    assert labels_on(0, "R: I'd want to confirm once I see row counts.") & QUESTION_LABELS == set()


@pytest.mark.parametrize("turn, asks", [
    ("C: May is our busiest month.", False),
    ("C: May twelfth works for us.", False),
    ("C: May number looks.", False),  # Whisper's "Maya Brooks." on the demo call
    ("C: May I ask who signs off on this", True),
    ("C: may we see the numbers first", True),
])
def test_may_asks_only_with_someone_after_it(turn, asks):
    assert ("customer_question" in labels_on(0, turn)) is asks
