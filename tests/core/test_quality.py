from datetime import date

from desktop.core.enums import BehaviorChange, ObservationSource as Src, PracticeKind, Seen
from desktop.core.quality import QUALITY_CHECKS, review_item
from desktop.core.review_rule import Observation
from desktop.core.specificity import ItemDraft


def make_item(**changes) -> ItemDraft:
    item = ItemDraft(
        moments=[(39876, "Just send me some information and I will take a look.")],
        consequence="The rep doesn't know who else is involved.",
        behavior_change=BehaviorChange.START,
        behavior_text="When the customer asks for information, ask what they will review and who "
                      "else needs to be involved",
        practice_kind=PracticeKind.ROLE_PLAY,
        practice_task="Role-play the moment three times.",
        owner_does="Morgan", owner_reviews="Dana",
        next_evidence="Next two discovery recordings", next_evidence_due=date(2026, 12, 14))
    for key, value in changes.items():
        setattr(item, key, value)
    return item


def oks(checks):
    return {c.key: c.ok for c in checks}


def test_a_fresh_good_item():
    checks = review_item(make_item(), actions_done=False, today=date(2026, 12, 1))
    assert [c.key for c in checks] == list(QUALITY_CHECKS)
    assert oks(checks) == {"evidence_quality": True, "behavior_clarity": True, "action_fit": True,
                           "follow_through": None, "adoption": None}
    assert checks[3].reason == "The practice isn't done yet; it is due by 2026-12-14."
    assert checks[0].to_dict()["label"] == "Evidence quality"
    assert checks[2].question.startswith("Does the practice resemble")


def test_a_vague_item_fails_evidence_and_clarity():
    checks = review_item(make_item(moments=[], behavior_text="Improve pipeline discipline"))
    assert oks(checks)["evidence_quality"] is False
    assert oks(checks)["behavior_clarity"] is False
    assert "No evidence cited" in checks[0].reason


def test_practice_in_the_wrong_situation_does_not_fit():
    item = make_item(
        behavior_text="Ask the rep to state the next step the customer confirmed before discussing "
                      "how likely the deal is to close in the pipeline review.",
        practice_kind=PracticeKind.CALL_REVIEW,
        practice_task="Review a call and note each next step the customer confirmed.")
    check = review_item(item)[2]
    assert check.ok is False
    assert check.reason == ("The behavior is needed in pipeline reviews, but the practice is a "
                            "call review.")
    assert review_item(make_item(practice_kind=PracticeKind.LIVE_PIPELINE_REVIEW,
                                 behavior_text=item.behavior_text,
                                 practice_task=item.practice_task))[2].ok is True


def test_follow_through_and_adoption_from_observations():
    seen = [Observation(date(2026, 12, 3), Seen.YES, Src.CALL),
            Observation(date(2026, 12, 8), Seen.NO, Src.CALL),
            Observation(date(2026, 12, 2), Seen.YES, Src.ROLE_PLAY)]
    checks = review_item(make_item(), observations=seen, actions_done=True)
    assert oks(checks)["follow_through"] is True
    assert checks[4].ok is True and checks[4].reason == "Seen in 1 of 2 later calls or pipeline reviews."
    missed = review_item(make_item(), observations=seen[1:], actions_done=True)
    assert missed[4].ok is False
    assert review_item(make_item(), actions_done=True)[3].ok is False  # done, nothing to review
    assert review_item(make_item(), actions_done=False, today=date(2026, 12, 20))[3].ok is False
    assert review_item(make_item())[3].ok is None  # no action agreed
