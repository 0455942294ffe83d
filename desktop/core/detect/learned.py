"""A second reading of the qualification and follow-up labels, weighed as coaches labelled them.

The rules read phrases and the shape of the talk. On calls by coaches whose wording they were not
written from they found about half of what those coaches label, and one suggestion in two was
wrong. This reading decides those labels again, line by line, with everything the rules saw: the
rules' own findings on the line and its neighbours, the phrase lists the line matches, its words and
the words of the line before, numbers, dates and who is speaking. One logistic model per label, its
weights kept as data (resources/detect/learned/weights.json, made by `python -m
tests.detection_eval.train` from the labelled development calls; nothing is downloaded or learned
on the coach's machine).

A rule's finding the model does not confirm is taken back; a line the model finds that the rules
missed is proposed with a reason naming the words that weighed most. The other labels (questions,
stalls and next steps) are the rules' alone.
"""

from __future__ import annotations

import json
import math
import re
from itertools import repeat
from pathlib import Path
from typing import NamedTuple

import numpy as np

from desktop.core.detect.lines import Reading, ReadLine
from desktop.core.detect.model import CUSTOMER, GROUP_B, REP
from desktop.core.detect.text import STOPWORDS
from desktop.errors import CallmarkError

WEIGHTS = ("detect", "learned", "weights.json")  # under the shipped resources (desktop.paths.resource)
FORMAT = 1

#: words too common to weigh anything
STOP = frozenset("the a an and or but so to of in on for it is that this i you we they be um uh like yeah just".split())

#: what each label reads as, for the reason of a finding the rules missed
READS_AS = {
    "metrics": "a quantified impact or goal",
    "economic_buyer": "who signs or owns the budget",
    "decision_process": "a step of how they decide or buy",
    "pain": "a problem the customer has",
    "champion": "someone inside who will sell it",
    "competition": "another vendor, tool or in-house build",
    "critical_event": "a date or event forcing the decision",
    "price": "an amount for the product or its budget",
    "objection": "a concern against buying",
    "missed_follow_up": "a reply that moves on from what the customer just said",
}


def _logit(p: float) -> float:
    return math.log(p / (1 - p))


class LearnedWeightsError(CallmarkError):
    """The shipped weights are missing or broken; the message names the file."""


def features(reading: Reading, i: int) -> list[str]:
    """The names of what line i shows: its own, then its neighbours' as seen from it ("p|" the line before,
    "n|" the line after, "pp|" the one before that). Training reads lines through this function; detection
    weighs the same names without spelling them out (Weights.scores)."""
    lines = reading.lines
    out = _names(_pieces(lines[i]), 0)
    for step, tag in ((-1, "p|"), (1, "n|"), (-2, "pp|")):
        j = i + step
        if 0 <= j < len(lines):
            out.extend(tag + name for name in _names(_pieces(lines[j]), _SLOT[tag]))
    return out


_SLOT = {"": 0, "p|": 1, "n|": 2, "pp|": 3}
#: what each place a line is seen from reads of it: its words ("w"), pairs of words ("b"), phrase lists ("g")
_READS = ({"w", "b", "g"}, {"w", "g"}, {"g"}, set())
_DIGIT = re.compile(r"\d")


class _Pieces(NamedTuple):
    """What a line shows, made once a line: the few named features, and its words, pairs and phrase lists
    (named `<role>w:<word>`, `<role>b:<a>_<b>`, `<role>g:<list>`, looked up without spelling the name)."""

    role: str  # "R" or "C"
    own: tuple[str, ...]  # the named features of the line weighed
    said: tuple[str, ...]  # the named features its neighbours see: who spoke, the rules' labels, the question's style
    words: frozenset[str]
    tokens: tuple[str, ...]  # the line's words in order: its pairs are made when looked up (see pairs), not kept
    groups: frozenset[str]  # the phrase lists its words might match (PhraseBook.candidates, known already)


def _names(pieces: _Pieces, slot: int) -> list[str]:
    role, reads = pieces.role, _READS[slot]
    out = list(pieces.own if slot == 0 else pieces.said)
    if "w" in reads:
        out.extend(role + "w:" + t for t in sorted(pieces.words))
    if "b" in reads:
        out.extend(role + "b:" + a + "_" + b for a, b in sorted(pairs(pieces.tokens)))
    if "g" in reads:
        out.extend(role + "g:" + g for g in sorted(pieces.groups))
    return out


def _pieces(rl: ReadLine) -> _Pieces:
    found = rl.pieces
    if found is not None:
        return found
    role = "R" if rl.role == REP else "C"
    said = ["role:" + role]
    for label in rl.labels:
        said.append("r:" + label)
    if rl.question:
        said.append("q:" + rl.question[0])
    own = ["bias", *said, *(role + "r:" + label for label in rl.labels)]
    if any(s.asks for s in rl.sentences):
        own.append("qmark")
    if _DIGIT.search(rl.words):
        own.append("num")
    if "$" in rl.line.text or " dollars" in rl.words or " k " in rl.words:
        own.append("money")
    if "%" in rl.line.text or " percent " in rl.words:
        own.append("pct")
    if rl.date():
        own.append("date")
    tokens = rl.words.split()
    n = len(tokens)
    own.append("len:" + ("s" if n <= 4 else "m" if n <= 15 else "l"))
    # tuples of words: the collector stops following them after one look, where it follows a list every time
    found = rl.pieces = _Pieces(role, tuple(own), tuple(said), frozenset(tokens).difference(STOP), tuple(tokens),
                                rl.cands)
    return found


def pairs(tokens: tuple[str, ...]) -> set[tuple[str, str]]:
    """Each pair of neighbouring words once. Made when weighed and let go: kept for every line of a long call,
    the tuples made the garbage collector walk the whole reading again and again."""
    return set(zip(tokens, tokens[1:]))


class Weights:
    """A logistic model per label: a weight per feature name, and two bars on the probability: a rule's
    finding stays when the model gives it at least `keep`, a line the rules missed is proposed at `add`."""

    def __init__(self, labels: tuple[str, ...], keep: float, add: float, weights: dict[str, list[float]],
                 source: str = ""):
        self.labels = labels
        self.keep, self.add = keep, add
        self.keep_cut, self.add_cut = _logit(keep), _logit(add)  # p >= bar  <=>  score >= logit(bar)
        self.weights = weights
        self.source = source
        self.index = {label: k for k, label in enumerate(labels)}
        # a feature's row in the matrix, by where it is seen from ("", "p|", "n|", "pp|"): the named ones by
        # name, a word, a pair of words or a phrase list by role and kind, keyed by the word, pair or list itself
        self.tables: tuple[dict[str, int], ...] = ({}, {}, {}, {})
        self.keyed: tuple[dict[tuple[str, str], dict], ...] = tuple(
            {(role, kind): {} for role in "RC" for kind in "wbg"} for _slot in range(4))
        for row, name in enumerate(weights):
            tag, bar, rest = name.partition("|")
            slot = _SLOT[tag + bar] if bar else 0
            if not bar:
                rest = name
            head, colon, value = rest.partition(":")
            if colon and len(head) == 2 and head[0] in "RC" and head[1] in "wbg":
                key = tuple(value.split("_", 1)) if head[1] == "b" else value
                self.keyed[slot][(head[0], head[1])][key] = row
            else:
                self.tables[slot][rest] = row
        self.nothing = len(weights)
        self.matrix = np.zeros((len(weights) + 1, len(labels)), dtype=np.float32)
        if weights:
            self.matrix[:-1] = np.array(list(weights.values()), dtype=np.float32)

    @classmethod
    def load(cls, path: Path | None = None) -> Weights:
        if path is None:
            from desktop.paths import resource

            path = resource(*WEIGHTS)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise LearnedWeightsError(f"{path}: the moment finder's learned weights are missing") from None
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise LearnedWeightsError(f"{path}: cannot read the learned weights ({exc})") from None
        try:
            if data["format"] != FORMAT:
                raise LearnedWeightsError(f"{path}: weights of format {data['format']!r}, this Callmark reads {FORMAT}")
            labels = tuple(data["labels"])
            weights = {name: [float(w) for w in row] for name, row in data["weights"].items()}
            keep, add = float(data["keep"]), float(data["add"])
        except (KeyError, TypeError, ValueError) as exc:
            raise LearnedWeightsError(f"{path}: not a weights file ({exc!r})") from None
        if set(labels) != set(GROUP_B) or any(len(row) != len(labels) for row in weights.values()):
            raise LearnedWeightsError(f"{path}: the weights do not cover the qualification and follow-up labels")
        if not (0 < keep < 1 and 0 < add < 1):
            raise LearnedWeightsError(f"{path}: the bars keep={keep} and add={add} must lie between 0 and 1")
        return cls(labels, keep, add, weights, data.get("digest", ""))

    def scores(self, reading: Reading) -> np.ndarray:
        """Each line's score for each label (lines x labels): the weights of features(reading, i) summed,
        each line's pieces looked up once for each place it is seen from."""
        lines = reading.lines
        n = len(lines)
        total = np.zeros((n + 4, len(self.labels)), dtype=np.float32)  # room for two rows before and two after
        made = [_pieces(rl) for rl in lines]
        nothing = repeat(self.nothing)  # a zero row: for a name the model does not know, and to start each run
        for slot, (table, keyed) in enumerate(zip(self.tables, self.keyed)):
            get = table.get
            reads = _READS[slot]
            rows: list[int] = []
            starts: list[int] = []
            for pieces in made:
                starts.append(len(rows))
                rows.append(self.nothing)  # so no line's run is empty
                rows.extend(map(get, pieces.own if slot == 0 else pieces.said, nothing))
                role = pieces.role
                if "w" in reads:
                    rows.extend(map(keyed[(role, "w")].get, pieces.words, nothing))
                if "b" in reads:
                    rows.extend(map(keyed[(role, "b")].get, pairs(pieces.tokens), nothing))
                if "g" in reads:
                    rows.extend(map(keyed[(role, "g")].get, pieces.groups, nothing))
            summed = np.add.reduceat(self.matrix[rows], starts, axis=0)
            # the line before line i is seen from i as "p|": its sum goes to row i (line i-1 sits at row i+1)
            shift = (0, 1, -1, 2)[slot]
            total[2 + shift: 2 + shift + n] += summed
        return total[2: 2 + n]


_DEFAULT: Weights | None = None


def default_weights() -> Weights:
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = Weights.load()
    return _DEFAULT


def read_learned(reading: Reading, weights: Weights | None = None) -> None:
    """Decide the qualification and follow-up labels again: confirm, take back or add."""
    weights = weights or default_weights()
    lines = reading.lines
    if not lines:
        return
    scores = weights.scores(reading)  # every line weighed before any finding changes
    drop = {(rl.index, label) for rl in lines for label in rl.labels
            if label in weights.index and scores[rl.index, weights.index[label]] < weights.keep_cut}
    added = []
    for i, k in zip(*np.nonzero(scores >= weights.add_cut)):
        rl, label = lines[i], weights.labels[k]
        if rl.role in (REP, CUSTOMER) and label not in rl.labels and not _ruled_out(reading, rl, label):
            # a line whose speaker's side is unknown is not guessed at: the weights read who is speaking
            added.append((rl, label, _reason(weights, reading, i, k)))
    reading.drop(drop)
    for rl, label, reason in added:
        reading.add(label, rl, "", reason)


def _ruled_out(reading: Reading, rl: ReadLine, label: str) -> bool:
    """What a line is not, whatever its words weigh: a label its own words negate ("no problem at all" is no
    pain). And a missed follow-up is a reply read against what came before it: the rules' reading of that is
    kept or taken back, never made up from the reply's words."""
    if label == "missed_follow_up":
        return True
    negations = label + "_negations"
    return negations in reading.book.groups and reading.line_find(negations, rl) is not None


def _reason(weights: Weights, reading: Reading, i: int, k: int) -> str:
    """'reads as who signs or owns the budget, as coaches labelled such lines: its words 'sign off' weigh most'"""
    lines = reading.lines
    column = weights.matrix[:, k]

    def heaviest(pieces: _Pieces, slot: int, kinds: str, most: int) -> list[str]:
        # the line's words and pairs of words with a weight, and of those the ones that weigh for this label
        known = []
        for kind in kinds:
            table = weights.keyed[slot][(pieces.role, kind)]
            said = pieces.words if kind == "w" else pairs(pieces.tokens)
            known.extend((row, key) for key in said if (row := table.get(key)) is not None)
        if not known:
            return []
        weight = column[[row for row, _k in known]].tolist()
        weighed = []
        for w, (_row, key) in zip(weight, known):
            said = (key,) if isinstance(key, str) else key
            if w > 0 and any(len(x) > 2 and x not in STOPWORDS for x in said):
                weighed.append((w, " ".join(said)))  # a word that says something, or two with one
        return [f"'{value}'" for _w, value in sorted(weighed, reverse=True)[:most]]

    own = heaviest(_pieces(lines[i]), 0, "wb", 3)
    before = heaviest(_pieces(lines[i - 1]), 1, "w", 2) if i > 0 else []
    if own:
        said = f"its words {', '.join(own)} weigh most"
    elif before:
        said = f"the line before ({', '.join(before)}) weighs most"
    else:
        said = "the lines around it weigh most"
    return f"reads as {READS_AS[weights.labels[k]]}, as coaches labelled such lines: {said}"


__all__ = ["LearnedWeightsError", "READS_AS", "Weights", "default_weights", "features", "read_learned"]
