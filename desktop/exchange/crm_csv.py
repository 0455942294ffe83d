"""Read a Salesforce or HubSpot opportunity export (CSV) into plain rows.

Nothing here touches the store or the network: `parse_export` either returns a
whole `ParsedExport` or raises `CrmImportError` with one message naming the
file and the line, so an import is all-or-nothing.

Encodings: UTF-8 with or without BOM, UTF-16 with BOM (Excel's "Unicode text",
usually tab-separated) or without it, and Windows-1252 as the fallback when the
bytes are not UTF-8. The delimiter (`,` `;` tab `|`) is the one that makes the
first row split into the most known CRM headers.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path

from desktop.core import opportunity
from desktop.core.enums import Crm
from desktop.core.opportunity import OpportunityFields
from desktop.errors import CallmarkError
from desktop.exchange.crm_dates import (DateFormatError, date_order_hint, parse_crm_date,
                                        parse_crm_timestamp)
from desktop.exchange.crm_headers import (DATE_FIELDS, EXCEL_MANGLED_ID, HeaderError,
                                          count_known_headers, match_columns,
                                          normalize_external_id)

MAX_EXPORT_BYTES = 200 * 1024 * 1024
_SNIFF_BYTES = 64 * 1024
_DELIMITERS = (",", "\t", ";", "|")
_BINARY_MAGIC = {
    b"PK\x03\x04": "an Excel workbook or zip archive",
    b"\xd0\xcf\x11\xe0": "an old Excel (.xls) workbook",
    b"%PDF": "a PDF",
    b"\x89PNG": "a PNG image",
    b"SQLite format 3": "a SQLite database",
}


class CrmImportError(CallmarkError, ValueError):
    """A CRM export Callmark refuses; the message names the file and the line."""


@dataclass(frozen=True)
class OpportunityRow(OpportunityFields):
    """One opportunity as the export states it: its id, the declared fields (None = empty cell or
    no such column), its line, and when the CRM last changed it."""

    external_id: str
    line: int
    last_modified: datetime | None = None


@dataclass
class ParsedExport:
    crm: Crm
    rows: list[OpportunityRow]
    warnings: list[str] = field(default_factory=list)
    source: str = ""
    #: field -> header as spelled in the file; fields absent here were not exported
    columns: dict[str, str] = field(default_factory=dict)
    encoding: str = "utf-8"
    delimiter: str = ","
    #: the date order used for slashed dates (None: the file had none)
    day_first: bool | None = None
    #: why that order: "line 4: 31-1-2019 can only be day/month", "the coach chose it"...
    day_first_reason: str = ""
    #: (line, cell, date as read) of close dates whose order was a choice, for the preview
    ambiguous_dates: list[tuple[int, str, date]] = field(default_factory=list)
    #: True when some Last Modified Date has no offset (read in the import's time zone)
    naive_times: bool = False


class _WrongEncoding(Exception):
    pass


def _sniff_encoding(head: bytes, source: str) -> str:
    for magic, what in _BINARY_MAGIC.items():
        if head.startswith(magic):
            raise CrmImportError(f"{source}: this is {what}, not a CSV file; "
                                 "save or export it as CSV first")
    if head.startswith(b"\xef\xbb\xbf"):
        return "utf-8-sig"
    if head.startswith((b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff")):
        return "utf-32"
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        return "utf-16"
    if b"\x00" in head:
        # UTF-16 without a BOM: text of mostly ASCII has a zero in every other byte.
        even = head[0::2].count(0)
        odd = head[1::2].count(0)
        pairs = len(head) // 2 or 1
        if odd > 0.3 * pairs and even < 0.05 * pairs:
            return "utf-16-le"
        if even > 0.3 * pairs and odd < 0.05 * pairs:
            return "utf-16-be"
        # A few NULs in text are a rich-text field's stray bytes (real org backups
        # have them); binary data has them everywhere.
        controls = sum(1 for b in head if b < 0x20 and b not in b"\t\r\n\f\v")
        if controls > max(8, len(head) // 100):
            raise CrmImportError(f"{source}: this is binary data, not a CSV file")
    return "utf-8"


def _check_text(sample: str, source: str) -> None:
    controls = sum(1 for ch in sample if ch < " " and ch not in "\t\r\n\f\v")
    if controls > max(8, len(sample) // 100):
        raise CrmImportError(f"{source}: this is binary data, not a CSV file")


def _pick_delimiter(sample: str) -> str:
    best, best_key = ",", (-1, -1)
    for d in _DELIMITERS:
        try:
            first = next(csv.reader(io.StringIO(sample), delimiter=d), [])
        except csv.Error:
            continue
        key = (count_known_headers(first), len(first))
        if key > best_key:
            best, best_key = d, key
    return best


def parse_export(path: str | Path, *, crm: Crm | str | None = None,
                 columns: Mapping[str, str] | None = None, day_first: bool | None = None,
                 max_bytes: int = MAX_EXPORT_BYTES) -> ParsedExport:
    """Parse one opportunity export.

    crm: force Salesforce or HubSpot headers instead of detecting them.
    columns: field -> header for columns the built-in names don't cover, e.g.
        ``{"next_step_date": "Decision Call Date"}`` (the caller remembers it).
    day_first: order of slashed dates when the file doesn't prove it itself;
        None means month/day (US). True/False force the order.
    """
    path = Path(path)
    source = str(path)
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        raise CrmImportError(f"{source}: no such file") from None
    if path.is_dir():
        raise CrmImportError(f"{source}: is a folder, not a CSV file")
    if size > max_bytes:
        raise CrmImportError(f"{source}: the file is {size / 1048576:.1f} MB, over the "
                             f"{max_bytes / 1048576:.0f} MB limit for a CRM export; "
                             "export fewer rows or columns")
    if size == 0:
        raise CrmImportError(f"{source}: the file is empty")
    try:
        with path.open("rb") as fh:
            head = fh.read(_SNIFF_BYTES)
        encoding = _sniff_encoding(head, source)
        try:
            return _parse(path, source, encoding, crm, columns, day_first)
        except _WrongEncoding:
            if encoding != "utf-8":
                raise CrmImportError(f"{source}: the text is not valid {encoding}") from None
        try:
            parsed = _parse(path, source, "cp1252", crm, columns, day_first)
        except _WrongEncoding:
            raise CrmImportError(f"{source}: the text is neither UTF-8, UTF-16 nor "
                                 "Windows-1252; save the export as CSV UTF-8") from None
    except OSError as exc:
        raise CrmImportError(f"{source}: cannot read the file ({exc.strerror or exc})") from None
    parsed.warnings.insert(0, "the file is not UTF-8; read it as Windows-1252 (cp1252)")
    return parsed


def _parse(path: Path, source: str, encoding: str, crm, columns, day_first) -> ParsedExport:
    try:
        with path.open("r", encoding=encoding, newline="") as fh:
            sample = fh.read(_SNIFF_BYTES)
            _check_text(sample, source)
            hint = sample.lstrip("\ufeff")
            # Excel's "sep=;" first line names the delimiter and is not the header.
            has_hint = hint[:4].lower() == "sep=" and hint[5:6] in ("\r", "\n", "")
            delimiter = hint[4] if has_hint else _pick_delimiter(sample)
            fh.seek(0)
            if has_hint:
                fh.readline()
            parsed = _read_rows(fh, source, crm, columns, delimiter, day_first,
                                1 if has_hint else 0)
    except UnicodeError:
        raise _WrongEncoding from None
    parsed.encoding = encoding
    parsed.delimiter = delimiter
    return parsed


class _LineOffset:
    """A csv reader whose line numbers count lines consumed before it started."""

    def __init__(self, reader, offset: int):
        self._reader, self._offset = reader, offset

    @property
    def line_num(self) -> int:
        return self._reader.line_num + self._offset

    def __iter__(self):
        return self

    def __next__(self) -> list[str]:
        return next(self._reader)


def _next_record(reader, source: str) -> tuple[int, list[str]] | None:
    start = reader.line_num + 1
    try:
        return start, next(reader)
    except StopIteration:
        return None
    except csv.Error as exc:
        msg = str(exc)
        if "unexpected end of data" in msg:
            why = "a quoted field opened here is never closed"
        elif "field larger than field limit" in msg:
            why = "a field runs on for too long, probably a quote opened here that is never closed"
        else:
            why = f"broken quoting ({msg}; a quote inside a field must be doubled)"
        raise CrmImportError(f"{source}: line {start}: {why}") from None


def _read_rows(fh, source: str, crm, columns, delimiter: str, day_first,
               lines_skipped: int = 0) -> ParsedExport:
    reader = _LineOffset(csv.reader(fh, delimiter=delimiter, strict=True), lines_skipped)
    first = _next_record(reader, source)
    while first is not None and not any(c.strip() for c in first[1]):
        first = _next_record(reader, source)  # blank lines before the header
    if first is None:
        raise CrmImportError(f"{source}: no header row (the file has no text)")
    header_line, headers = first
    try:
        match = match_columns(headers, crm=crm, columns=columns)
    except HeaderError as exc:
        raise CrmImportError(f"{source}: line {header_line}: {exc}") from None
    width = len(headers)
    wanted = sorted(match.indexes.items(), key=lambda kv: kv[1])
    id_index = match.indexes["external_id"]
    raw: list[tuple[int, dict[str, str]]] = []
    first_line_of: dict[str, int] = {}
    warnings = list(match.warnings)
    blank_before = False
    footer_from: int | None = None
    while (rec := _next_record(reader, source)) is not None:
        line, cells = rec
        filled = [c for c in cells if c.strip()]
        if not filled:
            blank_before = True
            continue
        nul = next((f for f, i in wanted if i < len(cells) and "\x00" in cells[i]), None)
        if nul is not None:  # a column Callmark reads; NULs elsewhere are never read
            raise CrmImportError(f"{source}: line {line}: column {match.columns[nul]!r} holds "
                                 "binary data (a NUL byte), not text")
        if footer_from is not None:
            if len(filled) > 1:
                raise CrmImportError(f"{source}: line {line}: a data row after the report "
                                     f"footer that starts on line {footer_from}")
            continue
        if len(cells) > width and not any(c.strip() for c in cells[width:]):
            cells = cells[:width]  # trailing empty cells some spreadsheets add
        if len(cells) != width:
            if blank_before and len(filled) == 1 and width > 1:
                # Salesforce report exports end with a blank row, then one-cell
                # lines: company name, copyright, "Generated By: ...".
                footer_from = line
                warnings.append(f"ignored the report footer from line {line}")
                continue
            raise CrmImportError(f"{source}: line {line}: {len(cells)} fields where the header "
                                 f"on line {header_line} has {width}")
        ext_id = cells[id_index].strip()
        if not ext_id:
            raise CrmImportError(f"{source}: line {line}: the id column "
                                 f"{match.columns['external_id']!r} is empty")
        if EXCEL_MANGLED_ID.match(ext_id):
            raise CrmImportError(f"{source}: line {line}: the id {ext_id} was rounded by a "
                                 "spreadsheet; export again and import the file unopened")
        ext_id = normalize_external_id(match.crm, ext_id)
        if ext_id in first_line_of:
            raise CrmImportError(f"{source}: opportunity id {ext_id} appears twice, on line "
                                 f"{first_line_of[ext_id]} and line {line}")
        first_line_of[ext_id] = line
        values = {f: cells[i].strip() for f, i in wanted}
        values["external_id"] = ext_id
        raw.append((line, values))
    day_first, why, ambiguous = _decide_day_first(raw, match, source, day_first, warnings)
    names = match.columns
    rows = [_to_row(line, values, names, source, day_first) for line, values in raw]
    if not rows:
        warnings.append("the export has a header but no opportunities")
    if "next_step" not in names:
        warnings.append("this export has no Next step column: the next-step check can't tell "
                        "from it whether a next step was recorded")
    if "last_modified" not in names:
        warnings.append("this export has no Last Modified Date column: each change is dated "
                        "by this import, so a change found after a call may predate it")
    by_line = {r.line: r for r in rows}
    samples = [(line, text, by_line[line].close_date) for line, text in ambiguous
               if by_line[line].close_date is not None]
    naive = any(r.last_modified is not None and r.last_modified.tzinfo is None for r in rows)
    return ParsedExport(match.crm, rows, warnings, source, match.columns, day_first=day_first,
                        day_first_reason=why, ambiguous_dates=samples, naive_times=naive)


def _decide_day_first(raw, match, source, day_first, warnings):
    """(day_first, why, [(line, close-date cell)] whose reading depends on the order)."""
    dated = [f for f in DATE_FIELDS if f in match.indexes]
    proof: dict[bool, tuple[int, str]] = {}
    ambiguous = None
    dashed = None  # d-m-yyyy with both parts 12 or less: how day-first locales write dates
    samples: list[tuple[int, str]] = []
    for line, values in raw:
        for f in dated:
            v = values[f]
            if not v or v[:4].isdigit():
                continue
            hint = date_order_hint(v)
            if hint is None:
                ambiguous = ambiguous or (line, v)
                if dashed is None and _is_dashed(v):
                    dashed = (line, v)
                if f == "close_date" and len(samples) < 5:
                    samples.append((line, v))
            else:
                proof.setdefault(hint, (line, v))
    if True in proof and False in proof:
        (l1, v1), (l2, v2) = proof[True], proof[False]
        raise CrmImportError(f"{source}: dates disagree on their order: line {l1} has {v1} "
                             f"(day/month) and line {l2} has {v2} (month/day)")
    if day_first is not None:
        return day_first, "chosen at import", samples
    if proof:
        order = next(iter(proof))
        line, v = proof[order]
        return order, f"line {line}: {v} can only be {'day/month' if order else 'month/day'}", samples
    if dashed:
        return True, (f"line {dashed[0]}: {dashed[1]} is written with dashes, as day-first "
                      "locales write dates"), samples
    if ambiguous:
        warnings.append(f"dates such as {ambiguous[1]} (line {ambiguous[0]}) were read as "
                        "month/day (US); choose day/month if the export uses it")
        return False, "nothing in the file proves the order; month/day (US) is the default", samples
    return None, "", samples


def _is_dashed(text: str) -> bool:
    head = text.strip().split()[0] if text.strip() else ""
    return head.count("-") == 2 and "/" not in head


def _to_row(line: int, values: dict[str, str], columns: dict[str, str], source: str,
            day_first: bool | None) -> OpportunityRow:
    def text(f: str) -> str | None:
        return values.get(f) or None

    def when(f: str, parse):
        v = values.get(f)
        if not v:
            return None
        try:
            return parse(v, day_first=bool(day_first))
        except DateFormatError as exc:
            raise CrmImportError(f"{source}: line {line}: column {columns[f]!r}: {exc}") from None

    fields = {f: when(f, parse_crm_date) if f in opportunity.DATES else text(f) for f in opportunity.NAMES}
    return OpportunityRow(external_id=values["external_id"], line=line,
                          last_modified=when("last_modified", parse_crm_timestamp), **fields)
