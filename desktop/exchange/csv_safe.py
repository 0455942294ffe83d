"""Write CSV files a spreadsheet can open without running anything in them.

A cell that starts with `=`, `+`, `-` or `@` (or a tab or carriage return,
which some spreadsheets skip before reading a formula) is a formula to Excel,
LibreOffice and Google Sheets. Callmark's CSVs carry what customers and reps
said, so every such text cell gets a leading apostrophe (OWASP's advice), which
the spreadsheet shows as plain text. Numbers passed as int/float stay numbers:
only text can smuggle a formula.
"""

from __future__ import annotations

import csv
import io
import os
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from datetime import date, datetime
from pathlib import Path
from typing import Any, TextIO

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def guard_cell(value: Any) -> str | int | float:
    """The cell as written: None -> "", dates ISO, risky text prefixed with `'`."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return value
    if isinstance(value, (date, datetime)):
        return value.isoformat()
    text = str(value)
    if text.startswith(FORMULA_STARTS):
        return "'" + text
    return text


def _row_cells(row: Sequence[Any] | Mapping[str, Any], header: Sequence[str]) -> list:
    if isinstance(row, Mapping):
        return [guard_cell(row.get(h)) for h in header]
    return [guard_cell(v) for v in row]


def _write(stream: TextIO, header: Sequence[str], rows: Iterable, delimiter: str) -> int:
    writer = csv.writer(stream, delimiter=delimiter, lineterminator="\r\n")
    writer.writerow([guard_cell(h) for h in header])
    count = 0
    for row in rows:
        cells = _row_cells(row, header)
        if len(cells) != len(header):
            raise ValueError(f"row {count + 1} has {len(cells)} cells for {len(header)} columns")
        writer.writerow(cells)
        count += 1
    return count


def write_csv(target: str | os.PathLike | TextIO, header: Sequence[str],
              rows: Iterable[Sequence[Any] | Mapping[str, Any]], *, delimiter: str = ",",
              excel_bom: bool = True) -> int:
    """Write `header` and `rows` (sequences, or mappings keyed by header), guarded.

    A path is written atomically (a temporary file renamed into place), as
    UTF-8 with a BOM unless `excel_bom=False` so Excel reads accents right. A
    text stream is written as is (open it with ``newline=""``). Returns the
    number of rows written.
    """
    if isinstance(target, (str, os.PathLike)):
        path = Path(target)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        try:
            with open(fd, "w", encoding="utf-8-sig" if excel_bom else "utf-8",
                      newline="") as fh:
                count = _write(fh, header, rows, delimiter)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        return count
    return _write(target, header, rows, delimiter)


def to_csv_text(header: Sequence[str], rows: Iterable, *, delimiter: str = ",") -> str:
    """The guarded CSV as a string (for the clipboard or tests)."""
    buf = io.StringIO(newline="")
    _write(buf, header, rows, delimiter)
    return buf.getvalue()
