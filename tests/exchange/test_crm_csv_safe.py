"""CSVs Callmark writes can't run formulas in a spreadsheet."""

from __future__ import annotations

import csv
import io
from datetime import date

import pytest

from desktop.exchange.csv_safe import guard_cell, to_csv_text, write_csv


@pytest.mark.parametrize("cell, written", [
    ("=HYPERLINK(\"http://x\",\"click\")", "'=HYPERLINK(\"http://x\",\"click\")"),
    ("+1 555 0100", "'+1 555 0100"),
    ("-2+3", "'-2+3"),
    ("@SUM(A1:A2)", "'@SUM(A1:A2)"),
    ("\t=1+1", "'\t=1+1"),
    ("\r=1+1", "'\r=1+1"),
    ("Send me some information", "Send me some information"),
    ("a=b", "a=b"),
    ("", ""),
    (None, ""),
    (-5, -5),
    (2.5, 2.5),
    (date(2026, 12, 14), "2026-12-14"),
])
def test_guard_cell(cell, written):
    assert guard_cell(cell) == written


def test_write_csv_to_a_path_reads_back_guarded(tmp_path):
    path = tmp_path / "items.csv"
    rows = [["Caf\u00e9 Noir", "=cmd|' /C calc'!A0", 3],
            {"account": "Acme", "next step": "-call back", "moments": 1}]
    count = write_csv(path, ["account", "next step", "moments"], rows)
    assert count == 2
    raw = path.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf") and b"\r\n" in raw
    with path.open(encoding="utf-8-sig", newline="") as fh:
        back = list(csv.reader(fh))
    assert back == [["account", "next step", "moments"],
                    ["Caf\u00e9 Noir", "'=cmd|' /C calc'!A0", "3"],
                    ["Acme", "'-call back", "1"]]
    assert [p.name for p in tmp_path.iterdir()] == ["items.csv"]


def test_write_csv_to_a_stream_and_headers_are_guarded_too():
    buf = io.StringIO(newline="")
    write_csv(buf, ["=title"], [["ok"]], excel_bom=False)
    assert buf.getvalue() == "'=title\r\nok\r\n"
    assert to_csv_text(["a", "b"], [["@x", "y,z"]], delimiter=";") == "a;b\r\n'@x;y,z\r\n"


def test_a_bad_row_leaves_no_file(tmp_path):
    path = tmp_path / "out.csv"
    with pytest.raises(ValueError, match="row 2 has 1 cells for 2 columns"):
        write_csv(path, ["a", "b"], [["1", "2"], ["3"]])
    assert list(tmp_path.iterdir()) == []
