"""The VTT/SRT reader on each real-world shape, every encoding, and broken files."""

from __future__ import annotations

import json

import pytest

from desktop.transcription.segments import Segment
from desktop.transcription.subtitles import (
    TranscriptFileError,
    export_transcript,
    parse_subtitles,
    parse_time_ms,
    read_json_transcript,
    read_subtitles,
    to_txt,
)

ZOOM_VTT = """WEBVTT

1
00:00:00.500 --> 00:00:05.956
Riley Rep: Hi Casey, thanks for making time today.

2
00:00:06.120 --> 00:00:09.480
Casey Customer: Sure. We meet at 10:30 usually: mornings are easier.

3
00:00:09.900 --> 00:00:12.001
Just send me some information and I will take a look.

4
00:00:39.876 --> 00:00:44.610
Casey Customer: Just send me some information
and I will take a look.
"""

TEAMS_VTT = """WEBVTT

3c5e8a7d-4b1f-4f0e-9a1c-6d2b8e7f0a11/13-0
00:00:00.000 --> 00:00:05.320
<v Doe, Jane [EXT]>Thanks for joining, everyone.
Let's get started.</v>

3c5e8a7d-4b1f-4f0e-9a1c-6d2b8e7f0a11/14-0
00:00:05.320 --> 00:00:09.800
<v Riley Rep>Great to meet you, Jane.</v>

3c5e8a7d-4b1f-4f0e-9a1c-6d2b8e7f0a11/15-0
00:01:02.500 --> 00:01:07.040
<v Doe, Jane [EXT]>What would the rollout look like &amp; who owns it?</v>

3c5e8a7d-4b1f-4f0e-9a1c-6d2b8e7f0a11/16-0
01:00:00.000 --> 01:00:03.000
<v Riley Rep>One hour in.</v>
"""

SRT = """1
00:00:01,000 --> 00:00:04,250
Riley Rep: Who else will review the proposal?

2
00:00:04,500 --> 00:00:08,000
<i>Probably our CFO.</i>

3
00:00:08,100 --> 00:00:10,000
Casey Customer: And legal.
"""

BROKEN_VTT = """WEBVTT

1
00:00:01.000 --> 00:00:02.000
Riley Rep: Fine cue.

2
00:00:03.000 --> 00:0x:04.000
Casey Customer: Bad end time.

3
00:00:05.000 --> 00:00:04.000
Riley Rep: Ends before it starts.

4
00:00:06.000 --> 00:00:07.000

Riley Rep: stray text with no timing line

5
00:00:08.000 --> 00:00:09.000
Casey Customer: Last good cue.
"""


def test_zoom_vtt_speakers_split_on_first_colon() -> None:
    result = parse_subtitles(ZOOM_VTT)
    assert result.kind == "vtt"
    assert result.cue_count == 4
    assert result.problems == []
    assert [(s.start_ms, s.end_ms, s.speaker) for s in result.segments] == [
        (500, 5956, "Riley Rep"), (6120, 9480, "Casey Customer"), (9900, 12001, None),
        (39876, 44610, "Casey Customer")]
    assert result.segments[1].text == "Sure. We meet at 10:30 usually: mornings are easier."
    assert result.segments[2].text == "Just send me some information and I will take a look."
    assert result.segments[3].text == "Just send me some information and I will take a look."


def test_teams_vtt_voices_and_cue_ids() -> None:
    result = parse_subtitles(TEAMS_VTT)
    assert result.cue_count == 4
    assert result.problems == []
    assert [(s.start_ms, s.end_ms, s.speaker, s.text) for s in result.segments] == [
        (0, 5320, "Doe, Jane [EXT]", "Thanks for joining, everyone. Let's get started."),
        (5320, 9800, "Riley Rep", "Great to meet you, Jane."),
        (62500, 67040, "Doe, Jane [EXT]", "What would the rollout look like & who owns it?"),
        (3_600_000, 3_603_000, "Riley Rep", "One hour in."),
    ]


def test_srt_comma_millis_tags_and_speakers() -> None:
    result = parse_subtitles(SRT)
    assert result.kind == "srt"
    assert result.cue_count == 3
    assert [(s.start_ms, s.end_ms, s.speaker, s.text) for s in result.segments] == [
        (1000, 4250, "Riley Rep", "Who else will review the proposal?"),
        (4500, 8000, None, "Probably our CFO."),
        (8100, 10000, "Casey Customer", "And legal."),
    ]


def test_srt_cues_run_together_without_blank_lines_are_all_counted() -> None:
    text = "1\n00:00:01,000 --> 00:00:02,000\nOne.\n2\n00:00:03,000 --> 00:00:04,000\nTwo.\n"
    result = parse_subtitles(text)
    assert result.cue_count == 2
    assert [(s.start_ms, s.text) for s in result.segments] == [(1000, "One."), (3000, "Two.")]


def test_vtt_reads_as_the_specification_and_names_each_skipped_block() -> None:
    result = parse_subtitles(BROKEN_VTT, "call.vtt")
    # The specification keeps a cue ending before it starts, skips a block whose
    # timing does not parse, and a cue with no text has nothing to show.
    assert [(s.start_ms, s.end_ms, s.text) for s in result.segments] == [
        (1000, 2000, "Fine cue."), (5000, 4000, "Ends before it starts."), (8000, 9000, "Last good cue.")]
    assert result.problems == []
    assert [(p.line, p.reason.split(":")[0]) for p in result.skipped] == [
        (7, "cue timing not readable"),
        (16, "cue has no text; skipped"),
        (18, "text outside any cue (no timing line); block skipped"),
    ]
    assert "'00:00:03.000 --> 00:0x:04.000'" in result.skipped[0].reason
    assert result.cue_count == 6
    assert result.skipped_lines("call.vtt")[1] == "call.vtt, line 16: cue has no text; skipped"


def test_vtt_timings_the_specification_rejects_are_skipped_not_guessed() -> None:
    text = ("WEBVTT\n\n0:0:5.320 --> 0:0:9.800\nunpadded\n\n00:60:00.000 --> 01:00:01.000\nsixty minutes\n\n"
            "\x0b00:00:01.000 --> 00:00:02.000\nvertical tab\n\n-00:00:01.000 --> 00:00:02.000\nnegative\n\n"
            "00:00:03.000 --> 00:00:04.000\n<\n\n00:00:05.000 --> 00:00:06.000\n&nbsp;\n\n"
            "00:00:07.000 --> 00:00:08.000\nkept <<b>bold</b> <i>text\n")
    result = parse_subtitles(text, "call.vtt")
    assert [(s.start_ms, s.text) for s in result.segments] == [(7000, "kept bold text")]
    assert [p.line for p in result.skipped] == [3, 6, 9, 12, 15, 18]


def test_srt_cue_that_cannot_be_read_is_named_by_line() -> None:
    text = "1\n00:00:01,000 --> 00:00:02,000\nFine.\n\n2\n00:00:03,000 --> 00:0x:04,000\nBad.\n\n3\n00:00:05,000 --> 00:00:06,000\n\n"
    result = parse_subtitles(text, "call.srt")
    assert [s.text for s in result.segments] == ["Fine."]
    assert [(p.line, p.reason) for p in result.problems] == [
        (6, "cue timing not readable: unreadable time '00:0x:04,000'")]
    assert [(p.line, p.reason) for p in result.skipped] == [(10, "cue has no text; skipped")]


def test_nul_bytes_become_replacement_characters(tmp_path) -> None:
    path = tmp_path / "nul.vtt"
    path.write_bytes(b"WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nbad\x00byte\n")
    assert [s.text for s in read_subtitles(path).segments] == ["bad\ufffdbyte"]


def test_name_colon_is_a_speaker_only_in_a_meeting_transcript() -> None:
    film = ("1\n00:00:01,000 --> 00:00:02,000\nUne chose en sa faveur: elle a un magnifique\n\n"
            "2\n00:00:03,000 --> 00:00:04,000\nsourire.\n\n3\n00:00:05,000 --> 00:00:06,000\nMerci.\n")
    assert [(s.speaker, s.text) for s in parse_subtitles(film).segments][0] == (
        None, "Une chose en sa faveur: elle a un magnifique")
    meeting = ("WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nRiley Rep: Hi.\n\n"
               "00:00:03.000 --> 00:00:04.000\nCasey Customer: Hello.\n\n"
               "00:00:05.000 --> 00:00:06.000\nRiley Rep: Shall we start?\n\n"
               "00:00:07.000 --> 00:00:08.000\nand then\n")
    assert [s.speaker for s in parse_subtitles(meeting).segments] == [
        "Riley Rep", "Casey Customer", "Riley Rep", None]


def test_header_notes_and_styles_are_not_cues() -> None:
    text = ("WEBVTT - Zoom export\nKind: captions\n\nNOTE exported by Zoom\n\nSTYLE\n::cue { color: red }\n\n"
            "00:00:01.000 --> 00:00:02.000 align:start position:10%\nA: hello\n")
    result = parse_subtitles(text)
    assert result.cue_count == 1
    assert [(s.speaker, s.text) for s in result.segments] == [("A", "hello")]


@pytest.mark.parametrize("encoding, prefix", [
    ("utf-8", b""), ("utf-8", b"\xef\xbb\xbf"), ("utf-16", b""), ("utf-16-le", b""), ("cp1252", b""),
    ("utf-32", b""),
])
def test_each_encoding_reads_the_same(tmp_path, encoding: str, prefix: bytes) -> None:
    text = "WEBVTT\n\n00:00:01.000 --> 00:00:03.000\nJosé Müller: Ça va? Preço: 5€ — okay\n"
    path = tmp_path / "call.vtt"
    path.write_bytes(prefix + text.replace("\n", "\r\n").encode(encoding))
    result = read_subtitles(path)
    assert [(s.speaker, s.text) for s in result.segments] == [
        ("José Müller", "Ça va? Preço: 5€ — okay")]
    expected = {"utf-8": "utf-8-sig" if prefix else "utf-8"}.get(encoding, encoding)
    assert result.encoding == expected


def test_not_a_subtitle_file_names_file_and_line(tmp_path) -> None:
    path = tmp_path / "notes.vtt"
    path.write_text("\n\nMeeting notes\nCall Casey on Friday\n", encoding="utf-8")
    with pytest.raises(TranscriptFileError) as info:
        read_subtitles(path)
    assert str(info.value).startswith(f"{path}, line 3: not a WebVTT or SRT file")
    assert info.value.line == 3


def test_binary_and_empty_files_are_refused(tmp_path) -> None:
    binary = tmp_path / "call.mp4.vtt"
    binary.write_bytes(b"\x00\x00\x00\x18ftypmp42\x00\x00\x00\x00\x89\x00\x10")
    with pytest.raises(TranscriptFileError, match="binary data"):
        read_subtitles(binary)
    empty = tmp_path / "empty.srt"
    empty.write_bytes(b"")
    with pytest.raises(TranscriptFileError, match="empty.srt, line 1: the file is empty"):
        read_subtitles(empty)
    with pytest.raises(TranscriptFileError, match="missing.vtt: cannot read the file"):
        read_subtitles(tmp_path / "missing.vtt")


def test_undecodable_bytes_name_the_line(tmp_path) -> None:
    path = tmp_path / "bad.srt"
    # 0x81 is undefined in cp1252 and invalid UTF-8.
    path.write_bytes(b"1\n00:00:01,000 --> 00:00:02,000\nok\n\n2\n00:00:03,000 --> 00:00:04,000\nbad \x81\n")
    with pytest.raises(TranscriptFileError, match=r"bad.srt, line 7: cannot decode as cp1252 \(byte 0x81\)"):
        read_subtitles(path)


@pytest.mark.parametrize("text, ms", [
    ("00:00:05.320", 5320), ("0:0:5.320", 5320), ("05.5", None), ("01:02:03,4", 3723400),
    ("00:07.1", 7100), ("-0:0:1.000", 0), ("100:00:00.000", 360_000_000),
])
def test_time_shapes(text: str, ms: int | None) -> None:
    if ms is None:
        with pytest.raises(ValueError, match="unreadable time"):
            parse_time_ms(text)
    else:
        assert parse_time_ms(text) == ms


SEGMENTS = [
    Segment(500, 5956, "Riley Rep", "Hi Casey, thanks for making time today."),
    Segment(6000, 7000, None, "Note: no speaker known & <angle> brackets --> here"),
    Segment(3_725_000, 3_726_500, "Doe, Jane [EXT]", "Later: much later."),
]


@pytest.mark.parametrize("fmt", ["vtt", "srt"])
def test_exports_round_trip_through_the_reader(fmt: str) -> None:
    text = export_transcript(SEGMENTS, fmt)
    result = parse_subtitles(text)
    assert result.problems == []
    assert result.segments == SEGMENTS
    if fmt == "vtt":
        assert "<v Riley Rep>Hi Casey" in text


def test_json_export_round_trips(tmp_path) -> None:
    path = tmp_path / "t.json"
    path.write_text(export_transcript(SEGMENTS, "json"), encoding="utf-8")
    assert json.loads(path.read_text())["segments"][0] == {
        "start_ms": 500, "end_ms": 5956, "speaker": "Riley Rep",
        "text": "Hi Casey, thanks for making time today."}
    assert read_json_transcript(path) == SEGMENTS


def test_txt_export_has_times_and_speakers() -> None:
    assert to_txt(SEGMENTS).splitlines() == [
        "[00:00] Riley Rep: Hi Casey, thanks for making time today.",
        "[00:06] Note: no speaker known & <angle> brackets --> here",
        "[1:02:05] Doe, Jane [EXT]: Later: much later.",
    ]


def test_unknown_export_format_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown export format 'docx'"):
        export_transcript(SEGMENTS, "docx")
