"""`callmark cycles` and `callmark indicators` through the real command, in a child process."""

from __future__ import annotations

import json

import pytest

from tests.conftest import run_cli

KEYS = ["coaching_frequency", "action_completion", "feedback_specificity", "inspection_quality",
        "behavior_adoption", "evidence_capture"]


@pytest.mark.slow  # nine runs of the real command
def test_cycle_sessions_and_indicators_end_to_end(tmp_path):
    home = tmp_path / "h"
    added = json.loads(run_cli("--home", str(home), "cycles", "add", "--manager", "Morgan Manager",
                               "--start", "2026-09-07", "--model", "oskar", "--focus",
                               "Ask for the next step the customer confirmed", "--json", check=True).stdout)
    assert (added["manager"], added["conversation_model"], added["sessions"]["planned"]) == (
        "Morgan Manager", "oskar", 7)
    listed = json.loads(run_cli("--home", str(home), "cycles", "list", "--as-of", "2026-10-20", "--json",
                                check=True).stdout)
    assert [(c["id"], c["phase"], c["day"]) for c in listed] == [(added["id"], "coach", 44)]

    sessions = json.loads(run_cli("--home", str(home), "cycles", "sessions", str(added["id"]), "--json",
                                  check=True).stdout)
    first, second = sessions[0]["id"], sessions[1]["id"]
    refused = run_cli("--home", str(home), "cycles", "close", str(first))
    assert refused.returncode == 1
    assert refused.stderr.strip().splitlines() == [
        f"callmark: session {first}: The session can't be closed as held yet: it needs one practice action, "
        "one owner, one place to look for evidence — or a reason why not."]
    run_cli("--home", str(home), "cycles", "close", str(first), "--action", "Role-play the next-step question",
            "--owner", "Morgan Manager", "--evidence-place", "next two recordings", "--score", "6",
            "--example", "Casey: send me some information", "--held-on", sessions[0]["planned_date"], check=True)
    run_cli("--home", str(home), "cycles", "done", str(first), "yes", check=True)
    run_cli("--home", str(home), "cycles", "missed", str(second), "--reason", "travel", check=True)

    out = run_cli("--home", str(home), "indicators", "--manager", "Morgan Manager", "--as-of", "2026-10-20",
                  "--json", check=True)
    figures = json.loads(out.stdout)
    assert list(figures) == KEYS
    assert figures["coaching_frequency"] == {"value": 0.5, "numerator": 1, "denominator": 2}
    assert figures["action_completion"] == {"value": 1.0, "numerator": 1, "denominator": 1}
    assert figures["evidence_capture"] == {"value": 1.0, "numerator": 1, "denominator": 1}
    assert figures["behavior_adoption"] == {"value": None, "numerator": 0, "denominator": 0}
    by_cycle = json.loads(run_cli("--home", str(home), "indicators", "--cycle", str(added["id"]), "--as-of",
                                  "2026-10-20", "--json", check=True).stdout)
    assert by_cycle == figures
    text = run_cli("--home", str(home), "indicators", "--manager", "Morgan Manager", "--as-of", "2026-10-20",
                   check=True).stdout
    assert "Coaching frequency (sessions held / planned)" in text and "1 / 2" in text


def test_focus_change_inside_the_cycle_needs_a_reason(tmp_path):
    home = tmp_path / "h"
    cycle = run_cli("--home", str(home), "cycles", "add", "--manager", "Morgan Manager", "--start", "2026-09-07",
                    "--focus", "Ask who else reviews it", check=True).stdout.strip()
    refused = run_cli("--home", str(home), "cycles", "focus", cycle, "Pause after the price", "--on", "2026-10-20")
    assert refused.returncode == 1 and "stays stable during the cycle" in refused.stderr
    run_cli("--home", str(home), "cycles", "focus", cycle, "Pause after the price", "--on", "2026-10-20",
            "--reason", "The price moment loses every deal", check=True)
    shown = json.loads(run_cli("--home", str(home), "cycles", "show", cycle, "--json", check=True).stdout)
    assert shown["focus_behavior"] == "Pause after the price"
    assert shown["focus_changes"][0]["reason"] == "The price moment loses every deal"


def test_bad_input_is_one_line_and_writes_nothing(tmp_path):
    home = tmp_path / "h"
    bad_date = run_cli("--home", str(home), "cycles", "add", "--manager", "Morgan", "--start", "07/09/2026")
    assert bad_date.returncode == 1
    assert bad_date.stderr.strip() == "callmark: start date '07/09/2026': not an ISO date (e.g. 2026-12-14)"
    nobody = run_cli("--home", str(home), "indicators", "--manager", "Nobody", "--json")
    assert nobody.returncode == 1 and nobody.stderr.count("\n") == 1
    assert "Nobody" in nobody.stderr
    assert json.loads(run_cli("--home", str(home), "cycles", "list", "--json", check=True).stdout) == []
