"""Each export Callmark refuses: one message naming the file and the line."""

from __future__ import annotations

import re

import pytest

from desktop.errors import CallmarkError
from desktop.exchange.crm_csv import CrmImportError, parse_export

HEADER = "Opportunity ID,Opportunity Name,Stage,Close Date\n"


def refuse(path, **kwargs) -> str:
    with pytest.raises(CrmImportError) as info:
        parse_export(path, **kwargs)
    message = str(info.value)
    assert message.startswith(str(path) + ": ")
    assert "\n" not in message
    return message


def write(tmp_path, name, data):
    path = tmp_path / name
    path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
    return path


def test_no_id_column_lists_the_headers_found(tmp_path):
    path = write(tmp_path, "no-id.csv", "Name,Stage,Amount\nAcme,Discovery,100\n")
    message = refuse(path)
    assert "line 1: no recognisable opportunity id column" in message
    assert "headers found: 'Name', 'Stage', 'Amount'" in message
    assert "Opportunity ID" in message and "Record ID" in message


def test_duplicate_ids_name_both_lines(tmp_path):
    path = write(tmp_path, "dup.csv", HEADER + "006A,Acme,Discovery,2026-12-14\n"
                 "006B,Globex,Discovery,2026-12-14\n006A,Acme again,Proposal,2026-12-15\n")
    assert refuse(path).endswith("opportunity id 006A appears twice, on line 2 and line 4")


def test_quote_never_closed_names_the_line_it_opened(tmp_path):
    path = write(tmp_path, "open.csv", HEADER + "006A,Acme,Discovery,2026-12-14\n"
                 '006B,"Globex,Discovery,2026-12-14\n006C,Initech,Discovery,2026-12-14\n')
    assert "line 3: a quoted field opened here is never closed" in refuse(path)


def test_text_after_a_closing_quote_is_broken_quoting(tmp_path):
    path = write(tmp_path, "quote.csv", HEADER + '006A,"Acme" Platform,Discovery,2026-12-14\n')
    message = refuse(path)
    assert "line 2: broken quoting" in message and "must be doubled" in message


def test_wrong_number_of_fields(tmp_path):
    path = write(tmp_path, "short.csv", HEADER + "006A,Acme,Discovery,2026-12-14\n"
                 "006B,Globex,Discovery\n")
    assert refuse(path).endswith("line 3: 3 fields where the header on line 1 has 4")


def test_empty_id_cell(tmp_path):
    path = write(tmp_path, "blank-id.csv", HEADER + " ,Acme,Discovery,2026-12-14\n")
    assert "line 2: the id column 'Opportunity ID' is empty" in refuse(path)


def test_over_the_size_limit_is_refused_before_reading(tmp_path):
    path = tmp_path / "huge.csv"
    with path.open("wb") as fh:
        fh.truncate(210 * 1024 * 1024)  # sparse: nothing is really written or read
    message = refuse(path)
    assert "210.0 MB, over the 200 MB limit" in message


def test_smaller_limit_on_request(tmp_path):
    path = write(tmp_path, "small.csv", HEADER + "006A,Acme,Discovery,2026-12-14\n")
    assert "over the 0 MB limit" in refuse(path, max_bytes=10)


@pytest.mark.parametrize("data, what", [
    (b"PK\x03\x04\x14\x00\x06\x00" + bytes(200), "an Excel workbook or zip archive"),
    (b"%PDF-1.7\n" + bytes(range(256)), "a PDF"),
    (bytes(range(256)) * 4, "binary data"),
])
def test_not_a_csv(tmp_path, data, what):
    message = refuse(write(tmp_path, "export.csv", data))
    assert what in message and "not a CSV file" in message


def test_bytes_neither_utf8_nor_cp1252(tmp_path):
    path = write(tmp_path, "odd.csv", HEADER.encode() + b"006A,Acme \x81\x8d,Discovery,x\n")
    assert "neither UTF-8, UTF-16 nor Windows-1252" in refuse(path)


def test_dates_that_disagree_on_order(tmp_path):
    path = write(tmp_path, "mixed.csv", HEADER + "006A,Acme,Discovery,14/12/2026\n"
                 "006B,Globex,Discovery,12/14/2026\n")
    message = refuse(path)
    assert re.search(r"line 2 has 14/12/2026 \(day/month\) and line 3 has 12/14/2026 "
                     r"\(month/day\)", message)


def test_forced_order_that_the_file_contradicts(tmp_path):
    path = write(tmp_path, "us.csv", HEADER + "006A,Acme,Discovery,14/12/2026\n")
    assert "line 2: column 'Close Date': '14/12/2026' is not a valid date (read as month/day)" \
        in refuse(path, day_first=False)


def test_a_data_row_after_the_report_footer(tmp_path):
    path = write(tmp_path, "footer.csv", HEADER + '006A,Acme,Discovery,2026-12-14\n""\n'
                 '"Copyright (c) 2000-2026 salesforce.com"\n006B,Globex,Discovery,2026-12-14\n')
    assert "line 5: a data row after the report footer that starts on line 4" in refuse(path)


def test_mapped_column_missing_and_unknown_field(tmp_path):
    path = write(tmp_path, "map.csv", HEADER + "006A,Acme,Discovery,2026-12-14\n")
    assert "the column 'Decision Date' mapped to next_step_date is not in the file" in refuse(
        path, columns={"next_step_date": "Decision Date"})
    assert "unknown field 'amount'" in refuse(path, columns={"amount": "Stage"})


def test_missing_and_empty_files(tmp_path):
    assert refuse(tmp_path / "gone.csv").endswith("no such file")
    assert refuse(write(tmp_path, "zero.csv", b"")).endswith("the file is empty")
    assert "no header row" in refuse(write(tmp_path, "blank.csv", "\ufeff\r\n\r\n"))


def test_the_cli_can_catch_it_as_a_callmark_error(tmp_path):
    with pytest.raises(CallmarkError):
        parse_export(tmp_path / "gone.csv")


def test_ids_rounded_by_a_spreadsheet(tmp_path):
    path = write(tmp_path, "rounded.csv", "Record ID,Deal Name\n1.23457E+11,Acme\n")
    assert "line 2: the id 1.23457E+11 was rounded by a spreadsheet" in refuse(path)


def test_the_same_salesforce_id_in_15_and_18_characters_is_a_duplicate(tmp_path):
    path = write(tmp_path, "both.csv", "Id,Name\n0065g00000XyZ1A,Acme\n0065g00000XyZ1AAAV,Acme\n")
    assert refuse(path).endswith("id 0065g00000XyZ1AAAV appears twice, on line 2 and line 3")


def test_a_nul_byte_past_the_start_is_binary(tmp_path):
    rows = "".join(f"006{i:012d},Acme {i},Discovery,2026-12-14\n" for i in range(3000))
    path = write(tmp_path, "late.csv", (HEADER + rows).encode() + b"006X,\x00\x01,Stage,x\n")
    assert "line 3002: column 'Opportunity Name' holds binary data (a NUL byte)" in refuse(path)


def test_nul_bytes_in_a_column_never_read_do_not_refuse_the_file(tmp_path):
    header = "Opportunity ID,Opportunity Name,ClosingPlan__c,Close Date\n"
    # As in a real org backup: a few stray NULs inside a rich-text column.
    rows = "".join(f'006{i:012d},Acme {i},"<p>plan{chr(0) if i % 10 == 0 else ""}</p>",2026-12-14\n'
                   for i in range(40))
    parsed = parse_export(write(tmp_path, "backup.csv", (header + rows).encode("cp1252")))
    assert len(parsed.rows) == 40 and parsed.rows[0].name == "Acme 0"
    bad = write(tmp_path, "bad.csv", header + "006A,Ac\x00me,plan,2026-12-14\n")
    assert "line 2: column 'Opportunity Name' holds binary data (a NUL byte)" in refuse(bad)
