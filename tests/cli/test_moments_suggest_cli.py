"""`callmark moments suggest|accept|dismiss` and `callmark calls stats`, through the real command."""

from __future__ import annotations

import json
import sqlite3

import pytest

from desktop.core.detect import FIGURE_KEYS
from tests.conftest import run_cli
from tests.services.demo_script import write_script_vtt

FINDING_KEYS = ["id", "label", "start_ms", "end_ms", "speaker", "role", "quote", "reason", "kind"]


@pytest.fixture
def home(isolated_home, demo_media, tmp_path):
    run_cli("calls", "add", str(demo_media), "--title", "Acme discovery", "--rep", "Riley Rep",
            home=isolated_home, check=True)
    run_cli("transcript", "import", "1", str(write_script_vtt(tmp_path / "acme.vtt")), home=isolated_home, check=True)
    return isolated_home


def _suggest(home, *extra):
    return json.loads(run_cli("moments", "suggest", "1", "--json", *extra, home=home, check=True).stdout)


def _counts(home):
    con = sqlite3.connect(home / "callmark.sqlite3")
    try:
        return tuple(con.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
                     for t in ("moment", "suggestion_verdict"))
    finally:
        con.close()


def test_suggest_prints_the_findings_and_writes_nothing_but_the_cache(home):
    found = _suggest(home)
    assert found and all(list(f) == FINDING_KEYS for f in found)
    deferral = next(f for f in found if f["label"] == "deferral")
    assert "Just send me some information" in deferral["quote"]
    assert (deferral["speaker"], deferral["role"], deferral["kind"]) == ("Casey", "customer", "other")
    assert _counts(home) == (0, 0)
    only = _suggest(home, "--label", "deferral", "--label", "rep_question_closed")
    assert {f["label"] for f in only} == {"deferral", "rep_question_closed"}
    assert [f["id"] for f in _suggest(home)] == [f["id"] for f in found], "the same transcript, the same ids"
    text = run_cli("moments", "suggest", "Acme discovery", "--label", "deferral_accepted", home=home, check=True).stdout
    assert "Sure, I'll send that over today." in text and "sets no date and asks nothing" in text


def test_accept_and_dismiss_by_id(home):
    found = _suggest(home)
    accepted = next(f for f in found if f["label"] == "deferral_accepted")
    dismissed = next(f for f in found if f["label"] == "rep_question_closed")
    out = json.loads(run_cli("moments", "accept", "1", accepted["id"][:8], "--json", home=home, check=True).stdout)
    assert out["ids"] == [accepted["id"]] and out["moments"][0]["kind"] == "missed_intervention"
    listed = json.loads(run_cli("moments", "list", "1", "--json", home=home, check=True).stdout)
    assert [(m["start_ms"], m["quote"]) for m in listed] == [(accepted["start_ms"], accepted["quote"])]
    run_cli("moments", "dismiss", "1", dismissed["id"], home=home, check=True)
    assert _counts(home) == (1, 2)
    again = run_cli("moments", "accept", "1", accepted["id"], home=home, check=True)
    assert "already accepted" in again.stdout and _counts(home) == (1, 2)


def test_unknown_ids_and_calls_are_one_line_errors_with_nothing_written(home):
    bad = run_cli("moments", "accept", "1", "0123456789abcdef", home=home)
    assert bad.returncode == 1 and bad.stderr.strip().count("\n") == 0
    assert "no suggestion '0123456789abcdef'" in bad.stderr
    missing = run_cli("moments", "suggest", "99", home=home)
    assert missing.returncode == 1 and "no such call" in missing.stderr
    assert _counts(home) == (0, 0)


def test_calls_stats_prints_exactly_the_figures(home):
    figures = json.loads(run_cli("calls", "stats", "1", "--json", home=home, check=True).stdout)
    assert list(figures) == list(FIGURE_KEYS)
    assert figures["rep_talk_share"] == pytest.approx(0.451, abs=0.001)
    # "Is it busy season at Acme?", "Do you use any other reporting tools today?", "Would you like to see a demo
    # next week?": a yes/no question is closed, small talk too
    assert figures["rep_questions_closed"] == 3 and figures["rep_questions_leading"] == 1
    assert figures["patience_ms"] == 450
    text = run_cli("calls", "stats", "1", home=home, check=True).stdout
    assert "rep_talk_share" in text and "0.451" in text


def test_stats_without_roles_are_null_and_the_text_says_why(isolated_home, demo_media, tmp_path):
    run_cli("calls", "add", str(demo_media), home=isolated_home, check=True)  # no rep named
    run_cli("transcript", "import", "1", str(write_script_vtt(tmp_path / "a.vtt")), home=isolated_home, check=True)
    figures = json.loads(run_cli("calls", "stats", "1", "--json", home=isolated_home, check=True).stdout)
    assert figures["rep_talk_share"] is None and figures["interactivity_per_min"] is not None
    text = run_cli("calls", "stats", "1", home=isolated_home, check=True).stdout
    assert "set-rep" in text
    run_cli("transcript", "set-rep", "1", "Riley", home=isolated_home, check=True)
    figures = json.loads(run_cli("calls", "stats", "1", "--json", home=isolated_home, check=True).stdout)
    assert figures["rep_talk_share"] == pytest.approx(0.451, abs=0.001)


def test_suggest_says_why_a_call_has_none(isolated_home, demo_media, tmp_path):
    run_cli("calls", "add", str(demo_media), home=isolated_home, check=True)
    bare = run_cli("moments", "suggest", "1", home=isolated_home, check=True)
    assert bare.stdout == "" and "has no transcript yet" in bare.stderr
    run_cli("transcript", "import", "1", str(write_script_vtt(tmp_path / "a.vtt")), home=isolated_home, check=True)
    unknown = run_cli("moments", "suggest", "1", home=isolated_home, check=True)
    assert "set-rep" in unknown.stderr
    assert json.loads(run_cli("moments", "suggest", "1", "--json", home=isolated_home, check=True).stdout) == []
