"""The preview before an import writes anything, and link suggestions from call titles."""

from __future__ import annotations

import json
from datetime import date

from desktop.core import opportunity
from desktop.core.enums import Crm
from desktop.exchange.crm_csv import parse_export
from desktop.exchange.crm_links import suggest_opportunities
from desktop.exchange.crm_plan import (FieldChange, OpportunitySnapshot, plan_import,
                                       preview_lines)

HEADER = ("Opportunity ID,Opportunity Name,Account Name,Stage,Next Step,Close Date,"
          "Last Modified Date\n")
FIRST = HEADER + ("006A,Acme - Platform,Acme Corp,Discovery,Send information,2026-12-14,"
                  "2026-11-18\n"
                  "006B,Globex - Renewal,Globex,Proposal,Pricing call,2027-01-31,2026-11-18\n")
NEWER = HEADER + ("006A,Acme - Platform,Acme Corp,Evaluation,Finance review,2026-12-14,"
                  "2026-11-25\n"
                  "006B,Globex - Renewal,Globex,Proposal,Pricing call,2027-01-31,2026-11-18\n"
                  "006C,Initech - Seats,Initech,Discovery,,2027-02-28,2026-11-24\n")


def export(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return parse_export(path)


def stored(parsed) -> dict[str, OpportunitySnapshot]:
    """What the store would hold after applying `parsed` in full."""
    return {r.external_id: OpportunitySnapshot(r.external_id, r.last_modified, **opportunity.values(r))
            for r in parsed.rows}


def test_first_import_creates_everything(tmp_path):
    plan = plan_import(export(tmp_path, "first.csv", FIRST), {})
    assert [r.external_id for r in plan.created] == ["006A", "006B"]
    assert plan.summary() == {"crm": "salesforce", "created": 2, "updated": 0,
                              "unchanged": 0, "errors": 0}
    assert preview_lines(plan)[0] == ("create 006A 'Acme - Platform' (stage 'Discovery', "
                                      "next step 'Send information')")


def test_reimport_updates_changed_and_leaves_the_rest(tmp_path):
    existing = stored(export(tmp_path, "first.csv", FIRST))
    plan = plan_import(export(tmp_path, "newer.csv", NEWER), existing)
    assert [r.external_id for r in plan.created] == ["006C"]
    assert [r.external_id for r in plan.unchanged] == ["006B"]
    (update,) = plan.updated
    assert update.row.external_id == "006A"
    assert update.changes == (FieldChange("stage", "Discovery", "Evaluation"),
                              FieldChange("next_step", "Send information", "Finance review"))
    assert update.next_step_changed
    summary = plan.summary()
    assert json.loads(json.dumps(summary)) == {"crm": "salesforce", "created": 1,
                                               "updated": 1, "unchanged": 1, "errors": 0}
    assert ("update 006A 'Acme - Platform': stage 'Discovery' -> 'Evaluation'; next step "
            "'Send information' -> 'Finance review'") in preview_lines(plan)


def test_same_export_twice_changes_nothing(tmp_path):
    parsed = export(tmp_path, "first.csv", FIRST)
    plan = plan_import(parsed, stored(parsed))
    assert not plan.writes_anything and len(plan.unchanged) == 2


def test_columns_missing_from_the_export_are_not_cleared(tmp_path):
    existing = stored(export(tmp_path, "first.csv", FIRST))
    narrow = export(tmp_path, "narrow.csv", "Id,StageName\n006A,Evaluation\n006B,Proposal\n")
    plan = plan_import(narrow, existing)
    assert [u.changes for u in plan.updated] == [(FieldChange("stage", "Discovery",
                                                              "Evaluation"),)]
    assert not plan.updated[0].next_step_changed
    assert [r.external_id for r in plan.unchanged] == ["006B"]


def test_a_cleared_next_step_is_a_change(tmp_path):
    existing = stored(export(tmp_path, "first.csv", FIRST))
    cleared = export(tmp_path, "cleared.csv", "Id,NextStep\n006A,\n006B,Pricing call\n")
    (update,) = plan_import(cleared, existing).updated
    assert update.changes == (FieldChange("next_step", "Send information", None),)


def test_an_older_export_does_not_overwrite_a_newer_one(tmp_path):
    existing = stored(export(tmp_path, "newer.csv", NEWER))
    plan = plan_import(export(tmp_path, "first.csv", FIRST), existing)
    assert [r.external_id for r in plan.older] == ["006A"]
    assert [r.external_id for r in plan.unchanged] == ["006B"]
    assert plan.summary()["unchanged"] == 2 and plan.summary()["updated"] == 0
    assert "older than the stored ones" in plan.warnings[-1]


def test_next_step_date_change_alone_counts_for_history(tmp_path):
    path = tmp_path / "hs.csv"
    path.write_text("Record ID,Next step,Next activity date\n9,Demo,2026-12-02\n")
    existing = {"9": OpportunitySnapshot("9", next_step="Demo",
                                         next_step_date=date(2026, 11, 30))}
    plan = plan_import(parse_export(path), existing)
    assert plan.crm is Crm.HUBSPOT
    assert plan.updated[0].next_step_changed


class Opp:
    def __init__(self, name, account, stage="Discovery"):
        self.name, self.account, self.stage = name, account, stage


def test_suggestions_by_account_name_in_the_title():
    acme = Opp("Acme - Platform", "Acme Corp")
    acme_old = Opp("Acme - Pilot", "Acme Corp", "Closed Lost")
    acmeco = Opp("Acmeco - Seats", "Acmeco Ltd")
    globex = Opp("Globex - Renewal", "Globex")
    ranked = suggest_opportunities("Discovery - ACME", [globex, acme_old, acmeco, acme])
    assert [s.opportunity for s in ranked] == [acme, acme_old]  # whole words only
    assert ranked[0].score > ranked[1].score
    assert "'acme'" in ranked[0].reason
    assert "Closed Lost" in ranked[1].reason


def test_full_opportunity_name_ranks_first():
    platform = Opp("Acme - Platform", "Acme Corp")
    pilot = Opp("Acme - Pilot", "Acme Corp")
    ranked = suggest_opportunities("Acme Platform: pricing review", [pilot, platform])
    assert [s.opportunity for s in ranked] == [platform, pilot]
    assert ranked[0].score == 1.0


def test_accents_and_legal_suffixes_are_ignored():
    societe = Opp("SG - Pilot", "Soci\u00e9t\u00e9 G\u00e9n\u00e9rale S.A.")
    (hit,) = suggest_opportunities("Intro call: Societe Generale", [societe])
    assert hit.opportunity is societe


def test_meeting_words_never_match_on_their_own():
    demo = Opp("Demo Company - Seats", "The Demo Company")
    assert suggest_opportunities("Demo call with Globex", [demo]) == []
    assert suggest_opportunities("", [demo]) == []
