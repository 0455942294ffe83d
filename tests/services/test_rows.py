"""The one way calls, transcripts and moments are read (plain sqlite3), on real stores written through the ORM."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from db.models import Moment, Person
from desktop.core.enums import MomentKind, Role
from desktop.services import calls, moments, rows, transcripts
from desktop.services.transcripts import SegmentRow
from tests.conftest import make_tone

pytestmark = pytest.mark.both_stores  # the services on SQLite and on a team store

REPO = Path(__file__).resolve().parents[2]


def test_calls_read_from_the_store_as_the_library_shows_them(store, tmp_path):
    dated, _ = calls.add_call(store, make_tone(tmp_path / "a.wav", 4.0), title="Dated", rep="Riley Rep",
                              manager="Morgan Manager", recorded_at="2026-11-20T15:00:00Z", source="dialer")
    undated, _ = calls.add_call(store, make_tone(tmp_path / "b.wav", 5.0, channels=2), title="Undated")
    newer, _ = calls.add_call(store, make_tone(tmp_path / "c.wav", 6.0), title="Newer",
                              recorded_at="2026-11-25T09:30:00")
    transcripts.save_transcript(store, dated.id, [SegmentRow(0, 1000, "A", "hello there")], origin="whisper")
    transcripts.save_transcript(store, dated.id, [SegmentRow(0, 1000, "A", "hello again")], origin="import")
    moments.add_moment(store, dated.id, 100, 900, kind="question")
    moments.add_moment(store, dated.id, 1000, 1900, kind="answer")

    read = rows.get_call(store, dated.id)
    assert (read.title, read.rep, read.manager, read.source) == ("Dated", "Riley Rep", "Morgan Manager", "dialer")
    assert (read.transcript_status, read.moment_count, read.recorded_at) == ("import", 2, "2026-11-20T15:00:00")
    assert 3900 <= read.duration_ms <= 4100 and not read.has_video and read.channels == 1
    assert read.media_path == str(tmp_path / "a.wav") and len(read.media_sha256) == 64
    assert read.stored_path == read.media_path and read.media_machine  # where it was added, and on which machine
    two = rows.get_call(store, undated.id)
    assert (two.recorded_at, two.rep, two.manager, two.channels, two.transcript_status, two.moment_count) == (
        None, None, None, 2, "none", 0)
    assert rows.get_call(store, newer.id).recorded_at == "2026-11-25T09:30:00"
    # Newest recording first, calls without a date last; the list reads each call as get_call does.
    listed = rows.list_calls(store)
    assert [c.title for c in listed] == ["Newer", "Dated", "Undated"]
    assert listed == [rows.get_call(store, c.id) for c in (newer, dated, undated)]
    # The services hand out the same functions: one way to read a call or a moment.
    assert calls.get_call is rows.get_call and moments.list_moments is rows.list_moments
    assert moments.get_moment is rows.get_moment


def test_transcript_and_moments_read_plainly_keep_names_words_and_coaches(store, tmp_path):
    call, _ = calls.add_call(store, make_tone(tmp_path / "a.wav", 6.0), title="Call")
    words = [{"start_ms": 0, "end_ms": 400, "text": "Just"}, {"start_ms": 400, "end_ms": 900, "text": "send"}]
    transcripts.save_transcript(store, call.id, [SegmentRow(2000, 3000, "SPEAKER_1", "later line"),
                                                 SegmentRow(0, 900, "SPEAKER_0", "Just send", words)],
                                origin="whisper", model="tiny.en", language="en")
    transcripts.rename_speaker(store, call.id, "SPEAKER_0", "Riley")
    read = rows.current_transcript(store, call.id)
    assert (read.origin, read.model, read.language) == ("whisper", "tiny.en", "en")
    assert [(s.start_ms, s.speaker, s.text) for s in read.segments] == [(0, "Riley", "Just send"),
                                                                        (2000, "SPEAKER_1", "later line")]
    assert read.segments[0].words == words and read.segments[1].words is None
    assert rows.current_transcript_id(store, call.id) == read.id

    mine = moments.add_moment(store, call.id, 100, 800, kind="next_step", note="ask for a date")
    with store.write() as s:  # another coach's moment, imported for calibration
        other = Person(name="Other Coach", role=Role.COACH)
        s.add(other)
        s.flush()
        theirs = Moment(call_id=call.id, start_ms=50, end_ms=700, kind=MomentKind.NEXT_STEP, quote="", imported=True,
                        coach_id=other.id)
        s.add(theirs)
    assert [m.id for m in rows.list_moments(store, call.id)] == [mine.id]
    both = rows.list_moments(store, call.id, include_imported=True)
    assert [m.coach for m in both] == ["Other Coach", mine.coach]
    assert rows.list_moments(store, call.id, include_imported=True, coach="Other Coach")[0].start_ms == 50
    got = rows.list_moments(store, call.id)[0]
    assert (got.id, got.kind, got.start_ms, got.end_ms, got.note, got.speaker) == (
        mine.id, "next_step", 100, 800, "ask for a date", "Riley")
    assert got.created_at.endswith("Z") and got.quote == "Just send" and got.coach == mine.coach


@pytest.mark.sqlite_only  # the SQLite file's own start-up path
def test_a_store_opens_and_a_call_is_read_without_sqlalchemy(store, tmp_path):
    call, _ = calls.add_call(store, make_tone(tmp_path / "a.wav", 3.0), title="Call")
    path = store.path
    store.close()
    code = textwrap.dedent(f"""
        import sys
        from db.store import open_store
        from desktop.services import rows
        store = open_store({str(path)!r})
        call = rows.get_call(store, {call.id})
        rows.current_transcript(store, call.id); rows.list_moments(store, call.id)
        print(call.title, sorted(m for m in sys.modules if m.split('.')[0] in ('sqlalchemy', 'alembic')))
    """)
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "Call []"


def test_lines_read_from_the_store_are_like_any_line_and_read_their_words_when_asked(store, tmp_path):
    import dataclasses
    import json

    call, _ = calls.add_call(store, make_tone(tmp_path / "a.wav", 6.0), title="Call")
    words = [{"start_ms": 0, "end_ms": 400, "text": "Just", "probability": 0.9},
             {"start_ms": 400, "end_ms": 900, "text": "send.", "probability": 0.8}]
    written = [SegmentRow(0, 900, "A", "Just send.", words), SegmentRow(1000, 2000, "B", "No words here")]
    transcripts.save_transcript(store, call.id, written, origin="whisper")
    first, second = rows.current_transcript(store, call.id).segments
    # Not read while the call opens...
    assert not isinstance(first._words_json, str) and not isinstance(second._words_json, str)
    # ...then every line's words come in at once, as text until decoded...
    assert second.words is None
    assert json.loads(first._words_json) == words and second._words_json is None
    # ...and equal, either way round, to lines made in memory with the same values (ids aside).
    ids_aside = [dataclasses.replace(s, id=None) for s in (first, second)]
    assert ids_aside == written and written == ids_aside
    assert first.words == words and first._words_json is None  # decoded on first read
    assert first.to_record()["words"] == words
    changed = dataclasses.replace(first, text="Just send it.")
    assert changed.words == words and changed.text == "Just send it."
    first.words = None  # a corrected line drops its word times
    assert first.words is None and first.to_record().get("words") is None
    assert first != written[0]


def test_a_line_gets_its_words_after_the_workspace_let_it_go_and_after_the_store_closed(store, tmp_path):
    call, _ = calls.add_call(store, make_tone(tmp_path / "a.wav", 6.0), title="Call")
    words = [{"start_ms": 0, "end_ms": 400, "text": "Just", "probability": 0.9}]
    transcripts.save_transcript(store, call.id, [SegmentRow(0, 900, "A", "Just.", words),
                                                 SegmentRow(1000, 2000, "B", "Later.", words)], origin="whisper")
    lines = rows.current_transcript(store, call.id).segments
    kept = lines.pop(0)  # the list the transcript came in no longer holds this line
    store.close()
    assert kept.words == words and lines[0].words == words


@pytest.mark.sqlite_only  # the SQLite file's own start-up path
def test_opening_a_transcript_reads_its_lines_from_the_index_alone(store, tmp_path):
    """The lines' query touches no table row, so none of the word timings that make up most of one."""
    call, _ = calls.add_call(store, make_tone(tmp_path / "a.wav", 6.0), title="Call")
    transcripts.save_transcript(store, call.id, [SegmentRow(0, 900, "A", "Just.")], origin="whisper")
    seen = []
    con = store.reader()
    con.set_trace_callback(seen.append)
    try:
        rows.current_transcript(store, call.id)
    finally:
        con.set_trace_callback(None)
    query = next(q for q in seen if "FROM segment" in q)
    plan = " ".join(str(r[-1]) for r in con.execute("EXPLAIN QUERY PLAN " + query))
    assert "COVERING INDEX ix_segment_lines" in plan, plan
