import json

import pytest

from desktop.core.calibration import CalibrationError, CalMoment, cohen_kappa, match

KEYS = ["matched", "mine", "theirs", "moment_agreement", "kind_kappa",
        "behavior_change_agreement", "mean_start_offset_ms", "pairs", "only_mine", "only_theirs"]


def m(id_, start, end=None, kind="question", change=None):
    return CalMoment(id_, start, start if end is None else end, kind, change)


def test_identical_records_agree_fully():
    mine = [m("a", 1000, 3000, "question", "start"), m("b", 40000, 44000, "answer", "stop"),
            m("c", 90000, 91000, "missed_intervention", None)]
    theirs = [m("x", 1000, 3000, "question", "start"), m("y", 40000, 44000, "answer", "stop"),
              m("z", 90000, 91000, "missed_intervention", None)]
    result = match(mine, theirs).to_dict()
    assert list(result) == KEYS
    assert result["matched"] == 3 and result["mine"] == 3 and result["theirs"] == 3
    assert result["moment_agreement"] == 1.0
    assert result["kind_kappa"] == 1.0
    assert result["behavior_change_agreement"] == 1.0  # 2 pairs feed items on both sides
    assert result["mean_start_offset_ms"] == 0.0
    assert [(p["mine"], p["theirs"]) for p in result["pairs"]] == [("a", "x"), ("b", "y"), ("c", "z")]
    assert result["only_mine"] == [] and result["only_theirs"] == []
    json.dumps(result)  # plain JSON, as the CLI prints it


def test_disjoint_records_agree_not_at_all():
    result = match([m("a", 0, 1000), m("b", 60000, 61000)], [m("x", 20000, 21000)]).to_dict()
    assert result["matched"] == 0
    assert result["moment_agreement"] == 0.0
    assert result["kind_kappa"] is None
    assert result["behavior_change_agreement"] is None
    assert result["mean_start_offset_ms"] is None
    assert result["only_mine"] == ["a", "b"] and result["only_theirs"] == ["x"]


def test_both_empty_is_full_agreement():
    assert match([], []).moment_agreement == 1.0


def test_shift_of_3_s_matches_and_7_s_does_not_at_5_s_tolerance():
    mine = [m("a", 10000, 12000), m("b", 60000, 62000)]
    theirs = [m("x", 13000, 14000), m("y", 67000, 68000)]  # +3 s (no overlap), +7 s (no overlap)
    result = match(mine, theirs, tolerance_ms=5000).to_dict()
    assert result["matched"] == 1
    assert result["moment_agreement"] == 2 * 1 / 4
    assert result["pairs"] == [{"mine": "a", "theirs": "x", "start_diff_ms": 3000,
                                "mine_kind": "question", "theirs_kind": "question"}]
    assert result["mean_start_offset_ms"] == 3000.0
    assert result["only_mine"] == ["b"] and result["only_theirs"] == ["y"]
    # The tolerance is configurable: at 7 s both match; offset is (3000 + 7000) / 2.
    wide = match(mine, theirs, tolerance_ms=7000)
    assert wide.matched == 2 and wide.mean_start_offset_ms == 5000.0


def test_overlapping_intervals_match_beyond_tolerance():
    mine = [m("a", 100000, 120000)]
    theirs = [m("x", 108000, 110000)]  # starts 8 s later, inside my span
    result = match(mine, theirs)
    assert result.matched == 1 and result.pairs[0].start_diff_ms == 8000
    # Touching ends count as overlap (closed intervals).
    assert match([m("a", 0, 10000)], [m("x", 10000, 11000)], tolerance_ms=0).matched == 1
    assert match([m("a", 0, 9999)], [m("x", 10000, 11000)], tolerance_ms=0).matched == 0


def test_ties_go_to_earlier_start_of_mine_then_of_theirs():
    # Both of mine are 5 s from theirs: my earlier moment wins.
    result = match([m("late", 20000), m("early", 10000)], [m("x", 15000)])
    assert [(p.mine.id, p.theirs.id) for p in result.pairs] == [("early", "x")]
    assert [x.id for x in result.only_mine] == ["late"]
    # Both of theirs are 3 s from mine: their earlier moment wins.
    result = match([m("a", 20000)], [m("later", 23000), m("sooner", 17000)])
    assert [(p.mine.id, p.theirs.id) for p in result.pairs] == [("a", "sooner")]
    assert result.mean_start_offset_ms == -3000.0  # signed: theirs - mine


def test_greedy_takes_the_smallest_difference_first():
    # a-x differ by 3 s, b-x by 1 s: b takes x although a comes first; a then takes y (4 s).
    result = match([m("a", 0), m("b", 4000)], [m("x", 3000), m("y", 4000 + 4000)])
    assert {(p.mine.id, p.theirs.id) for p in result.pairs} == {("b", "x")}
    assert [x.id for x in result.only_mine] == ["a"]  # y is 8 s from a: beyond tolerance


def test_kappa_on_a_known_table():
    # 50 items: yes/yes 20, yes/no 5, no/yes 10, no/no 15 -> p_o 0.7, p_e 0.5, kappa 0.4.
    a = ["yes"] * 25 + ["no"] * 25
    b = ["yes"] * 20 + ["no"] * 5 + ["yes"] * 10 + ["no"] * 15
    assert cohen_kappa(a, b) == pytest.approx(0.4)


def test_kind_kappa_and_behavior_change_over_matched_pairs():
    # Kinds: Q/Q, Q/A, A/A, A/Q -> p_o 0.5, p_e 0.5 -> kappa 0.0.
    mine = [m("a", 0, kind="question", change="start"), m("b", 20000, kind="question", change="start"),
            m("c", 40000, kind="answer", change="stop"), m("d", 60000, kind="answer", change=None)]
    theirs = [m("w", 1000, kind="question", change="start"), m("x", 21000, kind="answer", change="adjust"),
              m("y", 41000, kind="answer", change="stop"), m("z", 61000, kind="question", change="stop")]
    result = match(mine, theirs)
    assert result.kind_kappa == pytest.approx(0.0)
    # d feeds no item, so 3 pairs count: a-w same, b-x differ, c-y same -> 2/3.
    assert result.behavior_change_agreement == pytest.approx(2 / 3)
    # Q/Q, Q/Q, A/A, A/Q: p_o .75, p_e = .5*.75 + .5*.25 = .5 -> kappa .5
    theirs2 = [m("w", 1000, kind="question"), m("x", 21000, kind="question"),
               m("y", 41000, kind="answer"), m("z", 61000, kind="question")]
    assert match(mine, theirs2).kind_kappa == pytest.approx(0.5)


def test_kappa_is_none_for_one_pair_or_when_chance_is_certain():
    assert match([m("a", 0)], [m("x", 0)]).kind_kappa is None
    assert match([m("a", 0), m("b", 20000)], [m("x", 0), m("y", 20000)]).kind_kappa is None


def test_bad_input_is_refused_with_a_clear_message():
    with pytest.raises(CalibrationError, match="appears twice"):
        match([m("a", 0), m("a", 5)], [])
    with pytest.raises(CalibrationError, match="not valid"):
        match([], [m("x", 500, 100)])
    with pytest.raises(CalibrationError, match="tolerance"):
        match([], [], tolerance_ms=-1)
