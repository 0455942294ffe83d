"""Shared test set-up: headless Qt, a fresh data folder and isolated QSettings per test."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("CALLMARK_VLC_ARGS", "--aout=dummy --vout=dummy")

REPO = Path(__file__).resolve().parent.parent
DEMO = REPO / "resources" / "demo" / "acme-discovery.ogg"


@pytest.fixture(autouse=True)
def isolated_home(tmp_path, monkeypatch) -> Path:
    """Every test gets its own data folder; nothing touches the coach's real store."""
    home = tmp_path / "home"
    monkeypatch.setenv("CALLMARK_HOME", str(home))
    monkeypatch.setenv("CALLMARK_LOG_DIR", str(tmp_path / "logs"))  # never the real user log folder
    return home


@pytest.fixture(autouse=True)
def isolated_qsettings(tmp_path):
    """QSettings (UI state) in a per-test folder, if Qt is in play."""
    if "PySide6.QtCore" not in sys.modules:
        yield
        return
    from PySide6.QtCore import QSettings

    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp_path / "qsettings"))
    yield


@pytest.fixture
def store(isolated_home):
    from db.store import open_store
    from desktop import paths

    opened = open_store(paths.store_path(paths.data_home(isolated_home)))
    yield opened
    opened.close()


@pytest.fixture(scope="session")
def demo_media() -> Path:
    assert DEMO.exists(), f"the demo call is missing: {DEMO}"
    return DEMO


def make_tone(path: Path, seconds: float = 3.0, channels: int = 1, rate: int = 16000) -> Path:
    """A short real recording made with sox (a sine tone per channel)."""
    args = ["sox", "-n", "-r", str(rate), "-c", str(channels), str(path), "synth", str(seconds), "sine", "440"]
    subprocess.run(args, check=True, capture_output=True)
    return path


@pytest.fixture
def tone(tmp_path) -> Path:
    return make_tone(tmp_path / "tone.wav")


def run_cli(*args: str, home: Path | None = None, check: bool = False) -> subprocess.CompletedProcess:
    """Run the real `callmark` command in a child process."""
    env = dict(os.environ)
    if home is not None:
        env["CALLMARK_HOME"] = str(home)
    result = subprocess.run([sys.executable, "-m", "desktop", *args], capture_output=True, text=True,
                            env=env, cwd=REPO, timeout=120)
    if check and result.returncode != 0:
        raise AssertionError(f"callmark {' '.join(args)} failed ({result.returncode}):\n{result.stderr}")
    return result
