"""The portable coaching record: round trips, the schema file, and hostile files."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from desktop.exchange.record import (MAX_RECORD_BYTES, SCHEMA_PATH, RecordError, compute_checksum,
                                     dump_record, load_record, parse_record, record_to_plain,
                                     schema_text, write_record)
from desktop.exchange.record_model import CoachingRecord
from tests.exchange.sample_records import (ITEM_ID, MOMENT_ID, bare_record, encode, reseal,
                                           rich_plain, rich_record)


def _without_volatile(obj: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in obj.items() if k not in ("exported_at", "checksum")}


def test_committed_schema_matches_the_models():
    assert SCHEMA_PATH.read_text(encoding="utf-8") == schema_text(), (
        "resources/schema/coaching-record-1.schema.json is stale: "
        "run `python -m desktop.exchange.record_model`")


def test_schema_forbids_unknown_keys_everywhere_and_never_allows_null():
    schema = json.loads(schema_text())
    objects = [schema] + list(schema["$defs"].values())
    for part in objects:
        if part.get("type") == "object":
            assert part.get("additionalProperties") is False, part.get("title")
    assert "null" not in schema_text()


def test_rich_record_round_trips_exactly(tmp_path: Path):
    record = rich_record()
    first = tmp_path / "first.callmark.json"
    write_record(first, record)
    loaded = load_record(first)
    assert loaded == record
    # Export again later: only exported_at and checksum may differ.
    again = loaded.model_copy(update={"exported_at": loaded.exported_at.replace(year=2027)})
    second = json.loads(dump_record(again))
    original = json.loads(first.read_bytes())
    assert _without_volatile(second) == _without_volatile(original)
    assert second["checksum"]["value"] != original["checksum"]["value"]
    assert second["exported_at"] == "2027-11-30T10:00:00Z"


def test_rich_record_carries_every_optional_key():
    plain = rich_plain()
    assert plain["exported_by"]["email"] == "dana@example.com"
    assert {"recorded_at", "source", "participants", "manager", "opportunity"} <= plain["call"].keys()
    assert plain["call"]["opportunity"]["next_step_date"] == "2026-12-02"
    assert "transcript" in plain
    assert {"speaker", "note"} <= plain["moments"][0].keys()
    assert plain["items"][0]["review_rule"]["continue_after"] == {"seen_in": 2, "of_reviewed": 2, "weeks_in_a_row": 2}
    assert plain["items"][0]["qualification_gap"] == "meddicc:economic_buyer"


def test_bare_record_leaves_optional_keys_out_and_round_trips(tmp_path: Path):
    path = write_record(tmp_path / "bare.callmark.json", bare_record())
    plain = json.loads(path.read_bytes())
    assert plain["exported_by"] == {"name": "Dana Coach"}
    assert set(plain["call"]) == {"title", "media"}
    assert "transcript" not in plain
    assert set(plain["moments"][0]) == {"id", "start_ms", "end_ms", "kind", "quote", "created_at"}
    assert "null" not in path.read_text(encoding="utf-8")
    assert dump_record(load_record(path)) == path.read_bytes()


def test_checksum_is_the_canonical_sha256_of_the_rest():
    import hashlib

    plain = rich_plain()
    body = {k: v for k, v in plain.items() if k != "checksum"}
    expected = hashlib.sha256(json.dumps(body, sort_keys=True, separators=(",", ":"),
                                         ensure_ascii=False).encode("utf-8")).hexdigest()
    assert plain["checksum"] == {"algorithm": "sha256", "value": expected}
    assert compute_checksum(plain) == expected


def test_example_from_the_format_note_is_accepted_once_sealed():
    # The example in the published format note (record-format.md), with "<64 hex>" as zeros.
    example = json.loads((Path(__file__).parent / "record_format_example.json").read_text(encoding="utf-8"))
    record = parse_record(encode(reseal(example)), source="example.callmark.json")
    assert isinstance(record, CoachingRecord)
    assert _without_volatile(record_to_plain(record)) == _without_volatile(example)


def test_a_uuid_written_in_capitals_reads_back_in_one_spelling():
    plain = rich_plain()
    plain["moments"][0]["id"] = MOMENT_ID.upper()
    record = parse_record(encode(reseal(plain)))
    assert record.moments[0].id == MOMENT_ID
    assert record.items[0].moment_ids[0] == MOMENT_ID


# ---- hostile and malformed files ------------------------------------------------------

Mutation = Callable[[dict[str, Any]], Any]


def _set(path: str, value: Any) -> Mutation:
    def mutate(obj: dict[str, Any]) -> dict[str, Any]:
        target: Any = obj
        keys = [int(k) if k.isdigit() else k for k in path.split(".")]
        for key in keys[:-1]:
            target = target[key]
        target[keys[-1]] = value
        return obj
    return mutate


def _drop(path: str) -> Mutation:
    def mutate(obj: dict[str, Any]) -> dict[str, Any]:
        target: Any = obj
        keys = [int(k) if k.isdigit() else k for k in path.split(".")]
        for key in keys[:-1]:
            target = target[key]
        del target[keys[-1]]
        return obj
    return mutate


def _dup_moment(obj: dict[str, Any]) -> dict[str, Any]:
    obj["moments"].append(copy.deepcopy(obj["moments"][0]))
    return obj


def _item_id_equals_moment_id(obj: dict[str, Any]) -> dict[str, Any]:
    obj["items"][0]["id"] = obj["moments"][0]["id"]
    return obj


# (name, mutation of the rich record (checksum recomputed unless said), json path, words in the message)
HOSTILE_OBJECTS = [
    ("wrong format", _set("format", "something.else"), "$.format", "not a Callmark coaching record"),
    ("missing version", _drop("version"), "$.version", "version is missing"),
    ("wrong version", _set("version", 0), "$.version", "record version 0 is not known; this Callmark reads record version 1"),
    ("version as string", _set("version", "1"), "$.version", 'record version "1" is not known'),
    ("future version", _set("version", 2), "$.version", "record version 2 was written by a newer Callmark; this Callmark reads record version 1"),
    ("unknown top-level key", _set("colour", "blue"), "$.colour", "unknown key"),
    ("unknown nested key", _set("moments.0.notes", "typo"), "$.moments[0].notes", "unknown key"),
    ("unknown deep key", _set("items.0.review_rule.continue_after.months", 3),
     "$.items[0].review_rule.continue_after.months", "unknown key"),
    ("missing required key", _drop("items.0.behavior"), "$.items[0].behavior", "required key is missing"),
    ("null optional key", _set("call.manager", None), "$.call.manager", "leave an optional key out instead of null"),
    ("duplicate moment ids", _dup_moment, "$.moments[2].id", "is used twice"),
    ("item id reuses a moment id", _item_id_equals_moment_id, "$.items[0].id", "is used twice"),
    ("dangling moment id", _set("items.0.moment_ids.1", "11111111-2222-4333-8444-555555555555"),
     "$.items[0].moment_ids[1]", "is not in this record's moments"),
    ("same moment cited twice", _set("items.0.moment_ids.1", MOMENT_ID), "$.items[0].moment_ids[1]", "cited twice"),
    ("moment past the end", _set("moments.0.end_ms", 183001), "$.moments[0].end_ms",
     "183001 ms is past the end of the recording (183000 ms)"),
    ("segment past the end", _set("transcript.segments.1.end_ms", 999999), "$.transcript.segments[1].end_ms",
     "past the end of the recording"),
    ("negative time", _set("moments.0.start_ms", -5), "$.moments[0].start_ms", "-5 must be 0 or more"),
    ("start after end", _set("moments.0.start_ms", 44611), "$.moments[0].start_ms", "start 44611 ms is after end 44610 ms"),
    ("segment start after end", _set("transcript.segments.0.start_ms", 6000), "$.transcript.segments[0].start_ms",
     "is after end"),
    ("time as string", _set("moments.0.start_ms", "39876"), "$.moments[0].start_ms", "must be a whole number"),
    ("time as float", _set("moments.0.start_ms", 39876.5), "$.moments[0].start_ms", "must be a whole number"),
    ("time as boolean", _set("call.media.duration_ms", True), "$.call.media.duration_ms", "must be a whole number"),
    ("title as number", _set("call.title", 42), "$.call.title", "must be a string"),
    ("moments not a list", _set("moments", {}), "$.moments", "must be an array"),
    ("call not an object", _set("call", "Acme"), "$.call", "must be an object"),
    ("bad date", _set("items.0.next_evidence.due", "14/12/2026"), "$.items[0].next_evidence.due",
     "is not an ISO 8601 date"),
    ("impossible date", _set("call.opportunity.next_step_date", "2026-02-30"), "$.call.opportunity.next_step_date",
     "is not an ISO 8601 date"),
    ("bad instant", _set("moments.0.created_at", "yesterday"), "$.moments[0].created_at", "is not an ISO 8601 instant"),
    ("instant without zone", _set("exported_at", "2026-11-30T10:00:00"), "$.exported_at", "has no time zone"),
    ("instant not in UTC", _set("call.recorded_at", "2026-11-20T15:00:00+02:00"), "$.call.recorded_at", "not in UTC"),
    ("bad enum", _set("moments.0.kind", "objection"), "$.moments[0].kind",
     '"objection" is not allowed here; expected "question", "answer"'),
    ("coach is not a call participant", _set("call.participants.0.role", "coach"), "$.call.participants[0].role",
     "is not allowed here"),
    ("bad qualification gap", _set("items.0.qualification_gap", "meddicc:budget"), "$.items[0].qualification_gap",
     '"meddicc:budget" is not allowed here'),
    ("bad sha256", _set("call.media.sha256", "abc123"), "$.call.media.sha256", "is not a SHA-256 hex digest"),
    ("bad uuid", _set("moments.0.id", "moment-1"), "$.moments[0].id", "is not a UUID string"),
    ("bad email", _set("exported_by.email", "dana at example"), "$.exported_by.email", "is not in the expected form"),
    ("filename with a path", _set("call.media.filename", "../../etc/passwd"), "$.call.media.filename",
     "is not in the expected form"),
    ("empty behavior text", _set("items.0.behavior.text", ""), "$.items[0].behavior.text", "must not be empty"),
    ("seen in more than reviewed", _set("items.0.review_rule.continue_after.seen_in", 3),
     "$.items[0].review_rule.continue_after", "seen_in (3) is more than of_reviewed (2)"),
    ("wrong checksum algorithm", _set("checksum.algorithm", "md5"), "$.checksum.algorithm", '"md5" is not allowed'),
    ("missing checksum", _drop("checksum"), "$.checksum", "required key is missing"),
]


@pytest.mark.parametrize("name,mutate,json_path,words", HOSTILE_OBJECTS, ids=[h[0] for h in HOSTILE_OBJECTS])
def test_hostile_record_is_refused_with_its_message(tmp_path: Path, name, mutate, json_path, words):
    plain = mutate(rich_plain())
    path = tmp_path / "hostile.callmark.json"
    path.write_bytes(encode(reseal(plain)))
    with pytest.raises(RecordError) as caught:
        load_record(path)
    error = caught.value
    assert error.json_path == json_path, str(error)
    assert words in error.message, str(error)
    line = str(error)
    assert "\n" not in line
    assert line.startswith(f"{path}: {json_path}: ")


def test_edited_file_is_reported_as_damaged_or_edited(tmp_path: Path):
    plain = rich_plain()
    plain["items"][0]["behavior"]["text"] = "Be better."  # edited by hand, checksum left as it was
    path = tmp_path / "edited.callmark.json"
    path.write_bytes(encode(plain))
    with pytest.raises(RecordError, match=r"\$\.checksum\.value: checksum does not match the contents: "
                                          r"the file is damaged or was edited"):
        load_record(path)


def test_checksum_that_is_not_hex_is_a_schema_error(tmp_path: Path):
    plain = rich_plain()
    plain["checksum"]["value"] = "z" * 64
    path = tmp_path / "x.callmark.json"
    path.write_bytes(encode(plain))
    with pytest.raises(RecordError, match=r"\$\.checksum\.value: 'z+' is not a SHA-256"):
        load_record(path)


RAW_FILES = [
    ("not JSON", b"Discovery call notes\n", None, "not valid JSON: Expecting value at line 1, column 1"),
    ("truncated JSON", encode(rich_plain())[:300], None, "not valid JSON"),
    ("trailing comma", b'{"format": "callmark.coaching-record",\n "version": 1,}', None,
     "not valid JSON: Expecting property name enclosed in double quotes at line 2, column 15"),
    ("empty file", b"", None, "file is empty"),
    ("only spaces", b"  \n\t ", None, "file is empty"),
    ("array instead of object", b"[1, 2, 3]", "$", "is an array; a coaching record is a JSON object"),
    ("a bare string", b'"hello"', "$", "is a string"),
    ("UTF-16 with BOM", "\ufeff" .encode("utf-16-le") + json.dumps({"format": "x"}).encode("utf-16-le"), None,
     "UTF-16 or UTF-32"),
    ("UTF-16 without BOM", json.dumps({"format": "x"}).encode("utf-16-le"), None, "UTF-16 or UTF-32"),
    ("Latin-1 text", '{"format": "callmark.coaching-record", "x": "Zürich"}'.encode("latin-1"), None,
     "file is not UTF-8 text (byte 0xfc"),
    ("duplicate key", b'{"format": "callmark.coaching-record", "version": 1, "version": 2}', None,
     "the key 'version' appears twice"),
    ("NaN", b'{"format": "callmark.coaching-record", "version": NaN}', None, "NaN is not a JSON number"),
    ("deep nesting", b"[" * 100000 + b"]" * 100000, None, "nested too deeply"),
]


@pytest.mark.parametrize("name,data,json_path,words", RAW_FILES, ids=[r[0] for r in RAW_FILES])
def test_malformed_file_is_refused_with_its_message(tmp_path: Path, name, data, json_path, words):
    path = tmp_path / "bad.callmark.json"
    path.write_bytes(data)
    with pytest.raises(RecordError) as caught:
        load_record(path)
    assert caught.value.json_path == json_path, str(caught.value)
    assert words in str(caught.value)
    assert str(caught.value).startswith(f"{path}: ")
    assert "\n" not in str(caught.value)


def test_fifty_megabytes_of_junk_is_refused_without_reading_it(tmp_path: Path, monkeypatch):
    path = tmp_path / "junk.callmark.json"
    with open(path, "wb") as out:
        out.seek(50 * 1024 * 1024 - 1)
        out.write(b"x")
    reads: list[int] = []
    real_open = open

    def counting_open(*args, **kwargs):
        handle = real_open(*args, **kwargs)
        reads.append(1)
        return handle

    monkeypatch.setattr("builtins.open", counting_open)
    with pytest.raises(RecordError, match=r"file is 50\.0 MB; a coaching record is at most 20 MB"):
        load_record(path)
    assert reads == []
    assert MAX_RECORD_BYTES == 20 * 1024 * 1024


def test_missing_file_and_folder_are_named(tmp_path: Path):
    with pytest.raises(RecordError, match="no such file"):
        load_record(tmp_path / "absent.callmark.json")
    with pytest.raises(RecordError, match="is a folder"):
        load_record(tmp_path)


def test_several_schema_problems_are_counted_in_one_line(tmp_path: Path):
    plain = rich_plain()
    plain["moments"][0]["start_ms"] = "a"
    plain["moments"][1]["end_ms"] = "b"
    plain["items"][0]["status"] = "closed"
    with pytest.raises(RecordError) as caught:
        parse_record(encode(reseal(plain)), source="many.callmark.json")
    assert str(caught.value).endswith("(and 2 more problems)")
    assert [p for p, _ in caught.value.more] == ["$.moments[1].end_ms", "$.items[0].status"]


def test_exporting_an_inconsistent_record_is_refused():
    record = rich_record()
    broken = record.model_copy(update={"items": [record.items[0].model_copy(
        update={"moment_ids": ["11111111-2222-4333-8444-555555555555"]})]})
    with pytest.raises(RecordError, match=r"\$\.items\[0\]\.moment_ids\[0\]: moment .* is not in"):
        dump_record(broken)
    assert ITEM_ID  # the fixture ids are the spec's own
