"""A damaged store and the window: the real app on a damaged file, and damage met while working."""

from __future__ import annotations

import os
import subprocess
import sys

from db.store import open_store
from desktop import paths
from desktop.services import backups, damage, moments
from desktop.services.rows import list_moments
from tests.conftest import REPO, run_cli
from tests.services.test_damage import checkpoint, fill, leaf_pages, overwrite_pages


def test_the_real_app_on_a_damaged_store_restores_the_newest_good_backup(tmp_path, tone):
    home = tmp_path / "home-app"
    run_cli("--home", str(home), "calls", "add", str(tone), check=True)
    store_path = home / "callmark.sqlite3"
    st = open_store(store_path)
    for i in range(150):
        moments.add_moment(st, 1, i * 10, end_ms=i * 10 + 5, note=f"note {i} " + "y" * 100)
    st.close()
    made = backups.make_backup(store_path, home / "backups")
    checkpoint(store_path)
    # The schema's own pages: the store can't even be listed.
    overwrite_pages(store_path, [1 + 1], seed=5)
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    done = subprocess.run([sys.executable, "-m", "desktop", "--offscreen", "--home", str(home), "--quit-after", "2"],
                          cwd=REPO, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    said = [line for line in done.stderr.splitlines() if line.startswith("callmark:")]
    assert "the store is damaged" in said[0] and "moved aside to callmark.sqlite3.damaged-" in said[0]
    assert f"The newest good backup is from {made.made_at:%Y-%m-%d %H:%M}" in said[0]
    assert said[1].startswith("callmark: Restored the backup from")
    assert len(damage.damaged_files(home)) == 1
    assert backups.counts(store_path)["moments"] == 150


def test_damage_met_while_working_is_set_aside_and_salvaged(qtbot, window, store, tone, isolated_home,
                                                            monkeypatch):
    call_id = fill(store, tone)
    window.refresh_library()
    window.open_call(call_id)
    from desktop.ui.durability import damaged

    chosen, done = [], []
    original = damaged.offer_recovery

    def salvage(win, detail, choose=None):  # the coach presses "Salvage what can be read"
        done.append(original(win, detail, choose=lambda r: chosen.append(r) or damaged.SALVAGE))

    monkeypatch.setattr(damaged, "offer_recovery", salvage)
    store.close()
    checkpoint(store.path)
    overwrite_pages(store.path, leaf_pages(store.path, "moment")[4:5], seed=6)
    try:
        list_moments(store, call_id)  # the workspace reading the moments again
    except Exception as exc:  # noqa: BLE001 - what SQLite says about the page
        assert "malformed" in str(exc)
    assert store.damaged
    qtbot.waitUntil(lambda: bool(done), timeout=10000)
    assert "moved aside to callmark.sqlite3.damaged-" in chosen[0].message()
    assert chosen[0].backup is None and "There is no good backup" in chosen[0].message()
    assert done[0].startswith("Salvaged what could be read from the damaged store (")
    assert store.damaged is None
    kept = list_moments(store, call_id)
    assert 250 <= len(kept) < 300
    assert window.moments_model.rowCount() == len(kept)
    moments.add_moment(store, call_id, 50, note="written after the salvage")  # writing again
    assert len(damage.damaged_files(paths.data_home(isolated_home))) == 1
