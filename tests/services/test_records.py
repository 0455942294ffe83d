"""The coaching record through the store: round trip, all-or-nothing import, uids, relinking by hash."""

from __future__ import annotations

import copy
import hashlib
import json
from datetime import datetime, timezone

import pytest

from db.store import open_store
from desktop.exchange.record import RecordError, dump_record, load_record, parse_record, write_record
from desktop.services import calls, items, moments, records
from tests.exchange.sample_records import (ITEM_ID, MOMENT2_ID, MOMENT_ID, encode, reseal, rich_plain,
                                           rich_record)
from tests.store_dump import dump

pytestmark = pytest.mark.both_stores  # the services on SQLite and on a team store

WHEN = datetime(2026, 12, 1, 8, 0, tzinfo=timezone.utc)


def plain(record) -> dict:
    out = json.loads(dump_record(record))
    out.pop("exported_at")
    out.pop("checksum")
    return out


def write_json(path, obj) -> str:
    path.write_bytes(encode(obj))
    return str(path)


def demo_sha(demo_media) -> str:
    return hashlib.sha256(demo_media.read_bytes()).hexdigest()


def test_rich_record_round_trips_through_an_empty_store(store, tmp_path):
    source = tmp_path / "rich.callmark.json"
    write_record(source, rich_record())
    first = records.import_record(store, source)
    assert first.call_created and first.moments_added == 2 and first.items_added == 1
    assert first.transcript == "added" and first.hidden_for_blind_review  # nobody local is Dana yet

    exported = records.export_record(store, first.call_id, coach="Dana Coach", with_transcript=True,
                                     exported_at=WHEN).record
    # Every optional key survived the store: the same object, moments in time order.
    expected = rich_plain()
    expected["moments"].sort(key=lambda m: m["start_ms"])
    expected["items"][0]["moment_ids"] = [MOMENT2_ID, MOMENT_ID]
    expected.pop("exported_at"), expected.pop("checksum")
    assert plain(exported) == expected

    # Export -> import into an empty store -> export: the same object.
    middle = tmp_path / "exported.callmark.json"
    write_record(middle, exported)
    (tmp_path / "other").mkdir()
    other = open_store(tmp_path / "other" / "callmark.sqlite3")
    try:
        again = records.import_record(other, middle)
        back = records.export_record(other, again.call_id, coach="Dana Coach", with_transcript=True).record
    finally:
        other.close()
    assert plain(back) == plain(exported)


def test_the_same_record_twice_adds_nothing(store, tmp_path):
    source = tmp_path / "rich.callmark.json"
    write_record(source, rich_record())
    records.import_record(store, source)
    before = dump(store)
    second = records.import_record(store, source)
    assert (second.moments_added, second.items_added, second.call_created) == (0, 0, False)
    assert second.moments_unchanged == 2 and second.items_unchanged == 1 and second.transcript == "kept"
    assert dump(store) == before


def test_another_coachs_moments_are_hidden_until_compared(store, tmp_path):
    records.set_whoami(store, "Alex Local", "alex@example.com")
    source = tmp_path / "rich.callmark.json"
    write_record(source, rich_record())
    result = records.import_record(store, source)
    assert result.hidden_for_blind_review
    assert moments.list_moments(store, result.call_id) == []
    shown = moments.list_moments(store, result.call_id, include_imported=True)
    assert {m.coach for m in shown} == {"Dana Coach"}
    assert items.list_items(store) == [] and len(items.list_items(store, include_imported=True)) == 1


def test_my_own_record_comes_back_as_mine(store, tmp_path):
    records.set_whoami(store, "Dana Coach", "dana@example.com")
    source = tmp_path / "rich.callmark.json"
    write_record(source, rich_record())
    result = records.import_record(store, source)
    assert not result.hidden_for_blind_review
    assert len(moments.list_moments(store, result.call_id)) == 2


def _refused(store, path, where: str, words: str) -> RecordError:
    before = dump(store)
    with pytest.raises(RecordError) as caught:
        records.import_record(store, path)
    error = caught.value
    assert error.path == str(path) and error.json_path == where and words in error.message, str(error)
    assert str(path) in str(error)
    assert dump(store) == before
    return error


def test_a_dangling_moment_id_changes_nothing(store, tmp_path):
    obj = rich_plain()
    obj["items"][0]["moment_ids"][1] = "00000000-0000-4000-8000-000000000000"
    path = write_json(tmp_path / "dangling.callmark.json", reseal(obj))
    _refused(store, path, "$.items[0].moment_ids[1]", "not in this record's moments")


def test_times_past_the_call_in_the_library_change_nothing(store, tmp_path, demo_media):
    call, _ = calls.add_call(store, demo_media)
    obj = rich_plain()
    obj["call"]["media"]["sha256"] = demo_sha(demo_media)  # the record claims 183 s; the library has 141 s
    obj["moments"][1]["end_ms"] = 183000
    obj.pop("transcript")
    path = write_json(tmp_path / "long.callmark.json", reseal(obj))
    error = _refused(store, path, "$.moments[1].end_ms", "past the end of the recording in this library")
    assert f"call {call.id}" in error.message


def test_a_moment_fed_to_two_items_changes_nothing(store, tmp_path):
    obj = rich_plain()
    second = copy.deepcopy(obj["items"][0])
    second["id"] = "9c8d7e6f-1111-4222-8333-444455556666"
    second["moment_ids"] = [MOMENT_ID]
    obj["items"].append(second)
    path = write_json(tmp_path / "twice.callmark.json", reseal(obj))
    _refused(store, path, "$.items[1].moment_ids[0]", "a moment feeds one item")


def test_a_moment_id_already_on_another_call_changes_nothing(store, tmp_path):
    write_record(tmp_path / "rich.callmark.json", rich_record())
    records.import_record(store, tmp_path / "rich.callmark.json")
    obj = rich_plain()
    obj["call"]["media"]["sha256"] = "ef" * 32  # another call, the same moment ids
    path = write_json(tmp_path / "other-call.callmark.json", reseal(obj))
    _refused(store, path, "$.moments[0].id", "on another call")


def test_a_bad_checksum_changes_nothing(store, tmp_path):
    obj = rich_plain()
    obj["moments"][0]["quote"] = "edited after export"
    path = write_json(tmp_path / "edited.callmark.json", obj)
    _refused(store, path, "$.checksum.value", "damaged or was edited")


def test_a_record_for_an_unknown_call_makes_a_call_that_adding_the_file_relinks(store, tmp_path, demo_media):
    obj = rich_plain()
    obj["call"]["media"]["sha256"] = demo_sha(demo_media)
    obj["call"]["media"]["duration_ms"] = 140000
    obj["moments"][1]["end_ms"] = 140000
    obj["transcript"]["segments"] = obj["transcript"]["segments"][:1]
    path = write_json(tmp_path / "demo.callmark.json", reseal(obj))
    result = records.import_record(store, path)
    assert result.call_created
    row = calls.get_call(store, result.call_id)
    assert row.media_path is None and row.manager == "Morgan Manager" and row.rep == "Riley Rep"
    relinked, created = calls.add_call(store, demo_media)
    assert not created and relinked.id == result.call_id
    assert relinked.media_path == str(demo_media.resolve())


def test_export_needs_a_local_coach_and_leaves_out_unfinished_items(store, demo_media):
    call, _ = calls.add_call(store, demo_media, manager="Morgan Manager")
    mark = moments.add_moment(store, call.id, 40000, 44000, note="Call me on 415 555 1212.")
    unfinished = items.create_item(store, [mark.id], behavior_text="Ask what they will review.")
    with pytest.raises(records.CallmarkError, match="no local coach yet"):
        records.export_record(store, call.id)
    records.set_whoami(store, "Dana Coach", "dana@example.com")
    result = records.export_record(store, call.id, redact_pii=True)
    assert [m.coach for m in moments.list_moments(store, call.id)] == ["Dana Coach"]  # adopted from "Me"
    assert result.record.items == [] and f"item {unfinished.id}" in result.left_out[0]
    assert result.record.moments[0].note == "Call me on [phone]."
    assert [(where, r.original) for where, r in result.redactions] == [
        ("moment at 40000 ms, note", "415 555 1212")]
    # What was written reads back as a valid record.
    assert parse_record(dump_record(result.record)).moments[0].id == mark.uid


def test_exported_file_loads(store, tmp_path, demo_media):
    call, _ = calls.add_call(store, demo_media)
    records.set_whoami(store, "Dana Coach")
    moments.add_moment(store, call.id, 1000, 2000)
    result = records.export_record(store, call.id)
    target = records.save_record(result, tmp_path / "out.callmark.json")
    assert load_record(target).exported_by.name == "Dana Coach"


def test_reviews_it_is_the_coachs_name_once_the_coach_says_who_they_are(store, tmp_path):
    from tests.services.items_setup import INFO_LINE_MS, demo_call, mark

    call = demo_call(store)
    item = items.create_item(store, [mark(store, call.id, INFO_LINE_MS).id], behavior_change="start",
                             behavior_text="Ask what the customer will review.", practice_kind="role_play",
                             practice_task="Role-play the moment three times.", next_evidence="next two calls",
                             next_evidence_due="2026-12-10", consequence="Nobody knows who reviews it.",
                             cadence="Weekly 1:1", indicator="Deferrals answered with a question",
                             review_rule_text="Continue when seen in 2 of the next 3 calls")
    assert items.get_item(store, item.id).owner_reviews == "Me"  # nobody named yet
    records.set_whoami(store, "Dana Coach", "dana@example.com")
    assert items.get_item(store, item.id).owner_reviews == "Dana Coach"
    exported = records.export_record(store, call.id)
    assert [i.owner.reviews for i in exported.record.items] == ["Dana Coach"], exported.left_out


def test_a_record_onto_a_call_i_have_keeps_my_title_and_fills_what_it_lacks(store, tmp_path, demo_media):
    call, _ = calls.add_call(store, demo_media, title="Acme call from my laptop")
    obj = rich_plain()
    obj["call"]["media"]["sha256"] = demo_sha(demo_media)
    obj["call"]["media"]["duration_ms"] = 140000
    obj["moments"][1]["end_ms"] = 140000
    obj.pop("transcript")
    path = write_json(tmp_path / "theirs.callmark.json", reseal(obj))
    result = records.import_record(store, path)
    assert not result.call_created and result.call_id == call.id
    row = calls.get_call(store, call.id)
    assert row.title == "Acme call from my laptop"
    assert (row.manager, row.rep) == ("Morgan Manager", "Riley Rep")
    # What my call lacked now travels with it: an export carries it all.
    records.set_whoami(store, "Dana Coach")
    sent = records.export_record(store, call.id, exported_at=WHEN).record.call
    assert sent.title == "Acme call from my laptop"
    assert sent.recorded_at == datetime(2026, 11, 20, 15, 0, tzinfo=timezone.utc)
    assert str(sent.source) == "zoom"
    assert [(p.name, str(p.role)) for p in sent.participants] == [
        ("Riley Rep", "rep"), ("Casey Customer", "customer")]
    assert sent.manager.name == "Morgan Manager"
    assert (sent.opportunity.id, sent.opportunity.name) == ("0065g00000XyZ1A", "Acme - Platform")


def test_a_record_never_overwrites_what_my_call_already_says(store, tmp_path, demo_media):
    call, _ = calls.add_call(store, demo_media, title="Mine", manager="Sam Manager", rep="Alex Rep",
                             recorded_at="2026-11-19T09:00:00Z")
    obj = rich_plain()
    obj["call"]["media"]["sha256"] = demo_sha(demo_media)
    obj["call"]["media"]["duration_ms"] = 140000
    obj["moments"][1]["end_ms"] = 140000
    obj.pop("transcript")
    records.import_record(store, write_json(tmp_path / "theirs.callmark.json", reseal(obj)))
    row = calls.get_call(store, call.id)
    assert (row.title, row.manager, row.rep) == ("Mine", "Sam Manager", "Alex Rep")
    records.set_whoami(store, "Dana Coach")
    sent = records.export_record(store, call.id, exported_at=WHEN).record.call
    assert sent.recorded_at == datetime(2026, 11, 19, 9, 0, tzinfo=timezone.utc)
    assert [(p.name, str(p.role)) for p in sent.participants] == [
        ("Alex Rep", "rep"), ("Casey Customer", "customer")]
