"""`callmark items ...` run as the real command in a child process, over a real store."""

from __future__ import annotations

import json

import pytest

from desktop.core.specificity import METHOD_EXAMPLE
from desktop.services import items
from tests.conftest import run_cli
from tests.services.items_setup import INFO_LINE_MS, demo_call, mark

VAGUE = ["Improve pipeline discipline", "sell more", "Be more proactive", "better discovery"]


@pytest.mark.parametrize("text", VAGUE)
def test_check_flags_vague_text_with_exit_1(text, isolated_home):
    result = run_cli("items", "check", text, "--json", home=isolated_home)
    assert result.returncode == 1, result.stderr
    findings = json.loads(result.stdout)
    assert findings and all(set(f) == {"component", "severity", "message"} for f in findings)
    assert any(f["severity"] == "error" and f["component"] == "behavior" for f in findings)


def test_check_passes_the_methods_example_with_exit_0(isolated_home):
    result = run_cli("items", "check", METHOD_EXAMPLE, "--json", home=isolated_home)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == []
    plain = run_cli("items", "check", METHOD_EXAMPLE, home=isolated_home)
    assert plain.returncode == 0 and "Specific enough to coach" in plain.stdout


def test_check_in_plain_text_gives_reason_and_suggestion(isolated_home):
    result = run_cli("items", "check", "Improve pipeline discipline", home=isolated_home)
    assert result.returncode == 1
    assert "error    behavior:" in result.stdout and "→" in result.stdout


def test_check_an_item_by_number_and_by_uid(store, isolated_home):
    call = demo_call(store)
    moment = mark(store, call.id, INFO_LINE_MS)
    item = items.create_item(store, [moment.id], behavior_text="Improve pipeline discipline")
    by_number = run_cli("items", "check", str(item.id), "--json", home=isolated_home)
    assert by_number.returncode == 1
    components = {f["component"] for f in json.loads(by_number.stdout)}
    assert {"behavior", "practice", "next_evidence"} <= components
    assert "evidence" not in components
    items.update_item(store, item.id, behavior_text=METHOD_EXAMPLE, practice_task=(
        "Role-play a pipeline review where the rep states the next step the customer confirmed."),
        practice_kind="live_pipeline_review", next_evidence="Next pipeline review with Riley",
        next_evidence_due="2026-12-14")
    by_uid = run_cli("items", "check", item.uid, "--json", home=isolated_home)
    assert by_uid.returncode == 0, by_uid.stdout
    assert all(f["severity"] != "error" for f in json.loads(by_uid.stdout))


def test_check_an_unknown_item_number_is_an_error(isolated_home):
    result = run_cli("items", "check", "42", home=isolated_home)
    assert result.returncode == 1
    assert "item 42: no such coaching item" in result.stderr


def test_add_and_list_items(store, isolated_home):
    call = demo_call(store)
    moment = mark(store, call.id, INFO_LINE_MS)
    added = run_cli("items", "add", str(call.id), "--moment", str(moment.id), "--behavior", METHOD_EXAMPLE,
                    "--json", home=isolated_home, check=True)
    record = json.loads(added.stdout)
    assert record["moment_ids"] == [moment.uid]
    assert record["behavior"]["text"] == METHOD_EXAMPLE
    again = run_cli("items", "add", str(call.id), "--moment", str(moment.id), home=isolated_home)
    assert again.returncode == 1 and "already feeds item" in again.stderr
    items.create_item(store, [], manager="Alex Manager", behavior_text="Pause after stating the price.")

    listed = run_cli("items", "list", "--manager", "Morgan Manager", "--json", home=isolated_home, check=True)
    rows = json.loads(listed.stdout)
    assert [r["id"] for r in rows] == [record["id"]]
    everyone = run_cli("items", "list", home=isolated_home, check=True)
    assert "Morgan Manager" in everyone.stdout and "Alex Manager" in everyone.stdout
    unknown = run_cli("items", "list", "--manager", "Nobody", home=isolated_home)
    assert unknown.returncode == 1 and "Nobody" in unknown.stderr


def test_park_list_and_promote_from_the_command(store, isolated_home):
    call = demo_call(store)
    moment = mark(store, call.id, INFO_LINE_MS)
    parked = run_cli("items", "park", "--moment", str(moment.id), "--note", "later", "--json",
                     home=isolated_home, check=True)
    parked_id = json.loads(parked.stdout)["id"]
    listed = run_cli("items", "parked", "--manager", "Morgan Manager", home=isolated_home, check=True)
    assert "send me some information" in listed.stdout
    promoted = run_cli("items", "promote", str(parked_id), "--json", home=isolated_home, check=True)
    assert json.loads(promoted.stdout)["moment_ids"] == [moment.uid]
    shown = run_cli("items", "show", json.loads(promoted.stdout)["id"], home=isolated_home, check=True)
    assert "send me some information" in shown.stdout
