"""Import folder… in the real window: the menu entry, a dropped folder, the progress bar, the watched folder."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QApplication, QFileDialog

from desktop.ui.actions import ActionId
from tests.services import import_folders as layouts


@pytest.fixture(scope="module")
def sample(tmp_path_factory) -> Path:
    return layouts.make_all(tmp_path_factory.mktemp("recordings"))


def titles(window) -> set[str]:
    model = window.library_model
    return {model.call_at(r).title for r in range(model.rowCount())}


def test_file_import_folder_adds_every_call_with_a_progress_bar(window, qtbot, sample, monkeypatch):
    importer = window.folder_import
    file_menu = next(a.menu() for a in window.menuBar().actions() if a.text().replace("&", "") == "File")
    assert window.registry[ActionId.IMPORT_FOLDER] in file_menu.actions()
    assert window.registry[ActionId.WATCH_FOLDER] in file_menu.actions()
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *a, **k: str(sample))
    seen = []
    importer.bar.valueChanged.connect(lambda v: seen.append((v, importer.bar.maximum())))
    with qtbot.waitSignal(importer.import_finished, timeout=60_000) as finished:
        window.registry[ActionId.IMPORT_FOLDER].trigger()
        assert importer.bar.isVisible()  # shown while the folder is walked, the window still answering
    summary = finished.args[0]
    assert summary.counts() == "added 5, skipped 2, failed 1"
    assert seen and seen[-1] == (8, 8)
    assert not importer.bar.isVisible()
    assert {"Discovery Acme", "Discovery Initech", "Pricing Globex", "Outbound 5551234"} <= titles(window)
    assert "added 5, skipped 2, failed 1" in window.status.text()


def test_a_folder_dropped_on_the_window_is_imported(window, qtbot, sample):
    data = QMimeData()
    data.setUrls([QUrl.fromLocalFile(str(sample / "teams"))])
    enter = QDragEnterEvent(QPoint(100, 100), Qt.DropAction.CopyAction, data, Qt.MouseButton.LeftButton,
                            Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(window, enter)  # Qt sends the drop to whoever accepted the drag
    assert enter.isAccepted()
    drop = QDropEvent(QPointF(100, 100), Qt.DropAction.CopyAction, data, Qt.MouseButton.LeftButton,
                      Qt.KeyboardModifier.NoModifier)
    with qtbot.waitSignal(window.folder_import.import_finished, timeout=30_000) as finished:
        QApplication.sendEvent(window, drop)
    assert drop.isAccepted()
    assert finished.args[0].counts() == "added 1, skipped 0, failed 0"
    assert "Discovery Initech" in titles(window)


def test_the_watched_folder_is_off_until_chosen_then_picks_up_new_files(window, qtbot, tmp_path):
    importer = window.folder_import
    assert importer.watched_folder() is None and not importer.watch_timer.isActive()
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    importer.watch_timer.setInterval(200)
    importer.set_watched_folder(inbox)
    assert importer.watched_folder() == inbox.resolve() and importer.watch_timer.isActive()

    arrived = inbox / layouts.DIALER_FILE
    shutil.copyfile(layouts.DEMO, arrived)  # just written: left until it has stopped changing
    qtbot.wait(600)
    assert "Outbound 5551234" not in titles(window)
    old = time.time() - 60
    os.utime(arrived, (old, old))
    qtbot.waitUntil(lambda: "Outbound 5551234" in titles(window), timeout=15_000)
    count = window.library_model.rowCount()
    qtbot.wait(800)  # looked at again and again: the same file is not added twice
    assert window.library_model.rowCount() == count

    importer.set_watched_folder(None)
    assert importer.watched_folder() is None and not importer.watch_timer.isActive()
