"""Library search over the real FTS5 index: every word, prefix on the last, current versions only."""

from __future__ import annotations

import pytest

from desktop.services import calls, search, transcripts
from desktop.services.transcripts import SegmentRow
from tests.conftest import make_tone


pytestmark = pytest.mark.both_stores

_LENGTHS = iter(range(1, 100))


def _call(store, tmp_path, name, lines):
    # a different length per call: the same recording twice would be the same call
    call, _ = calls.add_call(store, make_tone(tmp_path / f"{name}.wav", seconds=next(_LENGTHS) / 4), title=name)
    transcripts.save_transcript(store, call.id, [SegmentRow(s, e, who, text) for s, e, who, text in lines],
                                origin="import")
    return call.id


def test_every_word_must_appear_and_the_last_is_a_prefix(store, tmp_path):
    acme = _call(store, tmp_path, "Acme", [(0, 900, "Casey", "Just send me some information"),
                                          (1000, 1900, "Riley", "I will send the deck today")])
    hits = search.search(store, "send inform")
    assert [(h.call_id, h.start_ms, h.speaker) for h in hits] == [(acme, 0, "Casey")]
    assert hits[0].marked == "Just \x02send\x03 me some \x02information\x03"
    assert search.search(store, "   ") == [] and search.search(store, '"*') == []


def test_newest_call_first_and_each_call_in_spoken_order(store, tmp_path):
    older = _call(store, tmp_path, "Older", [(0, 900, None, "budget owner is Dana"),
                                            (2000, 2900, None, "the budget is approved")])
    newer = _call(store, tmp_path, "Newer", [(500, 900, None, "what budget do you have"),
                                            (100, 400, None, "budget first")])
    hits = search.search(store, "budget")
    assert [(h.call_id, h.start_ms) for h in hits] == [(newer, 100), (newer, 500), (older, 0), (older, 2000)]
    assert [h.to_json()["call_id"] for h in hits[:1]] == [newer]
    assert set(hits[0].to_json()) == {"call_id", "start_ms", "end_ms", "speaker", "text"}


def test_only_the_current_version_of_a_transcript_is_found(store, tmp_path):
    call = _call(store, tmp_path, "Edited", [(0, 900, None, "send me some informaton")])
    transcripts.edit_segment(store, call, 0, text="send me some information")
    hits = search.search(store, "information")
    assert len(hits) == 1 and hits[0].text == "send me some information"
    assert search.search(store, "informaton") == []  # the original version is kept, but not searched


def test_limit_holds(store, tmp_path):
    _call(store, tmp_path, "Many", [(i * 1000, i * 1000 + 900, None, f"next step number {i}") for i in range(30)])
    assert len(search.search(store, "next step", limit=10)) == 10
