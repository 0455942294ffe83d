"""Importing Zoom/Teams/SRT/JSON transcripts into a call, and exports that read back the same."""

from __future__ import annotations

import json

import pytest

from desktop.core.enums import TranscriptOrigin
from desktop.services import calls, transcripts
from desktop.services import transcript_io as io
from desktop.transcription.subtitles import TranscriptFileError
from tests.transcription.test_subtitles import BROKEN_VTT, SRT, TEAMS_VTT, ZOOM_VTT


pytestmark = pytest.mark.both_stores  # the services on SQLite and on a team store

@pytest.fixture
def call_id(store, demo_media) -> int:
    call, _ = calls.add_call(store, demo_media, title="Acme discovery", rep="Riley Rep")
    return call.id


def test_teams_vtt_imports_every_cue_with_speakers(store, call_id, tmp_path):
    path = tmp_path / "teams.vtt"
    path.write_text(TEAMS_VTT, encoding="utf-8")
    summary = io.import_transcript(store, call_id, path)
    assert (summary.cue_count, summary.imported, summary.skipped) == (4, 4, [])
    assert summary.speakers == ["Doe, Jane [EXT]", "Riley Rep"]
    current = transcripts.current_transcript(store, call_id)
    assert current.origin == TranscriptOrigin.IMPORT
    assert [(s.start_ms, s.end_ms) for s in current.segments] == [
        (0, 5320), (5320, 9800), (62500, 67040), (3_600_000, 3_603_000)]
    assert current.segments[2].text == "What would the rollout look like & who owns it?"
    assert calls.get_call(store, call_id).transcript_status == "import"


BROKEN_SRT = ("1\n00:00:01,000 --> 00:00:02,000\nFine.\n\n2\n00:00:03,000 --> 00:0x:04,000\nBad.\n\n"
              "3\n00:00:05,000 --> 00:00:06,000\nAlso fine.\n")


def test_skipped_vtt_blocks_are_named_in_the_summary(store, call_id, tmp_path):
    path = tmp_path / "broken.vtt"
    path.write_text(BROKEN_VTT, encoding="utf-8")
    summary = io.import_transcript(store, call_id, path)
    assert (summary.cue_count, summary.imported) == (6, 3)
    assert [line.split(": ", 1)[0] for line in summary.skipped] == [
        f"{path}, line 7", f"{path}, line 16", f"{path}, line 18"]
    assert [s.text for s in transcripts.current_transcript(store, call_id).segments] == [
        "Fine cue.", "Ends before it starts.", "Last good cue."]


def test_an_srt_with_unreadable_cues_is_refused_whole_naming_each_line(store, call_id, tmp_path):
    path = tmp_path / "broken.srt"
    path.write_text(BROKEN_SRT, encoding="utf-8")
    with pytest.raises(io.TranscriptImportError) as caught:
        io.import_transcript(store, call_id, path)
    message = str(caught.value)
    assert "1 of 3 cues could not be read; nothing was imported" in message
    assert f"{path}, line 6: cue timing not readable" in message
    assert transcripts.versions(store, call_id) == []
    # Asked to keep the readable cues: they are imported and the others listed.
    summary = io.import_transcript(store, call_id, path, keep_readable=True)
    assert summary.imported == len(transcripts.current_transcript(store, call_id).segments) == 2
    assert summary.skipped == [f"{path}, line 6: cue timing not readable: unreadable time '00:0x:04,000'"]


def test_not_a_transcript_is_refused_by_name(store, call_id, tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("hello", encoding="utf-8")
    with pytest.raises(io.TranscriptImportError, match=r"notes\.txt: not a transcript file"):
        io.import_transcript(store, call_id, path)
    bad = tmp_path / "bad.vtt"
    bad.write_text("hello there\n", encoding="utf-8")
    with pytest.raises(TranscriptFileError, match=r"bad\.vtt, line 1"):
        io.import_transcript(store, call_id, bad)
    assert transcripts.versions(store, call_id) == []


@pytest.mark.parametrize("fmt", ["srt", "vtt", "json"])
def test_exports_round_trip_through_the_importer(store, call_id, tmp_path, fmt):
    source = tmp_path / "zoom.vtt"
    source.write_text(ZOOM_VTT, encoding="utf-8")
    io.import_transcript(store, call_id, source)
    before = transcripts.current_transcript(store, call_id).segments
    out = io.export_to_file(store, call_id, fmt, tmp_path / f"out.{fmt}")
    assert not list(tmp_path.glob(".out*.part")), "no temporary file left behind"
    io.import_transcript(store, call_id, out)
    after = transcripts.current_transcript(store, call_id).segments
    assert [(s.start_ms, s.end_ms, s.speaker, s.text) for s in after] == \
        [(s.start_ms, s.end_ms, s.speaker, s.text) for s in before]
    assert len(transcripts.versions(store, call_id)) == 2


def test_json_export_keeps_words_and_txt_has_times_and_speakers(store, call_id):
    rows = [transcripts.SegmentRow(1500, 3000, "Riley Rep", "Hello there",
                                   [{"start_ms": 1500, "end_ms": 2000, "text": "Hello", "probability": 0.9},
                                    {"start_ms": 2100, "end_ms": 3000, "text": "there"}])]
    transcripts.save_transcript(store, call_id, rows, origin="whisper", model="tiny.en")
    data = json.loads(io.render_export(store, call_id, "json"))
    assert data == {"segments": [{"start_ms": 1500, "end_ms": 3000, "speaker": "Riley Rep", "text": "Hello there",
                                  "words": [{"start_ms": 1500, "end_ms": 2000, "text": "Hello", "probability": 0.9},
                                            {"start_ms": 2100, "end_ms": 3000, "text": "there"}]}]}
    assert io.render_export(store, call_id, "txt") == "[00:01] Riley Rep: Hello there\n"


def test_export_refuses_a_call_without_transcript_and_unknown_formats(store, call_id):
    with pytest.raises(io.CallmarkError, match="has no transcript to export"):
        io.render_export(store, call_id, "srt")
    with pytest.raises(io.CallmarkError, match="choose one of"):
        io.render_export(store, call_id, "csv")


def test_srt_import(store, call_id, tmp_path):
    path = tmp_path / "call.srt"
    path.write_text(SRT, encoding="utf-8")
    summary = io.import_transcript(store, call_id, path)
    assert (summary.cue_count, summary.imported) == (3, 3)
    assert [s.speaker for s in transcripts.current_transcript(store, call_id).segments] == \
        ["Riley Rep", None, "Casey Customer"]
