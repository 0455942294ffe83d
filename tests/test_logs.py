"""The log: a rotating file in the user log folder, tracebacks of the unexpected, never what a coach wrote."""

from __future__ import annotations

import logging
import os
import subprocess
import sys

import pytest

from desktop import logs
from tests.conftest import REPO, run_cli

SECRET = "Dana Buyer said the budget is 50k, dana.buyer@example.com"


def _child(code: str, log_dir) -> subprocess.CompletedProcess:
    env = dict(os.environ, CALLMARK_LOG_DIR=str(log_dir))
    return subprocess.run([sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True,
                          timeout=60)


def test_the_log_folder_is_the_platforms_user_log_folder(monkeypatch):
    import platformdirs

    monkeypatch.delenv("CALLMARK_LOG_DIR", raising=False)
    assert str(logs.log_dir()) == platformdirs.user_log_dir("Callmark", appauthor=False)


def test_an_unexpected_error_is_logged_with_its_traceback_but_not_its_message(tmp_path):
    done = _child("from desktop.logs import install_excepthook\n"
                  "install_excepthook()\n"
                  "def read_the_line(text):\n"
                  "    raise ValueError(text)\n"
                  f"read_the_line({SECRET!r})\n", tmp_path / "logs")
    assert done.returncode == 1 and "ValueError" in done.stderr  # the usual traceback still printed
    text = (tmp_path / "logs" / "callmark.log").read_text(encoding="utf-8")
    assert "ERROR callmark: unexpected ValueError" in text
    assert "in read_the_line" in text and "builtins.ValueError (message left out)" in text
    assert "Dana" not in text and "50k" not in text and "example.com" not in text


def test_a_thread_that_fails_is_logged_too(tmp_path):
    done = _child("import threading\nfrom desktop.logs import install_excepthook\ninstall_excepthook()\n"
                  "def work():\n    {}['" + "missing" + "']\n"
                  "t = threading.Thread(target=work, name='waveform'); t.start(); t.join()\n", tmp_path / "logs")
    assert done.returncode == 0
    text = (tmp_path / "logs" / "callmark.log").read_text(encoding="utf-8")
    assert "unexpected KeyError in thread waveform" in text and "in work" in text


def test_the_log_rotates(tmp_path, monkeypatch):
    monkeypatch.setenv("CALLMARK_LOG_DIR", str(tmp_path / "rot"))
    monkeypatch.setattr(logs, "MAX_BYTES", 2000)
    monkeypatch.setattr(logs, "_configured", False)
    root = logging.getLogger("callmark")
    saved = root.handlers[:]
    root.handlers.clear()
    try:
        for i in range(200):
            logs.logger("backups").info("backup made: callmark-auto-%d.sqlite3", i)
    finally:
        for h in root.handlers:
            h.close()
        root.handlers[:] = saved
    names = sorted(p.name for p in (tmp_path / "rot").iterdir())
    assert names == ["callmark.log", "callmark.log.1", "callmark.log.2", "callmark.log.3", "callmark.log.4",
                     "callmark.log.5"]
    assert all(p.stat().st_size <= 2200 for p in (tmp_path / "rot").iterdir())


def test_the_real_app_logs_what_it_did_and_no_transcript_text(tmp_path, demo_media):
    home, log_dir = tmp_path / "home-log", tmp_path / "logs-app"
    run_cli("--home", str(home), "calls", "add", str(demo_media), "--rep", "Riley Rep", check=True)
    vtt = tmp_path / "t.vtt"
    vtt.write_text("WEBVTT\n\n00:00:01.000 --> 00:00:04.000\n<v Riley Rep>Our renewal budget is frozen until "
                   "April.\n", encoding="utf-8")
    run_cli("--home", str(home), "transcript", "import", "1", str(vtt), check=True)
    run_cli("--home", str(home), "moments", "add", "1", "--at", "0:01", "--note", "Ask who froze it", check=True)
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", CALLMARK_LOG_DIR=str(log_dir))
    done = subprocess.run([sys.executable, "-m", "desktop", "--offscreen", "--home", str(home), "--quit-after", "3"],
                          cwd=REPO, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    text = (log_dir / "callmark.log").read_text(encoding="utf-8")
    assert "INFO callmark.app: window opened" in text
    assert "INFO callmark.backups: backup made: callmark-auto-" in text
    for private in ("renewal", "budget", "April", "froze", "Riley", str(home)):
        assert private not in text


def test_help_open_log_folder(window, monkeypatch, tmp_path):
    from PySide6.QtGui import QDesktopServices

    from desktop.ui.actions import ActionId

    opened = []
    monkeypatch.setattr(QDesktopServices, "openUrl", lambda url: opened.append(url.toLocalFile()) or True)
    help_menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&Help")
    assert window.registry[ActionId.OPEN_LOG_FOLDER] in help_menu.actions()
    window.registry[ActionId.OPEN_LOG_FOLDER].trigger()
    assert opened == [str(tmp_path / "logs")]
    assert (tmp_path / "logs").is_dir()


@pytest.fixture
def window(qtbot, store, isolated_home):
    from pathlib import Path

    from desktop.ui.main_window import build_main_window

    w = build_main_window(store, Path(isolated_home))
    qtbot.addWidget(w)
    yield w
    w.close()

