import pytest

from desktop.core.conversation import (GUIDES, SessionRuleError, can_close_held, check_scale,
                                       guide)
from desktop.core.enums import ConversationModel


def test_each_model_has_the_methods_stages_in_order():
    assert [s.key for s in guide("grow").stages] == ["goal", "reality", "options", "will"]
    assert [s.key for s in guide("clear").stages] == ["contract", "listen", "explore", "action",
                                                      "review"]
    assert [s.key for s in guide(ConversationModel.OSKAR).stages] == [
        "outcome", "scaling", "know_how", "action", "review"]
    assert set(GUIDES) == set(ConversationModel)
    for g in GUIDES.values():
        assert all(stage.prompts and stage.title for stage in g.stages)
        assert g.best_use and g.evidence and g.follow_up and g.watch_out


def test_only_oskar_scaling_takes_a_score():
    scored = [(g.name, s.key) for g in GUIDES.values() for s in g.stages if s.takes_score]
    assert scored == [("OSKAR", "scaling")]
    assert "0 to 10" in guide("oskar").stage("scaling").prompts[0]


def test_prompts_come_from_the_method():
    assert "a next step confirmed by the customer" in guide("grow").stage("goal").prompts[0]
    assert guide("oskar").follow_up == "Score again and look at what changed."
    assert "one practice action, one owner and one place" in guide("clear").stage("action").prompts[1]


def test_unknown_model_or_stage_is_refused():
    with pytest.raises(SessionRuleError, match="grow, clear or oskar"):
        guide("spin")
    with pytest.raises(KeyError, match="no stage"):
        guide("grow").stage("review")


@pytest.mark.parametrize("score", [0, 5, 10, None])
def test_scale_accepts_0_to_10(score):
    assert check_scale(score) == score


@pytest.mark.parametrize("score", [-1, 11, 3.5, True, "7"])
def test_scale_refuses_anything_else(score):
    with pytest.raises(SessionRuleError, match="0 to 10"):
        check_scale(score)


def test_session_closes_as_held_only_with_action_owner_and_place():
    ok, message = can_close_held("Role-play the moment three times", "Morgan Manager",
                                 "Next two discovery recordings")
    assert ok and message.startswith("Held")
    ok, message = can_close_held("Role-play the moment", "  ", None)
    assert not ok
    assert "one owner" in message and "one place to look for evidence" in message
    assert "one practice action" not in message


def test_explicit_reason_lets_a_session_close_without_its_action():
    ok, message = can_close_held("", "", "", reason="Manager was called into a customer escalation")
    assert ok and "reason is recorded" in message
    assert can_close_held("", "", "", reason="   ")[0] is False
