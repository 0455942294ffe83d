"""Conversation figures from line times and roles; null with a reason where roles are unknown."""

from __future__ import annotations

from desktop.core.detect import FIGURE_KEYS, Line, conversation_figures, detect

ROLES = {"Riley": "rep", "Casey": "customer"}
LINES = [
    Line(0, 10_000, "Riley", "Hi Casey, thanks for the time. How do you report on deliveries today?"),
    Line(10_000, 14_000, "Riley", "I'd love to hear the whole story."),
    Line(15_000, 35_000, "Casey", "Every Monday two analysts pull the data. It takes most of the day."),
    Line(35_500, 50_000, "Casey", "And the numbers are a week old by then. Can you help with that?"),
    Line(51_000, 54_000, "Riley", "Would you like to see a demo?"),
    Line(56_000, 60_000, "Casey", "Sure."),
    Line(60_200, 63_000, "Riley", "You'd like live dashboards, right?"),
]


def test_figures_of_a_call_with_roles():
    fig = conversation_figures(LINES, ROLES, detect(LINES, ROLES))
    v = fig.values
    assert list(fig.to_json()) == list(FIGURE_KEYS)
    assert v["rep_talk_share"] == round((10_000 + 4_000 + 3_000 + 2_800) / (19_800 + 20_000 + 14_500 + 4_000), 3)
    assert v["longest_rep_monologue_ms"] == 14_000
    assert v["longest_customer_story_ms"] == 35_000
    # open: "How do you report…" and "I'd love to hear the whole story." (asked without a question mark)
    assert (v["rep_questions_open"], v["rep_questions_closed"], v["rep_questions_leading"]) == (2, 1, 1)
    assert v["customer_questions"] == 1
    assert v["patience_ms"] == 600  # the median of 1,000 (50.0 -> 51.0 s) and 200 (60.0 -> 60.2 s)
    assert v["interactivity_per_min"] == round(4 / (63_000 / 60_000), 2)
    assert fig.reasons == {}


def test_without_roles_the_figures_that_need_them_are_null_and_say_why():
    fig = conversation_figures(LINES, {}, [])
    for key in FIGURE_KEYS:
        if key == "interactivity_per_min":
            assert fig.values[key] is not None
        else:
            assert fig.values[key] is None
            assert "set-rep" in fig.reasons[key]


def test_an_empty_transcript_has_no_figures():
    fig = conversation_figures([], ROLES, [])
    assert all(v is None for v in fig.values.values()) and set(fig.reasons) == set(FIGURE_KEYS)
