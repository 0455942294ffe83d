"""`callmark media folders …` and `callmark media find`: two machines (two data folders) on one library.

The library is a shared SQLite file or a team store on the real PostgreSQL server.
"""

from __future__ import annotations

import json
import shutil

import pytest

from tests.conftest import make_tone, run_cli


@pytest.fixture(params=["sqlite", "postgresql"])
def library(request, tmp_path) -> str:
    if request.param == "postgresql":
        return request.getfixturevalue("pg_store_url")
    return str(tmp_path / "team" / "library.sqlite3")


def test_media_folders_list_add_remove(tmp_path):
    home = tmp_path / "laptop"
    folder = tmp_path / "Recordings"
    folder.mkdir()
    out = run_cli("--home", str(home), "media", "folders", "add", str(folder), "--json", check=True)
    assert json.loads(out.stdout)["media_folders"] == [str(folder)]
    assert run_cli("--home", str(home), "media", "folders", "list", check=True).stdout.splitlines() == [str(folder)]
    bad = run_cli("--home", str(home), "media", "folders", "add", str(tmp_path / "nowhere"))
    assert bad.returncode == 1 and bad.stderr.count("\n") == 1
    assert f"{tmp_path / 'nowhere'}: no such folder" in bad.stderr
    gone = run_cli("--home", str(home), "media", "folders", "remove", str(tmp_path / "other"))
    assert gone.returncode == 1 and "not one of this machine's media folders" in gone.stderr
    out = run_cli("--home", str(home), "media", "folders", "remove", str(folder), "--json", check=True)
    assert json.loads(out.stdout)["media_folders"] == []


def test_machine_b_finds_a_call_added_on_machine_a_by_hash(tmp_path, library):
    a, b = tmp_path / "laptop-a", tmp_path / "laptop-b"
    (tmp_path / "disk-a").mkdir()
    original = make_tone(tmp_path / "disk-a" / "pipeline.wav", seconds=1)
    added = run_cli("--home", str(a), "--store", library, "calls", "add", str(original), "--json", check=True)
    call = json.loads(added.stdout)
    folder_b = tmp_path / "disk-b" / "Recordings"
    folder_b.mkdir(parents=True)
    copy_b = folder_b / "renamed.wav"
    shutil.copy2(original, copy_b)
    original.unlink()  # A's disk: not reachable from B

    missing = run_cli("--home", str(b), "--store", library, "media", "find", str(call["id"]))
    assert missing.returncode == 1 and missing.stderr.count("\n") == 1
    assert f"it was at {original} on {call['media_machine']}" in missing.stderr
    run_cli("--home", str(b), "media", "folders", "add", str(folder_b), check=True)
    found = run_cli("--home", str(b), "--store", library, "media", "find", str(call["id"]), "--json", check=True)
    assert json.loads(found.stdout)["media_path"] == str(copy_b)
    listed = run_cli("--home", str(b), "--store", library, "calls", "list", "--json", check=True)
    assert [c["media_path"] for c in json.loads(listed.stdout)] == [str(copy_b)]
    on_a = run_cli("--home", str(a), "--store", library, "calls", "list", "--json", check=True)
    assert [c["media_path"] for c in json.loads(on_a.stdout)] == [str(original)]  # A's view is A's

    wrong = make_tone(folder_b / "pipeline.wav", seconds=2)
    refused = run_cli("--home", str(b), "--store", library, "calls", "relink", str(call["id"]), str(wrong))
    assert refused.returncode == 1 and f"{wrong}: is not the recording of call {call['id']}" in refused.stderr
