"""The labelled-set evaluation: its scoring on a hand-checked call, and the development set through the command."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO
from tests.detection_eval.run import evaluate, summary

DEV = Path(__file__).parent / "dev"

VTT = """WEBVTT

1
00:00:01.000 --> 00:00:04.000
Riley Rep: Would you like to see a demo next week?

2
00:00:04.500 --> 00:00:09.000
Dana Customer: Maybe. Just send me some information.

3
00:00:09.500 --> 00:00:11.000
Riley Rep: Sure, will do.

4
00:00:11.500 --> 00:00:14.000
Dana Customer: We tried a free tool last year.
"""


def test_scoring_counts_overlaps_per_label(tmp_path):
    (tmp_path / "one.vtt").write_text(VTT, encoding="utf-8")
    truth = {"rep": "Riley Rep", "labels": {"1": ["rep_question_open"], "2": ["deferral"],
                                             "3": ["deferral_accepted"], "4": ["pain"]}}
    (tmp_path / "one.truth.json").write_text(json.dumps(truth), encoding="utf-8")
    s = summary(evaluate(tmp_path))
    labels = s["labels"]
    # Line 1 is a closed question, labelled open here: a false alarm for closed, a miss for open.
    assert (labels["rep_question_closed"].findings, labels["rep_question_closed"].correct) == (1, 0)
    assert (labels["rep_question_open"].truth, labels["rep_question_open"].found) == (1, 0)
    assert labels["deferral"].precision == 1.0 and labels["deferral_accepted"].recall == 1.0
    assert labels["pain"].recall == 0.0 and labels["competition"].findings == 1
    group_a = s["groups"]["A"]
    assert (group_a.truth, group_a.found, group_a.findings, group_a.correct) == (3, 2, 3, 2)


def test_the_command_on_the_development_set():
    assert len(list(DEV.glob("*.vtt"))) >= 8
    out = subprocess.run([sys.executable, "-m", "tests.detection_eval", str(DEV), "--json"], cwd=REPO,
                         capture_output=True, text=True, timeout=300, check=True)
    figures = json.loads(out.stdout)
    assert figures["calls"] == len(list(DEV.glob("*.vtt")))
    a, b = figures["groups"]["A"], figures["groups"]["B"]
    # The set the rules were tuned on: falling below the goals here is a regression.
    assert a["precision"] >= 0.85 and a["recall"] >= 0.85
    assert b["precision"] >= 0.75 and b["recall"] >= 0.70


def test_a_folder_without_truth_is_refused_by_name(tmp_path):
    (tmp_path / "lonely.vtt").write_text(VTT, encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "tests.detection_eval", str(tmp_path)], cwd=REPO,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 1 and "lonely.truth.json: missing" in out.stderr


def _groups_of(folder: Path) -> tuple[dict, dict]:
    out = subprocess.run([sys.executable, "-m", "tests.detection_eval", str(folder), "--json"], cwd=REPO,
                         capture_output=True, text=True, timeout=300, check=True)
    groups = json.loads(out.stdout)["groups"]
    return groups["A"], groups["B"]


@pytest.mark.parametrize("name, a_floor, b_floor", [("heldout_w1", (0.89, 0.80), (0.70, 0.69)),
                                                     ("heldout_w2", (0.88, 0.81), (0.66, 0.64)),
                                                     ("heldout_w1_second", (0.91, 0.78), (0.81, 0.60)),
                                                     ("heldout_h17", (0.83, 0.86), (0.76, 0.66)),
                                                     ("heldout_h18", (0.85, 0.90), (0.63, 0.75)),
                                                     ("heldout_h19", (0.88, 0.94), (0.72, 0.74)),
                                                     ("heldout_h20", (0.86, 0.91), (0.71, 0.66)),
                                                     ("heldout_h21", (0.90, 0.89), (0.73, 0.67)),
                                                     ("heldout_h22", (0.85, 0.89), (0.77, 0.69)),
                                                     ("heldout_h26", (0.94, 0.97), (0.78, 0.73)),
                                                     ("heldout_h27", (0.88, 0.89), (0.74, 0.66)),
                                                     ("heldout_h28", (0.87, 0.90), (0.73, 0.71)),
                                                     ("heldout_h29", (0.86, 0.84), (0.72, 0.63)),
                                                     ("heldout_h30", (0.83, 0.88), (0.75, 0.77)),
                                                     ("heldout_h31", (0.88, 0.92), (0.79, 0.70)),
                                                     ("heldout_h32", (0.92, 0.90), (0.79, 0.71)),
                                                     ("heldout_h33", (0.82, 0.89), (0.73, 0.74))])
def test_the_sets_never_tuned_on_are_measured_and_do_not_fall_back(name, a_floor, b_floor):
    """Twenty-nine coaches wrote these calls from the method's text and the label definitions alone, blind to the
    rules and to the learned weights; neither rules, weights nor bars were ever tuned on them
    (tests.detection_eval.train.HELD_OUT; `heldout_w1_second`: the w1 calls as a second coach labelled them, blind
    to the first coach's labels; h17 to h22 and h26 to h33 were first scored once the weights and bars were fixed).
    Their figures are reported in the issue (the goals are not met on all of them yet); these floors, a little under this
    round's figures, only catch a change that makes them worse."""
    folder = Path(__file__).parent / name
    assert len(list(folder.glob("*.vtt"))) >= 24
    a, b = _groups_of(folder)
    assert a["precision"] >= a_floor[0] and a["recall"] >= a_floor[1]
    assert b["precision"] >= b_floor[0] and b["recall"] >= b_floor[1]


@pytest.mark.parametrize("name, a_floor, b_floor", [("blind", (0.87, 0.93), (0.91, 0.90)),
                                                     ("after", (0.92, 0.90), (0.93, 0.92)),  # its B precision: 0.934
                                                     ("fresh", (0.83, 0.87), (0.94, 0.92)),  # its A recall: 0.877
                                                     ("final", (0.90, 0.90), (0.89, 0.94)),
                                                     # train_t1's B precision: 0.87 (the missed follow-ups read
                                                     # after a pain the weights found add a few wrong ones)
                                                     ("train_t1", (0.80, 0.88), (0.86, 0.90)),
                                                     *((f"train_t{n}", (0.80, 0.88), (0.87, 0.90))
                                                       for n in range(2, 43) if n not in (18, 20)),
                                                     ("train_t18", (0.79, 0.88), (0.87, 0.90)),  # its A precision: 0.796
                                                     ("train_t20", (0.80, 0.88), (0.85, 0.90)),  # its B precision: 0.855
                                                     *((f"heldout_h{n}", (0.85, 0.85), (0.87, 0.94))
                                                       for n in (*range(3, 17), 23, 24, 25, 34, 35, 36, 37)),
                                                     ("blind_second", (0.91, 0.89), (0.89, 0.67)),
                                                     ("fresh_second", (0.85, 0.88), (0.88, 0.74))])
def test_the_older_sets_the_weights_were_learned_from_do_not_fall_back(name, a_floor, b_floor):
    """`blind`, `after`, `fresh` and `final` were held out from the rules; since the learned reading they are
    among the calls its weights are learned from (with dev, dev2 and `train_t1`…`train_t42`, forty-two more writers
    who wrote blind after the rules and were measured once before they were learned from, and `heldout_h3`…`h16`,
    fourteen more, held out until their figures were reported, and `heldout_h23`…`h25` and `heldout_h34`…`h37`,
    fourteen more, likewise), so their figures are figures on training calls and say only that the weights learned what they were given. (`*_second`: the
    blind and fresh calls as a second coach labelled them, not learned from, but the same calls.)"""
    a, b = _groups_of(Path(__file__).parent / name)
    assert a["precision"] >= a_floor[0] and a["recall"] >= a_floor[1]
    assert b["precision"] >= b_floor[0] and b["recall"] >= b_floor[1]


def test_training_makes_weights_the_finder_reads(tmp_path):
    """The whole path on real labelled calls: the development set read by the rules, a model fitted, its
    weights written and read back, and the finder through them finds what those calls were labelled."""
    from desktop.core.detect import GROUP_B, Weights, detect
    from tests.detection_eval import train

    rows = train.rows_of(("dev",))
    made = train.weights_json(*train.fit(rows), ("dev",))
    path = tmp_path / "weights.json"
    path.write_text(json.dumps(made), encoding="utf-8")
    weights = Weights.load(path)
    assert weights.source == made["digest"] and weights.labels == train.learned_labels()
    assert weights.keep == {label: train.BARS[label][0] for label in weights.labels}
    found = truth = 0
    for vtt in sorted(DEV.glob("*.vtt"))[:20]:
        said, roles, labels = train.labelled_lines(vtt)
        by_start: dict[int, set[str]] = {}
        for f in detect(said, roles, weights=weights):
            by_start.setdefault(f.start_ms, set()).add(f.label)
        for line, wanted in zip(said, labels):
            wanted = wanted & set(GROUP_B)
            truth += len(wanted)
            found += len(wanted & by_start.get(line.start_ms, set()))
    assert truth > 20 and found / truth >= 0.8


def test_a_second_coachs_labels_are_scored_like_findings(tmp_path):
    first, second = tmp_path / "first", tmp_path / "second"
    for folder, labels in ((first, {"1": ["rep_question_closed"], "2": ["deferral"], "4": ["pain"]}),
                           (second, {"1": ["rep_question_closed"], "2": ["deferral", "economic_buyer"]})):
        folder.mkdir()
        (folder / "one.vtt").write_text(VTT, encoding="utf-8")
        (folder / "one.truth.json").write_text(json.dumps({"rep": "Riley Rep", "labels": labels}), encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "tests.detection_eval", str(first), "--against", str(second),
                          "--json"], cwd=REPO, capture_output=True, text=True, timeout=120, check=True)
    labels = json.loads(out.stdout)["labels"]
    assert (labels["deferral"]["correct"], labels["deferral"]["found"]) == (1, 1)
    assert (labels["pain"]["truth"], labels["pain"]["found"]) == (1, 0)  # the second coach missed it
    assert (labels["economic_buyer"]["findings"], labels["economic_buyer"]["correct"]) == (1, 0)
    (second / "one.truth.json").unlink()
    out = subprocess.run([sys.executable, "-m", "tests.detection_eval", str(first), "--against", str(second)],
                         cwd=REPO, capture_output=True, text=True, timeout=120)
    assert out.returncode == 1 and "one.truth.json: missing" in out.stderr


@pytest.mark.parametrize("name", ["blind", "fresh", "heldout_w1"])
def test_two_coaches_labelling_the_same_calls_agree_above_the_goals_ceiling(name):
    """A second coach labelled the `blind`, `fresh` and `heldout_w1` calls from the method's text, without
    seeing the first coach's labels (`*_second`). How far two careful people agree is the ceiling for any
    finder measured against one of them: both groups' F1 between the coaches is above 0.8."""
    folder = Path(__file__).parent
    out = subprocess.run([sys.executable, "-m", "tests.detection_eval", str(folder / name), "--against",
                          str(folder / f"{name}_second"), "--json"], cwd=REPO, capture_output=True, text=True,
                         timeout=120, check=True)
    for group in json.loads(out.stdout)["groups"].values():
        p, r = group["precision"], group["recall"]
        assert 2 * p * r / (p + r) > 0.8, group


def test_the_bars_are_chosen_for_both_goals_not_for_f1():
    """Group B's goal is precision 0.75 and recall 0.70 at once. The rules alone read a label at precision 0.69 /
    recall 0.90 (F1 0.78), the model's bars at 0.78 / 0.70 (F1 0.74): F1 would keep the rules' reading, which misses
    the precision goal; the bars must take the model's, which meets both."""
    import numpy as np

    from desktop.core.detect import GROUP_B, LABELS
    from tests.detection_eval import train

    goal = (0.75, 0.70)  # (found, correct, truth) below
    assert train.goal_score((130, 90, 100), goal) < train.goal_score((90, 70, 100), goal)
    # the same choice made by choose_bars on scored lines: the rules find 130 lines of a label, 90 of them right, of
    # 100 labelled; the model gives 70 of the right ones and 20 wrong ones a high probability, the rest none
    k = LABELS.index("pain")
    n = 250
    p = np.zeros((n, len(LABELS)))
    ruled = np.zeros((n, len(LABELS)), dtype=bool)
    truth = np.zeros((n, len(LABELS)), dtype=bool)
    ruled[:130, k] = True
    truth[:90, k] = True
    truth[130:140, k] = True  # ten labelled lines nobody finds
    p[:70, k] = 0.9
    p[90:110, k] = 0.9
    cells = [(p, ruled, truth, np.ones(n, dtype=bool))]
    chosen = train.choose_bars(cells, GROUP_B)
    found, correct, labelled = train.bar_counts(cells, k, chosen["pain"])
    assert (found, correct, labelled) == (90, 70, 100)
