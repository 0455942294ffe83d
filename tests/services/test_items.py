"""Coaching items and parked observations against a real store and the real demo call."""

from __future__ import annotations

from datetime import date

import pytest

from desktop.core.enums import Severity
from desktop.core.review_rule import ContinueAfter
from desktop.core.specificity import METHOD_EXAMPLE, passes
from desktop.errors import CallmarkError, NotFound
from desktop.services import items, parking
from tests.services.items_setup import INFO_LINE_MS, demo_call, mark, script_lines
from tests.store_dump import reopen

pytestmark = pytest.mark.both_stores  # the services on SQLite and on a team store

INFO_BEHAVIOR = ("When the customer asks for information, ask what they will review and who else "
                 "needs to be involved.")


@pytest.fixture
def call(store):
    return demo_call(store)


@pytest.fixture
def info_moment(store, call):
    return mark(store, call.id, INFO_LINE_MS)


def _line(word: str) -> int:
    return next(line["start_ms"] for line in script_lines() if word in line["text"])


def test_new_item_takes_the_calls_manager_and_the_local_coach(store, info_moment):
    item = items.create_item(store, [info_moment.id])
    assert item.manager == "Morgan Manager"
    assert item.coach == "Me"
    assert (item.owner_does, item.owner_reviews) == ("Morgan Manager", "Me")
    assert [m.id for m in item.moments] == [info_moment.id]
    assert "send me some information" in item.moments[0].quote
    assert item.status == "open"


def test_a_moment_feeds_one_item_and_the_refusal_names_both(store, info_moment):
    first = items.create_item(store, [info_moment.id], behavior_text=INFO_BEHAVIOR)
    with pytest.raises(CallmarkError) as refused:
        items.create_item(store, [info_moment.id])
    message = str(refused.value)
    assert f"moment {info_moment.id}" in message and f"item {first.id}" in message
    assert "02:05.551" in message
    assert len(items.list_items(store)) == 1  # nothing written


def test_every_field_is_saved_on_its_own(store, info_moment):
    item = items.create_item(store, [info_moment.id])
    values = {
        "consequence": "The rep doesn't know what the customer will review or who else is involved.",
        "behavior_text": INFO_BEHAVIOR,
        "practice_task": "Role-play the moment three times: when the customer asks for information, ask what "
                         "they will review.",
        "owner_does": "Morgan Manager", "owner_reviews": "Dana Coach",
        "cadence": "Weekly 1:1, Thursdays",
        "indicator": "The question appears in the next two recordings.",
        "next_evidence": "Next two discovery recordings",
        "review_rule_text": "Continue when the question appears in both recordings two weeks in a row.",
    }
    for key, value in values.items():
        items.update_item(store, item.id, **{key: value})
    items.update_item(store, item.id, behavior_change="start")
    items.update_item(store, item.id, practice_kind="role_play")
    items.update_item(store, item.id, next_evidence_due="2026-12-14")
    items.update_item(store, item.id, continue_after=(2, 2, 2))
    items.update_item(store, item.id, qualification_gap="meddicc:economic_buyer")
    reopened = reopen(store)
    try:
        row = items.get_item(reopened, item.id)
    finally:
        reopened.close()
    for key, value in values.items():
        assert getattr(row, key) == value, key
    assert row.next_evidence_due == date(2026, 12, 14)
    assert row.continue_after == ContinueAfter(2, 2, 2)
    record = row.to_json()
    assert record["moment_ids"] == [info_moment.uid]
    assert record["behavior"] == {"change": "start", "text": INFO_BEHAVIOR}
    assert record["next_evidence"] == {"description": "Next two discovery recordings", "due": "2026-12-14"}
    assert record["review_rule"]["continue_after"] == {"seen_in": 2, "of_reviewed": 2, "weeks_in_a_row": 2}
    assert record["qualification_gap"] == "meddicc:economic_buyer"
    assert passes(items.findings(row))


def test_record_shape_leaves_out_optional_keys(store, info_moment):
    record = items.create_item(store, [info_moment.id]).to_json()
    assert "qualification_gap" not in record
    assert record["review_rule"] == {"text": ""}
    assert list(record) == ["id", "moment_ids", "consequence", "behavior", "practice", "owner", "cadence",
                            "indicator", "next_evidence", "review_rule", "status"]


@pytest.mark.parametrize("field,value,expected", [
    ("qualification_gap", "meddicc:budget", "meddicc:<criterion>"),
    ("status", "finished", "open, done, dropped"),
    ("behavior_change", "improve", "start, stop, adjust"),
    ("practice_kind", "lecture", "role_play"),
    ("continue_after", (3, 2, 1), "1 <= N <= M"),
    ("next_evidence_due", "next week", "ISO date"),
    ("colour", "red", "not a field"),
])
def test_bad_values_are_refused_with_a_clear_message(store, info_moment, field, value, expected):
    item = items.create_item(store, [info_moment.id])
    with pytest.raises(CallmarkError, match=expected.replace("<", ".").replace(">", ".")):
        items.update_item(store, item.id, **{field: value})


def test_status_and_clearing_optional_fields(store, info_moment):
    item = items.create_item(store, [info_moment.id], qualification_gap="spiced:critical_event",
                             continue_after={"seen_in": 1, "of_reviewed": 2, "weeks_in_a_row": 3})
    assert item.qualification_gap == "spiced:critical_event"
    item = items.update_item(store, item.id, qualification_gap="", continue_after=None, status="dropped")
    assert item.qualification_gap is None and item.continue_after is None and item.status == "dropped"
    assert items.list_items(store, status="open") == []


def test_an_item_cites_moments_from_several_calls_and_evidence_with_a_date(store, call, info_moment):
    other_call = demo_call_copy(store)
    other = mark(store, other_call.id, INFO_LINE_MS)
    item = items.create_item(store, [info_moment.id])
    item = items.add_moments(store, item.id, [other.id])
    assert item.call_ids == sorted({call.id, other_call.id})
    item = items.add_evidence(store, item.id, "crm", "Next step: 'send info', no date", "2026-11-21",
                              field="NextStep")
    item = items.add_evidence(store, item.id, "note", "Morgan said reps avoid asking for the buyer", date(2026, 11, 25))
    assert [(e.kind, e.on_date) for e in item.evidence] == [("crm", date(2026, 11, 21)), ("note", date(2026, 11, 25))]
    item = items.remove_moment(store, item.id, info_moment.id)
    assert [m.id for m in item.moments] == [other.id]
    item = items.remove_evidence(store, item.id, item.evidence[0].id)
    assert len(item.evidence) == 1
    # the freed moment can feed another item now
    assert items.create_item(store, [info_moment.id]).moments[0].id == info_moment.id


def demo_call_copy(store):
    """A second call: the same script under another recording (a tone, so the hash differs)."""
    import subprocess
    import tempfile
    from pathlib import Path

    from desktop.services import calls, transcripts
    from desktop.services.transcripts import SegmentRow

    path = Path(tempfile.mkdtemp()) / "second.wav"
    subprocess.run(["sox", "-n", "-r", "16000", "-c", "1", str(path), "synth", "140", "sine", "300"],
                   check=True, capture_output=True)
    row, _ = calls.add_call(store, path, title="Follow-up - Acme", manager="Morgan Manager")
    transcripts.save_transcript(store, row.id, [SegmentRow(line["start_ms"], line["end_ms"], line["speaker"],
                                                           line["text"]) for line in script_lines()],
                                origin="import")
    return row


def test_evidence_needs_a_known_kind_and_text(store, info_moment):
    item = items.create_item(store, [info_moment.id])
    with pytest.raises(CallmarkError, match="'crm'"):
        items.add_evidence(store, item.id, "email", "x", None)
    with pytest.raises(CallmarkError, match="write what"):
        items.add_evidence(store, item.id, "note", "  ", None)


def test_list_items_per_manager(store, call, info_moment):
    mine = items.create_item(store, [info_moment.id])
    other = items.create_item(store, [], manager="Alex Manager", behavior_text=METHOD_EXAMPLE)
    assert [r.id for r in items.list_items(store, "Morgan Manager")] == [mine.id]
    assert [r.id for r in items.list_items(store, "Alex Manager")] == [other.id]
    assert [r.id for r in items.list_items(store, call_id=call.id)] == [mine.id]
    with pytest.raises(NotFound, match="Nobody"):
        items.list_items(store, "Nobody")


def test_an_item_needs_a_moment_or_a_manager(store):
    with pytest.raises(CallmarkError, match="manager"):
        items.create_item(store, [])


def test_findings_come_from_the_core_check(store, info_moment):
    item = items.create_item(store, [info_moment.id], behavior_text="Improve pipeline discipline")
    found = items.findings(item)
    assert any(f.component == "behavior" and f.severity == Severity.ERROR for f in found)
    assert not any(f.component == "evidence" for f in found)  # the moment has a time and a quote
    d = items.draft(item)
    assert d.moments == [(INFO_LINE_MS, info_moment.quote)]


def test_one_behavior_a_second_becomes_a_second_item(store, call, info_moment):
    two = ("Ask the rep to state the next step the customer confirmed, and also write the date "
           "in Salesforce before the call ends.")
    item = items.create_item(store, [info_moment.id], behavior_text=two, cadence="Weekly 1:1")
    assert any("more than one behavior" in f.message for f in items.findings(item))
    kept, new = items.split_behavior(store, item.id)
    assert kept.behavior_text == "Ask the rep to state the next step the customer confirmed."
    assert new.behavior_text == "Write the date in Salesforce before the call ends."
    assert new.manager == kept.manager == "Morgan Manager" and new.cadence == "Weekly 1:1"
    assert not any("more than one behavior" in f.message for f in items.findings(kept))
    with pytest.raises(CallmarkError, match="one action"):
        items.split_behavior(store, kept.id)
    # a second behavior from another moment, named explicitly, moving that moment along
    budget = mark(store, call.id, _line("has to be approved"), kind="answer")
    items.add_moments(store, kept.id, [budget.id])
    kept, third = items.split_behavior(store, kept.id, "Name the economic buyer before the demo.",
                                       moment_ids=[budget.id])
    assert [m.id for m in third.moments] == [budget.id]
    assert budget.id not in kept.moment_ids


def test_split_text_leaves_quoted_questions_and_situations_alone():
    assert items.split_text(INFO_BEHAVIOR) is None
    assert items.split_text(METHOD_EXAMPLE) is None
    assert items.split_text('Ask "What will you review, and then who signs?" before the demo.') is None
    assert items.split_text("Pause after the price; confirm the customer's reaction.") == (
        "Pause after the price.", "Confirm the customer's reaction.")


def test_split_text_finds_a_second_behavior_in_any_verb_or_join():
    # Verbs the check may not know, "&", and "also" left off the second item.
    assert items.split_text("Check the next-step field and renew the team's LinkedIn licences") == (
        "Check the next-step field.", "Renew the team's LinkedIn licences")
    assert items.split_text("Ask about the budget & plan the SKO") == ("Ask about the budget.", "Plan the SKO")
    assert items.split_text("Listen to one call per rep each week; also start a monthly team lunch") == (
        "Listen to one call per rep each week.", "Start a monthly team lunch")


def test_behavior_library_offers_the_seed_then_what_was_written(store, info_moment):
    assert items.behavior_library(store)[:2] == [METHOD_EXAMPLE, INFO_BEHAVIOR]
    items.create_item(store, [info_moment.id], behavior_text="Pause for three seconds after stating the price.")
    assert items.behavior_library(store)[-1] == "Pause for three seconds after stating the price."


def test_resolve_item_by_number_or_uid(store, info_moment):
    item = items.create_item(store, [info_moment.id])
    assert items.resolve_item(store, str(item.id)).uid == item.uid
    assert items.resolve_item(store, item.uid.upper()).id == item.id
    assert items.item_for_moment(store, info_moment.id).id == item.id
    items.delete_item(store, item.id)
    assert items.item_for_moment(store, info_moment.id) is None
    with pytest.raises(NotFound):
        items.get_item(store, item.id)


# --- parking -------------------------------------------------------------------------------


def test_park_list_and_promote_a_moment(store, call, info_moment):
    demo_q = mark(store, call.id, _line("demo next week"), kind="question")
    parked = parking.park(store, moment_id=demo_q.id, note="Closed question: the demo was the rep's idea")
    assert parked.manager == "Morgan Manager"
    assert [p.id for p in parking.list_parked(store, "Morgan Manager")] == [parked.id]
    with pytest.raises(CallmarkError, match="already parked"):
        parking.park(store, moment_id=demo_q.id)
    item = parking.promote(store, parked.id)
    assert item.moment_ids == [demo_q.id]
    assert item.consequence == "Closed question: the demo was the rep's idea"
    assert parking.list_parked(store, "Morgan Manager") == []
    assert parking.list_parked(store, include_promoted=True)[0].promoted_item_id == item.id
    with pytest.raises(CallmarkError, match="already promoted"):
        parking.promote(store, parked.id)


def test_a_note_alone_is_parked_and_promoted_as_dated_evidence(store, call):
    parked = parking.park(store, note="Pipeline review: no dates on next steps", manager="Morgan Manager")
    item = parking.promote(store, parked.id)
    assert item.moments == [] and item.evidence[0].kind == "note"
    assert item.evidence[0].on_date is not None
    assert not any(f.component == "evidence" for f in items.findings(item))


def test_parking_refuses_what_cannot_be_parked(store, call, info_moment):
    with pytest.raises(CallmarkError, match="give a moment or write a note"):
        parking.park(store)
    with pytest.raises(CallmarkError, match="name the manager"):
        parking.park(store, note="something")
    items.create_item(store, [info_moment.id])
    with pytest.raises(CallmarkError, match="already feeds item"):
        parking.park(store, moment_id=info_moment.id)
    other = parking.park(store, note="later", manager="Alex Manager")
    parking.unpark(store, other.id)
    assert parking.list_parked(store) == []


def test_items_still_exports_every_public_name_after_the_split():
    from desktop.services import item_rows, item_split

    assert all(hasattr(items, name) for name in items.__all__)
    assert items.ItemRow is item_rows.ItemRow and items.split_text is item_split.split_text
    assert {"looks_like_item_ref", "call_manager"} <= set(dir(items))
