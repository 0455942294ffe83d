"""The `callmark` command end to end, in a child process, on real files."""

from __future__ import annotations

import json
import os
import sqlite3
import stat
import subprocess
import sys

import pytest

from desktop import __version__
from tests.conftest import REPO, make_tone, run_cli


def _store_dump(home):
    path = home / "callmark.sqlite3"
    if not path.exists():
        return None
    with sqlite3.connect(path) as con:
        return [tuple(r) for t in ("call", "person", "moment") for r in con.execute(f"SELECT * FROM {t}")]


def test_version():
    result = run_cli("--version")
    assert result.returncode == 0
    assert result.stdout.strip() == f"callmark {__version__}"


def test_python_dash_m_desktop_and_help():
    result = run_cli("--help")
    assert result.returncode == 0
    for command in ("calls", "moments", "db", "search"):
        assert command in result.stdout


def test_add_demo_then_db_check(tmp_path, demo_media):
    home = tmp_path / "h"
    added = run_cli("--home", str(home), "calls", "add", str(demo_media), "--json", check=True)
    call = json.loads(added.stdout)
    assert {"id", "title", "duration_ms", "media_sha256", "has_video"} <= set(call)
    assert 120_000 <= call["duration_ms"] <= 180_000
    assert call["has_video"] is False and len(call["media_sha256"]) == 64
    check = run_cli("--home", str(home), "db", "check")
    assert check.returncode == 0, check.stdout + check.stderr
    assert "integrity: ok" in check.stdout
    store = home / "callmark.sqlite3"
    assert stat.S_IMODE(store.stat().st_mode) == 0o600
    assert stat.S_IMODE(home.stat().st_mode) == 0o700
    with sqlite3.connect(store) as con:
        assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_same_file_twice_is_the_same_call(tmp_path, tone):
    home = tmp_path / "h"
    first = json.loads(run_cli("--home", str(home), "calls", "add", str(tone), "--json", check=True).stdout)
    second = json.loads(run_cli("calls", "add", str(tone), "--json", "--home", str(home), check=True).stdout)
    assert first["id"] == second["id"]
    listed = json.loads(run_cli("--home", str(home), "calls", "list", "--json", check=True).stdout)
    assert [c["id"] for c in listed] == [first["id"]]


def test_add_with_details(tmp_path, tone):
    home = tmp_path / "h"
    out = run_cli("--home", str(home), "calls", "add", str(tone), "--title", "Discovery - Acme", "--rep", "Riley",
                  "--manager", "Morgan", "--recorded-at", "2026-11-20T15:00:00Z", "--source", "zoom", "--json",
                  check=True)
    call = json.loads(out.stdout)
    assert (call["title"], call["rep"], call["manager"], call["source"]) == ("Discovery - Acme", "Riley", "Morgan",
                                                                             "zoom")
    assert call["recorded_at"].startswith("2026-11-20T15:00")


def test_home_from_environment(tmp_path, tone):
    home = tmp_path / "envhome"
    result = run_cli("calls", "add", str(tone), home=home)
    assert result.returncode == 0
    assert (home / "callmark.sqlite3").exists()


def _truncated(tmp_path, demo_media):
    path = tmp_path / "cut.ogg"
    path.write_bytes(demo_media.read_bytes()[:3000])
    return path


@pytest.mark.parametrize("case", ["missing", "folder", "text_as_mp3", "truncated", "bad_date"])
def test_bad_input_is_one_line_and_writes_nothing(tmp_path, demo_media, case):
    home = tmp_path / "h"
    run_cli("--home", str(home), "calls", "add", str(make_tone(tmp_path / "ok.wav")), check=True)
    before = _store_dump(home)
    extra: list[str] = []
    if case == "missing":
        target = tmp_path / "nope.mp3"
    elif case == "folder":
        target = tmp_path / "folder.mp3"
        target.mkdir()
    elif case == "text_as_mp3":
        target = tmp_path / "notes.mp3"
        target.write_text("Call notes: remember to ask about the budget.\n" * 20)
    elif case == "truncated":
        target = _truncated(tmp_path, demo_media)
    else:
        target = demo_media
        extra = ["--recorded-at", "last tuesday"]
    result = run_cli("--home", str(home), "calls", "add", str(target), *extra)
    assert result.returncode != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.stderr
    assert (str(target) in lines[0]) or ("last tuesday" in lines[0])
    assert _store_dump(home) == before


def test_store_that_is_not_sqlite_is_refused(tmp_path):
    home = tmp_path / "h"
    home.mkdir()
    (home / "callmark.sqlite3").write_text("not a database")
    result = run_cli("--home", str(home), "calls", "list")
    assert result.returncode != 0
    assert "not a Callmark store" in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert (home / "callmark.sqlite3").read_text() == "not a database"


def test_store_from_newer_schema_is_refused(tmp_path, tone):
    home = tmp_path / "h"
    run_cli("--home", str(home), "calls", "add", str(tone), check=True)
    with sqlite3.connect(home / "callmark.sqlite3") as con:
        con.execute("UPDATE alembic_version SET version_num='0999'")
    result = run_cli("--home", str(home), "calls", "list")
    assert result.returncode != 0
    assert "0999" in result.stderr and "newer" in result.stderr
    assert "Traceback" not in result.stderr


def test_backup_uses_the_online_api_and_is_a_store(tmp_path, tone):
    home = tmp_path / "h"
    run_cli("--home", str(home), "calls", "add", str(tone), check=True)
    target = tmp_path / "copy.sqlite3"
    result = run_cli("--home", str(home), "db", "backup", "-o", str(target), check=True)
    assert result.stdout.strip() == str(target)
    with sqlite3.connect(target) as con:
        assert con.execute("SELECT count(*) FROM call").fetchone()[0] == 1
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    again = run_cli("--home", str(home), "db", "backup", "-o", str(target))
    assert again.returncode != 0 and "already exists" in again.stderr


def test_db_check_fails_on_a_broken_reference(tmp_path, tone):
    home = tmp_path / "h"
    run_cli("--home", str(home), "calls", "add", str(tone), check=True)
    with sqlite3.connect(home / "callmark.sqlite3") as con:
        con.execute("PRAGMA foreign_keys=OFF")
        con.execute("INSERT INTO moment (uid, call_id, start_ms, end_ms, kind, quote, imported, created_at, "
                    "updated_at) VALUES ('u1', 42, 0, 10, 'other', '', 0, '2026-01-01', '2026-01-01')")
    result = run_cli("--home", str(home), "db", "check")
    assert result.returncode == 1
    assert "broken references" in result.stdout


def test_gui_without_display_says_so(tmp_path):
    env_home = tmp_path / "h"
    saved = {k: os.environ.pop(k, None) for k in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    try:
        result = run_cli("--home", str(env_home))
    finally:
        for k, v in saved.items():
            if v is not None:
                os.environ[k] = v
    assert result.returncode == 2
    assert result.stderr.strip().count("\n") == 0 and "no display" in result.stderr


def test_gui_offscreen_starts_on_the_demo_call(tmp_path):
    home = tmp_path / "h"
    result = run_cli("--home", str(home), "--offscreen", "--quit-after", "1.5")
    assert result.returncode == 0, result.stderr
    listed = json.loads(run_cli("--home", str(home), "calls", "list", "--json", check=True).stdout)
    assert len(listed) == 1 and "demo" in listed[0]["title"].lower()


def test_every_sub_command_is_known_without_building_the_parser():
    from desktop.cli import COMMANDS, build_parser

    parser = build_parser()
    assert COMMANDS == set(parser._subparsers._group_actions[0].choices)  # noqa: SLF001


WINDOW_PATH = """
import json, sys
import desktop.app
from desktop.cli import main

seen = {}

def run(**kwargs):  # where the window would start: what has the command imported by then?
    seen["kwargs"] = kwargs
    seen["modules"] = sorted(m for m in sys.modules
                             if m.split(".")[0] in ("sqlalchemy", "alembic", "PySide6")
                             or (m.startswith("desktop.cli.") and m not in ("desktop.cli.gui",)))
    return 0

desktop.app.run = run
code = main(["--offscreen", "--call", "7"])
print(json.dumps({"code": code, **seen}))
"""


def test_the_window_starts_without_the_sub_commands_imported(tmp_path):
    # `callmark` with no sub-command is the window: telling that apart used to build the whole
    # parser, importing every command module and SQLAlchemy before the window (over half a second).
    env = dict(os.environ, CALLMARK_HOME=str(tmp_path / "h"))
    result = subprocess.run([sys.executable, "-c", WINDOW_PATH], capture_output=True, text=True, env=env,
                            timeout=60, cwd=REPO)
    assert result.returncode == 0, result.stderr
    seen = json.loads(result.stdout.strip().splitlines()[-1])
    assert seen["code"] == 0 and seen["kwargs"]["call_id"] == 7
    assert seen["modules"] == []
