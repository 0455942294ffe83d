"""A second reading of the labels, weighed as coaches labelled them.

The rules read phrases and the shape of the talk. On calls by coaches whose wording they were not
written from they found about half of the qualification labels those coaches gave, and one suggestion
in two was wrong; next steps and deferrals were read better, but not well enough. This reading decides
the labels again, line by line, with everything the rules saw: the rules' own findings on the line and
its neighbours, the phrase lists the line matches, its words and the words of the line before, numbers,
dates and who is speaking. One logistic model per label, its weights kept as data
(resources/detect/learned/weights.json, made by `python -m tests.detection_eval.train` from the labelled
development calls; nothing is downloaded or learned on the coach's machine).

Each label has two bars, chosen by cross-validation over the writers of the labelled calls: a rule's
finding the model gives less than its bar to keep is taken back; a line the rules missed that the model
gives at least its bar to add is proposed, with a reason naming the words that weighed most. A label the
weights do not name is the rules' alone, and so is a rep's line with no number, no question and nothing
the rules found (see weighed).
"""

from __future__ import annotations

import base64
import binascii
import json
import math
import re
from collections.abc import Sequence
from itertools import chain, repeat
from operator import attrgetter
from pathlib import Path
from typing import NamedTuple

import numpy as np

from desktop.core.detect.follow_up import TRIGGERS, customer_turns, missed, report
from desktop.core.detect.learned_reasons import READS_AS, reason_of
from desktop.core.detect.lines import Reading, ReadLine
from desktop.core.detect.model import CUSTOMER, LABELS, REP
from desktop.core.detect.phrases import has_number
from desktop.core.detect.text import STOPWORDS
from desktop.errors import CallmarkError

WEIGHTS = ("detect", "learned", "weights.json")  # under the shipped resources (desktop.paths.resource)
FORMAT = 2  # 2: a bar to keep and a bar to add for each label learned (1: one pair for all)

#: words too common to weigh anything
STOP = frozenset("the a an and or but so to of in on for it is that this i you we they be um uh like yeah just".split())


def _logit(p: float) -> float:
    return math.log(p / (1 - p))


class LearnedWeightsError(CallmarkError):
    """The shipped weights are missing or broken; the message names the file."""


def features(reading: Reading, i: int) -> list[str]:
    """The names of what line i shows: its own, then its neighbours' as seen from it ("p|" the line before,
    "n|" the line after, "pp|" the one before that, each across a change of speaker: see near). Training reads
    lines through this function; detection weighs the same names without spelling them out (Weights.scores)."""
    lines = reading.lines
    out = _names(_pieces(lines[i]), 0)
    for j, tag in zip(near(reading, i), ("p|", "n|", "pp|")):
        if j >= 0:
            out.extend(tag + name for name in _names(_pieces(lines[j]), _SLOT[tag]))
    return out


def near(reading: Reading, i: int) -> tuple[int, int, int]:
    """Line i's neighbours as the model sees them: the line before and the line after it across a change of
    speaker, and the line before that one across a change of speaker (-1: none). Coaches' calls give each turn a
    line; a transcript cuts a turn wherever its speaker pauses, and a question is still the line the reply answers.
    """
    before, after = reading.turns()
    j = before[i]
    return j, after[i], before[j] if j >= 0 else -1


_SLOT = {"": 0, "p|": 1, "n|": 2, "pp|": 3}
#: what each place a line is seen from reads of it: its words ("w"), pairs of words ("b"), phrase lists ("g")
_READS = ({"w", "b", "g"}, {"w", "g"}, {"g"}, set())
_DIGIT = re.compile(r"\d")
#: a capital letter after a word inside a sentence, but not the words that open one ("I", "OK", "So")
_CAPITAL = re.compile(r"(?<=[a-z0-9,;:%)] )(?!(?:I|OK|Okay|Oh|Um|Uh|Yeah|So|And|But)\b)[A-Z]")
#: (place, run, vocabulary) of each sum Weights._weigh makes: a line's own named features at place 0, what its
#: neighbours see of it elsewhere, then its words, pairs and lists where _READS reads them
_LOOKS = tuple((slot, "o" if slot == 0 else "s", "n") for slot in range(4)) + tuple(
    (slot, kind, kind) for slot, reads in enumerate(_READS) for kind in "wbg" if kind in reads)


class _Pieces(NamedTuple):
    """What a line shows, made once a line: the few named features, and its words, pairs and phrase lists
    (named `<role>w:<word>`, `<role>b:<a>_<b>`, `<role>g:<list>`, looked up without spelling the name). Everything
    here is the line's own already (its words, its word set, its lists) or shared by every line that shows the same
    (the named features): a long call's reading is not made again piece by piece."""

    role: str  # "R" or "C"
    own: tuple[str, ...]  # the named features of the line weighed
    said: tuple[str, ...]  # the named features its neighbours see: who spoke, the rules' labels, the question's style
    words: frozenset[str]  # the line's words (a stopword in it weighs nothing: the model has no weight for one)
    text: str  # the line's words in order (ReadLine.words): its pairs are made when looked up (see pairs), not kept
    groups: frozenset[str]  # the phrase lists its words might match (PhraseBook.candidates, known already)


def _names(pieces: _Pieces, slot: int) -> list[str]:
    role, reads = pieces.role, _READS[slot]
    out = list(pieces.own if slot == 0 else pieces.said)
    if "w" in reads:
        out.extend(role + "w:" + t for t in sorted(pieces.words.difference(STOP)))
    if "b" in reads:
        out.extend(role + "b:" + a + "_" + b for a, b in sorted(pairs(pieces.text.split())))
    if "g" in reads:
        out.extend(role + "g:" + g for g in sorted(pieces.groups))
    return out


#: (own, said) by what makes them: a call's lines show a few hundred such combinations between them
_NAMED: dict[tuple, tuple[tuple[str, ...], tuple[str, ...]]] = {}


def _named(role: str, labels: tuple[str, ...], style: str | None, flags: tuple) -> tuple[tuple[str, ...], tuple[str, ...]]:
    said = ["role:" + role]
    said.extend("r:" + label for label in labels)
    if style:
        said.append("q:" + style)
    own = ["bias", *said, *(role + "r:" + label for label in labels)]
    own.extend(name for name, shown in zip(("qmark", "num", "money", "pct", "date", "cap"), flags) if shown)
    own.append("len:" + flags[-1])
    return tuple(own), tuple(said)


def _pieces(rl: ReadLine) -> _Pieces:
    found = rl.pieces
    if found is not None:
        return found
    role = "R" if rl.role == REP else "C"
    words, text = rl.words, rl.line.text
    n = words.count(" ") - 1  # " a b c ": a space before each word and one after the last
    flags = (any(s.asks for s in rl.sentences), _DIGIT.search(words) is not None,
             "$" in text or " dollars" in words or " k " in words, "%" in text or " percent " in words,
             bool(rl.date()), _CAPITAL.search(text) is not None,  # cap: a name inside a sentence ("we use Jobber")
             "s" if n <= 4 else "m" if n <= 15 else "l")
    key = (role, tuple(rl.labels), rl.question[0] if rl.question else None, flags)
    named = _NAMED.get(key)
    if named is None:
        if len(_NAMED) > 4096:
            _NAMED.clear()
        named = _NAMED[key] = _named(*key)
    found = rl.pieces = _Pieces(role, named[0], named[1], rl.word_set, words, rl.cands)
    return found


_OWN, _SAID, _WORDS, _GROUPS = (attrgetter(name) for name in ("own", "said", "words", "groups"))


def pairs(tokens: Sequence[str]) -> set[tuple[str, str]]:
    """Each pair of neighbouring words once. Made when weighed and let go: kept for every line of a long call,
    the tuples made the garbage collector walk the whole reading again and again."""
    return set(zip(tokens, tokens[1:]))


class Weights:
    """A logistic model per label: a weight per feature name, and two bars on the probability for each label: a
    rule's finding stays when the model gives it at least `keep[label]`, a line the rules missed is proposed at
    `add[label]` (None: never; the model only keeps or takes back the rules' findings of that label)."""

    def __init__(self, labels: tuple[str, ...], keep: dict[str, float], add: dict[str, float | None],
                 names: Sequence[str], matrix: np.ndarray, source: str = ""):
        self.labels = labels
        self.keep, self.add = keep, add
        # p >= bar  <=>  score >= logit(bar)
        self.keep_cut = np.array([_logit(keep[label]) for label in labels], dtype=np.float32)
        self.add_cut = np.array([np.inf if add[label] is None else _logit(add[label]) for label in labels],
                                dtype=np.float32)
        self.names = list(names)
        self.source = source
        self.index = {label: k for k, label in enumerate(labels)}
        self.nothing = len(self.names)  # the last row, all zeros
        self.matrix = np.zeros((len(self.names) + 1, len(labels)), dtype=np.float32)
        self.matrix[:-1] = matrix
        # Each piece a line shows is looked up once, whatever place it is seen from: a word, a pair of words or a
        # phrase list by its role and kind ("w", "b", "g"), a named feature ("n") by name, gives an id; the id's
        # row in the matrix for each place (0: the line itself, 1: as the line before, 2: after, 3: two before)
        # is one array look-up. The last id of each kind is the piece the model does not know (the zero row).
        self.ids: dict[str, dict[str, dict]] = {kind: {"R": {}, "C": {}} for kind in "wbg"}
        self.ids["n"] = {"": {}}
        self.keys: dict[str, list] = {kind: [] for kind in "wbgn"}  # id -> the word, pair, list or name
        places: dict[str, list[tuple[int, int, int]]] = {kind: [] for kind in "wbgn"}  # (place, id, row)
        for row, name in enumerate(self.names):
            tag, bar, rest = name.partition("|")
            slot = _SLOT[tag + bar] if bar else 0
            if not bar:
                rest = name
            head, colon, value = rest.partition(":")
            if colon and len(head) == 2 and head[0] in "RC" and head[1] in "wbg":
                kind, role = head[1], head[0]
                key = tuple(value.split("_", 1)) if kind == "b" else value
            else:
                kind, role, key = "n", "", rest
            table = self.ids[kind][role]
            found = table.get(key)
            if found is None:
                found = table[key] = len(self.keys[kind])
                self.keys[kind].append(key)
            places[kind].append((slot, found, row))
        self.rows: dict[str, np.ndarray] = {}
        for kind, known in places.items():
            rows = np.full((4, len(self.keys[kind]) + 1), self.nothing, dtype=np.intp)
            for slot, found, row in known:
                rows[slot, found] = row
            self.rows[kind] = rows
        # whether a word or pair says something a reason can name: a word of three letters or more that is not a
        # stopword, or a pair with one (the unknown id says nothing)
        self.telling = {kind: np.array([any(len(x) > 2 and x not in STOPWORDS for x in ((key,) if kind == "w" else key))
                                        for key in self.keys[kind]] + [False]) for kind in "wb"}

    @classmethod
    def of_table(cls, labels: tuple[str, ...], keep: dict[str, float], add: dict[str, float | None],
                 table: dict[str, list[float]]) -> Weights:
        """Weights from a feature name -> weights per label table (for a test's hand-made model)."""
        return cls(labels, keep, add, list(table), np.array(list(table.values()), dtype=np.float32).reshape(
            len(table), len(labels)))

    def weight_of(self, name: str) -> np.ndarray | None:
        """The weights of a named feature (None: the model does not know it)."""
        if not hasattr(self, "_rows"):
            self._rows = {n: r for r, n in enumerate(self.names)}
        row = self._rows.get(name)
        return None if row is None else self.matrix[row]

    @classmethod
    def load(cls, path: Path | None = None) -> Weights:
        """The file: its labels and bars, the feature names, and the weights as one base64 string of little-endian
        float32, names x labels (a list of numbers per name took json.loads 135 ms in one stretch, holding the
        window's thread; one string takes a few)."""
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
            names = [str(name) for name in data["names"]]
            raw = base64.b64decode(data["matrix"], validate=True)
            keep = {label: float(data["keep"][label]) for label in labels}
            add = {label: None if data["add"][label] is None else float(data["add"][label]) for label in labels}
        except (KeyError, TypeError, ValueError, binascii.Error) as exc:
            raise LearnedWeightsError(f"{path}: not a weights file ({exc!r})") from None
        unknown = [label for label in labels if label not in LABELS]
        if not labels or unknown or len(set(labels)) != len(labels):
            raise LearnedWeightsError(f"{path}: the weights name no labels, or labels twice, or ones the moment finder "
                                      f"does not have ({', '.join(map(repr, unknown))})")
        if len(raw) != 4 * len(names) * len(labels):
            raise LearnedWeightsError(f"{path}: the weights do not match {len(names)} features by {len(labels)} labels")
        for label in labels:
            if not (0 < keep[label] < 1 and (add[label] is None or 0 < add[label] < 1)):
                raise LearnedWeightsError(f"{path}: the bars of {label} (keep={keep[label]}, add={add[label]}) must "
                                          "lie between 0 and 1")
        matrix = np.frombuffer(raw, dtype="<f4").reshape(len(names), len(labels))
        return cls(labels, keep, add, names, matrix, data.get("digest", ""))

    def score_of(self, reading: Reading, i: int) -> np.ndarray:
        """Line i's score for each label as the lines read now (scores reads them once, before any finding changes):
        the weights of features(reading, i) summed, the pieces of the line and its neighbours made again."""
        for j in (i, *near(reading, i)):
            if j >= 0:
                reading.lines[j].pieces = None
        self.weight_of("bias")  # the name -> row table, made once
        rows = [row for row in map(self._rows.get, features(reading, i)) if row is not None]
        return self.matrix[rows].sum(axis=0)  # no row known: the sum of none, zeros

    def scores(self, reading: Reading) -> np.ndarray:
        """Each line's score for each label (lines x labels): the weights of features(reading, i) summed. A line not
        weighed (see weighed) scores minus infinity: it is neither kept nor added."""
        return self._weigh(reading)[0]

    def _weigh(self, reading: Reading) -> tuple[np.ndarray, dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]]]:
        """The scores, and the ids each line's words and pairs were looked up as (kind -> the ids of the lines read for
        that kind one run after another, where each run starts and, last, where the last ends, and each line's run:
        its place among the runs, -1 for a line not read for that kind), for the reasons.

        Each line's pieces are looked up once, for every place the lines weighed see it from, all the lines of one
        side of the call in one go (a rep's words and a customer's are different features): no step of the
        look-up runs once a line. Then each place's rows are summed run by run, into the lines the runs are of."""
        lines = reading.lines
        n = len(lines)
        total = np.full((n, len(self.labels)), -np.inf, dtype=np.float32)
        own = [weighed(rl) for rl in lines]
        targets = np.flatnonzero(own)
        if not len(targets):
            return total, {}
        # where each line weighed sees its neighbours from (see near); n: no line there
        earlier, later = reading.turns()
        first = np.array(earlier, dtype=np.intp)[targets]
        places = (first, np.array(later, dtype=np.intp)[targets],
                  np.where(first >= 0, np.array(earlier + [-1], dtype=np.intp)[first], -1))
        places = tuple(np.where(at >= 0, at, n) for at in places)
        # what each line is read for: 1 its own named features and pairs, 2 its words (as itself or the line before
        # one weighed), 4 its lists (those, or the line after one), 8 what its neighbours see of it (any of them)
        reads = np.zeros(n + 1, dtype=np.int8)
        reads[places[2]] = 8
        reads[places[1]] |= 12
        reads[places[0]] |= 14
        reads[targets] |= 15
        reads = reads[:n]
        rep = np.fromiter((rl.role == REP for rl in lines), dtype=bool, count=n)
        pieces = [None] * n
        for j in np.flatnonzero(reads).tolist():
            pieces[j] = _pieces(lines[j])
        unknown = {kind: len(self.keys[kind]) for kind in "wbgn"}
        named = self.ids["n"][""].get
        looked = {}
        # (kind, the reads that take it in, the vocabulary its ids are of, what of a line's pieces it looks up)
        for kind, bit, vocabulary, of in (("o", 1, "n", _OWN), ("s", 8, "n", _SAID), ("w", 2, "w", _WORDS),
                                          ("b", 1, "b", None), ("g", 4, "g", _GROUPS)):
            runs, found, sizes = [], [], []
            for side, role in ((rep, "R"), (~rep, "C")):
                which = np.flatnonzero((reads & bit).astype(bool) & side).tolist()
                if not which:
                    continue
                runs += which
                get = named if vocabulary == "n" else self.ids[vocabulary][role].get
                if of is None:  # pairs of words: made a line at a time and let go (see pairs)
                    for p in map(pieces.__getitem__, which):
                        got = pairs(p.text.split())
                        sizes.append(len(got))
                        found += map(get, got, repeat(unknown[vocabulary]))
                    continue
                got = list(map(of, map(pieces.__getitem__, which)))
                sizes += map(len, got)
                found += map(get, chain.from_iterable(got), repeat(unknown[vocabulary]))
            found.append(unknown[vocabulary])  # after the last run: every start is inside
            at = np.zeros(len(runs) + 1, dtype=np.intp)
            np.cumsum(sizes, out=at[1:])
            where = np.full(n, -1, dtype=np.intp)
            where[runs] = np.arange(len(runs), dtype=np.intp)
            looked[kind] = (np.array(found, dtype=np.intp), at, where, np.array(runs, dtype=np.intp))
        seen = np.zeros((4, n + 1, len(self.labels)), dtype=np.float32)  # row n: no line there (all zeros)
        for slot, kind, vocabulary in _LOOKS:
            found, at, _where, runs = looked[kind]
            if not len(runs):
                continue
            # reduceat sums each run (the last to the end, through the zero row after it); an empty run (a line with
            # nothing of this kind) gets the row its start points at, so it is set to zero
            summed = np.add.reduceat(self.matrix[self.rows[vocabulary][slot][found]], at[:-1], axis=0)
            summed[at[1:] == at[:-1]] = 0
            seen[slot, runs] += summed
        # line i sees the line before it as "p|" (place 1), the one after as "n|" (2), the one before that as "pp|"
        total[targets] = seen[0, targets] + seen[1, places[0]] + seen[2, places[1]] + seen[3, places[2]]
        return total, looked


def weighed(rl: ReadLine) -> bool:
    """Whether the model weighs a line at all: a customer's line, or a rep's that has a number, a finding of the
    rules' or a sentence that asks. The rep's other lines (statements the rules found nothing in: a pitch, an
    answer, "great, thanks") are a tenth of a call's. In the 31,394 labelled lines they hold 438 of the 12,040
    question, stall and next-step labels and 169 of the 9,360 qualification and follow-up ones (145 of them
    missed follow-ups, which it adds only on a rep's line it weighs): nothing is kept, taken back or added there, and the weighing
    they would cost goes to the lines that hold the rest."""
    if rl.role == CUSTOMER:
        return True
    return rl.role == REP and (bool(rl.labels) or has_number(rl.word_set) or any(s.asks for s in rl.sentences))


_DEFAULT: Weights | None = None
#: the three styles of a rep's question: a line that asks has one of them at most
REP_STYLES = ("rep_question_open", "rep_question_closed", "rep_question_leading")


def default_weights() -> Weights:
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = Weights.load()
    return _DEFAULT


def read_learned(reading: Reading, weights: Weights | None = None) -> None:
    """Decide the labels the weights learned again: confirm, take back or add."""
    weights = weights or default_weights()
    lines = reading.lines
    if not lines:
        return
    scores, looked = weights._weigh(reading)  # every line weighed before any finding changes
    index, keep_cut = weights.index, weights.keep_cut
    drop = {(rl.index, label) for rl in lines for label in rl.labels
            if label in index and -np.inf < scores[rl.index, index[label]] < keep_cut[index[label]]}
    added: list = []
    styled: dict[int, tuple[float, int]] = {}  # line -> (score, place in added) of the rep question style it adds
    for i, k in zip(*np.nonzero(scores >= weights.add_cut)):
        rl, label = lines[i], weights.labels[k]
        if rl.role in (REP, CUSTOMER) and label not in rl.labels and not _ruled_out(reading, rl, label):
            # a line whose speaker's side is unknown is not guessed at: the weights read who is speaking
            if label in REP_STYLES:
                # a rep's line that asks has one style (the figures count each asking line once): the weights' style
                # takes the place of the rules' only where they weigh it more, and of two they would add, the heavier
                score = float(scores[i, k])
                kept = [style for style in REP_STYLES if style in rl.labels and (rl.index, style) not in drop]
                if kept:
                    if kept[0] not in index or float(scores[i, index[kept[0]]]) >= score:
                        continue  # a style the weights do not read stays the rules'
                    drop.add((rl.index, kept[0]))
                if i in styled:
                    if styled[i][0] >= score:
                        continue
                    added[styled[i][1]] = None
                styled[i] = (score, len(added))
            added.append((rl, label, reason_of(weights, reading, looked, i, k, near(reading, i)[0])))
    added = [one for one in added if one is not None]
    found = {rl.index for rl, label, _reason in added if label in TRIGGERS}
    ruled = {rl.index for rl in lines if not rl.labels.keys().isdisjoint(TRIGGERS)} if found else set()
    reading.drop(drop)
    for rl, label, reason in added:
        reading.add(label, rl, "", reason)
    if found and "missed_follow_up" in index:
        _follow_up_what_it_found(reading, weights, found, ruled)


def _follow_up_what_it_found(reading: Reading, weights: Weights, found: set[int], ruled: set[int]) -> None:
    """A customer's turn the rules read nothing in but the weights read a budget owner, a pain or a push back in is
    read for a missed follow-up as the rules read one (follow_up.missed), and the rep's reply it finds is weighed as
    the rules' own finding would be: kept at the missed follow-up's bar to keep."""
    k = weights.index["missed_follow_up"]
    for turn, i in customer_turns(reading, found):
        if any(rl.index in ruled for rl in turn):
            continue  # the rules read one in the turn already (and the weights judged that)
        judged = missed(reading, turn, i)
        if judged is None:
            continue
        reply = judged[0]
        reply.labels["missed_follow_up"] = judged[1]  # weighed as the rules' finding on the reply
        score = weights.score_of(reading, reply.index)[k]
        del reply.labels["missed_follow_up"]
        reply.pieces = None
        if score >= weights.keep_cut[k]:
            report(reading, *judged)


def _ruled_out(reading: Reading, rl: ReadLine, label: str) -> bool:
    """What a line is not, whatever its words weigh: a label its own words negate ("no problem at all" is no
    pain). And a missed follow-up is a rep's reply to the customer: the model weighs it with the customer's line
    before it (its "p|" features), and adds it only on a rep's line whose turn follows the customer's."""
    if label == "missed_follow_up":
        before = reading.turns()[0][rl.index]
        return rl.role != REP or before < 0 or reading.lines[before].role != CUSTOMER
    negations = label + "_negations"
    return negations in reading.book.groups and reading.line_find(negations, rl) is not None


__all__ = ["LearnedWeightsError", "READS_AS", "Weights", "default_weights", "features", "read_learned", "weighed"]
