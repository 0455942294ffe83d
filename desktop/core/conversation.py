"""Conversation guides for a coaching session (GROW, CLEAR, OSKAR) and the closing rule.

Prompts are drawn from the method's text (coaching-framework.txt). One model is
kept for the whole cycle. A session closes as held only when it ends with one
practice action, one owner and one place to look for evidence — the method's
answer to managers who attend every session but leave without a next action —
or with an explicit reason why not.
"""

from __future__ import annotations

from dataclasses import dataclass

from desktop.core.enums import ConversationModel
from desktop.errors import CallmarkError

__all__ = ["Stage", "Guide", "guide", "GUIDES", "check_scale", "can_close_held", "SessionRuleError"]


class SessionRuleError(CallmarkError, ValueError):
    """A session value outside what the method allows (e.g. an OSKAR score not 0–10)."""


@dataclass(frozen=True)
class Stage:
    key: str
    title: str
    prompts: tuple[str, ...]
    takes_score: bool = False  # OSKAR's scaling stage asks for a 0–10 score


@dataclass(frozen=True)
class Guide:
    model: ConversationModel
    name: str
    best_use: str
    evidence: str
    follow_up: str
    watch_out: str
    stages: tuple[Stage, ...]

    def stage(self, key: str) -> Stage:
        for stage in self.stages:
            if stage.key == key:
                return stage
        raise KeyError(f"{self.name} has no stage {key!r}; its stages are "
                       f"{', '.join(s.key for s in self.stages)}")


_CLOSE = ("Finish with one practice action, one owner and one place where you'll look for "
          "evidence.")

GUIDES: dict[ConversationModel, Guide] = {
    ConversationModel.GROW: Guide(
        ConversationModel.GROW, "GROW",
        best_use="A focused development goal, when you already know the behavior to change.",
        evidence="Start from the moment that shows the current reality.",
        follow_up="Check the agreed step at the next session.",
        watch_out="GROW can become too directive when we provide every option.",
        stages=(
            Stage("goal", "Goal", (
                "What is the goal? For example: a next step confirmed by the customer.",
                "What will the manager do differently in the next call or pipeline review?")),
            Stage("reality", "Reality", (
                "What happened in the previous review? Play the moment that shows it.",
                "What does the manager or rep still not know because of that moment?")),
            Stage("options", "Options", (
                "Explore the options with the manager: what could they say or ask next time?",
                "Let the manager find the options before you offer yours.")),
            Stage("will", "Will", (
                "Agree on what the manager will do next: the manager chooses and owns the step.",
                _CLOSE)),
        )),
    ConversationModel.CLEAR: Guide(
        ConversationModel.CLEAR, "CLEAR",
        best_use="When you need more space to establish expectations and understand the context "
                 "(for example with a new manager).",
        evidence="Start from the context and expectations that emerge from listening.",
        follow_up="Review progress against what you agreed at the start.",
        watch_out="CLEAR can leave too much time for exploration.",
        stages=(
            Stage("contract", "Contract", (
                "Agree on expectations for this conversation: what should it produce?",
                "What will you come back to at the next review?")),
            Stage("listen", "Listen", (
                "Listen to how the manager sees the situation before you bring the evidence.",
                "Note the context and expectations that emerge.")),
            Stage("explore", "Explore", (
                "Explore the situation with the moment from the call, the CRM evidence and "
                "the manager's notes.",
                "What does the manager or rep still not know?")),
            Stage("action", "Action", (
                "Define the action after exploring the situation: one behavior to practise.",
                _CLOSE)),
            Stage("review", "Review", (
                "Review progress against what you agreed at the start.",
                "What did the manager take from this session?")),
        )),
    ConversationModel.OSKAR: Guide(
        ConversationModel.OSKAR, "OSKAR",
        best_use="When the manager already shows part of the behavior and you want to make it "
                 "more consistent.",
        evidence="Start from examples where the behavior already works and a score on a scale.",
        follow_up="Score again and look at what changed.",
        watch_out="OSKAR can miss a capability the manager still needs to build.",
        stages=(
            Stage("outcome", "Outcome", (
                "What outcome do you want: the behavior in every call or pipeline review?",)),
            Stage("scaling", "Scaling", (
                "On a scale of 0 to 10, where is the behavior today?",
                "What puts it at that score and not lower?"), takes_score=True),
            Stage("know_how", "Know-how", (
                "Bring examples where the behavior already works: what did the manager do there?",
                "What capability is still missing?")),
            Stage("action", "Action", (
                "Build the action around what already works.",
                _CLOSE)),
            Stage("review", "Review", (
                "Score again and look at what changed since the last session.",)),
        )),
}


def guide(model: ConversationModel | str) -> Guide:
    try:
        return GUIDES[ConversationModel(model)]
    except ValueError:
        raise SessionRuleError(
            f"unknown conversation model {model!r}: choose grow, clear or oskar") from None


def check_scale(score: int | None) -> int | None:
    """The OSKAR scaling score: a whole number from 0 to 10 (None: not scored yet)."""
    if score is None:
        return None
    if isinstance(score, bool) or not isinstance(score, int) or not 0 <= score <= 10:
        raise SessionRuleError(f"the OSKAR score must be a whole number from 0 to 10, got {score!r}")
    return score


def can_close_held(action: str | None, owner: str | None, evidence_place: str | None,
                   reason: str | None = None) -> tuple[bool, str]:
    """May the session be closed as held? Needs action, owner and evidence place, or a reason."""
    missing = [name for name, value in (("one practice action", action), ("one owner", owner),
                                        ("one place to look for evidence", evidence_place))
               if not (value or "").strip()]
    if not missing:
        return True, "Held: practice action, owner and place to look for evidence agreed."
    if (reason or "").strip():
        return True, f"Held without {', '.join(missing)}; the reason is recorded."
    return False, ("The session can't be closed as held yet: it needs "
                   + ", ".join(missing) + " — or a reason why not.")
