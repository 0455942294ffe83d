"""Trackers through the real store, the real importer and the real detection pass's hook."""

from __future__ import annotations

import pytest

from desktop.core.trackers import TrackerError
from desktop.errors import NotFound
from desktop.services import trackers, transcripts

pytestmark = pytest.mark.both_stores  # the services on SQLite and on a team store (no FTS5 there: every line read)

DEFERRAL_LINE = 125551  # Casey: "... Just send me some information ..."


def _hit_rows(store, call_id):
    return store.reader().execute("SELECT id, tracker_id, start_ms, quote FROM tracker_hit WHERE call_id = ? "
                                  "ORDER BY id", (call_id,)).fetchall()


def test_an_imported_transcript_is_counted_for_the_shipped_trackers(store, two_calls):
    first, second = two_calls
    hits = trackers.tracker_hits(store, "Deferral")
    assert [(h.call_id, h.start_ms, h.speaker, h.role) for h in hits] == \
        [(first, DEFERRAL_LINE, "Casey", "customer"), (second, DEFERRAL_LINE, "Casey", "customer")]
    assert "send me some information" in hits[0].quote.lower()
    assert hits[0].to_json().keys() == {"call", "start_ms", "end_ms", "speaker", "role", "quote"}
    accepted = trackers.tracker_hits(store, "deferral_accepted", call_ids=[second])
    many = trackers.tracker_hits(store, "deferral_accepted", call_ids=[second, *range(10_000, 12_000)])
    assert many == accepted, "more call ids than one statement binds"
    assert [(h.call_id, h.role, h.quote) for h in accepted] == [(second, "rep", "Sure, I'll send that over today.")]
    counts = trackers.counts_by_call(store)
    deferral = trackers.get_tracker(store, "Deferral")
    assert counts[first][deferral.id] == 1 and counts[second][deferral.id] == 1


def test_editing_a_transcript_recounts_only_its_own_call(store, two_calls):
    first, second = two_calls
    other_before = _hit_rows(store, second)
    other_counted = trackers.counted_at(store, second)
    transcripts.edit_line(store, first, DEFERRAL_LINE, text="Great, let's book the pilot for Thursday at ten.")
    assert trackers.tracker_hits(store, "Deferral", call_ids=[first]) == []
    dated = trackers.tracker_hits(store, "Next step with a date", call_ids=[first])
    assert DEFERRAL_LINE in [h.start_ms for h in dated], "the edited line now counts as a dated next step"
    assert _hit_rows(store, second) == other_before, "the other call's rows were not touched"
    assert trackers.counted_at(store, second) == other_counted
    assert trackers.counted_at(store, first) > other_counted


def test_a_new_tracker_is_counted_over_the_library_with_progress_and_undone(store, two_calls):
    made = trackers.add(store, "Reporting pain", "customer", ["spreadsheet*", "week old"], ["not a week old"])
    row = made.row
    assert row.pending and trackers.tracker_hits(store, "Reporting pain") == []
    steps = list(trackers.recount_library(store))
    assert steps[-1].tracker == "Reporting pain" and steps[-1].done == steps[-1].total == 2
    hits = trackers.tracker_hits(store, "reporting pain")
    assert {h.call_id for h in hits} == set(two_calls) and all(h.role == "customer" for h in hits)
    assert not trackers.get_tracker(store, row.id).pending
    per_call = len(hits) // 2
    edited = trackers.edit(store, row.id, side="rep")
    assert trackers.get_tracker(store, row.id).pending, "what it finds changed: a recount is due"
    list(trackers.recount_library(store))
    rep_side = trackers.tracker_hits(store, "Reporting pain")
    assert [(h.start_ms, h.speaker, h.matched) for h in rep_side] == [(43926, "Riley", "week old")] * 2
    edited.undo(store)
    list(trackers.recount_library(store))
    assert len(trackers.tracker_hits(store, "Reporting pain")) == 2 * per_call
    made.undo(store)
    with pytest.raises(NotFound, match="Reporting pain"):
        trackers.tracker_hits(store, "Reporting pain")


def test_removing_a_tracker_takes_its_hits_and_undo_brings_it_back(store, two_calls):
    gone = trackers.remove(store, "Deferral")
    assert store.reader().execute("SELECT COUNT(*) FROM tracker_hit h JOIN tracker t ON t.id = h.tracker_id "
                                  "WHERE t.key = 'deferral'").fetchone()[0] == 0
    back = gone.undo(store)
    assert back.row.name == "Deferral" and back.row.id == gone.row.id
    trackers.ensure_counted(store)
    assert len(trackers.tracker_hits(store, "Deferral")) == 2


def test_hits_read_inside_a_session_for_other_services(store, two_calls):
    with store.read() as session:
        hits = trackers.tracker_hits(session, "Budget owner", call_ids=two_calls[:1])
    assert [(h.call_id, h.role, h.matched) for h in hits] == [(two_calls[0], "customer", "signs off")]


def test_trackers_answer_as_patterns_by_name_for_the_coaching_queue(store, two_calls):
    first, second = two_calls
    assert {"Deferral", "Budget owner"} <= trackers.pattern_names(store)
    found = trackers.pattern_hits(store, ["Deferral", "Deferral accepted"], [first])
    assert list(found) == [first]
    assert [(h.pattern, h.start_ms, h.speaker) for h in found[first]] == \
        [("Deferral", DEFERRAL_LINE, "Casey"), ("Deferral accepted", 132683, "Riley")]
    assert "send me some information" in found[first][0].quote.lower() and found[first][0].end_ms > DEFERRAL_LINE


def test_a_tracker_that_clashes_or_cannot_match_is_refused_and_nothing_written(store, two_calls):
    before = [t.name for t in trackers.list_trackers(store)]
    with pytest.raises(TrackerError, match="already a tracker 'Deferral'"):
        trackers.add(store, "deferral", "customer", ["later"])
    with pytest.raises(TrackerError, match="alone or at the end"):
        trackers.edit(store, "Pricing", phrases=["pr*ce"])
    assert [t.name for t in trackers.list_trackers(store)] == before
    assert trackers.get_tracker(store, "Pricing").phrases[0] == "pric*"


@pytest.mark.sqlite_only
def test_a_copied_library_keeps_the_coachs_trackers_and_counts_them_again(store, two_calls, tmp_path):
    from db.store import open_store
    from desktop.services.store_copy import copy_store

    trackers.add(store, "Reporting pain", "customer", ["spreadsheet*"])
    trackers.edit(store, "Pricing", phrases=["pric*", "how much", "budget*"])
    trackers.ensure_counted(store)
    target = open_store(tmp_path / "copy.sqlite3")
    try:
        copy_store(store, target)
        copied = {t.name: t for t in trackers.list_trackers(target)}
        assert set(copied) == {t.name for t in trackers.list_trackers(store)}
        assert copied["Pricing"].phrases == ("pric*", "how much", "budget*")
        assert all(t.pending for t in copied.values()), "its calls are new there: every tracker is counted again"
        trackers.ensure_counted(target)
        for name in ("Reporting pain", "Pricing", "Deferral"):
            assert [(h.start_ms, h.quote) for h in trackers.tracker_hits(target, name)] == \
                [(h.start_ms, h.quote) for h in trackers.tracker_hits(store, name)]
    finally:
        target.close()
