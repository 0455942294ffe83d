"""Qualification labels on what the customer says, and the phrases that look like them but are not."""

from __future__ import annotations

import pytest

from tests.core.detect.talk import found, labels_at, labels_on


@pytest.mark.parametrize("text, label", [
    ("Last quarter one carrier was late on almost twelve percent of our deliveries.", "metrics"),
    ("We lose about 10 hours a week to this.", "metrics"),
    ("Anything over twenty five thousand has to be approved by our finance director, Dana Brooks.", "economic_buyer"),
    ("Our CFO has the final say on anything like this.", "economic_buyer"),
    ("Legal and procurement will both need to review the contract.", "decision_process"),
    ("We'd need a security review before anything gets signed.", "decision_process"),
    ("Every Monday the analysts pull data into spreadsheets by hand. It's a nightmare.", "pain"),
    ("I'll push for this internally and get you in front of our VP.", "champion"),
    ("We're also looking at Tableau and a couple of other vendors.", "competition"),
    ("Honestly, IT wants to build it in house.", "competition"),
    ("We need it live before peak season starts in October.", "critical_event"),
    ("Our contract with the current provider expires in March.", "critical_event"),
    ("Our budget is around 30k a year.", "price"),
    ("That's more than I expected.", "objection"),
    ("I'm worried my team won't use another tool.", "objection"),
])
def test_customer_lines(text, label):
    assert label in labels_on(0, f"C: {text}")


@pytest.mark.parametrize("text, label", [
    ("No problem at all, happy to help.", "pain"),
    ("No worries, take your time.", "objection"),
    ("We haven't had any issues with the carriers this year.", "pain"),
    ("How much does something like that cost?", "price"),  # a question names no amount: the rep's answer does
])
def test_negated_phrases_are_not_labels(text, label):
    assert label not in labels_on(0, f"C: {text}")


def test_the_reps_price_counts_the_reps_pain_does_not():
    assert "price" in labels_on(0, "R: Most teams your size land between twenty and forty thousand dollars a year.")
    assert "pain" not in labels_on(0, "R: That sounds painful.")


def test_money_lost_is_a_metric_not_a_price():
    got = labels_on(0, "C: Those late deliveries cost us $50,000 in lost revenue last year.")
    assert "metrics" in got and "price" not in got


def test_a_customers_qualification_becomes_an_answer_moment():
    (buyer,) = [f for f in found("C: Dana Brooks signs off on all new software.") if f.label == "economic_buyer"]
    assert buyer.kind == "answer" and "sign" in buyer.reason


def test_an_answer_is_read_by_its_question():
    at = labels_at("R: Who would make that decision for support?", "C: Their director, Lina. I think she'd love it.")
    assert "economic_buyer" in at[1]
    at = labels_at("R: Do you already have quotes from other vendors?", "C: One so far, from a company in Germany.")
    assert "competition" in at[1]
    at = labels_at("R: And what's your timeline for fixing this?", "C: We're moving offices in August, so before that.")
    assert "critical_event" in at[1]
    at = labels_at("R: Do you already have quotes from other vendors?", "C: No, not yet.")
    assert "competition" not in at.get(1, set())


def test_an_answer_goes_on_with_the_pain_only_when_asked_about_it():
    pain = "C: Logging calls is slower than their old spreadsheets, so half never get logged."
    assert "pain" in labels_at(pain, "R: Slower in what way?", "C: Logging a call takes five clicks and two screens.")[2]
    assert "pain" not in labels_at(pain, "R: Who else uses the spreadsheets?", "C: The regional managers, six of them.").get(2, set())


def test_a_word_of_the_list_in_another_form_counts():
    assert "pain" in labels_on(0, "C: The drivers struggled all winter.")  # the list says struggle, struggling


@pytest.mark.parametrize("answer, named", [
    ("We export everything to spreadsheets every Monday.", False),  # a weekday is no one's name
    ("We talk it over again in March.", False),
    ("Our general counsel, Ms. Obi.", True),
])
def test_asked_who_decides_a_capitalised_calendar_word_is_not_the_buyer(answer, named):
    at = labels_at("R: What will you review in it, and who else needs to be involved in the decision?", f"C: {answer}")
    assert ("economic_buyer" in at.get(1, set())) is named


def test_a_month_forces_the_decision_only_when_something_falls_due():
    from tests.core.detect.talk import labels_on as on
    assert "critical_event" in on(0, "C: Our contract with them ends in March.")
    assert "critical_event" in on(0, "C: We need it running by September.")
    for said in ("C: We bring on three hundred seasonal people every November.",
                 "C: Seven trucks in the summer when my nephew is off school."):
        assert "critical_event" not in on(0, said), said


def test_a_refusal_is_a_push_back_whatever_its_words():
    from tests.core.detect.talk import labels_on as on
    for said in ("C: I don't sign three-year deals for tech we haven't used.",
                 "C: Our chefs are not going to load recipes.",
                 "C: If this hammers the warehouse, Ravi is going to say no."):
        assert "objection" in on(0, said), said
    assert "objection" not in on(0, "C: I won't sign it myself, Dr. Mehta has the final say on anything like this.")


def test_weighing_the_reps_price_is_a_push_back_and_taking_it_is_not():
    from tests.core.detect.talk import labels_on as on
    price = "R: Fourteen seats on the agency plan is twenty two a seat, so about three hundred a month."
    assert "objection" in on(1, price, "C: Hmm, we're paying like a hundred and sixty for Asana.")
    assert "objection" not in on(1, price, "C: Okay, that's in the zone.")


def test_once_a_price_is_on_the_table_the_next_amounts_are_prices():
    at = labels_at("R: What did the others come in at?",
                   "C: Vanta quoted us twenty four thousand a year.",
                   "C: Drata was about twenty k.")
    assert "price" in at[1] and "price" in at[2]
    assert "price" not in labels_at("C: Drata was about twenty k.").get(0, set())


def test_who_signs_said_by_its_shape():
    from tests.core.detect.talk import labels_on as on
    for said in ("C: Mostly cost and contract. I'm the CFO.",
                 "C: Send it to me, I sign it.",
                 "C: I can't sign anything. Dr. Mehta owns the practice.",
                 "C: I need to run all this by my partner, Ron, before we do anything.",
                 "C: Look, she's really the one who'd decide."):
        assert "economic_buyer" in on(0, said), said
    assert "economic_buyer" not in on(0, "C: I'd need to see a scope before I sign anything.")


def test_just_me_answers_who_decides():
    at = labels_at("R: Who made the final call, was it you or your partner?", "C: Just me.")
    assert "economic_buyer" in at[1]


def test_an_approval_threshold_is_how_they_buy():
    from tests.core.detect.talk import labels_on as on
    assert "decision_process" in on(0, "C: Anything over twenty five thousand has to be bid out.")
    assert "decision_process" in on(0, "C: Over two million the board votes. Under that Dr. Anand and I can sign.")
    assert "decision_process" not in on(0, "C: Scrap is at six percent. Our target for next year is under three.")


def test_when_the_committee_meets_is_how_they_buy():
    at = labels_at("R: When does the management committee next meet?", "C: First Monday of every month.")
    assert "decision_process" in at[1] and "critical_event" not in at[1]
    at = labels_at("R: How long did counsel take last time?", "C: Three weeks. They're slow.")
    assert "decision_process" in at[1]


def test_a_customers_own_count_of_time_or_money_is_a_metric():
    from tests.core.detect.talk import labels_on as on
    for said in ("C: Everything else was down for like seven hours.",
                 "C: Each submission is about ninety minutes of keying on average.",
                 "C: We spent I think a hundred and ten grand on fuel last quarter."):
        assert "metrics" in on(0, said), said
    for said in ("C: I send him the hours every two weeks on a spreadsheet.",
                 "C: We're paying about sixty a month for it."):
        assert "metrics" not in on(0, said), said


def test_a_tool_named_by_how_they_use_it_is_competition():
    from tests.core.detect.talk import labels_on as on
    for said in ("C: Yeah, we've been on Mixpanel for three years.",
                 "C: Labor we already get from 7shifts.",
                 "C: We tried that with MarketMan and it lasted a month.",
                 "C: We lost a few jobs to Cool Breeze because they could get out same day."):
        assert "competition" in on(0, said), said
    assert "competition" not in on(0, "C: I'd have to check with Frank first.")


def test_an_answer_about_other_vendors_must_name_one():
    at = labels_at("R: Who else is in the running?", "C: Tenable, and Qualys obviously wants to keep us.")
    assert "competition" in at[1]
    at = labels_at("R: Anyone else you're talking to?", "C: Just us for now, really.")
    assert "competition" not in at.get(1, set())


def test_the_same_label_said_again_far_from_before_is_not_proposed_each_time():
    turns = []
    for _ in range(6):
        turns += ["C: Honestly the reporting is a nightmare.", "R: Okay.", "C: We have two analysts.",
                  "R: Right.", "C: They sit in Leeds.", "R: Fine."]
    pains = [f for f in found(*turns) if f.label == "pain"]
    assert len(pains) == 4  # the first four mentions; the fifth and sixth, far from the last, are repeats


def test_a_renewal_forces_the_decision_only_when_it_falls_due():
    from tests.core.detect.talk import labels_on as on
    assert "critical_event" in on(0, "C: The renewal is due in June and they want an answer before then.")
    assert "critical_event" not in on(0, "C: Dale looped me in because the Splunk renewal is on my desk.")


def test_the_reps_own_rate_for_the_product_is_a_price():
    for said in ("R: For three staff it's forty five a month.",
                 "R: For your seat count we'd be in the seven to eight hundred range.",
                 "R: And we'd be at two ninety for three practitioners, including claims."):
        assert "price" in labels_at(said)[0], said
    assert "price" not in labels_at("R: How many of them come in a month?").get(0, set())


def test_an_answer_to_what_holds_them_back_is_a_push_back():
    at = labels_at("R: Is there anything that would stop you switching, even if we're better?",
                   "C: Transition risk. If a branch goes down during the cutover, members notice that.")
    assert "objection" in at[1]
    at = labels_at("R: No worries! So what are you doing for billing right now?", "C: Venmo, and some people pay cash.")
    assert "objection" not in at.get(1, set())


def test_a_sentence_that_pushes_back_is_not_a_pain_as_well():
    at = labels_at("C: Price, probably. And he hates switching systems, last time it was a nightmare.")
    assert "objection" in at[0] and "pain" not in at[0]


def test_something_that_falls_due_with_its_date_is_a_critical_event_on_either_side():
    from tests.core.detect.talk import labels_on as on
    assert "critical_event" in on(0, "C: Our cyber insurance came back with a questionnaire. Renewal's August first.")
    assert "critical_event" in on(0, "R: So this is the annual check in, your phone contract renews on January first.")
    assert "critical_event" not in on(0, "C: We signed the contract last year, on the first of March.")
    at = labels_at("R: So when's your Salesforce renewal?", "C: September thirtieth, it's a three-year deal.")
    assert "critical_event" in at[1]


def test_building_it_themselves_or_a_tool_called_by_name_is_competition():
    from tests.core.detect.talk import labels_on as on
    assert "competition" in on(0, "C: I've been asked to look at building this ourselves.")
    assert "competition" in on(0, "C: We're a small studio and I found something called Momence that's half the price.")


def test_time_for_the_call_and_a_hundred_percent_are_not_metrics():
    from tests.core.detect.talk import labels_on as on
    assert "metrics" not in on(0, "C: Good, good. I've got about fifteen minutes between patients.")
    assert "metrics" not in on(0, "C: The tips. One hundred percent the tips.")
    assert "price" in on(0, "C: Honestly, a cap. If it's capped at three percent a year we'd do it.")


def test_the_customer_naming_themself_answers_who_decides_and_being_free_does_not():
    at = labels_at("R: Is your accountant the one who approves it, or is that you?",
                   "C: Oh no it's me, he just likes to complain.")
    assert "economic_buyer" in at[1]
    at = labels_at("R: And who signs off on something like this?", "C: Friday at eight works for me.")
    assert "economic_buyer" not in at.get(1, set())


def test_a_refusal_said_with_a_contraction_is_a_push_back():
    from tests.core.detect.talk import labels_on as on
    for said in ("C: And can you send the migration plan, because I'm not moving six hundred bookings by hand.",
                 "C: Some of them are seventy years old, they're not downloading anything.",
                 "C: But I don't sign off on this, that's Hal, and he's gonna say we already pay you enough."):
        assert "objection" in on(0, said), said
    assert "objection" not in on(0, "C: I'm not sure, let me look at the calendar.")


def test_the_minutes_for_the_call_and_an_approval_threshold_after_a_price_are_neither_metric_nor_price():
    at = labels_at("C: I have about twenty minutes, so let's make it count.")
    assert "metrics" not in at.get(0, set())
    at = labels_at("R: Most teams your size land between twenty and forty thousand dollars a year.",
                   "C: Hmm. Anything over twenty five thousand has to be approved by our finance director.")
    assert "price" in at[0] and "price" not in at[1] and "economic_buyer" in at[1]


def test_a_customer_taking_up_the_problem_the_rep_put_to_them_describes_a_pain():
    at = labels_at("R: I'm guessing you're struggling to get visibility across your locations, right?",
                   "C: Um, yeah, I mean we've got twenty three locations and four of them are on an old system.")
    assert "pain" in at[1]
    at = labels_at("R: I'm guessing you're struggling to get visibility across your locations, right?", "C: Not really.")
    assert "pain" not in at.get(1, set())
