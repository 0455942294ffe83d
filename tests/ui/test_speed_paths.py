"""The fast paths behind opening a call: plain queries, kept copies, deferred work."""

from __future__ import annotations

import sys

from desktop.services import calls, moments, transcripts
from desktop.services.transcripts import SegmentRow


def test_void_qt_calls_do_not_use_up_none():
    """PySide6 6.12.0 took a reference from None on every void call (pyproject excludes it): a long
    session painting the waveform aborted with "deallocating None". Fails on any version that does it."""
    from PySide6.QtGui import QColor

    colour = QColor("#123456")
    before = sys.getrefcount(None)
    for _ in range(20000):  # more than None's whole count at start-up on Python 3.11
        colour.setAlpha(7)
    assert colour.alpha() == 7
    assert sys.getrefcount(None) >= before


def test_the_plain_transcript_query_keeps_words_speaker_names_and_order(store, tone):
    call, _ = calls.add_call(store, tone)
    words = [{"text": "hello", "start_ms": 0, "end_ms": 400}, {"text": "there", "start_ms": 400, "end_ms": 900}]
    transcripts.save_transcript(store, call.id, [
        SegmentRow(1000, 1900, "SPEAKER_01", "later line"),
        SegmentRow(0, 900, "SPEAKER_00", "hello there", words),
    ], origin="import")
    transcripts.rename_speaker(store, call.id, "SPEAKER_00", "Riley")
    got = transcripts.current_transcript(store, call.id)
    assert [(s.start_ms, s.speaker, s.text, s.words) for s in got.segments] == [
        (0, "Riley", "hello there", words), (1000, "SPEAKER_01", "later line", None)]
    assert all(s.id for s in got.segments)
    assert transcripts.current_transcript_id(store, call.id) == got.id
    edited = transcripts.edit_segment(store, call.id, 1000, text="a later line")
    assert transcripts.current_transcript_id(store, call.id) == edited.id != got.id


def test_listed_moments_match_one_by_one_reads(store, tone):
    call, _ = calls.add_call(store, tone)
    for start in (2000, 500, 1000):
        moments.add_moment(store, call.id, start, start + 300, kind="question", note=f"at {start}")
    listed = moments.list_moments(store, call.id)
    assert [m.start_ms for m in listed] == [500, 1000, 2000]
    assert listed == [moments.get_moment(store, m.id) for m in listed]
    assert listed[0].coach and listed[0].created_at.endswith("Z")
