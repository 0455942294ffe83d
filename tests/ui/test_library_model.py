"""The library's own sorting, filtering and page-at-a-time rows, on a real store with many calls."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from desktop.services import calls, rows
from desktop.ui.models.library_model import PAGE, LibraryModel
from tests.benchmarks.make_library import make_library


@pytest.fixture(scope="module")
def big(tmp_path_factory):
    from db.store import open_store
    from desktop import paths

    home = make_library(tmp_path_factory.mktemp("library"), calls=1_500, lines=2, moments=1)
    store = open_store(paths.store_path(home))
    yield store
    store.close()


def test_pages_sorting_and_filtering_match_the_store(qtbot, big):
    listed = rows.list_calls(big)
    model = LibraryModel()
    model.set_calls(listed)
    assert model.rowCount() == PAGE and model.canFetchMore() and model.shown_count() == 1_500
    assert [model.call_at(r).id for r in range(5)] == [c.id for c in listed[:5]]  # newest first, as listed
    while model.canFetchMore():
        model.fetchMore()
    assert model.rowCount() == 1_500

    model.sort(0, Qt.SortOrder.AscendingOrder)
    titles = [model.call_at(r).title.lower() for r in range(model.shown_count())]
    assert titles == sorted(titles) and model.rowCount() == PAGE  # back to one page after a re-sort
    model.sort(4, Qt.SortOrder.DescendingOrder)
    lengths = [model.call_at(r).duration_ms for r in range(model.shown_count())]
    assert lengths == sorted(lengths, reverse=True)

    model.set_text("Discovery ACME")
    expected = {c.id for c in listed if "discovery" in c.title.lower() and "acme" in c.title.lower()}
    assert {model.call_at(r).id for r in range(model.shown_count())} == expected and expected
    far = listed[-1].id
    model.set_text("")
    row = model.row_of(far)  # a call further down is handed to the view when asked for
    assert row is not None and row < model.rowCount() and model.call_at(row).id == far


def test_a_new_call_goes_where_the_order_puts_it(qtbot, store, tmp_path):
    from tests.conftest import make_tone

    model = LibraryModel()
    for n, when in enumerate(("2026-01-01T10:00", "2026-03-01T10:00")):
        calls.add_call(store, make_tone(tmp_path / f"{n}.wav", seconds=1 + n), title=f"Call {n}", recorded_at=when)
    model.set_calls(rows.list_calls(store))
    middle, _ = calls.add_call(store, make_tone(tmp_path / "m.wav", seconds=4), title="Middle",
                               recorded_at="2026-02-01T10:00")
    model.update_call(middle)
    assert [model.call_at(r).title for r in range(model.rowCount())] == ["Call 1", "Middle", "Call 0"]
    model.set_text("call")
    assert model.row_of(middle.id) is None and model.rowCount() == 2
    assert sorted(model.call_ids()) == sorted(c.id for c in rows.list_calls(store))
