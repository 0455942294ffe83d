from datetime import date

import pytest

from desktop.core.enums import BehaviorChange, PracticeKind, Severity
from desktop.core.specificity import METHOD_EXAMPLE, Finding, ItemDraft, check_behavior, check_item, passes
from tests.core.specificity_cases import (
    CASES, NAMED_SPECIFIC, NAMED_VAGUE, PRACTICE_CASES, agreement, practice_agreement,
)


def test_table_is_large_and_balanced():
    assert len(CASES) >= 40
    assert sum(label for _, label in CASES) >= 15
    assert sum(not label for _, label in CASES) >= 15


def test_agreement_with_hand_labels(capsys):
    share, disagreements = agreement(CASES)
    with capsys.disabled():
        print(f"\nspecificity check agreement: {share:.3f} on {len(CASES)} labelled behaviors "
              f"({len(disagreements)} disagreements)")
    assert share >= 0.9, disagreements


def test_practice_tie_agreement_with_hand_labels(capsys):
    share, disagreements = practice_agreement(PRACTICE_CASES)
    with capsys.disabled():
        print(f"\npractice tie agreement: {share:.3f} on {len(PRACTICE_CASES)} labelled pairs "
              f"({len(disagreements)} disagreements)")
    assert share >= 0.9, disagreements
    assert sum(label for *_, label in PRACTICE_CASES) >= 5
    assert sum(not label for *_, label in PRACTICE_CASES) >= 3


RECORD_BEHAVIOR = ("When a customer asks for information, ask: what will you review, and who else "
                   "needs to be involved?")


@pytest.mark.parametrize("task", [
    "Role-play the 'send me some information' moment three times.",  # the record format's example
    "Role-play the “send me some information” moment three times.",
    "Role-play the \"send me some information\" moment three times.",
    "Role-play the ‘just email it over’ moment three times.",
])
def test_the_record_formats_example_pair_is_tied_whatever_the_quotes(task):
    item = _good_item(behavior_text=RECORD_BEHAVIOR, practice_task=task)
    assert check_item(item) == []


def test_single_quotes_are_not_part_of_the_words():
    from desktop.core.specificity import _words

    assert _words("the 'send me some information' moment") == [
        "the", "send", "me", "some", "information", "moment"]
    assert _words("the customer's words, the customer’s words") == [
        "the", "customer's", "words", "the", "customer's", "words"]


def test_a_quoted_phrase_that_is_not_a_moment_still_needs_a_tie():
    item = _good_item(behavior_text=RECORD_BEHAVIOR,
                      practice_task="Role-play the 'send me some pricing' call with a peer.")
    assert [f.message for f in check_item(item) if f.severity == Severity.ERROR] == [
        "The practice task isn't tied to the behavior."]


@pytest.mark.parametrize("text", NAMED_VAGUE)
def test_named_vague_examples_are_flagged_with_reason_and_suggestion(text):
    findings = check_behavior(text)
    assert not passes(findings)
    errors = [f for f in findings if f.severity == Severity.ERROR]
    assert all(f.component == "behavior" and f.message and f.suggestion for f in errors)


@pytest.mark.parametrize("text", NAMED_SPECIFIC)
def test_method_examples_pass_clean(text):
    assert check_behavior(text) == []


def test_two_behaviors_are_flagged_as_more_than_one():
    findings = check_behavior("Ask the rep for the next step and also confirm the close date.")
    assert any("more than one behavior" in f.message for f in findings)
    # A question quoted inside one behavior is not a second behavior.
    assert check_behavior("Ask: \"what will you review, and who else needs to be involved?\"") == []


def test_empty_behavior_is_an_error():
    assert check_behavior("   ")[0].message == "No behavior written yet."


def _good_item(**changes) -> ItemDraft:
    item = ItemDraft(
        moments=[(39876, "Just send me some information and I will take a look.")],
        consequence="The rep doesn't know what the customer will review or who else is involved.",
        behavior_change=BehaviorChange.START,
        behavior_text="When the customer asks for information, ask what they will review and who "
                      "else needs to be involved",
        practice_kind=PracticeKind.ROLE_PLAY,
        practice_task="Role-play the 'send me some information' moment three times, asking who "
                      "else needs to be involved.",
        owner_does="Morgan Manager", owner_reviews="Dana Coach",
        next_evidence="Next two discovery recordings", next_evidence_due=date(2026, 12, 14))
    for key, value in changes.items():
        setattr(item, key, value)
    return item


def test_complete_item_has_no_findings():
    assert check_item(_good_item()) == []


def _components(findings: list[Finding], severity=Severity.ERROR) -> set[str]:
    return {f.component for f in findings if f.severity == severity}


def test_evidence_needs_time_and_quote_or_dated_note():
    assert _components(check_item(_good_item(moments=[]))) == {"evidence"}
    assert _components(check_item(_good_item(moments=[(1000, "  ")]))) == {"evidence"}
    assert _components(check_item(_good_item(moments=[(None, "a quote")]))) == {"evidence"}
    undated = _good_item(moments=[], notes=[("Next step: finance review", None)])
    assert "no date" in check_item(undated)[0].message
    dated = _good_item(moments=[], notes=[("Next step: finance review", date(2026, 12, 2))])
    assert check_item(dated) == []


def test_practice_needs_situation_and_tie_to_behavior():
    assert _components(check_item(_good_item(practice_kind=None))) == {"practice"}
    assert _components(check_item(_good_item(practice_task=""))) == {"practice"}
    untied = check_item(_good_item(practice_task="Do three role-plays on objection handling."))
    assert [f.message for f in untied if f.severity == Severity.ERROR] == [
        "The practice task isn't tied to the behavior."]
    refers = _good_item(practice_task="Role-play this moment with me on Thursday.")
    assert check_item(refers) == []


def test_practice_situation_mismatch_is_a_warning():
    item = _good_item(practice_kind=PracticeKind.ROLE_PLAY,
                      practice_task="In the live pipeline review, ask who else needs to be involved.")
    findings = check_item(item)
    assert passes(findings)
    assert _components(findings, Severity.WARNING) == {"practice"}


def test_next_evidence_needs_place_and_date():
    assert _components(check_item(_good_item(next_evidence_due=None))) == {"next_evidence"}
    nowhere = check_item(_good_item(next_evidence="Soon, hopefully"))
    assert [f.message for f in nowhere] == ["The next evidence point doesn't say where to look."]
    assert _components(check_item(_good_item(next_evidence=""))) == {"next_evidence"}


def test_consequence_owner_and_change_are_advice_only():
    item = _good_item(consequence="", owner_does="", behavior_change=None)
    findings = check_item(item)
    assert passes(findings)
    assert _components(findings, Severity.WARNING) == {"consequence", "owner", "behavior"}


def test_finding_to_dict_uses_plain_strings():
    finding = check_behavior("sell more")[0]
    assert finding.to_dict()["severity"] == "error"
    assert set(finding.to_dict()) == {"component", "severity", "message", "suggestion"}


# --- wording the check was not written from (issue: real coaches' phrasing) ----------------------

@pytest.mark.parametrize("text", [
    "Role-play the pricing objection with each new rep before their first live demo",  # a verb it didn't know
    "Keep your own talk time under half of each one-on-one",
    "Next time a deal slips a quarter, ask the rep what the customer said had changed",  # a trigger clause first
    "Pause for three seconds after asking the rep a question and let them answer first",  # two verbs, one behavior
])
def test_good_behaviors_in_new_wording_pass(text):
    assert passes(check_behavior(text)), check_behavior(text)


def test_plainly_double_behaviors_are_errors():
    findings = check_behavior("Stop interrupting reps during deal reviews, and move the team meeting "
                              "to Tuesday mornings")
    assert [f.severity for f in findings] == [Severity.ERROR]
    assert "more than one behavior" in findings[0].message and '"move"' in findings[0].message


def test_errors_only_where_the_check_is_sure_otherwise_a_warning_with_the_reason():
    sure = {"Deal hygiene issues": "names a topic or an aim",  # no action at all
            "Be more organized": "goal or a trait",  # a trait
            "Increase win rates this quarter": "goal or a trait"}  # a goal with nothing to hear
    for text, words in sure.items():
        errors = [f for f in check_behavior(text) if f.severity == Severity.ERROR]
        assert errors and words in errors[0].message, (text, errors)
    unsure = {"Triage each deal in the Monday review in four minutes": "not a verb the check knows",
              "Ensure every commit deal has a dated next step in Salesforce": "often names an aim"}
    for text, words in unsure.items():
        findings = check_behavior(text)
        assert passes(findings) and findings[0].severity == Severity.WARNING
        assert words in findings[0].message and findings[0].suggestion


@pytest.mark.parametrize("text", [
    "Don't suggest a close date; ask the rep what the customer said",  # a negation, then what replaces it
    "Skip the status update and start the 1:1 with the rep's hardest open deal",
    "Greet the customer and then hand the call straight to the rep",  # two steps of one moment
    "Read the rep's follow-up email before it goes out and point to one sentence to change",
    "Each Monday, pull the list of deals whose close date moved and ask each owner why",
    "The manager should ask for the customer's exact words whenever a rep says a deal is \"on track\"",
    "Deliver your feedback within 24 hours of each call you review",  # a goal verb, then something exact
    "Be the customer in a five-minute role-play of the budget objection every Monday",
    "Ask the rep how confident they feel about the close date on a scale of 1 to 10",  # what is asked
    "Ask the rep what the customer cares about most in the renewal",
    "Reduce your talk time to under 40% in each deal review",  # a number you can hear in the call
    "Give the rep more time to answer: count to five before you speak",
    "When a rep says the deal is slipping, and the customer has gone quiet, ask when they last spoke",
    "Don\u2019t suggest a close date; ask the rep what the customer said",  # a curly apostrophe
])
def test_good_behaviors_of_many_shapes_are_not_errors(text):
    assert passes(check_behavior(text)), check_behavior(text)


@pytest.mark.parametrize("text, reason", [
    ("Pause before responding to the rep, and book a training on negotiation for the team",
     "more than one behavior"),  # a second action on work apart from the conversation
    ("Ask about timing on each call, and rebuild the territory plan by Friday", "more than one behavior"),
    ("Ask about the budget & plan the SKO", "more than one behavior"),
    ("Lower the number of slipped deals", "goal or a trait"),  # a metric target
    ("Reduce churn in the mid-market segment", "goal or a trait"),
    ("Close more deals before quarter end", "makes this an aim"),  # a result as the thing compared
    ("Show the team you care", "feeling"),
    ("Start trusting the reps with bigger deals", "state of mind"),
    ("Stay calm when deals slip", "goal or a trait"),
    ("Needs to own the forecast", "goal or a trait"),  # a modal before the verb
    ("Be available when reps need help", "goal or a trait"),
    ("Quality over quantity in pipeline reviews", "names a topic or a quality"),  # no action at all
    ("Prepare for pipeline reviews", "names an activity"),
    ("Have a broad discussion about discovery", "names a conversation"),
])
def test_not_coachable_in_new_wording_is_an_error_with_its_reason(text, reason):
    errors = [f for f in check_behavior(text) if f.severity == Severity.ERROR]
    assert errors and reason in errors[0].message and errors[0].suggestion, (text, errors)


def test_two_actions_with_nothing_in_common_are_a_warning_not_an_error():
    findings = check_behavior("Open the CRM record and read the last activity aloud")
    assert passes(findings)
    assert [f.severity for f in findings] == [Severity.WARNING]
    assert '"read" adds a second action' in findings[0].message


def test_development_set_in_new_wording_meets_the_goals(capsys):
    from pathlib import Path

    from tests.specificity_eval import evaluate, load

    result = evaluate(load(Path(__file__).with_name("specificity_dev.json")))
    with capsys.disabled():
        print(f"\nspecificity dev set: agreement {result['agreement']:.3f}, with warnings "
              f"{result['agreement_with_warnings']:.3f}, specific flagged as errors "
              f"{result['specific_flagged_error']:.1%} on {result['behaviors']} behaviors")
    assert result["behaviors"] >= 700
    assert result["agreement"] >= 0.9, result["disagreements"]
    assert result["specific_flagged_error"] <= 0.05, result["disagreements"]


def test_the_eval_command_prints_both_agreements_and_the_error_share(tmp_path):
    import json
    import subprocess
    import sys

    path = tmp_path / "set.json"
    path.write_text(json.dumps([{"text": "Improve pipeline discipline", "label": "vague"},
                                {"text": METHOD_EXAMPLE, "label": "specific"},
                                {"text": "Triage the demo in ten minutes", "label": "vague"}]))
    out = subprocess.run([sys.executable, "-m", "tests.specificity_eval", str(path), "--json"],
                         capture_output=True, text=True, check=True)
    result = json.loads(out.stdout)
    assert (result["agreement"], result["agreement_with_warnings"]) == (0.6667, 1.0)
    assert result["specific_flagged_error"] == 0.0
    plain = subprocess.run([sys.executable, "-m", "tests.specificity_eval", str(path)],
                           capture_output=True, text=True, check=True).stdout
    assert "agreement (error = vague):              0.667" in plain
    bad = tmp_path / "bad.json"
    bad.write_text('[{"text": "x", "label": "maybe"}]')
    refused = subprocess.run([sys.executable, "-m", "tests.specificity_eval", str(bad)],
                             capture_output=True, text=True)
    assert refused.returncode != 0 and "item 0" in refused.stderr


@pytest.mark.parametrize("name, floor, flagged", [("blind", 0.90, 0.05), ("after", 0.85, 0.10), ("fresh", 0.90, 0.05)])
def test_the_sets_never_tuned_on_are_measured_and_do_not_fall_back(name, floor, flagged):
    """`blind`: behaviors a coach wrote from the method's text before the rules were rewritten; `after`:
    another coach's, written after. Neither was used to tune the check. Blind was at agreement 0.87 with
    9 % of good ones flagged (short of the goals) and, after the check was made general on development
    behaviors only, at 0.93 with none flagged: its floor is now the goal (0.90, at most 5 % flagged).
    `fresh`: a third coach's, written from the method's text after that and never tuned on (0.945, none
    flagged on first reading); its floor is the goal too. The floors only catch a change that makes them worse."""
    import json
    import subprocess
    import sys

    from tests.conftest import REPO

    path = REPO / "tests" / "core" / "specificity_sets" / f"{name}.json"
    assert len(json.loads(path.read_text(encoding="utf-8"))) >= 80
    out = subprocess.run([sys.executable, "-m", "tests.specificity_eval", str(path), "--json"], cwd=REPO,
                         capture_output=True, text=True, timeout=120, check=True)
    figures = json.loads(out.stdout)
    assert figures["agreement"] >= floor
    assert figures["specific_flagged_error"] <= flagged
