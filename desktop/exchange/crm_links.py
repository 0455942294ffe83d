"""Suggest which opportunity a call belongs to, from the call's title.

"Discovery - Acme" suggests the opportunity "Acme - Platform" of the account
"Acme Corp": names are compared as whole words, ignoring case, accents,
punctuation and legal suffixes (Inc, Corp, GmbH...). The coach confirms; a
suggestion is never linked on its own.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

_LEGAL_SUFFIXES = {
    "inc", "incorporated", "corp", "corporation", "co", "company", "llc", "llp", "ltd",
    "limited", "plc", "gmbh", "ag", "sa", "sas", "sarl", "srl", "spa", "bv", "nv", "oy",
    "ab", "as", "pty", "pte", "kk", "group", "holding", "holdings",
}
# Words that name the meeting, not the customer: an account reduced to one of
# these ("The Demo Company" -> "demo") would match every call.
_MEETING_WORDS = {
    "call", "calls", "discovery", "demo", "intro", "introduction", "meeting", "sync",
    "review", "follow", "up", "followup", "kickoff", "kick", "off", "check", "in",
    "qbr", "renewal", "pricing", "proposal", "negotiation", "zoom", "teams", "the",
    "and", "with", "of", "for", "a",
}
_INITIALS = re.compile(r"\b(\w)\.(?=\w\.?(?:\W|$))")
_NAME_SPLIT = re.compile(r"\s+[-\u2013\u2014:|/]\s+")


@dataclass(frozen=True)
class LinkSuggestion:
    opportunity: Any
    score: float
    reason: str


def _words(text: str | None) -> str:
    """Lower-case words separated by single spaces, accents and punctuation removed."""
    if not text:
        return ""
    decomposed = unicodedata.normalize("NFKD", text)
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    plain = _INITIALS.sub(r"\1", plain)  # "S.A." -> "SA", so it reads as a suffix
    return " ".join(re.sub(r"[^\w]+", " ", plain.casefold()).replace("_", " ").split())


def _core(words: str) -> str:
    parts = words.split()
    while len(parts) > 1 and parts[-1] in _LEGAL_SUFFIXES:
        parts.pop()
    if len(parts) > 1 and parts[0] == "the":
        parts.pop(0)
    return " ".join(parts)


def _usable(needle: str) -> bool:
    return bool(needle) and len(needle) >= 2 and not all(w in _MEETING_WORDS
                                                         for w in needle.split())


def _contains(haystack: str, needle: str) -> bool:
    return _usable(needle) and f" {needle} " in f" {haystack} "


def suggest_opportunities(call_title: str, opportunities: Iterable[Any]) -> list[LinkSuggestion]:
    """Rank opportunities whose name or account appears in `call_title`.

    `opportunities` are any objects with `name` and `account` (and optionally
    `stage`) attributes: parsed rows, snapshots or store rows. Best first;
    closed deals rank below open ones; opportunities that don't match are left out.
    """
    title = _words(call_title)
    found: list[tuple[float, str, int, LinkSuggestion]] = []
    for order, opp in enumerate(opportunities):
        name = _words(getattr(opp, "name", None))
        account = _words(getattr(opp, "account", None))
        prefix = _words(_NAME_SPLIT.split(getattr(opp, "name", None) or "")[0])
        checks = (
            (1.0, name, "the opportunity name"),
            (0.9, account, "the account name"),
            (0.8, _core(account), "the account name"),
            (0.7, _core(prefix), "the start of the opportunity name"),
        )
        for score, needle, what in checks:
            if _contains(title, needle):
                stage = getattr(opp, "stage", None) or ""
                reason = f"{what} {needle!r} appears in the call title"
                if "closed" in _words(stage).split():
                    score -= 0.25
                    reason += f" (the deal is {stage})"
                found.append((-score, name, order, LinkSuggestion(opp, round(score, 2), reason)))
                break
    found.sort(key=lambda t: t[:3])
    return [s for *_, s in found]
