"""Starting on a team store whose server is away: one line naming it, and the local store offered."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

from desktop.ui import server_away

REPO = Path(__file__).resolve().parents[2]

# In a child: the window's own event loop runs and quits (which the test process's must not), and the
# question is answered as a coach would, by its Open button.
CHILD = textwrap.dedent("""
    import json, sys
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication, QMessageBox
    import desktop.app as desktop_app

    desktop_app._offscreen = lambda: False  # as on a desktop: the question is asked
    app = QApplication(sys.argv[:1])  # the one the window will use: the answering timer needs it
    asked = []

    def answer():
        box = QApplication.activeModalWidget()
        if box is None:
            QTimer.singleShot(100, answer)
            return
        asked.append([box.text(), box.informativeText()])
        box.button(QMessageBox.StandardButton.Open).click()

    QTimer.singleShot(100, answer)
    code = desktop_app.run(home=sys.argv[1], store=sys.argv[2], quit_after=1.0)
    print(json.dumps({"code": code, "asked": asked}))
""")


def test_the_local_store_is_offered_and_opens(tmp_path, isolated_home):
    url = f"postgresql://sam@/callmark?host={tmp_path}/no-server"
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    result = subprocess.run([sys.executable, "-c", CHILD, str(isolated_home), url], capture_output=True, text=True,
                            cwd=REPO, env=env, timeout=120)
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout.strip().splitlines()[-1])
    assert out["code"] == 0
    assert result.stderr.startswith(f"callmark: postgresql://sam@{tmp_path}/no-server/callmark: "
                                    "the team store can't be reached")
    (message, offer), = out["asked"]
    assert "can't be reached" in message and str(isolated_home / "callmark.sqlite3") in offer
    assert (isolated_home / "callmark.sqlite3").exists()  # the coach works in the local store


def test_declining_the_local_store_ends_there(qtbot, isolated_home):
    def decline():
        box = QApplication.activeModalWidget()
        if box is None:
            QTimer.singleShot(50, decline)
            return
        box.button(QMessageBox.StandardButton.Close).click()

    QTimer.singleShot(50, decline)
    assert server_away.offer_local_store("postgresql://sam@db/callmark: the team store can't be reached",
                                         str(isolated_home / "callmark.sqlite3")) is False
    assert not (isolated_home / "callmark.sqlite3").exists()
