from desktop.core.behaviors import SEED, library, suggest
from desktop.core.specificity import check_behavior

KNOWN = [
    "Ask the rep which date the customer agreed for the next meeting.",
    "Pause for three seconds after the rep finishes their forecast.",
    "Ask the rep who else the customer said needs to sign off.",
    "ask the rep which date the customer agreed for the next meeting",  # same wording again
]


def test_seed_has_the_methods_examples_and_they_pass_the_check():
    assert SEED[0].startswith("Ask the rep to state the next step the customer confirmed")
    assert SEED[1].startswith("When the customer asks for information")
    assert all(check_behavior(b) == [] for b in SEED)


def test_library_is_seed_first_and_each_wording_once():
    lib = library(KNOWN)
    assert lib[:2] == list(SEED)
    assert len(lib) == 5


def test_prefix_matches_come_first_in_library_order():
    assert suggest("ask the rep", KNOWN, limit=3) == [SEED[0], KNOWN[0], KNOWN[2]]
    assert suggest("  PAUSE  for", KNOWN) == [KNOWN[1]]


def test_then_word_overlap_most_shared_first():
    # Nothing starts with "who else"; all mention who else, the ones with more shared words first.
    result = suggest("who else needs involved", KNOWN)
    assert result[0] == SEED[1]  # shares "else", "needs", "involved"
    assert KNOWN[2] in result
    # The last word being typed matches as a prefix.
    assert suggest("three sec", KNOWN) == [KNOWN[1]]


def test_empty_text_offers_the_library_and_limit_is_respected():
    assert suggest("", KNOWN, limit=2) == list(SEED)
    assert suggest("ask", KNOWN, limit=0) == []
    assert suggest("zebra", KNOWN) == []
