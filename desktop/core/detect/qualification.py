"""Qualification (MEDDICC and SPICED): what the customer tells the rep about the deal.

Read on the customer's lines (the rep's own numbers count for `price` only: "most teams land
between twenty and forty thousand dollars a year"). Each label names what was said and quotes
the words that said it.
"""

from __future__ import annotations

import re

from desktop.core.detect.lines import Reading, ReadLine
from desktop.core.detect.model import CUSTOMER, REP

_PERCENT = re.compile(r" \d[\d.]*% ")
_DOLLARS = re.compile(r" (?:\$\d[\d.]*(?:k|m)?|\d[\d.]*k) ")  # $25000, $2.5m, 30k

REASONS = {
    "metrics": "the customer puts a number on the impact or the goal ('{cue}')",
    "economic_buyer": "the customer names who signs or owns the budget ('{cue}')",
    "decision_process": "the customer describes how they buy: approvals, procurement, legal or security ('{cue}')",
    "pain": "the customer describes a problem ('{cue}')",
    "champion": "the customer offers to push for the deal inside ('{cue}')",
    "competition": "another vendor, tool or in-house build is in the picture ('{cue}')",
    "critical_event": "a date or event is forcing the decision ('{cue}')",
    "price": "an amount for the product or its budget ('{cue}')",
    "objection": "the customer pushes back ('{cue}')",
}


def _without(reading: Reading, words: str, negations: str, ws: frozenset) -> str:
    """The words with negated phrases taken out ('no problem' is not a pain)."""
    group = reading.book[negations]
    while True:
        found = group.find(words, ws)
        if not found:
            return words
        words = words.replace(f" {found} ", " ", 1)


def _money(reading: Reading, words: str, ws: frozenset) -> str | None:
    found = reading.find("money", words, ws)
    if found:
        return found
    dollars = _DOLLARS.search(words)
    return dollars.group(0).strip() if dollars else None


def _sentence_labels(reading: Reading, words: str, role: str, asks: bool, ws: frozenset,
                     cands: frozenset) -> dict[str, str]:
    groups = reading.book.groups

    def find(name: str, text: str) -> str | None:
        return groups[name].search(text) if name in cands else None  # the sentence's words: lists without any of them are skipped

    out: dict[str, str] = {}
    money = _money(reading, words, ws)
    impact = find("money_as_impact", words) if money else None
    if role == REP:
        if money and not impact and find("price", words):
            out["price"] = money
        return out
    metric = find("metrics", words) or (_PERCENT.search(words) or [None])[0]
    if metric:
        out["metrics"] = metric.strip()
    elif money and impact:
        out["metrics"] = f"{money} … {impact}"
    buyer = find("economic_buyer", words)
    if not buyer:
        title = find("buyer_titles", words)
        if title and find("approval_words", words):
            buyer = f"{title} … {find('approval_words', words)}"
    if buyer:
        out["economic_buyer"] = buyer
    if money and not impact and find("price", words):
        out["price"] = money
    elif not buyer and find("price_question", words):  # "owns the budget" names a buyer, not a price
        out["price"] = find("price_question", words)
    for label in ("decision_process", "champion", "competition", "critical_event"):
        cue = find(label, words)
        if cue:
            out[label] = cue
    if not asks:
        pain = find("pain", _without(reading, words, "pain_negations", ws))
        if pain:
            out["pain"] = pain
    objection = find("objection", _without(reading, words, "objection_negations", ws))
    if objection:
        out["objection"] = objection
        if "price" in out:
            out.pop("pain", None)  # "the price is a problem" pushes back on the price; it is not their pain
    return out


def read_qualification(reading: Reading) -> None:
    for rl in reading.lines:
        if rl.role not in (REP, CUSTOMER):
            continue
        _read_line(reading, rl)


def _answers_who_decides(reading: Reading, rl: ReadLine) -> str | None:
    """'Their director, Lina.' right after the rep asked who decides: the customer named the buyer."""
    if rl.role != CUSTOMER:
        return None
    asked = reading.previous_of_role(rl.index, REP, within=1)
    if asked is None or asked.question is None or not reading.find("decision_questions", asked.words, asked.word_set):
        return None
    return reading.find("answer_titles", rl.words, rl.word_set)


def _read_line(reading: Reading, rl: ReadLine) -> None:
    title = _answers_who_decides(reading, rl)
    if title:
        reading.add("economic_buyer", rl, rl.sentences[0].text if rl.sentences else rl.line.text,
                    f"asked who decides, the customer names them ('{title}')", title)
    for s in rl.sentences:
        for label, cue in _sentence_labels(reading, s.words, rl.role, s.asks, s.word_set, rl.cands).items():
            reason = REASONS[label]
            if rl.role == REP:
                reason = "the rep puts an amount on the product ('{cue}')"
            reading.add(label, rl, s.text, reason.format(cue=cue), cue)
