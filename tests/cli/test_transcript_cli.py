"""`callmark transcript import|export|speakers|rename-speaker|set-rep|versions|restore`."""

from __future__ import annotations

import json

import pytest

from tests.conftest import run_cli
from tests.services.test_transcript_io import BROKEN_SRT
from tests.transcription.test_subtitles import BROKEN_VTT, TEAMS_VTT, ZOOM_VTT


@pytest.fixture
def home(isolated_home, demo_media):
    run_cli("calls", "add", str(demo_media), "--title", "Acme discovery", home=isolated_home, check=True)
    return isolated_home


def test_teams_vtt_import_gives_the_exact_cue_count(home, tmp_path):
    path = tmp_path / "teams.vtt"
    path.write_text(TEAMS_VTT, encoding="utf-8")
    out = run_cli("transcript", "import", "1", str(path), "--json", home=home, check=True)
    summary = json.loads(out.stdout)
    assert (summary["cue_count"], summary["imported"], summary["skipped"]) == (4, 4, [])
    assert summary["speakers"] == ["Doe, Jane [EXT]", "Riley Rep"]
    plain = run_cli("transcript", "import", "Acme discovery", str(path), home=home, check=True)
    assert "imported 4 of 4 cues" in plain.stdout


@pytest.mark.parametrize("encoding", ["utf-8-sig", "utf-16", "cp1252"])
def test_each_encoding_imports(home, tmp_path, encoding):
    path = tmp_path / "zoom.vtt"
    path.write_bytes(ZOOM_VTT.replace("Casey Customer", "Casey Café").encode(encoding))
    run_cli("transcript", "import", "1", str(path), home=home, check=True)
    text = run_cli("transcript", "export", "1", "--format", "txt", home=home, check=True).stdout
    assert "[00:06] Casey Café: Sure." in text


def test_broken_cues_are_named_by_line_and_nothing_written(home, tmp_path):
    path = tmp_path / "broken.srt"
    path.write_text(BROKEN_SRT, encoding="utf-8")
    out = run_cli("transcript", "import", "1", str(path), home=home)
    assert out.returncode == 1
    assert f"{path}, line 6:" in out.stderr
    assert json.loads(run_cli("transcript", "versions", "1", "--json", home=home, check=True).stdout) == []
    kept = run_cli("transcript", "import", "1", str(path), "--keep-readable", home=home, check=True)
    assert "skipped" in kept.stderr and "imported 2 of 3" in kept.stdout


def test_vtt_blocks_the_specification_skips_are_reported_not_refused(home, tmp_path):
    path = tmp_path / "broken.vtt"
    path.write_text(BROKEN_VTT, encoding="utf-8")
    out = run_cli("transcript", "import", "1", str(path), "--json", home=home, check=True)
    summary = json.loads(out.stdout)
    assert (summary["cue_count"], summary["imported"], len(summary["skipped"])) == (6, 3, 3)
    assert summary["skipped"][0].startswith(f"{path}, line 7: cue timing not readable")


@pytest.mark.parametrize("fmt", ["srt", "vtt", "json"])
def test_export_to_a_file_reads_back_the_same(home, tmp_path, fmt):
    path = tmp_path / "zoom.vtt"
    path.write_text(ZOOM_VTT, encoding="utf-8")
    run_cli("transcript", "import", "1", str(path), home=home, check=True)
    first = run_cli("transcript", "export", "1", "--format", "txt", home=home, check=True).stdout
    out = tmp_path / f"again.{fmt}"
    run_cli("transcript", "export", "1", "-o", str(out), home=home, check=True)  # format from the suffix
    run_cli("transcript", "import", "1", str(out), home=home, check=True)
    assert run_cli("transcript", "export", "1", "--format", "txt", home=home, check=True).stdout == first


def test_export_into_a_missing_folder_is_one_line_and_no_file(home, tmp_path):
    path = tmp_path / "zoom.vtt"
    path.write_text(ZOOM_VTT, encoding="utf-8")
    run_cli("transcript", "import", "1", str(path), home=home, check=True)
    out = run_cli("transcript", "export", "1", "-o", str(tmp_path / "nope" / "t.srt"), home=home)
    assert out.returncode == 1 and "could not write the file" in out.stderr
    assert not (tmp_path / "nope").exists()


def test_rename_speaker_set_rep_versions_restore(home, tmp_path):
    path = tmp_path / "zoom.vtt"
    path.write_text(ZOOM_VTT, encoding="utf-8")
    run_cli("transcript", "import", "1", str(path), home=home, check=True)
    run_cli("transcript", "rename-speaker", "1", "Casey Customer", "Casey", home=home, check=True)
    run_cli("transcript", "set-rep", "1", "Riley Rep", home=home, check=True)
    speakers = json.loads(run_cli("transcript", "speakers", "1", "--json", home=home, check=True).stdout)
    assert {s["name"]: s["role"] for s in speakers} == {"Casey": None, "Riley Rep": "rep"}
    text = run_cli("transcript", "export", "1", home=home, check=True).stdout
    assert text.count("Casey:") == 2 and "Casey Customer" not in text
    run_cli("transcript", "import", "1", str(path), home=home, check=True)
    versions = json.loads(run_cli("transcript", "versions", "1", "--json", home=home, check=True).stdout)
    assert [v["current"] for v in versions] == [False, True]
    run_cli("transcript", "restore", "1", str(versions[0]["id"]), home=home, check=True)
    versions = json.loads(run_cli("transcript", "versions", "1", "--json", home=home, check=True).stdout)
    assert [v["current"] for v in versions] == [True, False]
    missing = run_cli("transcript", "set-rep", "1", "Nobody", home=home)
    assert missing.returncode == 1 and "no speaker 'Nobody'" in missing.stderr
