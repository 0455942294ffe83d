"""The wheel carries everything: installed into a fresh environment outside the source tree, Callmark
adds the demo call it ships, exports a record, writes a packet and opens its window."""

from __future__ import annotations

import configparser
import json
import subprocess
from importlib.metadata import version

import pytest

from db.store import open_store
from desktop import paths
from tests.conftest import REPO, run_cli
from tests.packaging.wheel_env import audited, build_wheel, clean_env, from_source_tree, make_env
from tests.services.packet_setup import make_samples

pytestmark = pytest.mark.slow

SHIPPED = ("demo/acme-discovery.ogg", "demo/acme-discovery.script.json", "schema/coaching-record-1.schema.json",
           "packet/packet.html.j2", "packet/calibration.html.j2", "icons/hicolor/scalable/apps/callmark.svg",
           "icons/hicolor/48x48/apps/callmark.png", "desktop/callmark.desktop",
           "desktop/app.callmark.Callmark.metainfo.xml")


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    root = tmp_path_factory.mktemp("wheel")
    wheel = build_wheel(root / "dist")
    return make_env(root / "venv", wheel), wheel


@pytest.fixture
def another_coach_record(tmp_path):
    """Another coach's record of the demo call, with an item ready for the manager (made here, in the
    source tree: it is the input, not what is tested)."""
    home = tmp_path / "dana"
    store = open_store(paths.store_path(paths.data_home(home)))
    try:
        ids = make_samples.demo_library(store)
    finally:
        store.close()
    out = tmp_path / "dana.callmark.json"
    run_cli("record", "export", str(ids["call"]), "-o", str(out), home=home, check=True)
    return out


def test_the_wheel_holds_every_resource(installed):
    import zipfile

    _, wheel = installed
    names = set(zipfile.ZipFile(wheel).namelist())
    missing = [name for name in SHIPPED if f"desktop/resources/{name}" not in names]
    assert not missing, f"{wheel.name} lacks {missing}"
    assert "db/migrations/env.py" in names


def test_installed_from_the_wheel_it_works_outside_the_source_tree(installed, another_coach_record, tmp_path):
    bin_dir, _ = installed
    work = tmp_path / "elsewhere"
    work.mkdir()
    home = tmp_path / "home"
    env = clean_env(CALLMARK_HOME=str(home), XDG_CONFIG_HOME=str(tmp_path / "config"))

    shown = subprocess.run([str(bin_dir / "callmark"), "--version"], cwd=work, env=env, capture_output=True,
                           text=True, timeout=60)
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.strip() == f"callmark {version('callmark')}"

    where, files = audited(bin_dir, work, "calls", "list", "--json", env=env)
    assert where.returncode == 0, where.stderr
    site = bin_dir.parent.resolve()
    demo = next(site.glob("lib/python*/site-packages/desktop/resources/demo/acme-discovery.ogg"))
    assert any(f.startswith(str(site)) and f.endswith("desktop/cli/__init__.py") for f in files)

    runs = [
        ("calls", "add", str(demo), "--title", "Acme (from the wheel)", "--json"),
        ("record", "whoami", "--name", "Alex Coach", "--email", "alex@example.com"),
        ("moments", "add", "1", "--at", "00:39.876", "--end", "00:44.610", "--kind", "missed_intervention"),
        ("record", "export", "1", "-o", str(work / "alex.callmark.json")),
        ("record", "import", str(another_coach_record)),
        ("packet", "1", "--coach", "Dana Coach", "-o", str(work / "packet.html"), "--json"),
    ]
    outputs = []
    for args in runs:
        result, files = audited(bin_dir, work, *args, env=env)
        assert result.returncode == 0, f"callmark {' '.join(args)}: {result.stderr}"
        assert not from_source_tree(files), f"callmark {args[0]} loaded from the source tree: {from_source_tree(files)}"
        outputs.append(result.stdout)

    call = json.loads(outputs[0])
    assert call["title"] == "Acme (from the wheel)" and 120_000 <= call["duration_ms"] <= 180_000
    record = json.loads((work / "alex.callmark.json").read_text("utf-8"))
    assert record["format"] == "callmark.coaching-record" and record["call"]["media"]["sha256"] == call["media_sha256"]
    assert len(record["moments"]) == 1
    packet = json.loads(outputs[-1])
    assert packet["items"] == 1 and packet["clips"] >= 1
    html = (work / "packet.html").read_text("utf-8")
    assert "<audio" in html and "Just send me some information" in html


def test_the_check_sees_an_import_from_the_source_tree(installed, tmp_path):
    """The guard above can fail: with the source tree put first on the path, it says so."""
    bin_dir, _ = installed
    env = clean_env(PYTHONPATH=str(REPO))
    result, files = audited(bin_dir, tmp_path, "calls", "list", "--json", env=env)
    assert result.returncode == 0, result.stderr
    assert any(f.endswith("desktop/cli/__init__.py") for f in from_source_tree(files))


def test_the_window_from_the_wheel_opens_the_demo_call_it_ships(installed, tmp_path):
    bin_dir, _ = installed
    work = tmp_path / "elsewhere"
    work.mkdir()
    home, config = tmp_path / "home", tmp_path / "config"
    env = clean_env(XDG_CONFIG_HOME=str(config))
    result, files = audited(bin_dir, work, "--offscreen", "--home", str(home), "--quit-after", "3", env=env,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    assert not from_source_tree(files), from_source_tree(files)
    assert any(f.endswith("desktop/ui/main_window.py") for f in files)
    listed = subprocess.run([str(bin_dir / "callmark"), "--home", str(home), "calls", "list", "--json"], cwd=work,
                            env=env, capture_output=True, text=True, timeout=60, check=True)
    (demo,) = json.loads(listed.stdout)
    assert demo["title"] == "Discovery - Acme Logistics (demo)"
    settings = configparser.ConfigParser()
    settings.read(config / "Callmark" / "Callmark.conf")
    assert settings.get("workspace", "last_call") == str(demo["id"])
