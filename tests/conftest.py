"""Shared test set-up: headless Qt, a fresh data folder and isolated QSettings per test."""

from __future__ import annotations

import itertools
import os
import platform
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
    monkeypatch.delenv("CALLMARK_STORE", raising=False)
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


def pytest_configure(config):
    config.addinivalue_line("markers", "both_stores: the module's `store` tests run on SQLite and on PostgreSQL")
    config.addinivalue_line("markers", "sqlite_only: in a both_stores module, a test of the SQLite file itself")


def pytest_generate_tests(metafunc):
    """A module marked both_stores runs each test that takes `store` on both back ends."""
    marked = metafunc.definition.get_closest_marker
    if "store" in metafunc.fixturenames and marked("both_stores") and not marked("sqlite_only"):
        metafunc.parametrize("store", ["sqlite", "postgresql"], indirect=True)


@pytest.fixture
def store(request, isolated_home):
    """The coach's store: the SQLite file in the data folder, or (parametrised) a fresh team store."""
    if getattr(request, "param", "sqlite") == "postgresql":
        from db.server import open_server_store

        opened = open_server_store(request.getfixturevalue("pg_store_url"))
    else:
        from db.store import open_store
        from desktop import paths

        opened = open_store(paths.store_path(paths.data_home(isolated_home)))
    yield opened
    opened.close()


@pytest.fixture(scope="session")
def pg_server():
    """A real PostgreSQL server for the whole run, started here and stopped at the end. A machine
    without one fails these tests (packaging/bootstrap.sh installs Debian's postgresql)."""
    from tests.pg_server import PgServer

    server = PgServer()
    try:
        server.start()
        yield server
    finally:
        server.cleanup()


@pytest.fixture(scope="session")
def pg_template(pg_server) -> str:
    """A team store migrated once; each test's database is a copy of it (CREATE DATABASE ... TEMPLATE)."""
    from db.server import open_server_store

    pg_server.admin_sql("CREATE DATABASE callmark_template")
    open_server_store(pg_server.url("callmark_template")).close()
    return "callmark_template"


_PG_DATABASES = itertools.count()


@pytest.fixture
def pg_store_url(pg_server, pg_template) -> str:
    """The URL of a fresh, migrated team store of this test's own (as the server's owner role)."""
    name = f"callmark_test_{next(_PG_DATABASES)}"
    pg_server.admin_sql(f"CREATE DATABASE {name} TEMPLATE {pg_template}")
    yield pg_server.url(name)
    pg_server.admin_sql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@pytest.fixture
def intel_words(monkeypatch) -> None:
    """Whisper hears the same words here as on an Intel processor, for a test that reads meaning from them.

    CTranslate2 multiplies with Intel MKL on an Intel processor and with oneDNN on an AMD one, and the two round
    differently enough that tiny.en hears a few of the demo call's words otherwise ("Do you use any other
    reporting tools" as "Who do you many other reporting tools", an open question where the script has a closed
    one). Its PyPI wheels carry both, and the spawned Whisper child reads CT2_USE_MKL from the environment it
    inherits. Only such a test asks for it: MKL is much slower on an AMD processor (the demo call took 147 s there
    against 23 s with oneDNN, tiny.en on two threads), so every other test keeps the processor's own backend.
    """
    if platform.machine().lower() in ("x86_64", "amd64"):
        monkeypatch.setenv("CT2_USE_MKL", "1")


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


def run_cli(*args: str, home: Path | None = None, check: bool = False,
            timeout: float = 120) -> subprocess.CompletedProcess:
    """Run the real `callmark` command in a child process (`timeout`: seconds before the test gives up on it)."""
    env = dict(os.environ)
    if home is not None:
        env["CALLMARK_HOME"] = str(home)
    result = subprocess.run([sys.executable, "-m", "desktop", *args], capture_output=True, text=True,
                            env=env, cwd=REPO, timeout=timeout)
    if check and result.returncode != 0:
        raise AssertionError(f"callmark {' '.join(args)} failed ({result.returncode}):\n{result.stderr}")
    return result
