"""Citing evidence, parking and the CRM import are coach edits: each one's undo, run on the real
store, leaves every row as it was before (the store's full dump compared), and its redo writes it again."""

from __future__ import annotations

from datetime import date

import pytest
from sqlalchemy import select

from db.models import Opportunity
from desktop.services import crm_evidence, crm_imports, evidence, items, moments, parking
from desktop.services import crm as crm_service
from desktop.services.changes import CRM, ITEMS, MOMENTS, PARKED
from tests.services.items_setup import INFO_LINE_MS, demo_call, mark, script_lines
from tests.services.test_crm_service import ACME_15, add_call, at, dump, export, sf_row

pytestmark = pytest.mark.both_stores  # the undo of each on SQLite and on a team store


def _item(store):
    call = demo_call(store)
    moment = mark(store, call.id, INFO_LINE_MS)
    return call, moment, items.create_item(store, [moment.id])


def test_a_cited_crm_field_is_taken_back_and_cited_again(store, tmp_path):
    call = add_call(store, tmp_path)
    crm_service.apply_import(store, export(tmp_path, "e.csv", sf_row("Finance review", "12/02/2026")),
                             now=at("2026-11-23T10:00"))
    opp = crm_service.link_call(store, call.id, ACME_15)
    item = items.create_item(store, manager="Morgan Manager")
    before = dump(store)
    made = crm_evidence.cite(store, item.id, opp.id, "next_step")
    assert made.touches(ITEMS) and item.id in made.ids
    assert [e.field for e in made.row.evidence] == ["next_step"]
    redo = made.undo(store)
    assert items.get_item(store, item.id).evidence == []
    assert dump(store) == before
    redo.undo(store)
    assert [e.text for e in items.get_item(store, item.id).evidence] == [
        "Salesforce next step of Acme Logistics - Platform: Finance review (by 2026-12-02)"]


def test_a_note_and_a_cited_moment_come_off_with_undo_and_a_removed_note_comes_back_the_same(store):
    call, moment, item = _item(store)
    before = dump(store)
    note = evidence.add_note(store, item.id, "Morgan said reps avoid asking for the buyer", date(2026, 11, 25))
    assert [e.text for e in note.row.evidence] == ["Morgan said reps avoid asking for the buyer"]
    note.undo(store)
    assert dump(store) == before

    note = evidence.add_note(store, item.id, "1:1 on Monday", "2026-11-24")
    kept = dump(store)
    evidence_id = note.row.evidence[0].id
    removed = evidence.remove(store, item.id, evidence_id)
    assert items.get_item(store, item.id).evidence == []
    removed.undo(store)  # the same row: its id, text and date
    assert dump(store) == kept
    assert [(e.id, e.on_date) for e in items.get_item(store, item.id).evidence] == [(evidence_id, date(2026, 11, 24))]

    off = evidence.uncite_moment(store, item.id, moment.id)
    assert off.touches(MOMENTS) and moment.id in off.ids and off.call_id == call.id
    assert items.get_item(store, item.id).moments == []
    again = off.undo(store)
    assert [m.id for m in items.get_item(store, item.id).moments] == [moment.id]
    assert moments.get_moment(store, moment.id).item_id == item.id  # (only its edit time moved on)
    again.undo(store)  # the redo: the moment is free again
    assert items.get_item(store, item.id).moments == []


def test_parking_is_forgotten_with_undo_and_parked_again_with_redo(store):
    call, _, _ = _item(store)
    free = mark(store, call.id, script_lines()[0]["start_ms"], kind="question")
    before = dump(store)
    made = parking.keep_for_later(store, moment_id=free.id, note="ask about budget next cycle")
    assert made.touches(PARKED) and made.row.manager == "Morgan Manager" and made.call_id == call.id
    redo = made.undo(store)
    assert parking.list_parked(store) == []
    assert dump(store) == before
    back = redo.undo(store)
    assert [(p.id, p.note) for p in parking.list_parked(store)] == [(made.row.id, "ask about budget next cycle")]
    back.undo(store)
    assert dump(store) == before


def test_a_promotion_is_taken_back_the_item_gone_and_the_observation_parked_again(store):
    call, _, _ = _item(store)
    free = mark(store, call.id, script_lines()[0]["start_ms"], kind="question")
    parked = parking.park(store, moment_id=free.id, note="the rep never asked who signs")
    before = [i.id for i in items.list_items(store)]
    made = parking.promote_to_item(store, parked.id)
    assert made.row.moments[0].id == free.id and made.row.consequence == "the rep never asked who signs"
    assert made.touches(PARKED, ITEMS) and made.row.id in made.ids
    redo = made.undo(store)
    assert [p.id for p in parking.list_parked(store)] == [parked.id]  # waiting again, the moment free
    assert items.item_for_moment(store, free.id) is None
    assert parking.get_parked(store, parked.id) == parked  # the same row, as it was parked
    assert [i.id for i in items.list_items(store)] == before  # the promoted item is gone
    redo.undo(store)
    assert parking.list_parked(store) == []
    assert items.item_for_moment(store, free.id) is not None


def test_a_crm_import_is_taken_back_whole_and_imported_again_with_redo(store, tmp_path):
    call = add_call(store, tmp_path)
    crm_service.apply_import(store, export(tmp_path, "first.csv", sf_row("Send information")),
                             now=at("2026-11-18T10:00"))
    crm_service.link_call(store, call.id, ACME_15)
    before = dump(store)
    second = export(tmp_path, "second.csv", sf_row("Finance review", "12/02/2026", stage="Proposal"),
                    sf_row("Kick-off", ext_id="0065g00000XyZ2B", name="Beta Freight", account="Beta"))
    made = crm_imports.import_export(store, second, now=at("2026-11-23T10:00"))
    assert made.touches(CRM) and made.row.plan.summary()["created"] == 1
    assert made.row.plan.summary()["updated"] == 1
    assert crm_service.opportunity_for_call(store, call.id).opportunity.next_step == "Finance review"
    redo = made.undo(store)
    assert dump(store) == before  # the new opportunity gone, the old one's fields and history as they were
    linked = crm_service.opportunity_for_call(store, call.id)
    assert linked.opportunity.next_step == "Send information" and len(linked.history) == 1
    redo.undo(store)
    with store.read() as session:
        assert sorted(session.scalars(select(Opportunity.name))) == [
            "Acme Logistics - Platform", "Beta Freight"]
    again = crm_service.opportunity_for_call(store, call.id)
    assert again.opportunity.next_step == "Finance review" and len(again.history) == 2
    assert again.history[-1].as_of == at("2026-11-23T10:00")  # the same import time as the first time


def test_a_new_item_is_taken_away_by_undo_and_comes_back_under_its_own_id(store):
    call = demo_call(store)
    moment = mark(store, call.id, INFO_LINE_MS)
    made = items.start(store, [moment.id])
    assert made.touches(ITEMS) and made.touches(MOMENTS) and made.row.moment_ids == [moment.id]
    redo = made.undo(store)
    assert items.item_for_moment(store, moment.id) is None  # the moment is free to feed another item
    assert items.list_items(store) == []
    redo.undo(store)
    again = items.item_for_moment(store, moment.id)
    assert again is not None and again.id == made.row.id  # later redos of its fields still find it


def test_a_split_behavior_goes_back_whole_with_undo(store):
    call = demo_call(store)
    moment = mark(store, call.id, INFO_LINE_MS)
    item = items.create_item(store, [moment.id], behavior_text="Ask who else will review the proposal, "
                                                               "and send the weekly forecast to finance by Friday.")
    made = items.split(store, item.id)
    kept, new = made.row
    assert new.id != item.id and "forecast" in new.behavior_text and "forecast" not in kept.behavior_text
    redo = made.undo(store)
    assert [i.id for i in items.list_items(store)] == [item.id]  # the split-off item is gone
    back = items.get_item(store, item.id)  # whole again (its version goes on counting up: edits crossed)
    assert (back.behavior_text, back.moment_ids) == (item.behavior_text, [moment.id])
    redo.undo(store)
    assert items.get_item(store, new.id).behavior_text == new.behavior_text
