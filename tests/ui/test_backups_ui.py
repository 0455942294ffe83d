"""Backups in the window: one when the real app closes, and File ▸ Restore from backup…."""

from __future__ import annotations

import os
import subprocess
import sys

from PySide6.QtWidgets import QDialogButtonBox

from desktop import paths
from desktop.services import backups, calls, moments
from desktop.services.rows import list_moments
from desktop.ui.actions import ActionId
from tests.conftest import REPO, run_cli


def test_the_real_app_backs_up_when_it_closes(tmp_path, tone):
    home = tmp_path / "home-close"
    run_cli("--home", str(home), "calls", "add", str(tone), check=True)
    run_cli("--home", str(home), "moments", "add", "1", "--at", "0:01", "--note", "before closing", check=True)
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    done = subprocess.run([sys.executable, "-m", "desktop", "--offscreen", "--home", str(home), "--quit-after", "2"],
                          cwd=REPO, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    made = [b for b in backups.list_backups(home / "backups") if b.automatic]
    assert len(made) == 1
    assert backups.integrity(made[0].path) == ["ok"]
    assert backups.counts(made[0].path)["moments"] == 1


def test_restore_from_backup_in_the_window(qtbot, window, store, tone, isolated_home, monkeypatch):
    call, _ = calls.add_call(store, tone, title="Restore me")
    moments.add_moment(store, call.id, 200, note="in the backup")
    made = backups.make_backup(store.path, paths.backups_dir(isolated_home))
    moments.add_moment(store, call.id, 1200, note="after the backup")
    window.refresh_library()
    window.open_call(call.id)
    assert window.moments_model.rowCount() == 2
    file_menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&File")
    assert window.registry[ActionId.RESTORE_BACKUP] in file_menu.actions()

    from desktop.ui.durability import restore_dialog

    shown = []

    def fake_exec(dialog):  # the coach picks the newest backup and presses Restore
        shown.append([dialog.list.item(i).text() for i in range(dialog.list.count())])
        dialog.buttons.button(QDialogButtonBox.StandardButton.Cancel)  # there is a way out
        return 1

    monkeypatch.setattr(restore_dialog.RestoreDialog, "exec", fake_exec)
    window.registry[ActionId.RESTORE_BACKUP].trigger()
    assert len(shown[0]) == 1 and "1 calls, 1 moments, 0 items" in shown[0][0]
    assert "a few seconds old" in shown[0][0] or "a minute old" in shown[0][0]
    assert [m.note for m in list_moments(store, call.id)] == ["in the backup"]
    qtbot.waitUntil(lambda: window.moments_model.rowCount() == 1)
    assert "Restored the backup from" in window.status.text()
    kept = [b for b in backups.list_backups(paths.backups_dir(isolated_home)) if not b.automatic]
    assert len(kept) == 1 and backups.counts(kept[0].path)["moments"] == 2
    # The window still writes to the restored store.
    moments.add_moment(store, call.id, 1500, note="after the restore")
    assert len(list_moments(store, call.id)) == 2
    assert made.path.exists()


def test_the_timed_backup_runs_every_30_minutes_only_after_changes(qtbot, window, store, tone, isolated_home):
    qtbot.waitUntil(lambda: window.durability.timer.isActive(), timeout=20000)  # started once warm
    assert window.durability.timer.interval() == 30 * 60 * 1000
    call, _ = calls.add_call(store, tone, title="Timed")
    moments.add_moment(store, call.id, 300, note="first")
    folder = paths.backups_dir(isolated_home)
    made = []
    window.durability.backup_made.connect(made.append)
    window.durability.timer.timeout.emit()  # what the timer does at the half hour
    assert window.durability.task.wait(30)
    qtbot.waitUntil(lambda: window.durability.task.done, timeout=5000)  # told back on the GUI thread
    first = [b for b in backups.list_backups(folder) if b.automatic]
    assert len(first) == 1 and backups.counts(first[0].path)["moments"] == 1
    assert made == [str(first[0].path)]  # told once it is made
    window.durability.timer.timeout.emit()  # nothing changed since: no new backup
    assert window.durability.task.wait(30)
    assert len([b for b in backups.list_backups(folder) if b.automatic]) == 1
