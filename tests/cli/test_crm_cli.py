"""`callmark crm ...` through the real command, in a child process."""

from __future__ import annotations

import json

import pytest

from db.store import open_store
from desktop import paths
from tests.conftest import make_tone, run_cli
from tests.services.test_crm_service import ACME_15, ACME_18, dump, export, sf_row, write

SUMMARY_KEYS = ["crm", "created", "updated", "unchanged", "errors"]


def crm(home, *args, check=False):
    return run_cli("--home", str(home), "crm", *args, check=check)


def store_dump(home) -> str:
    store = open_store(paths.store_path(home))
    try:
        return dump(store)
    finally:
        store.close()


def test_import_dry_run_then_import_then_reimport(tmp_path):
    home = tmp_path / "home"
    first = export(tmp_path, "a.csv", sf_row("Send information"),
                   sf_row("Send quote", ext_id="0065g00000XyZ2B", name="Globex - Renewal",
                          account="Globex"))
    run_cli("--home", str(home), "db", "check")  # creates the store
    before = store_dump(home)
    dry = crm(home, "import", str(first), "--dry-run", "--json", check=True)
    summary = json.loads(dry.stdout)
    assert list(summary) == SUMMARY_KEYS
    assert summary == {"crm": "salesforce", "created": 2, "updated": 0, "unchanged": 0, "errors": 0}
    assert store_dump(home) == before

    text = crm(home, "import", str(first), "--crm", "salesforce", check=True).stdout
    assert f"create {ACME_18} 'Acme Logistics - Platform'" in text
    assert "2 created, 0 updated, 0 unchanged, 0 errors" in text

    newer = export(tmp_path, "b.csv", sf_row("Finance review", "12/02/2026"),
                   sf_row("Send quote", ext_id="0065g00000XyZ2B", name="Globex - Renewal",
                          account="Globex"))
    out = json.loads(crm(home, "import", str(newer), "--json", check=True).stdout)
    assert out == {"crm": "salesforce", "created": 0, "updated": 1, "unchanged": 1, "errors": 0}


@pytest.mark.slow  # eight runs of the real command
def test_link_show_suggest_and_an_unknown_id(tmp_path):
    home = tmp_path / "home"
    media = make_tone(tmp_path / "call.wav")
    run_cli("--home", str(home), "calls", "add", str(media), "--title", "Discovery - Acme Logistics",
            "--manager", "Morgan Manager", "--recorded-at", "2026-11-20T15:00:00Z", check=True)
    crm(home, "import", str(export(tmp_path, "a.csv", sf_row("Send information"))), check=True)
    suggested = json.loads(crm(home, "suggest", "1", "--json", check=True).stdout)
    assert [s["opportunity"]["external_id"] for s in suggested] == [ACME_18]

    missing = crm(home, "link", "1", "0065g00000Nope1")
    assert missing.returncode == 1
    assert missing.stderr.strip().splitlines() == [
        "callmark: opportunity 0065g00000Nope1: no imported opportunity has this id "
        "(import the CRM export first: callmark crm import FILE)"]

    linked = crm(home, "link", "Discovery - Acme Logistics", ACME_15, check=True)
    assert ACME_18 in linked.stdout
    shown = json.loads(crm(home, "show", "1", "--json", check=True).stdout)
    assert shown["opportunity"]["next_step"] == "Send information"
    assert shown["next_step_check"]["conclusive"] is False
    assert len(shown["history"]) == 1
    plain = crm(home, "show", "1", check=True).stdout
    assert "next step after the call: can't tell yet" in plain


def test_next_step_date_column_is_remembered(tmp_path):
    home = tmp_path / "home"
    text = ("Opportunity ID,Opportunity Name,Next Step,Decision Call Date\n"
            "0065g00000XyZ1A,Acme,Finance review,2026-12-02\n")
    path = write(tmp_path, "custom.csv", text)
    crm(home, "import", str(path), "--next-step-date-column", "Decision Call Date", check=True)
    store = open_store(paths.store_path(home))
    try:
        from desktop.services import crm as crm_service

        assert crm_service.remembered_columns(store) == {"next_step_date": "Decision Call Date"}
        assert crm_service.list_opportunities(store)[0].next_step_date.isoformat() == "2026-12-02"
    finally:
        store.close()


@pytest.mark.slow  # six runs of the real command
def test_bad_exports_are_one_line_with_the_line_number_and_write_nothing(tmp_path):
    home = tmp_path / "home"
    crm(home, "import", str(export(tmp_path, "ok.csv", sf_row("Send information"))), check=True)
    before = store_dump(home)
    cases = {
        "no-id.csv": ("Name,Stage\nAcme,Discovery\n", "line 1: no recognisable opportunity id"),
        "dup.csv": ("Opportunity ID,Stage\n006A,x\n006A,y\n", "on line 2 and line 3"),
        "quote.csv": ('Opportunity ID,Stage\n006A,"open\n', "line 2: a quoted field opened here"),
    }
    for extra, (name, (content, expected)) in zip(((), ("--json",), ("--dry-run",)), cases.items()):
        path = write(tmp_path, name, content)
        result = crm(home, "import", str(path), *extra)
        assert result.returncode == 1 and result.stdout == ""
        [line] = result.stderr.strip().splitlines()
        assert line.startswith(f"callmark: {path}: ") and expected in line
    huge = tmp_path / "huge.csv"
    with huge.open("wb") as fh:
        fh.truncate(200 * 1024 * 1024 + 1)  # sparse
    try:
        result = crm(home, "import", str(huge))
    finally:
        huge.unlink()
    assert result.returncode == 1 and "over the 200 MB limit" in result.stderr
    assert store_dump(home) == before


def test_ambiguous_dates_show_the_order_read_and_flip_with_dates(tmp_path):
    home = tmp_path / "home"
    path = write(tmp_path, "eu.csv", "Opportunity ID,Opportunity Name,Close Date,Last Modified Date\n"
                 "0065g00000XyZ1A,Acme,03/04/2026,2026-03-01 09:30\n")
    plain = crm(home, "import", str(path), "--dry-run", check=True).stdout
    assert "dates read as month/day" in plain and "close date 03/04/2026 -> 4 March 2026" in plain
    assert "preview again with --dates day-first" in plain
    flipped = json.loads(crm(home, "import", str(path), "--dry-run", "--json", "--dates", "day-first",
                             check=True).stdout)
    assert flipped["dates"] == {"order": "day/month", "why": "chosen at import", "examples": [
        {"line": 2, "cell": "03/04/2026", "read_as": "2026-04-03"}]}
    done = crm(home, "import", str(path), "--dates", "day-first", "--time-zone", "America/New_York",
               check=True).stdout
    assert "read as America/New_York and stored in UTC" in done
    store = open_store(paths.store_path(home))
    try:
        with store.read() as session:
            from db.models import Opportunity
            opp = session.query(Opportunity).one()
            assert (opp.close_date.isoformat(), opp.history[0].as_of.isoformat()) == (
                "2026-04-03", "2026-03-01T14:30:00")
    finally:
        store.close()
    wrong = crm(home, "import", str(path), "--time-zone", "Nowhere/Else")
    assert wrong.returncode != 0 and wrong.stderr.count("\n") == 1 and "not a known zone name" in wrong.stderr
