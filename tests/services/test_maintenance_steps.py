"""`db check` and `db backup` on a big store go in steps with progress, and the coach's writes go on meanwhile."""

from __future__ import annotations

import sqlite3

from db.store import open_store, online_backup
from desktop.services import maintenance
from tests.services.test_damage import checkpoint, fill, leaf_pages, overwrite_pages


def test_the_check_goes_table_by_table_and_says_each_step(store, tone):
    fill(store, tone)
    steps = []
    report = maintenance.check(store, progress=lambda done, total, what: steps.append((done, total, what)))
    assert report.ok, report.problems
    assert [d for d, _t, _w in steps] == list(range(1, len(steps) + 1)) and steps[-1][0] == steps[-1][1]
    said = {w for _d, _t, w in steps}
    assert {"integrity: moment", "integrity: segment", "references: moment", "search: segment_fts"} <= said


def test_a_damaged_table_is_named_by_the_stepped_check(store, tone, tmp_path):
    fill(store, tone)
    path = store.path
    store.close()
    checkpoint(path)
    overwrite_pages(path, leaf_pages(path, "moment")[2:4], seed=5)
    damaged = open_store(path, check=False)
    try:
        report = maintenance.check(damaged)
    finally:
        damaged.close()
    assert not report.ok and any("integrity check" in p for p in report.problems), report.problems


def test_a_backup_shows_its_progress_and_finishes_while_the_store_is_written(store, tone, tmp_path):
    """Each step the coach writes again (another connection): SQLite would start the stepped copy over and
    over; after two restarts the rest is copied in one step, with every write so far in it."""
    call_id = fill(store, tone)
    seen = []
    writer = sqlite3.connect(store.path)

    def written_meanwhile(done: int, total: int) -> None:
        seen.append((done, total))
        writer.execute("UPDATE moment SET note = note || '.' WHERE call_id = ?", (call_id,))
        writer.commit()

    made = online_backup(store.path, tmp_path / "copy.sqlite3", progress=written_meanwhile, step_pages=8)
    writer.close()
    assert seen[-1][0] == seen[-1][1], seen
    copy = sqlite3.connect(made)
    try:
        assert copy.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        dots = copy.execute("SELECT min(length(note) - length(rtrim(note, '.'))) FROM moment").fetchone()[0]
    finally:
        copy.close()
    assert dots >= len(seen) - 1  # the writes made while it copied are in the copy
    quiet = []
    online_backup(store.path, tmp_path / "quiet.sqlite3", progress=lambda d, t: quiet.append(d), step_pages=8)
    assert len(quiet) > 3 and quiet == sorted(quiet), quiet  # nobody writing: straight through, step by step


def test_a_search_index_out_of_step_is_found_without_holding_the_store(store, tone):
    """The search index is read, not rebuilt (a write, which the coach's saves would wait for): lines spread
    over the store are looked up by their own words. Lines written behind the index's back are found out."""
    fill(store, tone)
    assert maintenance.check(store).search_index == "ok"
    con = sqlite3.connect(store.path)
    with con:
        con.execute("DROP TRIGGER moment_fts_update")  # as a broken upgrade could leave it
        con.execute("UPDATE moment SET note = 'zebracrossing quartzite', quote = ''")
    con.close()
    report = maintenance.check(store)
    assert not report.ok and "moment_fts" in report.search_index and "is not found by its word" in report.search_index
    steps = []
    full = maintenance.check(store, progress=lambda d, t, w: steps.append(w), full=True)
    assert "search, every entry: moment_fts" in steps and not full.ok
