"""The tracker matcher on its own: word forms, wildcards, exclusions, the side, and what it refuses."""

from __future__ import annotations

import pytest

from desktop.core.detect.model import Line
from desktop.core.trackers import TrackerError, TrackerSpec, find_hits, read_line, tracker_key, word_form


def _finds(spec: TrackerSpec, text: str) -> str | None:
    line = read_line(text)
    return spec.checked().matcher().find(line.words, line.forms, line.form_set)


SEND_OVER = TrackerSpec("Send over", "either", ("send over",))


@pytest.mark.parametrize("text, matched", [
    ("Can you send over the deck?", "send over"),
    ("I'm sending over the contract now", "sending over"),
    ("She sent over the pricing.", "sent over"),
    ("He sends over a summary every week", "sends over"),
])
def test_a_phrase_matches_every_form_of_its_words(text, matched):
    assert _finds(SEND_OVER, text) == matched


@pytest.mark.parametrize("text", ["Send it over", "We are over budget, send nothing", "sender over there"])
def test_a_phrase_is_whole_words_in_order(text):
    assert _finds(SEND_OVER, text) is None


def test_word_forms_fold_inflections_and_irregular_pasts():
    assert {word_form(w) for w in ("price", "prices", "pricing", "priced")} == {word_form("price")}
    assert {word_form(w) for w in ("plan", "planning", "planned", "plans")} == {"plan"}
    assert {word_form(w) for w in ("company", "companies")} == {"company"}
    assert word_form("bought") == word_form("buying") == word_form("buy")
    assert word_form("calling") == "call" and word_form("boss") == word_form("bosses") == "boss"


def test_a_word_star_is_any_word_starting_so_and_a_lone_star_up_to_three_words():
    budget = TrackerSpec("Budget", "either", ("budget*",))
    assert _finds(budget, "our budgeting cycle starts in May") == "budgeting"
    assert _finds(budget, "the Budgets are set") == "budgets"
    assert _finds(budget, "we have the money") is None
    gap = TrackerSpec("Send it over", "either", ("send * over",))
    assert _finds(gap, "send over") == "send over"
    assert _finds(gap, "send the whole deck over") == "send the whole deck over"
    assert _finds(gap, "send the whole big deck over") is None, "four words are more than a gap holds"
    either = TrackerSpec("Finance", "either", ("cfo/controller",))
    assert _finds(either, "our controller signs") == "controller" and _finds(either, "the CFO") == "cfo"


def test_an_exclusion_on_the_same_line_cancels_the_hit():
    spec = TrackerSpec("Budget", "either", ("budget*",), ("no budget",))
    assert _finds(spec, "There is no budget for this") is None
    assert _finds(spec, "The budget is approved") == "budget"


def test_the_side_counts_only_that_speakers_lines():
    lines = [Line(0, 1000, "Riley", "Happy to send over the deck"),
             Line(1000, 2000, "Casey", "Please send over the deck"),
             Line(2000, 3000, "Sam", "send over")]
    roles = {"Riley": "rep", "Casey": "customer"}
    rep, customer, either = (TrackerSpec("t", side, ("send over",)).checked().matcher()
                             for side in ("rep", "customer", "either"))
    found = find_hits([rep, customer, either], lines, roles)
    assert [[h.start_ms for h in hits] for hits in found] == [[0], [1000], [0, 1000, 2000]]
    assert found[1][0].role == "customer" and found[1][0].quote == "Please send over the deck"
    assert found[2][2].role == "unknown", "a voice with no role is counted only by an either tracker"


def test_the_index_query_never_misses_a_line_the_matcher_finds():
    spec = TrackerSpec("t", "either", ("send * over", "budget* owner", "company")).checked()
    query = spec.matcher().index_query()
    assert '"sent"*' in query and '"budget"*' in query and '"compan"*' in query  # companies, company
    assert TrackerSpec("t", "either", ("i'll",)).checked().matcher().index_query() is None  # FTS5 splits it


@pytest.mark.parametrize("spec, words", [
    (TrackerSpec("", "rep", ("x",)), "needs a name"),
    (TrackerSpec("Deferral", "manager", ("x",)), "side 'manager'"),
    (TrackerSpec("Deferral", "rep", ()), "at least one phrase"),
    (TrackerSpec("Deferral", "rep", ("bud*get",)), "alone or at the end"),
    (TrackerSpec("Deferral", "rep", ("* *",)), "no word to look for"),
])
def test_a_tracker_that_cannot_work_is_refused_saying_why(spec, words):
    with pytest.raises(TrackerError, match=words):
        spec.checked()


def test_the_key_is_the_name_in_filter_words():
    assert tracker_key("Next step with a date") == "next_step_with_a_date"
    assert tracker_key("Deferral accepted") == "deferral_accepted"
