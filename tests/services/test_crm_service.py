"""CRM evidence through the store: imports in each header style and encoding, history kept on
re-import, links, the next-step check on a scripted timeline, citations, refused files."""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path

import pytest
from sqlalchemy import func, select

from db.models import ItemEvidence, Opportunity, OpportunitySnapshot
from desktop.core.enums import Crm
from desktop.core.specificity import check_item
from desktop.errors import CallmarkError, NotFound
from desktop.exchange.crm_csv import CrmImportError
from desktop.services import calls, crm_evidence, items
from desktop.services import crm as crm_service
from tests.store_dump import dump as dump_rows
from tests.conftest import make_tone
from tests.exchange.test_crm_csv import DATA_LOADER, HUBSPOT, SALESFORCE_REPORT

pytestmark = pytest.mark.both_stores  # the services on SQLite and on a team store

CALL_AT = "2026-11-20T15:00:00Z"
SF_HEADER = ('"Opportunity ID","Opportunity Name","Account Name","Stage","Next Step",'
             '"Next Step Date","Close Date","Opportunity Owner"\r\n')
ACME_15 = "0065g00000XyZ1A"
ACME_18 = "0065g00000XyZ1AAAV"


# --- helpers (the CLI and panel tests import these) ---------------------------------------------


def sf_row(next_step: str, next_step_date: str = "", stage: str = "Discovery",
           ext_id: str = ACME_15, name: str = "Acme Logistics - Platform",
           account: str = "Acme Logistics") -> str:
    return (f'"{ext_id}","{name}","{account}","{stage}","{next_step}","{next_step_date}",'
            f'"12/14/2026","Riley Rep"\r\n')


def write(folder: Path, name: str, text: str, encoding: str = "utf-8") -> Path:
    path = folder / name
    path.write_bytes(text.encode(encoding))
    return path


def export(folder: Path, name: str, *rows: str, modified: str | None = None) -> Path:
    """An export of these rows; `modified` adds a Last Modified Date column holding it."""
    if modified is None:
        return write(folder, name, SF_HEADER + "".join(rows))
    header = SF_HEADER.replace("\r\n", ',"Last Modified Date"\r\n')
    return write(folder, name, header + "".join(r.replace("\r\n", f',"{modified}"\r\n') for r in rows))


def at(text: str) -> datetime:
    return datetime.fromisoformat(text)


def add_call(store, folder: Path, title: str = "Discovery - Acme Logistics",
             recorded_at: str | None = CALL_AT, manager: str = "Morgan Manager",
             seconds: float = 2.0):
    media = make_tone(folder / f"call-{seconds}.wav", seconds=seconds)
    row, _ = calls.add_call(store, media, title=title, rep="Riley Rep", manager=manager,
                            recorded_at=recorded_at)
    return row


def history(store, ext_id: str = ACME_18) -> list[tuple]:
    with store.read() as session:
        opp = session.scalar(select(Opportunity).where(Opportunity.external_id == ext_id))
        return [(s.as_of, s.stage, s.next_step, s.next_step_date) for s in opp.history]


# --- imports in each header style and encoding --------------------------------------------------


@pytest.mark.parametrize("text, encoding, crm, ids", [
    ("\ufeff" + SALESFORCE_REPORT, "utf-8", Crm.SALESFORCE, {ACME_18, "0065g00000XyZ2BAAV"}),
    (DATA_LOADER, "utf-8", Crm.SALESFORCE, {ACME_18}),
    ("\ufeff" + HUBSPOT, "utf-16-le", Crm.HUBSPOT, {"9001", "9002"}),
    (SF_HEADER + sf_row("Envoyer l\u2019offre \u00e0 la DAF", "11/24/2026"), "cp1252",
     Crm.SALESFORCE, {ACME_18}),
])
def test_each_header_style_and_encoding_lands_in_the_store(store, tmp_path, text, encoding, crm, ids):
    path = write(tmp_path, "export.csv", text, encoding)
    result = crm_service.apply_import(store, path)
    assert result.plan.crm is crm
    assert result.plan.summary()["created"] == len(ids)
    with store.read() as session:
        rows = session.scalars(select(Opportunity)).all()
        assert {o.external_id for o in rows} == ids
        assert all(o.crm is crm and len(o.history) == 1 for o in rows)
    if encoding == "cp1252":
        assert history(store)[0][2] == "Envoyer l\u2019offre \u00e0 la DAF"
        assert any("Windows-1252" in w for w in result.plan.warnings)


def test_hubspot_values_and_the_last_modified_time_as_history_date(store, tmp_path):
    crm_service.apply_import(store, write(tmp_path, "deals.csv", HUBSPOT),
                             now=at("2026-11-30T09:00"))
    with store.read() as session:
        acme = session.scalar(select(Opportunity).where(Opportunity.external_id == "9001"))
        assert (acme.name, acme.account, acme.stage, acme.next_step) == (
            "Acme \u2013 Platform", "Acme Corp", "Presentation Scheduled", "Demo to the CFO")
        assert acme.next_step_date == date(2026, 12, 2)
        # The CRM's own time for the row, not the import's, dates the history entry.
        assert acme.history[0].as_of == at("2026-11-20T09:15")
        assert acme.updated_at == at("2026-11-30T09:00")


def test_preview_writes_nothing_and_matches_the_import(store, tmp_path):
    path = export(tmp_path, "a.csv", sf_row("Send information"))
    before = dump(store)
    plan = crm_service.preview_import(store, path)
    assert plan.summary() == {"crm": "salesforce", "created": 1, "updated": 0, "unchanged": 0,
                              "errors": 0}
    assert dump(store) == before
    assert crm_service.apply_import(store, path).plan.summary() == plan.summary()


def test_reimport_updates_and_keeps_the_history_of_next_steps(store, tmp_path):
    first = export(tmp_path, "nov18.csv", sf_row("Send information"))
    newer = export(tmp_path, "nov25.csv", sf_row("Finance review", "12/02/2026", "Evaluation"))
    crm_service.apply_import(store, first, now=at("2026-11-18T10:00"))
    result = crm_service.apply_import(store, newer, now=at("2026-11-25T10:00"))
    assert result.plan.summary()["updated"] == 1 and result.history_added == 1
    assert history(store) == [
        (at("2026-11-18T10:00"), "Discovery", "Send information", None),
        (at("2026-11-25T10:00"), "Evaluation", "Finance review", date(2026, 12, 2)),
    ]
    # The same export again: unchanged, no new history, but seen again.
    again = crm_service.apply_import(store, newer, now=at("2026-11-28T10:00"))
    assert again.plan.summary()["unchanged"] == 1 and again.history_added == 0
    assert len(history(store)) == 2
    with store.read() as session:
        opp = session.scalar(select(Opportunity))
        assert (opp.stage, opp.next_step, opp.updated_at) == (
            "Evaluation", "Finance review", at("2026-11-28T10:00"))
        assert history(store)[-1][0] < opp.updated_at


def test_a_change_outside_the_next_step_updates_without_history(store, tmp_path):
    crm_service.apply_import(store, export(tmp_path, "a.csv", sf_row("Send information")))
    renamed = export(tmp_path, "b.csv", sf_row("Send information", name="Acme - Platform v2"))
    result = crm_service.apply_import(store, renamed)
    assert result.plan.summary()["updated"] == 1 and result.history_added == 0
    assert len(history(store)) == 1


def test_remembered_next_step_date_column(store, tmp_path):
    text = ('Opportunity ID,Opportunity Name,Next Step,Decision Call Date\n'
            '0065g00000XyZ1A,Acme,Finance review,2026-12-02\n')
    path = write(tmp_path, "custom.csv", text)
    assert crm_service.preview_import(store, path).created[0].next_step_date is None
    crm_service.remember_columns(store, {"next_step_date": "Decision Call Date"})
    assert crm_service.remembered_columns(store) == {"next_step_date": "Decision Call Date"}
    assert crm_service.preview_import(store, path).created[0].next_step_date == date(2026, 12, 2)
    # Another export without that column still imports, and says the mapping was left out.
    other = export(tmp_path, "plain.csv", sf_row("Send information"))
    plan = crm_service.preview_import(store, other)
    assert plan.summary()["created"] == 1
    assert any("'Decision Call Date'" in w and "not in this export" in w for w in plan.warnings)
    # An explicit mapping naming a missing column is still refused.
    with pytest.raises(CrmImportError, match="Nope"):
        crm_service.preview_import(store, other, columns={"next_step_date": "Nope"})
    crm_service.remember_columns(store, {"next_step_date": ""})
    assert crm_service.remembered_columns(store) == {}
    with pytest.raises(CallmarkError, match="unknown field 'colour'"):
        crm_service.remember_columns(store, {"colour": "x"})


# --- bad input: one message with the line, nothing written --------------------------------------


@pytest.mark.parametrize("name, text, expected", [
    ("no-id.csv", "Name,Stage,Amount\nAcme,Discovery,100\n",
     "line 1: no recognisable opportunity id column"),
    ("dup.csv", SF_HEADER + sf_row("a") + sf_row("b", ext_id="0065g00000XyZ2B") + sf_row("c"),
     "appears twice, on line 2 and line 4"),
    ("quotes.csv", SF_HEADER + sf_row("a") + '"0065g00000XyZ2B","Globex "big" deal","x"\r\n',
     "line 3: broken quoting"),
    ("unclosed.csv", SF_HEADER + sf_row("a") + '0065g00000XyZ2B,"Globex, x\r\nand more\r\n',
     "line 3: a quoted field opened here is never closed"),
])
def test_refused_exports_leave_the_store_unchanged(store, tmp_path, name, text, expected):
    crm_service.apply_import(store, export(tmp_path, "good.csv", sf_row("Send information")))
    before = dump(store)
    path = write(tmp_path, name, text)
    for attempt in (crm_service.preview_import, crm_service.apply_import):
        with pytest.raises(CrmImportError) as info:
            attempt(store, path)
        message = str(info.value)
        assert message.startswith(f"{path}: ") and expected in message
    assert dump(store) == before


def test_a_200_mb_export_is_refused_before_reading(store, tmp_path):
    before = dump(store)
    path = tmp_path / "huge.csv"
    with path.open("wb") as fh:
        fh.write(SF_HEADER.encode())
        fh.truncate(201 * 1024 * 1024)  # sparse: nothing is really written to disk
    try:
        with pytest.raises(CrmImportError, match=r"201\.0 MB, over the 200 MB limit"):
            crm_service.apply_import(store, path)
    finally:
        path.unlink()
    assert dump(store) == before


# --- links ------------------------------------------------------------------------------------------


def test_link_by_the_15_or_18_character_id_and_refuse_an_unknown_one(store, tmp_path):
    call = add_call(store, tmp_path)
    crm_service.apply_import(store, write(tmp_path, "report.csv", SALESFORCE_REPORT))
    crm_service.apply_import(store, write(tmp_path, "deals.csv", HUBSPOT))
    assert crm_service.link_call(store, call.id, ACME_15).external_id == ACME_18
    assert calls.get_call(store, call.id).opportunity_id is not None
    assert crm_service.link_call(store, call.id, "9002").name.startswith("Soci\u00e9t\u00e9")
    before = dump(store)
    with pytest.raises(NotFound, match="opportunity 0065g00000Nope1: no imported opportunity"):
        crm_service.link_call(store, call.id, "0065g00000Nope1")
    with pytest.raises(NotFound, match="call 999"):
        crm_service.link_call(store, 999, ACME_15)
    assert dump(store) == before
    crm_service.unlink_call(store, call.id)
    assert crm_service.opportunity_for_call(store, call.id) is None


def test_suggestions_by_account_name_in_the_call_title(store, tmp_path):
    call = add_call(store, tmp_path, title="Discovery - Acme Corp")
    crm_service.apply_import(store, write(tmp_path, "report.csv", SALESFORCE_REPORT))
    found = crm_service.suggest_links(store, call.id)
    assert [s.opportunity.external_id for s in found] == [ACME_18]
    assert "account name" in found[0].reason


# --- the next-step check on a scripted timeline -----------------------------------------------------


def imports(store, tmp_path, *steps, modified: bool = True):
    """steps: (import time, next step, its date) in order; each row was last modified
    in the CRM at its import time (UTC), unless `modified` is False (no such column)."""
    for n, (when, step, step_date) in enumerate(steps):
        path = export(tmp_path, f"export-{n}.csv", sf_row(step, step_date),
                      modified=f"{when}Z" if modified else None)
        crm_service.apply_import(store, path, now=at(when))


def test_next_step_recorded_after_the_call(store, tmp_path):
    call = add_call(store, tmp_path)
    imports(store, tmp_path, ("2026-11-18T10:00", "Send information", ""),
            ("2026-11-23T10:00", "Finance review with the CFO", "12/02/2026"))
    crm_service.link_call(store, call.id, ACME_15)
    check = crm_service.next_step_check(store, call.id)
    assert check.recorded and check.conclusive
    assert check.value.next_step == "Finance review with the CFO"
    shown = crm_service.opportunity_for_call(store, call.id)
    assert [h.after_call for h in shown.history] == [False, True]
    assert shown.opportunity.next_step_date == date(2026, 12, 2)


@pytest.mark.parametrize("steps, conclusive, words", [
    ([("2026-11-18T10:00", "Send information", ""), ("2026-11-25T10:00", "Send information", "")],
     True, "has not changed since before the call"),
    ([("2026-11-18T10:00", "Send information", ""), ("2026-11-25T10:00", "Call back", "")],
     True, "has no date the customer confirmed"),
    ([("2026-11-18T10:00", "Send information", "")], False, "no CRM import after the call"),
    ([("2026-11-25T10:00", "Finance review", "12/02/2026")], False, "no CRM import from before"),
    ([("2026-11-20T09:00", "Send information", ""), ("2026-11-20T16:00", "Demo", "12/01/2026")],
     True, "the next step changed after the call"),
])
def test_next_step_not_recorded_or_not_known(store, tmp_path, steps, conclusive, words):
    call = add_call(store, tmp_path)
    imports(store, tmp_path, *steps)
    crm_service.link_call(store, call.id, ACME_15)
    check = crm_service.next_step_check(store, call.id)
    assert check.conclusive is conclusive and words in check.reason
    assert check.recorded is (words == "the next step changed after the call")


def test_without_last_modified_a_change_found_after_the_call_is_not_a_verdict(store, tmp_path):
    call = add_call(store, tmp_path)
    imports(store, tmp_path, ("2026-11-18T10:00", "Send information", ""),
            ("2026-11-23T10:00", "Finance review", "12/02/2026"), modified=False)
    crm_service.link_call(store, call.id, ACME_15)
    check = crm_service.next_step_check(store, call.id)
    assert not check.conclusive and not check.recorded
    assert check.reason.startswith("can't tell") and "no Last Modified Date column" in check.reason
    # Unchanged between an import before the call and one after: nothing was recorded.
    imports(store, tmp_path, ("2026-11-25T10:00", "Finance review", "12/02/2026"), modified=False)
    other = add_call(store, tmp_path, title="Acme later", recorded_at="2026-11-24T09:00:00Z", seconds=3.0)
    crm_service.link_call(store, other.id, ACME_15)
    later = crm_service.next_step_check(store, other.id)
    assert later.conclusive and not later.recorded and "has not changed" in later.reason


def test_without_a_next_step_column_the_check_cannot_tell(store, tmp_path):
    call = add_call(store, tmp_path, recorded_at="2026-11-21T12:00:00Z")
    no_step = ('"Opportunity ID","Opportunity Name","Stage","Close Date","Last Modified Date"\r\n'
               f'"{ACME_15}","Acme Logistics - Platform","Discovery","12/14/2026","2026-11-19T10:00Z"\r\n')
    path = write(tmp_path, "no-next-step.csv", no_step)
    plan = crm_service.preview_import(store, path)
    assert any("no Next step column" in w for w in plan.warnings)
    crm_service.apply_import(store, path, now=at("2026-11-25T10:00"))
    crm_service.link_call(store, call.id, ACME_15)
    check = crm_service.next_step_check(store, call.id)
    assert (check.conclusive, check.recorded) == (False, False)
    assert check.reason == "can't tell — this export has no Next step column"
    # A later export with the column, and one without again: only the first is read.
    imports(store, tmp_path, ("2026-11-26T10:00", "Finance review", "12/02/2026"))
    crm_service.apply_import(store, path, now=at("2026-11-27T10:00"))
    after = crm_service.next_step_check(store, call.id)
    assert after.conclusive is False and "no CRM import from before the call" in after.reason


def test_times_without_an_offset_are_read_in_the_zone_set_at_import(store, tmp_path):
    rows = sf_row("Finance review", "12/02/2026")
    path = export(tmp_path, "amsterdam.csv", rows, modified="2026-11-20 15:30")
    # 15:30 in Amsterdam is 14:30 UTC: after a call at 14:00 UTC, before one at 15:00 UTC.
    crm_service.apply_import(store, path, now=at("2026-11-25T10:00"),
                             time_zone=crm_service.parse_time_zone("Europe/Amsterdam"))
    assert history(store)[0][0] == datetime(2026, 11, 20, 14, 30)
    with pytest.raises(CallmarkError, match="time zone 'Mars/Olympus': not a known zone name"):
        crm_service.parse_time_zone("Mars/Olympus")


def test_the_check_compares_the_call_with_times_read_in_the_import_zone(store, tmp_path):
    zone = crm_service.parse_time_zone("Europe/Amsterdam")
    for n, (modified, step, when) in enumerate([("2026-11-20 09:00", "Send information", ""),
                                                ("2026-11-20 15:30", "Finance review", "12/02/2026")]):
        path = export(tmp_path, f"nl-{n}.csv", sf_row(step, when), modified=modified)
        crm_service.apply_import(store, path, now=at(f"2026-11-2{5 + n}T10:00"), time_zone=zone)
    early = add_call(store, tmp_path, title="Acme early", recorded_at="2026-11-20T14:00:00Z")
    late = add_call(store, tmp_path, title="Acme late", recorded_at="2026-11-20T15:00:00Z", seconds=3.0)
    for call in (early, late):
        crm_service.link_call(store, call.id, ACME_15)
    # 15:30 in Amsterdam is 14:30 UTC: after the 14:00 call, before the 15:00 one.
    assert crm_service.next_step_check(store, early.id).recorded
    check = crm_service.next_step_check(store, late.id)
    assert check.conclusive and not check.recorded and "has not changed" in check.reason


def test_unlinked_or_undated_calls_are_inconclusive(store, tmp_path):
    call = add_call(store, tmp_path)
    assert crm_service.next_step_check(store, call.id).reason == \
        "the call is not linked to an opportunity"
    undated = add_call(store, tmp_path, title="Acme follow-up", recorded_at=None, seconds=3.0)
    imports(store, tmp_path, ("2026-11-18T10:00", "Send information", ""))
    crm_service.link_call(store, undated.id, ACME_15)
    check = crm_service.next_step_check(store, undated.id)
    assert not check.conclusive and "no recording date" in check.reason


def test_inspection_checks_per_manager_feed_the_indicator(store, tmp_path):
    morgan = add_call(store, tmp_path)
    other = add_call(store, tmp_path, title="Acme pricing", manager="Sam Manager", seconds=3.0)
    imports(store, tmp_path, ("2026-11-18T10:00", "Send information", ""),
            ("2026-11-23T10:00", "Finance review", "12/02/2026"))
    for call in (morgan, other):
        crm_service.link_call(store, call.id, ACME_15)
    assert len(crm_service.inspection_checks(store)) == 2
    [check] = crm_service.inspection_checks(store, "Morgan Manager")
    assert check.recorded
    assert [(c.on, c.next_step_confirmed) for c in crm_service.crm_checks(store, "Sam Manager")] \
        == [(date(2026, 11, 20), True)]


# --- CRM fields as evidence ------------------------------------------------------------------------


def test_cite_the_next_step_as_evidence(store, tmp_path):
    call = add_call(store, tmp_path)
    imports(store, tmp_path, ("2026-11-18T10:00", "Send information", ""),
            ("2026-11-23T10:00", "Finance review", "12/02/2026"))
    opp = crm_service.link_call(store, call.id, ACME_15)
    item = items.create_item(store, manager="Morgan Manager")
    assert any(f.component == "evidence" for f in check_item(items.draft(item)))
    evidence_id = crm_evidence.cite_crm_evidence(store, item.id, opp.id, "next_step")
    cited = items.get_item(store, item.id).evidence
    assert [(e.id, e.kind, e.field, e.on_date) for e in cited] == [
        (evidence_id, "crm", "next_step", date(2026, 11, 23))]
    assert cited[0].text == ("Salesforce next step of Acme Logistics - Platform: "
                             "Finance review (by 2026-12-02)")
    assert not any(f.component == "evidence"
                   for f in check_item(items.draft(items.get_item(store, item.id))))
    with store.read() as session:
        assert session.scalar(select(ItemEvidence.opportunity_id)) == opp.id
    before = dump(store)
    with pytest.raises(CallmarkError, match="cite one of"):
        crm_evidence.cite_crm_evidence(store, item.id, opp.id, "owner")
    with pytest.raises(NotFound, match="item 999"):
        crm_evidence.cite_crm_evidence(store, 999, opp.id, "stage")
    assert dump(store) == before


def test_empty_field_is_not_cited(store, tmp_path):
    imports(store, tmp_path, ("2026-11-18T10:00", "", ""))
    item = items.create_item(store, manager="Morgan Manager")
    with store.read() as session:
        opp_id = session.scalar(select(Opportunity.id))
        assert session.scalar(select(func.count()).select_from(OpportunitySnapshot)) == 1
    with pytest.raises(CallmarkError, match="next step is empty"):
        crm_evidence.cite_crm_evidence(store, item.id, opp_id, "next_step")


def dump(store) -> str:
    return "\n".join(dump_rows(store))
