"""Reading and writing the portable coaching record.

`load_record` checks everything before anyone writes (importing is
all-or-nothing): size, encoding, JSON syntax, format, version, schema,
checksum, unique ids, references and times. Every problem is a RecordError
naming the file, the JSON path and what is wrong, in one line.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Iterable, Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from desktop.errors import CallmarkError
from desktop.exchange.record_model import (
    RECORD_FORMAT,
    RECORD_VERSION,
    Call,
    Checksum,
    CoachingItem,
    CoachingRecord,
    Moment,
    Person,
    Transcript,
)
from desktop.exchange.safe_write import atomic_write_bytes

MAX_RECORD_BYTES = 20 * 1024 * 1024


class RecordError(CallmarkError):
    """A coaching record that cannot be read; nothing was imported."""

    def __init__(self, path: Path | str, json_path: str | None, message: str,
                 more: Sequence[tuple[str, str]] = ()) -> None:
        self.path = str(path)
        self.json_path = json_path
        self.message = message
        # Further problems found in the same pass (schema errors come in batches).
        self.more = list(more)
        where = f"{self.path}: {json_path}: " if json_path else f"{self.path}: "
        tail = f" (and {len(self.more)} more problem{'s' if len(self.more) > 1 else ''})" if self.more else ""
        super().__init__(f"{where}{message}{tail}")


# ---- canonical form and checksum --------------------------------------------------

def canonical_json(obj: Any) -> bytes:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def compute_checksum(obj: dict[str, Any]) -> str:
    """SHA-256 hex of the canonical JSON of the record without its checksum key."""
    return hashlib.sha256(canonical_json({k: v for k, v in obj.items() if k != "checksum"})).hexdigest()


def record_to_plain(record: CoachingRecord) -> dict[str, Any]:
    """The record as JSON-ready data, optional keys left out when absent."""
    return record.model_dump(mode="json", exclude_none=True)


# ---- building and writing ---------------------------------------------------------

def build_record(*, exported_by: Person, call: Call, moments: Iterable[Moment],
                 items: Iterable[CoachingItem], transcript: Transcript | None = None,
                 exported_at: datetime | None = None) -> CoachingRecord:
    """Assemble a complete, checked record (checksum filled in) from its parts."""
    when = exported_at or datetime.now(timezone.utc).replace(microsecond=0)
    draft = CoachingRecord(
        format=RECORD_FORMAT, version=RECORD_VERSION, exported_at=when, exported_by=exported_by,
        call=call, transcript=transcript, moments=list(moments), items=list(items),
        checksum=Checksum(algorithm="sha256", value="0" * 64))
    return _sealed(draft)


def _sealed(record: CoachingRecord) -> CoachingRecord:
    problems = consistency_problems(record)
    if problems:
        json_path, message = problems[0]
        raise RecordError("<record being exported>", json_path, message, problems[1:])
    plain = record_to_plain(record)
    return record.model_copy(update={"checksum": Checksum(algorithm="sha256", value=compute_checksum(plain))})


def dump_record(record: CoachingRecord) -> bytes:
    """The record as UTF-8 JSON bytes with a freshly computed checksum."""
    plain = record_to_plain(_sealed(record))
    return (json.dumps(plain, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def write_record(path: Path | str, record: CoachingRecord) -> Path:
    """Export to `path` atomically (ExportError on failure, nothing half-written)."""
    return atomic_write_bytes(path, dump_record(record))


# ---- reading ----------------------------------------------------------------------

def load_record(path: Path | str) -> CoachingRecord:
    """Read and check a `*.callmark.json` file; RecordError on the first problem."""
    path = Path(path)
    try:
        size = os.stat(path).st_size
        if size > MAX_RECORD_BYTES:
            raise _too_big(path, size)
        with open(path, "rb") as handle:
            data = handle.read(MAX_RECORD_BYTES + 1)  # bounded even if the file grows
    except FileNotFoundError:
        raise RecordError(path, None, "no such file") from None
    except IsADirectoryError:
        raise RecordError(path, None, "is a folder, not a coaching record file") from None
    except PermissionError:
        raise RecordError(path, None, "permission denied reading the file") from None
    except OSError as exc:
        raise RecordError(path, None, f"could not read the file: {exc.strerror or exc}") from None
    return parse_record(data, source=path)


def _too_big(source: Path | str, size: int) -> RecordError:
    return RecordError(source, None, f"file is {size / 1048576:.1f} MB; a coaching record is at most "
                                     f"{MAX_RECORD_BYTES // 1048576} MB, so this is not one")


def parse_record(data: bytes, source: Path | str = "<record>") -> CoachingRecord:
    """Check raw file bytes and return the record; RecordError on the first problem."""
    if len(data) > MAX_RECORD_BYTES:
        raise _too_big(source, len(data))
    text = _decode(data, source)
    raw = _parse_json(text, source)
    _check_format_and_version(raw, source)
    _check_no_nulls(raw, "$", source)
    try:
        record = CoachingRecord.model_validate_json(text)
    except ValidationError as exc:
        problems = [_describe_error(err) for err in exc.errors(include_url=False)]
        json_path, message = problems[0]
        raise RecordError(source, json_path, message, problems[1:]) from None
    expected = compute_checksum(raw)
    if raw["checksum"]["value"].lower() != expected:
        raise RecordError(source, "$.checksum.value",
                          "checksum does not match the contents: the file is damaged or was edited "
                          "after export")
    problems = consistency_problems(record)
    if problems:
        json_path, message = problems[0]
        raise RecordError(source, json_path, message, problems[1:])
    return record


def _decode(data: bytes, source: Path | str) -> str:
    if not data.strip():
        raise RecordError(source, None, "file is empty; a coaching record is a JSON object")
    if data.startswith((b"\xff\xfe", b"\xfe\xff")) or (len(data) >= 4 and b"\x00" in data[:4]):
        raise RecordError(source, None, "file is UTF-16 or UTF-32 text; a coaching record must be UTF-8")
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]  # a UTF-8 byte-order mark is harmless; some editors add one
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RecordError(source, None, f"file is not UTF-8 text (byte 0x{data[exc.start]:02x} at "
                                        f"offset {exc.start}); a coaching record must be UTF-8") from None


class _DuplicateKey(ValueError):
    pass


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    for key, value in pairs:
        if key in seen:
            raise _DuplicateKey(key)
        seen[key] = value
    return seen


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _parse_json(text: str, source: Path | str) -> dict[str, Any]:
    try:
        raw = json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise RecordError(source, None, f"not valid JSON: {exc.msg} at line {exc.lineno}, "
                                        f"column {exc.colno}") from None
    except _DuplicateKey as exc:
        raise RecordError(source, None, f"not valid for import: the key {exc.args[0]!r} appears twice "
                                        f"in one object") from None
    except RecursionError:
        raise RecordError(source, None, "not a coaching record: JSON nested too deeply") from None
    except ValueError as exc:
        raise RecordError(source, None, f"not valid JSON: {exc}") from None
    if not isinstance(raw, dict):
        kind = {list: "an array", str: "a string", int: "a number", float: "a number",
                bool: "true/false", type(None): "null"}.get(type(raw), "something else")
        raise RecordError(source, "$", f"is {kind}; a coaching record is a JSON object")
    return raw


def _check_format_and_version(raw: dict[str, Any], source: Path | str) -> None:
    fmt = raw.get("format")
    if fmt != RECORD_FORMAT:
        shown = "missing" if "format" not in raw else repr(fmt)
        raise RecordError(source, "$.format", f"not a Callmark coaching record (format is {shown}, "
                                              f"expected {RECORD_FORMAT!r})")
    version = raw.get("version")
    if version == RECORD_VERSION and type(version) is int:
        return
    if "version" not in raw:
        raise RecordError(source, "$.version", f"version is missing; this Callmark reads record "
                                               f"version {RECORD_VERSION}")
    if type(version) is int and version > RECORD_VERSION:
        raise RecordError(source, "$.version", f"record version {version} was written by a newer "
                                               f"Callmark; this Callmark reads record version "
                                               f"{RECORD_VERSION} only: update Callmark to import it")
    raise RecordError(source, "$.version", f"record version {json.dumps(version)} is not known; "
                                           f"this Callmark reads record version {RECORD_VERSION}")


def _check_no_nulls(value: Any, json_path: str, source: Path | str) -> None:
    # Optional keys are left out, never null: one spelling keeps round trips exact.
    if isinstance(value, dict):
        for key, inner in value.items():
            child = _join(json_path, key)
            if inner is None:
                raise RecordError(source, child, "is null; leave an optional key out instead of null")
            _check_no_nulls(inner, child, source)
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            if inner is None:
                raise RecordError(source, f"{json_path}[{index}]", "is null")
            _check_no_nulls(inner, f"{json_path}[{index}]", source)


def _join(json_path: str, key: Any) -> str:
    if isinstance(key, int):
        return f"{json_path}[{key}]"
    if isinstance(key, str) and key.isidentifier():
        return f"{json_path}.{key}"
    return f"{json_path}[{json.dumps(key, ensure_ascii=False)}]"


def _json_path(loc: Iterable[Any]) -> str:
    result = "$"
    for part in loc:
        result = _join(result, part)
    return result


def _describe_error(err: dict[str, Any]) -> tuple[str, str]:
    """A pydantic error as (JSON path, message in plain words)."""
    loc = list(err.get("loc", ()))
    kind = err.get("type", "")
    value = err.get("input")
    # Pydantic appends the union member or validator name on some errors; keep the data path.
    loc = [p for p in loc if isinstance(p, int) or not (isinstance(p, str) and ("[" in p or p.startswith("function-")))]
    path = _json_path(loc)
    shown = json.dumps(value, ensure_ascii=False)[:60] if _is_plain(value) else None
    if kind == "extra_forbidden":
        return path, "unknown key; version 1 does not have it (a newer writer must raise the version)"
    if kind == "missing":
        return path, "required key is missing"
    if kind in ("int_type", "int_parsing", "int_from_float"):
        return path, f"must be a whole number (milliseconds or a count), not {shown}"
    if kind in ("string_type",):
        return path, f"must be a string, not {shown}"
    if kind in ("model_type", "dict_type", "model_attributes_type"):
        return path, f"must be an object, not {shown}"
    if kind in ("list_type",):
        return path, f"must be an array, not {shown}"
    if kind in ("datetime_type", "datetime_parsing", "datetime_from_date_parsing"):
        return path, f"{shown} is not an ISO 8601 instant like 2026-11-30T10:00:00Z"
    if kind in ("date_type", "date_parsing", "date_from_datetime_inexact", "date_from_datetime_parsing"):
        return path, f"{shown} is not an ISO 8601 date like 2026-12-14"
    if kind in ("enum", "literal_error"):
        expected = re.sub(r"<\w+\.\w+: ('[^']*')>", r"\1", str(err.get("ctx", {}).get("expected", "")))
        expected = re.sub(r"'([^']*)'", r'"\1"', expected)
        return path, f"{shown} is not allowed here; expected {expected}"
    if kind == "greater_than_equal":
        return path, f"{shown} must be {err['ctx']['ge']} or more"
    if kind == "string_too_short":
        return path, "must not be empty"
    if kind == "string_too_long":
        return path, f"is too long (at most {err['ctx']['max_length']} characters)"
    if kind == "string_pattern_mismatch":
        return path, f"{shown} is not in the expected form"
    if kind == "value_error":
        return path, str(err.get("ctx", {}).get("error", err.get("msg", "")))
    return path, f"{err.get('msg', 'is not valid')}" + (f" (got {shown})" if shown else "")


def _is_plain(value: Any) -> bool:
    return isinstance(value, (str, int, float, bool)) or value is None or isinstance(value, (list, dict))


# ---- checks across the record -----------------------------------------------------

def consistency_problems(record: CoachingRecord) -> list[tuple[str, str]]:
    """Unique ids, resolving references and times within the recording."""
    problems: list[tuple[str, str]] = []
    duration = record.call.media.duration_ms
    seen: dict[str, str] = {}

    def check_id(value: str, json_path: str) -> None:
        if value in seen:
            problems.append((json_path, f"id {value} is used twice (also at {seen[value]}); "
                                        f"ids must be unique in the file"))
        else:
            seen[value] = json_path

    def check_times(start: int, end: int, json_path: str) -> None:
        if start > end:
            problems.append((f"{json_path}.start_ms", f"start {start} ms is after end {end} ms"))
        if end > duration:
            problems.append((f"{json_path}.end_ms", f"{end} ms is past the end of the recording "
                                                    f"({duration} ms)"))
        elif start > duration:
            problems.append((f"{json_path}.start_ms", f"{start} ms is past the end of the recording "
                                                      f"({duration} ms)"))

    for index, moment in enumerate(record.moments):
        check_id(moment.id, f"$.moments[{index}].id")
        check_times(moment.start_ms, moment.end_ms, f"$.moments[{index}]")
    moment_ids = {m.id for m in record.moments}
    for index, item in enumerate(record.items):
        check_id(item.id, f"$.items[{index}].id")
        cited: set[str] = set()
        for ref_index, ref in enumerate(item.moment_ids):
            where = f"$.items[{index}].moment_ids[{ref_index}]"
            if ref not in moment_ids:
                problems.append((where, f"moment {ref} is not in this record's moments"))
            elif ref in cited:
                problems.append((where, f"moment {ref} is cited twice by the same item"))
            cited.add(ref)
    if record.transcript is not None:
        for index, segment in enumerate(record.transcript.segments):
            check_times(segment.start_ms, segment.end_ms, f"$.transcript.segments[{index}]")
    return problems
