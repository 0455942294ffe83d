"""A damaged store, for real: pages overwritten in a copy of a store with data, then detected,
set aside (never deleted), answered with the newest good backup, and salvaged."""

from __future__ import annotations

import json
import random
import shutil
import sqlite3
from pathlib import Path

import pytest

from db.store import DamagedStoreError, open_store, quick_check
from desktop import paths
from desktop.services import backups, calls, damage, moments
from desktop.services.rows import list_moments
from tests.conftest import run_cli

MOMENTS = 300
PAGE = 4096


def fill(store, tone) -> int:
    call, _ = calls.add_call(store, tone, title="Damaged call")
    for i in range(MOMENTS):
        moments.add_moment(store, call.id, i * 5, end_ms=i * 5 + 4, note=f"note {i} " + "about the next step " * 4,
                           quote="")
    return call.id


def checkpoint(path: Path) -> None:
    con = sqlite3.connect(path)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()


def leaf_pages(path: Path, table: str) -> list[int]:
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return [r[0] for r in con.execute("SELECT pageno FROM dbstat WHERE name = ? AND pagetype = 'leaf' "
                                          "ORDER BY pageno", (table,))]
    finally:
        con.close()


def overwrite_pages(path: Path, pages: list[int], seed: int) -> None:
    """A bad sector: whole pages of random bytes written over the file."""
    rnd = random.Random(seed)
    with open(path, "r+b") as fh:
        for page in pages:
            fh.seek((page - 1) * PAGE)
            fh.write(bytes(rnd.randrange(256) for _ in range(PAGE)))


def moment_count(path: Path) -> int:
    con = sqlite3.connect(path)
    try:
        return con.execute("SELECT count(*) FROM moment").fetchone()[0]
    finally:
        con.close()


@pytest.fixture
def filled(store, tone):
    call_id = fill(store, tone)
    store.close()
    checkpoint(store.path)
    return store.path, call_id


def test_a_damaged_store_is_refused_on_open_and_left_as_it_was(filled, tmp_path):
    path, _ = filled
    copy = tmp_path / "copy.sqlite3"
    shutil.copy(path, copy)
    pages = leaf_pages(copy, "moment")
    overwrite_pages(copy, pages[3:5], seed=1)
    damaged_bytes = copy.read_bytes()
    assert quick_check(copy) != ["ok"]
    with pytest.raises(DamagedStoreError, match=r"copy.sqlite3: the store is damaged \(.*\); nothing more"):
        open_store(copy)
    assert copy.read_bytes() == damaged_bytes


def test_damaged_stores_are_recovered_row_by_row_or_with_sqlite_recover(filled, tmp_path):
    """Five kinds of damage; each salvaged store opens, passes its checks and keeps the rows it could read."""
    path, call_id = filled
    pages = leaf_pages(path, "moment")
    index_pages = leaf_pages(path, "ix_moment_call_start")
    cases = {
        "one moment page": pages[len(pages) // 2: len(pages) // 2 + 1],
        "two moment pages": pages[2:4],
        "the first and last moment pages": [pages[0], pages[-1]],
        "an index page": index_pages[:1],
        "a moment page and an index page": [pages[5], index_pages[-1]],
    }
    recovered = 0
    for seed, (name, hit) in enumerate(cases.items()):
        copy = tmp_path / f"case{seed}.sqlite3"
        shutil.copy(path, copy)
        overwrite_pages(copy, hit, seed)
        assert quick_check(copy) != ["ok"], name
        target = tmp_path / f"recovered{seed}.sqlite3"
        report = damage.recover(copy, target)
        assert report.method in ("sqlite3 .recover", "row by row")
        assert quick_check(target) == ["ok"], name
        opened = open_store(target)  # a Callmark store again, at the current schema
        try:
            kept = list_moments(opened, call_id)
            lost_pages = len([p for p in hit if p in pages])
            # At most the rows on the overwritten pages are lost (a leaf holds under 40 of these moments).
            assert MOMENTS - 40 * lost_pages <= len(kept) <= MOMENTS, name
            assert all(m.note.startswith("note ") for m in kept)
            from desktop.services import maintenance

            assert maintenance.check(opened).ok, name  # references and search index in step
        finally:
            opened.close()
        recovered += 1
    print(f"damaged stores recovered: {recovered} of {len(cases)}")
    assert recovered == len(cases)


def test_the_cli_sets_a_damaged_store_aside_offers_the_backup_and_recovers(tmp_path, tone):
    home = tmp_path / "home-damaged"
    run_cli("--home", str(home), "calls", "add", str(tone), check=True)
    run_cli("--home", str(home), "moments", "add", "1", "--at", "0:00.5", "--note", "note 0", check=True)
    store_path = home / "callmark.sqlite3"
    st = open_store(store_path)
    for i in range(1, 120):
        moments.add_moment(st, 1, i * 20, end_ms=i * 20 + 10, note=f"note {i} " + "x" * 120)
    st.close()
    made = backups.make_backup(store_path, home / "backups")
    checkpoint(store_path)
    overwrite_pages(store_path, leaf_pages(store_path, "moment")[1:2], seed=9)
    result = run_cli("--home", str(home), "moments", "list", "1")
    assert result.returncode == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    line = lines[0]
    assert "callmark.sqlite3: the store is damaged" in line
    assert "moved aside to callmark.sqlite3.damaged-" in line
    assert f"The newest good backup is from {made.made_at:%Y-%m-%d %H:%M}" in line
    assert f"callmark db restore {made.path.name}" in line and "callmark db recover" in line
    aside = damage.damaged_files(home)
    assert len(aside) == 1 and not store_path.exists()  # set aside, never deleted
    out = run_cli("--home", str(home), "db", "recover", "--json", check=True)
    report = json.loads(out.stdout)
    assert report["source"] == str(aside[0]) and report["target"] == str(store_path)
    assert 80 <= report["kept"]["moment"] < 120
    assert run_cli("--home", str(home), "db", "check", check=True).returncode == 0
    listed = json.loads(run_cli("--home", str(home), "moments", "list", "1", "--json", check=True).stdout)
    assert len(listed) == report["kept"]["moment"]
    assert aside[0].exists()  # the damaged file is still there


def test_damage_found_while_the_store_is_open_stops_writing(store, tone):
    call_id = fill(store, tone)
    heard = []
    store.on_damaged(heard.append)
    store.close()  # connections drop their cached pages; the next query reads the file again
    checkpoint(store.path)
    overwrite_pages(store.path, leaf_pages(store.path, "moment")[2:4], seed=3)
    with pytest.raises(Exception, match="malformed"):
        list_moments(store, call_id)
    assert heard and "malformed" in heard[0]
    assert store.damaged
    size = store.path.stat().st_size
    with pytest.raises(DamagedStoreError, match="nothing more was written"):
        moments.add_moment(store, call_id, 100, note="must not land")
    assert store.path.stat().st_size == size
    report = damage.set_aside(store.path, paths.backups_dir(store.path.parent), store.damaged)
    assert report.damaged.exists() and not store.path.exists()


def test_restoring_over_a_damaged_store_sets_it_aside(filled, isolated_home):
    path, call_id = filled
    folder = paths.backups_dir(isolated_home)
    made = backups.make_backup(path, folder)
    overwrite_pages(path, leaf_pages(path, "moment")[1:2], seed=4)
    backups.restore(path, made.path, folder)
    assert moment_count(path) == MOMENTS
    assert len(damage.damaged_files(isolated_home)) == 1
