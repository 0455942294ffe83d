"""`callmark record whoami|export|import` through the real command."""

from __future__ import annotations

import json

from desktop.exchange.record import load_record, write_record
from tests.conftest import run_cli
from tests.exchange.sample_records import encode, rich_plain, rich_record


def _setup_call(home, demo_media) -> None:
    run_cli("calls", "add", str(demo_media), "--manager", "Morgan Manager", "--rep", "Riley", home=home, check=True)
    run_cli("moments", "add", "1", "--at", "0:40", "--end", "0:44", "--kind", "missed_intervention",
            "--note", "Her email is casey@acme.example.com", home=home, check=True)


def test_export_then_import_into_another_library(tmp_path, demo_media):
    home, other = tmp_path / "a", tmp_path / "b"
    _setup_call(home, demo_media)
    refused = run_cli("record", "export", "1", home=home)
    assert refused.returncode == 1 and "no local coach yet" in refused.stderr
    run_cli("record", "whoami", "--name", "Dana Coach", "--email", "dana@example.com", home=home, check=True)
    assert run_cli("record", "whoami", home=home, check=True).stdout.strip() == "Dana Coach <dana@example.com>"

    out = tmp_path / "dana.callmark.json"
    result = run_cli("record", "export", "1", "-o", str(out), "--redact", "--json", home=home, check=True)
    report = json.loads(result.stdout)
    assert report["moments"] == 1 and report["redactions"][0]["kind"] == "email"
    record = load_record(out)
    assert record.moments[0].note == "Her email is [email]" and record.exported_by.name == "Dana Coach"

    first = json.loads(run_cli("record", "import", str(out), "--json", home=other, check=True).stdout)
    assert first["call_created"] and first["moments_added"] == 1 and first["hidden_for_blind_review"]
    again = json.loads(run_cli("record", "import", str(out), "--json", home=other, check=True).stdout)
    assert again["moments_added"] == 0 and again["moments_unchanged"] == 1
    # The media-less call is relinked when the coach adds the same recording.
    added = json.loads(run_cli("calls", "add", str(demo_media), "--json", home=other, check=True).stdout)
    assert added["id"] == first["call_id"] and added["media_path"]
    listed = json.loads(run_cli("calls", "list", "--json", home=other, check=True).stdout)
    assert len(listed) == 1


def test_a_bad_record_is_one_line_naming_file_and_path(tmp_path):
    obj = rich_plain()
    obj["moments"][0]["start_ms"] = -5
    path = tmp_path / "bad.callmark.json"
    path.write_bytes(encode(obj))
    result = run_cli("record", "import", str(path), home=tmp_path / "h")
    assert result.returncode == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and str(path) in lines[0] and "$.moments[0].start_ms" in lines[0]
    assert json.loads(run_cli("calls", "list", "--json", home=tmp_path / "h", check=True).stdout) == []


def test_import_prints_a_summary(tmp_path):
    path = tmp_path / "rich.callmark.json"
    write_record(path, rich_record())
    result = run_cli("record", "import", str(path), home=tmp_path / "h", check=True)
    assert "Dana Coach: 2 moments and 1 items added to new call without media" in result.stdout


def test_export_to_a_missing_folder_says_so_and_leaves_nothing(tmp_path, demo_media):
    home = tmp_path / "a"
    _setup_call(home, demo_media)
    run_cli("record", "whoami", "--name", "Dana Coach", home=home, check=True)
    target = tmp_path / "missing" / "x.callmark.json"
    result = run_cli("record", "export", "1", "-o", str(target), home=home)
    assert result.returncode == 1
    assert "could not write the file: the folder does not exist" in result.stderr
    assert not target.parent.exists()
