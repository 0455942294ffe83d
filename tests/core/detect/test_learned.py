"""The learned reading of the qualification and follow-up labels: the shipped weights, what it keeps, drops and adds."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from desktop.core.detect import GROUP_B, LearnedWeightsError, Weights, default_weights, detect, read_rules
from desktop.core.detect.learned import WEIGHTS, features, read_learned
from desktop.paths import resource
from tests.core.detect.talk import ROLES, lines
from tests.detection_eval.train import HELD_OUT, TRAINING, labelled_lines

HERE = Path(__file__).resolve().parents[2] / "detection_eval"


def _weights(table: dict[str, list[float]], keep=0.1, add=0.5) -> Weights:
    return Weights(tuple(GROUP_B), keep, add, {"bias": [-5.0] * len(GROUP_B), **table})


def _row(**by_label: float) -> list[float]:
    return [by_label.get(label, 0.0) for label in GROUP_B]


def test_the_shipped_weights_cover_the_labels_and_say_what_they_were_learned_from():
    data = json.loads(resource(*WEIGHTS).read_text(encoding="utf-8"))
    assert data["labels"] == list(GROUP_B) and 0 < data["keep"] < data["add"] < 1
    assert set(data["trained_on"]) == set(TRAINING) and set(TRAINING).isdisjoint(HELD_OUT)  # never the held-out calls
    w = default_weights()
    assert len(w.weights) > 1000 and w.source == data["digest"]


def test_the_scores_are_the_weights_of_every_named_feature_summed():
    """Detection weighs each line's pieces once for every place it is seen from; training names every feature
    of every line. On a real labelled call the two give the same sums."""
    call = sorted((HERE / "dev2").glob("*.vtt"))[0]
    reading = read_rules(*labelled_lines(call)[:2])
    w = default_weights()
    fast = w.scores(reading)
    for i in (0, 1, 5, len(reading.lines) - 1):
        names = features(reading, i)
        assert len(names) == len(set(names))  # each feature once: the model reads them as present or not
        slow = np.sum([w.weights[n] for n in names if n in w.weights], axis=0)
        assert np.allclose(fast[i], slow)


def test_a_rule_finding_the_model_does_not_confirm_is_taken_back_and_a_line_it_finds_is_added_with_its_words():
    said = lines("C: Our CFO signs off on anything like this.", "C: The warehouse floods every spring.")
    assert "economic_buyer" in {f.label for f in read_rules(said, ROLES).findings()}
    doubts = _weights({"Cr:economic_buyer": _row(economic_buyer=2.0), "Cw:floods": _row(pain=6.0)})
    found = {(f.start_ms // 4000, f.label): f for f in detect(said, ROLES, weights=doubts)}
    assert (0, "economic_buyer") not in found  # -5 + 2: under the bar to keep
    pain = found[(1, "pain")]
    assert pain.kind == "answer" and "'floods'" in pain.reason and "a problem the customer has" in pain.reason
    sure = _weights({"Cr:economic_buyer": _row(economic_buyer=4.0)})
    assert (0, "economic_buyer") in {(f.start_ms // 4000, f.label) for f in detect(said, ROLES, weights=sure)}


def test_the_model_never_adds_what_the_line_negates_nor_a_missed_follow_up():
    said = lines("C: No problem at all, happy to help.", "C: The CFO signs off on it.",
                 "R: Great, let me show you the dashboard.")
    eager = _weights({"bias": _row(pain=9.0, missed_follow_up=9.0)})
    got = {(f.start_ms // 4000, f.label) for f in detect(said, ROLES, weights=eager)}
    assert (0, "pain") not in got  # "no problem" is listed under pain_negations
    assert (1, "pain") in got  # the same eagerness elsewhere is taken
    rules = {(f.start_ms // 4000, f.label) for f in read_rules(said, ROLES).findings()}
    assert {k for k in got if k[1] == "missed_follow_up"} <= {k for k in rules if k[1] == "missed_follow_up"}


def test_the_other_labels_are_the_rules_alone():
    said = lines("R: Would you like to see a demo next week?", "C: Just send me some information.",
                 "R: Sure, I'll send that over today.")
    rules = [(f.label, f.start_ms) for f in read_rules(said, ROLES).findings() if f.label not in GROUP_B]
    learned = [(f.label, f.start_ms) for f in detect(said, ROLES) if f.label not in GROUP_B]
    assert rules == learned and ("deferral", 4000) in rules


def test_an_empty_transcript_reads_as_nothing():
    reading = read_rules([], ROLES)
    read_learned(reading)
    assert reading.findings() == []


@pytest.mark.parametrize("text, says", [
    (None, "the moment finder's learned weights are missing"),
    ("{not json", "cannot read the learned weights"),
    (json.dumps({"format": 1, "labels": ["pain"], "keep": 0.1, "add": 0.5, "weights": {}}), "do not cover"),
    (json.dumps({"format": 1, "labels": list(GROUP_B), "keep": 0.1, "add": 1.5, "weights": {}}), "between 0 and 1"),
    (json.dumps({"format": 9, "labels": list(GROUP_B), "keep": 0.1, "add": 0.5, "weights": {}}), "format 9"),
])
def test_broken_weights_are_refused_with_the_file_named(tmp_path, text, says):
    path = tmp_path / "weights.json"
    if text is not None:
        path.write_text(text, encoding="utf-8")
    with pytest.raises(LearnedWeightsError) as err:
        Weights.load(path)
    assert str(path) in str(err.value) and says in str(err.value)
