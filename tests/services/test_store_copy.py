"""Moving a library between a store file and a team store: counted, checksummed, never duplicated."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import func, select, text

from db.models import Base
from db.server import open_server_store
from db.store import open_store
from desktop.services import cycles, items, moments, search, transcripts
from desktop.services.store_copy import DERIVED, CopyError, copy_store
from tests.conftest import make_tone, run_cli
from tests.services.items_setup import INFO_LINE_MS, demo_call, mark, script_lines
from tests.store_dump import dump


def _library(store, tmp_path):
    """A coach's library: two calls (one transcript edited), moments, an item with evidence, a cycle."""
    call = demo_call(store)
    info = mark(store, call.id, INFO_LINE_MS)
    other = mark(store, call.id, script_lines()[2]["start_ms"], kind="question")
    item = items.create_item(store, [info.id], behavior_text="Ask who signs off before sending information")
    items.add_evidence(store, item.id, "note", "1:1 on Monday: agreed to try it", "2026-11-24")
    moments.update_moment(store, other.id, note="good open question")
    first = script_lines()[0]
    transcripts.edit_segment(store, call.id, first["start_ms"], text=first["text"] + " (edited)")
    from desktop.services import calls

    second, _ = calls.add_call(store, make_tone(tmp_path / "second.wav", 7.0), title="Renewal - Globex")
    moments.add_moment(store, second.id, 1000, 2000, kind="next_step", quote="we meet Tuesday")
    cycles.add_cycle(store, "Morgan Manager", "2026-11-02")
    return call, item


def _counts(store) -> dict[str, int]:
    with store.engine.connect() as conn:
        # The detection pass's cache is made again where it is read, not copied (store_copy.DERIVED).
        return {t.name: conn.execute(select(func.count()).select_from(t)).scalar() for t in Base.metadata.sorted_tables
                if t.name not in DERIVED}


def test_a_file_goes_to_the_team_store_and_back_whole(store, tmp_path, pg_store_url):
    call, item = _library(store, tmp_path)
    team = open_server_store(pg_store_url)
    back = open_store(tmp_path / "back.sqlite3")
    try:
        report = copy_store(store, team)
        assert report.added == sum(_counts(store).values()) > 50
        assert _counts(team) == _counts(store)
        assert all(t.checksum and t.added == t.source for t in report.tables)
        # The team store works on what arrived: the item, search, new rows after the copied ids.
        assert items.get_item(team, item.id).behavior_text == "Ask who signs off before sending information"
        assert [h.start_ms for h in search.search(team, "information")] == \
               [h.start_ms for h in search.search(store, "information")]
        assert moments.add_moment(team, call.id, 5000, 6000).id > max(m.id for m in moments.list_moments(store, call.id))
        with team.read() as s:  # a local store's rows belong to whoever copied them in
            assert s.execute(text("SELECT DISTINCT owner_role FROM moment")).scalars().all() == ["callmark_admin"]
        # And back into a file, equal to the first one but for the moment added on the server.
        copy_store(team, back)
        expected = _counts(store)
        expected["moment"] += 1
        assert _counts(back) == expected
        assert [h.text for h in search.search(back, "information")] == \
               [h.text for h in search.search(store, "information")]  # the file's FTS5 index was filled
    finally:
        team.close()
        back.close()


def test_a_store_that_holds_a_library_is_refused_unless_merging(store, tmp_path, pg_store_url):
    _library(store, tmp_path)
    team = open_server_store(pg_store_url)
    try:
        copy_store(store, team)
        before = dump(team)
        with pytest.raises(CopyError, match="already holds a library; nothing was copied"):
            copy_store(store, team)
        assert dump(team) == before
        merged = copy_store(store, team, merge=True)  # the same library again: nothing new
        assert merged.added == 0 and dump(team) == before
        # Something new locally: only that arrives.
        extra = moments.add_moment(store, 1, 9000, 9500, kind="answer", note="arrives on merge")
        merged = copy_store(store, team, merge=True)
        assert merged.added == 1 and {t.table: t.added for t in merged.tables}["moment"] == 1
        with team.read() as s:
            assert s.execute(text("SELECT count(*) FROM moment WHERE uid = :u"), {"u": extra.uid}).scalar() == 1
        assert _counts(team)["moment"] == _counts(store)["moment"]
    finally:
        team.close()


def test_two_coaches_libraries_merge_by_their_ids(store, tmp_path, pg_store_url):
    """Two files that share a call (same recording) merge into one call with both coaches' moments."""
    call, _ = _library(store, tmp_path)
    other = open_store(tmp_path / "other.sqlite3")
    team = open_server_store(pg_store_url)
    try:
        theirs = demo_call(other)
        mark(other, theirs.id, INFO_LINE_MS, kind="question")
        copy_store(store, team)
        copy_store(other, team, merge=True)
        with team.read() as s:
            assert s.execute(text("SELECT count(*) FROM call WHERE media_sha256 = :h"),
                             {"h": call.media_sha256}).scalar() == 1
        assert _counts(team)["moment"] == _counts(store)["moment"] + 1
    finally:
        other.close()
        team.close()


def test_copy_on_the_command_line(store, tmp_path, pg_store_url, isolated_home):
    _library(store, tmp_path)
    store.close()
    copied = run_cli("db", "copy", "--to", pg_store_url, "--json", check=True)
    report = json.loads(copied.stdout)
    assert report["verified"] is True and report["added"] > 50
    again = run_cli("db", "copy", "--to", pg_store_url)
    assert again.returncode == 1 and "already holds a library" in again.stderr
    assert len(again.stderr.strip().splitlines()) == 1
    out = tmp_path / "from-team.sqlite3"
    back = run_cli("--store", pg_store_url, "db", "copy", "--to", str(out), check=True)
    assert "counts and checksums verified" in back.stdout
    merged = run_cli("db", "copy", "--from", str(out), "--to", pg_store_url, "--merge", "--json", check=True)
    assert json.loads(merged.stdout)["added"] == 0


def test_a_copy_that_fails_half_way_leaves_the_target_as_it_was(store, tmp_path, pg_store_url):
    import sqlite3

    _library(store, tmp_path)
    con = sqlite3.connect(store.path)  # a reference to a call that is not there (foreign keys off here)
    con.execute("INSERT INTO moment (uid, call_id, start_ms, end_ms, kind, quote, imported, created_at, updated_at) "
                "VALUES ('0e0e0e0e-0000-4000-8000-000000000000', 999, 0, 1, 'other', '', 0, "
                "'2026-12-01 08:00:00', '2026-12-01 08:00:00')")
    con.commit()
    con.close()
    team = open_server_store(pg_store_url)
    try:
        with pytest.raises(CopyError, match="moment row .*refers to call 999.*nothing was copied"):
            copy_store(store, team)
        left = _counts(team)
        assert left.pop("tracker") == 6, "the new store's shipped trackers, as they were"
        assert set(left.values()) == {0}
    finally:
        team.close()
