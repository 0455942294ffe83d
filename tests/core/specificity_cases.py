"""Behaviors a coach might write, labelled by hand before the check was tuned.

True = specific (a manager could do it in the next call or pipeline review and a
coach could hear it); False = vague (a goal, a trait, or more than one behavior).
Some labels are deliberately hard cases; where the check disagrees with a label
the label stays as written — the disagreement is what `agreement` reports.
"""

from __future__ import annotations

from collections.abc import Sequence

SPECIFIC = True
VAGUE = False

CASES: list[tuple[str, bool]] = [
    # The method's own examples and the record format's example.
    ("Ask the rep to state the next step the customer confirmed before discussing how likely the deal is to close.", SPECIFIC),
    ("When the customer asks for information, ask what they will review and who else needs to be involved", SPECIFIC),
    ("When a customer asks for information, ask: what will you review, and who else needs to be involved?", SPECIFIC),
    # Specific behaviors a coach might write.
    ("Ask the rep which date the customer agreed for the next meeting before moving to the next deal.", SPECIFIC),
    ("Pause for three seconds after the rep finishes their forecast before asking a follow-up question.", SPECIFIC),
    ("Summarise the customer's stated pain in one sentence before the rep presents pricing.", SPECIFIC),
    ("Stop rewriting the rep's next step in the CRM during the pipeline review.", SPECIFIC),
    ("Confirm the economic buyer's name with the rep before the deal moves to commit.", SPECIFIC),
    ("Name the missing MEDDICC criterion out loud when the rep skips it in the deal review.", SPECIFIC),
    ("Repeat the customer's exact words back to the rep before asking what they mean.", SPECIFIC),
    ("Write the customer-confirmed next step and its date in the opportunity's next-step field during the 1:1.", SPECIFIC),
    ("Open each pipeline review with the deals whose next step date has passed.", SPECIFIC),
    ("Close every 1:1 by asking the rep to say the one action they will take before Friday.", SPECIFIC),
    ("Ask the rep what the customer said, word for word, when they agreed to the demo.", SPECIFIC),
    ("State the decision criteria the customer gave before asking the rep to rate the deal.", SPECIFIC),
    ("During deal reviews, ask the rep who else the customer said needs to sign off.", SPECIFIC),
    ("In the Monday forecast call, ask the rep for the customer's own words on timing before accepting a close date.", SPECIFIC),
    ("Stop answering for the rep when the director asks about a deal in the forecast call.", SPECIFIC),
    ("Ask the rep to play the 30 seconds of the call where the customer named the budget.", SPECIFIC),
    ("Confirm with the rep the date of the customer's next meeting before logging the deal as commit.", SPECIFIC),
    ("Ask 'what will you review, and who else needs to be involved?' when the customer asks for a deck.", SPECIFIC),
    ("Let the rep finish their answer before asking the next question in pipeline reviews.", SPECIFIC),
    ("Before the rep shares a proposal, ask them which problem the customer said it must solve.", SPECIFIC),
    ("Check the next-step field in Salesforce with the rep before discussing the forecast category.", SPECIFIC),
    ("Ask about next steps.", SPECIFIC),
    ("Stop interrupting the rep while they explain a deal in the pipeline review.", SPECIFIC),
    ("Ask the rep what the customer will do between now and the next meeting.", SPECIFIC),
    ("Summarize the three open risks on the deal before the rep leaves the 1:1.", SPECIFIC),
    ("Pause after asking the rep about the close date, and wait for their answer before speaking.", SPECIFIC),
    # The four vague examples named in the issue.
    ("Improve pipeline discipline", VAGUE),
    ("sell more", VAGUE),
    ("Be more proactive", VAGUE),
    ("Better discovery", VAGUE),
    # Other vague notes coaches write.
    ("Be a better coach to the team.", VAGUE),
    ("Focus on qualification.", VAGUE),
    ("Work on listening skills.", VAGUE),
    ("Get more comfortable with silence.", VAGUE),
    ("Improve forecast accuracy.", VAGUE),
    ("Drive accountability in pipeline reviews.", VAGUE),
    ("Ask better questions.", VAGUE),
    ("Ask more questions and also stop interrupting the rep.", VAGUE),
    ("Ask the rep for the next step, confirm the date, and write it in the CRM.", VAGUE),
    ("Be more curious about the customer's business.", VAGUE),
    ("Own the forecast.", VAGUE),
    ("Stop being so negative in 1:1s.", VAGUE),
    ("Have stronger deal reviews.", VAGUE),
    ("Coach the reps more.", VAGUE),
    ("Improve how you run 1:1s.", VAGUE),
    ("Think about the customer's perspective more.", VAGUE),
    ("Demonstrate leadership presence in team meetings.", VAGUE),
    ("Understand the deal better before the forecast call.", VAGUE),
    ("Show more empathy.", VAGUE),
    ("Increase win rates in Q3.", VAGUE),
    ("Hold reps accountable.", VAGUE),
    ("Make pipeline reviews more effective.", VAGUE),
    ("More discovery on every call.", VAGUE),
    ("Try to be more structured in forecast calls.", VAGUE),
    ("Be more strategic.", VAGUE),
    ("Prioritize coaching time.", VAGUE),
    ("Leverage MEDDICC more effectively.", VAGUE),
    ("Drive urgency with customers.", VAGUE),
    # Quoting shapes: a quoted question is what the manager will say, whatever the quotes.
    ("Ask “what will you review, and who else needs to be involved?” when the customer asks for information.", SPECIFIC),
    ("Ask \"what will you review, and who else needs to be involved?\" when the customer asks for a deck.", SPECIFIC),
    ("When the customer says 'just send me something', ask who else will read it.", SPECIFIC),
    ("Say ‘tell me more about that’ before the rep moves to the next question.", SPECIFIC),
    ("Be more “customer-centric”.", VAGUE),
]

TIED = True
UNTIED = False
_INFO_BEHAVIOR = ("When a customer asks for information, ask: what will you review, and who else needs "
                  "to be involved?")

# (behavior, practice task, label): is the task tied to the behavior? The record
# format's own example pair comes first; then the same moment named in other quotes.
PRACTICE_CASES: list[tuple[str, str, bool]] = [
    (_INFO_BEHAVIOR, "Role-play the 'send me some information' moment three times.", TIED),
    (_INFO_BEHAVIOR, "Role-play the “send me some information” moment three times.", TIED),
    (_INFO_BEHAVIOR, "Role-play the \"send me some information\" moment three times.", TIED),
    (_INFO_BEHAVIOR, "Role-play the ‘just email it over’ moment three times.", TIED),
    (_INFO_BEHAVIOR, "Role-play the 'just email it over' moment with me on Thursday.", TIED),
    (_INFO_BEHAVIOR, "Replay this moment and say the question out loud twice.", TIED),
    (_INFO_BEHAVIOR, "In the next pipeline review, ask who else needs to be involved in each deal.", TIED),
    ("Ask the rep to state the next step the customer confirmed before discussing how likely the deal is to close.",
     "In the Monday pipeline review, ask for the confirmed next step on the top five deals.", TIED),
    ("Pause for three seconds after the rep finishes their forecast before asking a follow-up question.",
     "Role-play 'the rep's forecast' moment: count to three before you speak.", TIED),
    (_INFO_BEHAVIOR, "Do three role-plays on objection handling.", UNTIED),
    (_INFO_BEHAVIOR, "Role-play the 'send me some pricing' call with a peer.", UNTIED),
    ("Ask the rep to state the next step the customer confirmed before discussing how likely the deal is to close.",
     "Read a book on negotiation before Friday.", UNTIED),
    ("Stop interrupting the rep while they explain a deal in the pipeline review.",
     "Role-play a discovery call with a peer.", UNTIED),
]

# The examples the issue names: they must be classified right whatever the overall figure.
NAMED_VAGUE = ["Improve pipeline discipline", "sell more", "Be more proactive", "Better discovery"]
NAMED_SPECIFIC = [
    "Ask the rep to state the next step the customer confirmed before discussing how likely the deal is to close.",
    "When the customer asks for information, ask what they will review and who else needs to be involved",
]


def practice_agreement(cases: Sequence[tuple[str, str, bool]]
                       ) -> tuple[float, list[tuple[str, str, bool, bool]]]:
    """Share of (behavior, task) pairs where the practice check agrees the task is (not) tied.

    Each disagreement is (behavior, task, label, what the check said) with True = tied.
    """
    from datetime import date

    from desktop.core.enums import PracticeKind
    from desktop.core.specificity import ItemDraft, check_item

    if not cases:
        raise ValueError("practice_agreement needs at least one labelled pair")
    disagreements = []
    for behavior, task, label in cases:
        draft = ItemDraft(moments=[(39876, "Just send me some information.")], behavior_text=behavior,
                          practice_kind=PracticeKind.ROLE_PLAY, practice_task=task,
                          next_evidence="Next two recordings", next_evidence_due=date(2026, 12, 14))
        tied = not any(f.message == "The practice task isn't tied to the behavior."
                       for f in check_item(draft))
        if tied != label:
            disagreements.append((behavior, task, label, tied))
    return 1 - len(disagreements) / len(cases), disagreements


def agreement(cases: Sequence[tuple[str, bool]]) -> tuple[float, list[tuple[str, bool, bool]]]:
    """Share of cases where the behavior check agrees with the label, and the disagreements.

    Each disagreement is (text, label, what the check said) with True = passes.
    """
    from desktop.core.specificity import check_behavior, passes

    if not cases:
        raise ValueError("agreement needs at least one labelled case")
    disagreements = []
    for text, label in cases:
        verdict = passes(check_behavior(text))
        if verdict != label:
            disagreements.append((text, label, verdict))
    return 1 - len(disagreements) / len(cases), disagreements


if __name__ == "__main__":  # python -m tests.core.specificity_cases prints the figure
    share, wrong = agreement(CASES)
    print(f"agreement {share:.3f} on {len(CASES)} cases ({len(wrong)} disagreements)")
    for text, label, verdict in wrong:
        print(f"  labelled {'specific' if label else 'vague'}, check says "
              f"{'passes' if verdict else 'vague'}: {text}")
    share, wrong_pairs = practice_agreement(PRACTICE_CASES)
    print(f"practice tie agreement {share:.3f} on {len(PRACTICE_CASES)} pairs "
          f"({len(wrong_pairs)} disagreements)")
    for behavior, task, label, verdict in wrong_pairs:
        print(f"  labelled {'tied' if label else 'untied'}, check says "
              f"{'tied' if verdict else 'untied'}: {task}  (behavior: {behavior})")
