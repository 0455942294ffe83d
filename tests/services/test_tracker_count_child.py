"""A tracker counted over a long library reads in a child process (desktop.services.library_pass):
the same hits, the same progress and the same store as a count read in the window's own process."""

from __future__ import annotations

import multiprocessing

import pytest

from desktop.errors import CallmarkError
from desktop.services import library_pass, trackers

HERE = 10**9  # child_from no library reaches: read in this process


def _found(store, name):
    return [(h.call_id, h.start_ms, h.end_ms, h.speaker, h.role, h.quote, h.matched)
            for h in trackers.tracker_hits(store, name)]


def test_the_child_finds_the_same_hits_as_the_window_s_process(store, two_calls):
    row = trackers.add(store, "Reporting pain", "customer", ["spreadsheet*", "week old"], ["not a week old"]).row
    here = list(trackers.recount_library(store, [row.id], child_from=HERE))
    counted_here = _found(store, "Reporting pain")
    assert counted_here and {h[0] for h in counted_here} == set(two_calls)

    sent = list(library_pass.count_in_child(store, row.id))
    assert sent == list(trackers.read_hits(store, row.id)), "the child's rows are the ones read here"
    assert not multiprocessing.active_children(), "the child is gone once its rows are in"

    again = list(trackers.recount_library(store, [row.id], child_from=1))
    assert again == here
    assert _found(store, "Reporting pain") == counted_here, "written once, not doubled"
    assert not trackers.get_tracker(store, row.id).pending


def test_a_tracker_removed_before_the_child_reads_it_is_one_line_of_error(store, two_calls):
    gone = trackers.add(store, "Reporting pain", "customer", ["spreadsheet*"]).row
    trackers.remove(store, gone.id)
    with pytest.raises(CallmarkError, match=rf"{store.path.name}: tracker {gone.id} not counted: .*no such tracker"):
        list(library_pass.count_in_child(store, gone.id))
    assert not multiprocessing.active_children()
