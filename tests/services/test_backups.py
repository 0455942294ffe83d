"""Automatic backups on real SQLite files: made online, checked, rolled, listed and restored."""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime, timedelta

import pytest

from desktop import paths
from desktop.services import backups, calls, moments
from tests.conftest import run_cli


@pytest.fixture
def marked(store, tone):
    call, _ = calls.add_call(store, tone, title="Backup call")
    for at in (100, 900, 1700):
        moments.add_moment(store, call.id, at, note=f"note at {at}")
    return call.id


def _moment_count(path) -> int:
    with sqlite3.connect(path) as con:
        return con.execute("SELECT count(*) FROM moment").fetchone()[0]


def test_a_backup_is_an_online_copy_that_passes_its_integrity_check(store, marked, isolated_home):
    folder = paths.backups_dir(isolated_home)
    made = backups.make_backup(store.path, folder)
    assert made.path.parent == folder and made.automatic
    assert made.path.name.startswith("callmark-auto-")
    assert backups.integrity(made.path) == ["ok"]
    # The moments just written sit in the WAL, not yet in the main file; the backup has them.
    assert _moment_count(made.path) == 3
    assert backups.counts(made.path) == {"calls": 1, "moments": 3, "items": 0}
    assert not list(folder.glob("*.part"))


def test_the_timed_backup_is_skipped_when_nothing_changed(store, marked, isolated_home):
    folder = paths.backups_dir(isolated_home)
    first = backups.backup_if_changed(store.path, folder)
    assert first is not None
    assert backups.backup_if_changed(store.path, folder) is None  # nothing written since
    moments.add_moment(store, marked, 2200, note="one more")
    second = backups.backup_if_changed(store.path, folder, now=datetime.now() + timedelta(seconds=2))
    assert second is not None and _moment_count(second.path) == 4


def test_the_rolling_set_keeps_the_last_eight_one_a_day_and_one_a_week(tmp_path, store):
    folder = tmp_path / "backups"
    now = datetime(2026, 12, 1, 12, 0, 0)
    # Every 6 hours for 40 days: 160 automatic backups.
    stamps = [now - timedelta(hours=6 * i) for i in range(160)]
    for when in stamps:
        backups.make_backup(store.path, folder, now=when)
    kept_by_hand = backups.make_backup(store.path, folder, automatic=False, label="before-0003",
                                       now=now - timedelta(days=90))
    gone = backups.prune(folder, backups.BackupPolicy(), now)
    left = backups.list_backups(folder)
    auto = [b for b in left if b.automatic]
    assert kept_by_hand.path in {b.path for b in left}  # never pruned
    assert len(gone) == 160 - len(auto)
    newest = sorted(stamps, reverse=True)
    assert [b.made_at for b in auto[:8]] == newest[:8]  # the last 8
    days = {b.made_at.date() for b in auto if now - b.made_at <= timedelta(days=7)}
    assert len(days) >= 7  # one a day for the week
    weeks = {b.made_at.isocalendar()[:2] for b in auto}
    assert len(weeks) >= 4  # one a week for the month
    assert all(now - b.made_at <= timedelta(weeks=4) for b in auto)  # nothing older than the month
    assert len(auto) <= 8 + 7 + 4


def test_the_policy_comes_from_backups_json(isolated_home):
    home = paths.data_home(isolated_home)
    (home / "backups.json").write_text(json.dumps({"keep_last": 3, "daily_days": 0}), encoding="utf-8")
    policy = backups.BackupPolicy.load(home)
    assert (policy.keep_last, policy.daily_days, policy.weekly_weeks) == (3, 0, 4)
    (home / "backups.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(backups.BackupError, match="backups.json: not a backup policy"):
        backups.BackupPolicy.load(home)


def test_restore_puts_a_backup_back_and_keeps_the_store_it_replaced(store, marked, isolated_home):
    folder = paths.backups_dir(isolated_home)
    made = backups.make_backup(store.path, folder)
    moments.add_moment(store, marked, 2500, note="after the backup")
    before = backups.restore(store.path, made.path, folder)
    assert [m.note for m in moments_of(store, marked)] == ["note at 100", "note at 900", "note at 1700"]
    assert before is not None and _moment_count(before.path) == 4  # the replaced store, kept


def test_a_damaged_backup_is_refused_and_nothing_is_restored(store, marked, isolated_home, tmp_path):
    bad = tmp_path / "bad.sqlite3"
    bad.write_bytes(b"SQLite format 3\x00" + b"\x00" * 5000)
    with pytest.raises(backups.BackupError, match="bad.sqlite3: .*nothing was restored"):
        backups.restore(store.path, bad, paths.backups_dir(isolated_home))
    assert len(moments_of(store, marked)) == 3


def moments_of(store, call_id):
    from desktop.services.rows import list_moments

    return list_moments(store, call_id)


def test_cli_lists_backups_and_restores_one(tmp_path, tone):
    home = tmp_path / "cli-home"
    run_cli("--home", str(home), "calls", "add", str(tone), check=True)
    run_cli("--home", str(home), "moments", "add", "1", "--at", "0:01", "--note", "kept", check=True)
    from desktop.services import backups as b

    made = b.make_backup(home / "callmark.sqlite3", home / "backups")
    run_cli("--home", str(home), "moments", "add", "1", "--at", "0:02", "--note", "later", check=True)
    listed = json.loads(run_cli("--home", str(home), "db", "backups", "--json", check=True).stdout)
    assert [x["path"] for x in listed] == [str(made.path)]
    assert listed[0]["holds"] == {"calls": 1, "moments": 1, "items": 0}
    out = run_cli("--home", str(home), "db", "restore", made.path.name, "--json", check=True)
    report = json.loads(out.stdout)
    assert report["holds"]["moments"] == 1
    assert _moment_count(report["previous_store_saved_as"]) == 2
    notes = json.loads(run_cli("--home", str(home), "moments", "list", "1", "--json", check=True).stdout)
    assert [m["note"] for m in notes] == ["kept"]
    missing = run_cli("--home", str(home), "db", "restore", "nope.sqlite3")
    assert missing.returncode == 1
    assert missing.stderr.strip() == "callmark: nope.sqlite3: no such backup (see `callmark db backups`)"
