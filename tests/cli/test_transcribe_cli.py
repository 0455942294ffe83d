"""`callmark transcribe`: the real command on the demo call, and one clear line for bad input."""

from __future__ import annotations

import json
import subprocess

import pytest

from tests.conftest import run_cli


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_transcribe_a_file_not_in_the_library_prints_segments(isolated_home, demo_media):
    # the whole demo call through Whisper: half a minute on two quiet cores, minutes when CI shares them
    out = run_cli("transcribe", str(demo_media), "--json", "--threads", "2", home=isolated_home, check=True,
                  timeout=600)
    data = json.loads(out.stdout)
    assert data["call_id"] == 1 and data["model"] == "tiny.en"
    segments = data["segments"]
    assert set(segments[0]) >= {"start_ms", "end_ms", "speaker", "text", "words"}
    text = " ".join(s["text"] for s in segments).lower()
    assert "send me some information" in text
    assert {"Rep", "Customer"} <= {s["speaker"] for s in segments}  # stereo: rep left, customer right
    listed = json.loads(run_cli("calls", "list", "--json", home=isolated_home, check=True).stdout)
    assert [c["transcript_status"] for c in listed] == ["whisper"]
    exported = run_cli("transcript", "export", "1", "--format", "json", home=isolated_home, check=True)
    assert [s["text"] for s in json.loads(exported.stdout)["segments"]] == [s["text"] for s in segments]


def test_an_undecodable_recording_is_one_line_naming_it_and_nothing_added(isolated_home, tmp_path):
    bad = tmp_path / "broken.mp3"
    bad.write_bytes(b"this is not audio at all" * 100)
    out = run_cli("transcribe", str(bad), home=isolated_home)
    assert out.returncode == 1
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and "broken.mp3" in lines[0] and lines[0].startswith("callmark: ")
    assert json.loads(run_cli("calls", "list", "--json", home=isolated_home, check=True).stdout) == []


def test_a_broken_model_folder_is_named_with_what_was_tried(isolated_home, demo_media, tmp_path):
    folder = tmp_path / "my-model"
    folder.mkdir()
    (folder / "model.bin").write_bytes(b"x")
    out = run_cli("transcribe", str(demo_media), "--model", str(folder), home=isolated_home)
    assert out.returncode == 1
    assert "No usable Whisper model" in out.stderr and str(folder) in out.stderr
    assert "Traceback" not in out.stderr


def test_an_unknown_call_and_a_model_name_without_network(isolated_home, demo_media):
    out = run_cli("transcribe", "42", home=isolated_home)
    assert out.returncode == 1 and "call '42'" in out.stderr or "call 42" in out.stderr
    run_cli("calls", "add", str(demo_media), home=isolated_home, check=True)
    out = run_cli("transcribe", "1", "--model", "large-v3", home=isolated_home)
    assert out.returncode == 1 and "network is not allowed" in out.stderr


@pytest.mark.slow
def test_a_silent_recording_is_refused_and_exit_is_not_zero(isolated_home, tmp_path):
    silent = tmp_path / "quiet.wav"
    subprocess.run(["sox", "-n", "-r", "16000", "-c", "1", str(silent), "trim", "0", "3"], check=True)
    out = run_cli("transcribe", str(silent), "--threads", "2", home=isolated_home)
    assert out.returncode == 1
    assert "quiet.wav: no speech found" in out.stderr
    versions = run_cli("transcript", "versions", "1", "--json", home=isolated_home, check=True)
    assert json.loads(versions.stdout) == []
