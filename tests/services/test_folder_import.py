"""A folder of recordings into the library: Zoom, Teams and dialer layouts, real files, a real store."""

from __future__ import annotations

import shutil
from datetime import datetime
from pathlib import Path

import pytest

from desktop.core.enums import CallSource
from desktop.services import calls, transcripts
from desktop.services.folder_import import FolderImport, FolderImportError, ImportEntry, ImportProgress
from desktop.services.recording_names import read_names
from tests.services import import_folders as layouts


@pytest.fixture(scope="module")
def sample(tmp_path_factory) -> Path:
    return layouts.make_all(tmp_path_factory.mktemp("recordings"))


def by_name(summary, name: str) -> ImportEntry:
    found = [e for e in summary.entries if Path(e.path).name == name]
    assert len(found) == 1, f"{name}: {[e.path for e in summary.entries]}"
    return found[0]


def test_names_say_title_date_and_source():
    zoom = read_names(Path("/x/2026-11-20 15.00.00 Discovery Acme/audio1234567890.m4a"))
    assert (zoom.source, zoom.title) == (CallSource.ZOOM, "Discovery Acme")
    gmt = read_names(Path("/x/GMT20261121-093000_Recording.m4a"))
    assert (gmt.source, gmt.recorded_at) == (CallSource.ZOOM, datetime(2026, 11, 21, 9, 30))
    teams = read_names(Path("/x/Discovery Initech-20261122_140000-Meeting Recording.mp4"))
    assert (teams.source, teams.title, teams.recorded_at) == (CallSource.TEAMS, "Discovery Initech",
                                                             datetime(2026, 11, 22, 14, 0))
    dialer = read_names(Path("/x/20261123-101500_outbound_5551234.wav"))
    assert (dialer.source, dialer.title, dialer.recorded_at) == (None, "Outbound 5551234",
                                                                 datetime(2026, 11, 23, 10, 15))
    assert read_names(Path("/x/20261399-250000_call.wav")).recorded_at is None  # not a real date


def test_a_zoom_teams_and_dialer_folder_comes_in_whole(store, sample):
    run = FolderImport(store, sample)
    events = list(run.events())
    summary = run.summary
    progress = [e for e in events if isinstance(e, ImportProgress)]
    assert progress[-1].done == progress[-1].total == len(summary.entries) == 8
    assert [e for e in events if isinstance(e, ImportEntry)] == summary.entries
    assert (len(summary.added), len(summary.skipped), len(summary.failed)) == (5, 2, 1)

    zoom = by_name(summary, "audio1234567890.m4a")
    call = calls.get_call(store, zoom.call_id)
    assert (call.title, call.source, call.recorded_at[:16]) == ("Discovery Acme", "zoom", "2026-11-20T15:00")
    lines = transcripts.current_transcript(store, call.id).segments
    assert call.transcript_status == "import" and lines[0].speaker == "Riley"
    assert lines[0].text.startswith("Hi Casey")

    kept = by_name(summary, "GMT20261121-093000_Recording_640x360.mp4")
    assert calls.get_call(store, kept.call_id).has_video
    dup = by_name(summary, "GMT20261121-093000_Recording.m4a")
    assert dup.outcome == "skipped" and "same Zoom meeting" not in (dup.reason or "") and "Zoom meeting" in dup.reason

    teams = calls.get_call(store, by_name(summary, layouts.TEAMS_FILE).call_id)
    assert (teams.title, teams.source, teams.transcript_status) == ("Discovery Initech", "teams", "import")
    speakers = {s.speaker for s in transcripts.current_transcript(store, teams.id).segments}
    assert speakers == {"Riley", "Casey"}

    dialer = calls.get_call(store, by_name(summary, layouts.DIALER_FILE).call_id)
    assert (dialer.source, dialer.channels, dialer.title) == ("dialer", 2, "Outbound 5551234")
    copy = by_name(summary, "20261123-101500_outbound_5551234 (1).ogg")
    assert copy.outcome == "skipped" and f"call {dialer.id} " in copy.reason
    broken = by_name(summary, "20261123-120000_outbound_broken.wav")
    assert broken.outcome == "failed" and "can't be read" in broken.reason

    again = FolderImport(store, sample).run()  # the same folder twice: nothing new, each said why
    assert len(again.added) == 0 and len(again.failed) == 1
    assert all("already in the library" in e.reason for e in again.skipped if "Zoom" not in e.reason)
    assert len(calls.list_calls(store)) == 5


def test_dry_run_writes_nothing(store, sample):
    summary = FolderImport(store, sample, dry_run=True).run()
    assert len(summary.added) == 5 and summary.counts().startswith("would add 5")
    assert calls.list_calls(store) == []


def test_a_recording_already_added_one_by_one_is_skipped(store, sample, tmp_path):
    folder = tmp_path / "night"
    folder.mkdir()
    shutil.copyfile(layouts.DEMO, folder / "20261124-090000_outbound.ogg")
    row, _ = calls.add_call(store, layouts.DEMO, title="Demo")
    summary = FolderImport(store, folder).run()
    assert [e.outcome for e in summary.entries] == ["skipped"]
    assert f"call {row.id} (Demo)" in summary.entries[0].reason


def test_a_bad_transcript_beside_a_good_recording_adds_the_call_and_says_so(store, tmp_path):
    folder = tmp_path / "one"
    folder.mkdir()
    layouts.write_samples(folder / "call.wav", layouts.tone(2, 8000, 440)[None, :], 8000, "wav", "pcm_s16le")
    (folder / "call.vtt").write_text("WEBVTT\n\n00:00:01.000 --> nonsense\nhello\n")
    summary = FolderImport(store, folder).run()
    entry = summary.entries[0]
    assert entry.outcome == "added" and entry.reason.startswith("added without its transcript")
    assert calls.get_call(store, entry.call_id).transcript_status == "none"


def test_stereo_lines_without_speakers_get_the_louder_channel(store, tmp_path):
    """A dialer folder with a speakerless transcript: rep on the left, customer on the right."""
    import numpy as np

    folder = tmp_path / "dialer"
    folder.mkdir()
    left = np.concatenate([layouts.tone(2, 8000, 440), np.zeros(16000, np.float32)])
    right = np.concatenate([np.zeros(16000, np.float32), layouts.tone(2, 8000, 660)])
    layouts.write_samples(folder / "20261125-100000_out.wav", np.stack([left, right]), 8000, "wav", "pcm_s16le")
    (folder / "20261125-100000_out.srt").write_text(
        "1\n00:00:00,200 --> 00:00:01,800\nHello there.\n\n2\n00:00:02,200 --> 00:00:03,800\nHi, go ahead.\n")
    entry = FolderImport(store, folder).run().entries[0]
    lines = transcripts.current_transcript(store, entry.call_id).segments
    assert [ln.speaker for ln in lines] == ["Rep", "Customer"]
    roles = {s["label"]: s["role"] for s in transcripts.speakers(store, entry.call_id)}
    assert roles == {"Rep": "rep", "Customer": "customer"}


def test_a_missing_folder_is_one_line(store, tmp_path):
    with pytest.raises(FolderImportError, match="no such folder"):
        FolderImport(store, tmp_path / "nowhere").run()
