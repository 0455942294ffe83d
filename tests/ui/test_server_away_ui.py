"""Starting on a team store whose server is away: one line naming it, and the local store offered."""

from __future__ import annotations

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

from desktop import app as desktop_app
from desktop.ui import server_away


def test_the_local_store_is_offered_and_opens(qtbot, tmp_path, isolated_home, monkeypatch, capsys):
    url = f"postgresql://sam@/callmark?host={tmp_path}/no-server"
    asked = []

    def answer_open():
        box = QApplication.activeModalWidget()
        asked.append((box.text(), box.informativeText()))
        box.button(QMessageBox.StandardButton.Open).click()

    monkeypatch.setattr(desktop_app, "_offscreen", lambda: False)  # as on a desktop: the question is asked
    QTimer.singleShot(300, answer_open)
    code = desktop_app.run(home=str(isolated_home), store=url, quit_after=1.0)
    assert code == 0
    assert capsys.readouterr().err.startswith(f"callmark: postgresql://sam@{tmp_path}/no-server/callmark: "
                                              "the team store can't be reached")
    (message, offer), = asked
    assert "can't be reached" in message and str(isolated_home / "callmark.sqlite3") in offer
    assert (isolated_home / "callmark.sqlite3").exists()  # the coach works in the local store


def test_declining_the_local_store_ends_there(qtbot, tmp_path, isolated_home):
    QTimer.singleShot(200, lambda: QApplication.activeModalWidget().button(QMessageBox.StandardButton.Close).click())
    assert server_away.offer_local_store("postgresql://sam@db/callmark: the team store can't be reached",
                                         str(isolated_home / "callmark.sqlite3")) is False
    assert not (isolated_home / "callmark.sqlite3").exists()
