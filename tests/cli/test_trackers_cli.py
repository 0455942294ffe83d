"""`callmark trackers list|add|edit|remove|hits`, through the real command and store."""

from __future__ import annotations

import json

import pytest

from tests.conftest import run_cli
from tests.services.demo_script import write_script_vtt


@pytest.fixture
def home(isolated_home, demo_media, tmp_path):
    run_cli("calls", "add", str(demo_media), "--title", "Acme discovery", "--rep", "Riley Rep",
            home=isolated_home, check=True)
    run_cli("transcript", "import", "1", str(write_script_vtt(tmp_path / "acme.vtt")), home=isolated_home, check=True)
    return isolated_home


def _json(home, *args):
    return json.loads(run_cli("trackers", *args, "--json", home=home, check=True).stdout)


def test_hits_prints_the_lines_of_a_shipped_tracker(home):
    hits = _json(home, "hits", "Deferral")
    assert hits == [{"call": 1, "start_ms": 125551, "end_ms": hits[0]["end_ms"], "speaker": "Casey",
                     "role": "customer", "quote": hits[0]["quote"]}]
    assert "Just send me some information" in hits[0]["quote"] and hits[0]["end_ms"] > 125551
    text = run_cli("trackers", "hits", "deferral accepted", home=home, check=True).stdout
    assert text.split() [:4] == ["1", "02:12.683", "Riley", "(rep)"] and "I'll send that over today" in text


def test_add_edit_remove_and_list(home):
    added = _json(home, "add", "Reporting pain", "--side", "customer", "--phrase", "spreadsheet*",
                  "--phrase", "week old", "--exclude", "no spreadsheets")
    assert (added["name"], added["key"], added["side"], added["counted"]) == \
        ("Reporting pain", "reporting_pain", "customer", True)
    assert added["calls"] == 1 and added["hits"] >= 1
    listed = {t["name"]: t for t in _json(home, "list")}
    assert {"Deferral", "Deferral accepted", "Next step with a date", "Competitor names", "Budget owner",
            "Pricing", "Reporting pain"} <= set(listed)
    edited = _json(home, "edit", "reporting_pain", "--name", "Spreadsheets", "--phrase", "spreadsheet*",
                   "--no-exclusions")
    assert edited["name"] == "Spreadsheets" and edited["exclusions"] == [] and edited["phrases"] == ["spreadsheet*"]
    assert [h["role"] for h in _json(home, "hits", "Spreadsheets")] == ["customer"]
    out = run_cli("trackers", "remove", "Spreadsheets", home=home, check=True).stdout
    assert out.strip() == "removed tracker Spreadsheets"
    assert "Spreadsheets" not in {t["name"] for t in _json(home, "list")}


def test_errors_are_one_line_and_write_nothing(home):
    bad = run_cli("trackers", "hits", "Nope", home=home)
    assert bad.returncode == 1 and bad.stderr.count("\n") == 1
    assert bad.stderr.startswith("callmark: tracker 'Nope': no such tracker (known: Budget owner")
    clash = run_cli("trackers", "add", "deferral", "--phrase", "later", home=home)
    assert clash.returncode == 1 and "already a tracker 'Deferral'" in clash.stderr
    wild = run_cli("trackers", "add", "Odd", "--phrase", "bu*dget", home=home)
    assert wild.returncode == 1 and "alone or at the end of a word" in wild.stderr
    assert "Odd" not in {t["name"] for t in _json(home, "list")}
