"""The pass over a long library in a child process: the same answers as in the window's process, written
to the real store here, and the child stopped when the pass is."""

from __future__ import annotations

import json
import multiprocessing
import subprocess

import pytest
from sqlalchemy import text

from desktop.errors import CallmarkError
from desktop.services import calls, suggestions, transcript_io, transcripts
from desktop.services.library_pass import paced
from desktop.services.suggestions import LibraryProgress
from desktop.transcription.segments import Segment
from tests.services.demo_script import write_script_vtt


@pytest.fixture
def library(store, demo_media, tmp_path):
    """The demo call plus two short calls whose transcripts were saved before the pass existed."""
    demo, _ = calls.add_call(store, demo_media, title="demo", rep="Riley Rep")
    transcript_io.import_transcript(store, demo.id, write_script_vtt(tmp_path / "acme.vtt"))
    ids = [demo.id]
    for n in range(2):
        media = tmp_path / f"other{n}.wav"
        subprocess.run(["sox", "-n", "-r", "16000", "-c", "1", str(media), "synth", "1", "sine", str(300 + n)],
                       check=True)
        call, _ = calls.add_call(store, media, title=f"short {n}", rep="Riley Rep")
        rows = [Segment(0, 1500, "Casey", "Just send me some information."),
                Segment(1600, 2900, "Riley Rep", "Sure, I'll send that over today.")]
        transcripts.save_transcript(store, call.id, rows, origin="import", suggest=False)
        ids.append(call.id)
    return ids


def _cache(store):
    return {row[0]: (row[1], json.loads(row[2]), json.loads(row[3])) for row in store.reader().execute(
        "SELECT call_id, fingerprint, findings, figures FROM suggestion_cache ORDER BY call_id")}


def test_the_child_reads_what_the_window_would_and_the_cache_is_written_here(store, library):
    demo, first, second = library
    progress = list(suggestions.refresh_library(store, child_from=1))
    assert [(p.done, p.total, p.call_id, p.ran) for p in progress] == [
        (1, 3, demo, False), (2, 3, first, True), (3, 3, second, True)]
    from_child = _cache(store)
    labels = {f["label"] for f in from_child[first][1]}
    assert {"deferral", "deferral_accepted"} <= labels, "the customer's 'send me some information' and the reply"
    # The same calls read again in this process give the very same cache rows.
    with store.write() as session:
        session.execute(text("DELETE FROM suggestion_cache WHERE call_id != :demo"), {"demo": demo})
    assert [p.ran for p in suggestions.refresh_library(store, child_from=10)] == [False, True, True]
    assert _cache(store) == from_child
    assert [p.ran for p in suggestions.refresh_library(store, child_from=1)] == [False, False, False]


def test_stopping_the_pass_stops_the_child(store, library):
    steps = suggestions.refresh_library(store, child_from=1)
    first = next(steps)
    assert first.done == 1 and multiprocessing.active_children(), "the child is reading"
    steps.close()  # what cancelling the task does at its next yield
    assert not [p for p in multiprocessing.active_children() if p.name == "callmark-suggestions"]


def test_a_coachs_phrase_file_with_a_typo_is_named_from_the_child(store, library, isolated_home):
    folder = isolated_home / "detect"
    folder.mkdir()
    (folder / "stalls.json").write_text(json.dumps({"deferal": ["ping me"]}), encoding="utf-8")
    with pytest.raises(CallmarkError, match=r"stalls\.json: no phrase list 'deferal'"):
        list(suggestions.refresh_library(store, child_from=1))


def test_progress_reaches_the_window_at_most_ten_times_a_second_and_always_at_the_end():
    steps = [LibraryProgress(n, 1000, n, n % 2 == 0, 0) for n in range(1, 1001)]
    gen = paced(iter(steps), seconds=3600)
    shown = []
    try:
        while True:
            shown.append(next(gen))
    except StopIteration as stop:
        ran = stop.value
    assert [s.done for s in shown] == [1, 1000], "the first at once, then nothing for an hour, then the last"
    assert ran == 500, "every call read anew is counted, shown or not"


@pytest.mark.both_stores
def test_a_long_pass_on_a_team_store_reads_in_this_process(store, library):
    """A team store's connection is the server's: no child can open it, so the pass reads here, the same."""
    progress = list(suggestions.refresh_library(store, child_from=1))
    assert [p.done for p in progress] == [1, 2, 3] and progress[-1].total == 3
    assert set(_cache(store)) == set(library)
    assert {"deferral", "deferral_accepted"} <= {f["label"] for f in _cache(store)[library[1]][1]}
