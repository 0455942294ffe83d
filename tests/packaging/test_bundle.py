"""The one-folder bundle (packaging/bundle.sh): built here, it starts offscreen on the demo call it
carries, with the libvlc and plugins it carries, and transcribes that call with its own Whisper model."""

from __future__ import annotations

import configparser
import json
import os
import re
import shutil
import subprocess
import time
from importlib.metadata import version

import pytest

from desktop import paths
from tests.conftest import REPO

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def bundle(tmp_path_factory):
    root = tmp_path_factory.mktemp("bundle")
    built = subprocess.run(["bash", str(REPO / "packaging" / "bundle.sh"), "--dist", str(root / "dist"),
                            "--work", str(root / "work")], capture_output=True, text=True, timeout=1200)
    assert built.returncode == 0, built.stderr[-4000:]
    executable = root / "dist" / "callmark" / "callmark"
    assert built.stdout.strip().splitlines()[-1] == str(executable)
    yield executable
    shutil.rmtree(root, ignore_errors=True)  # some 800 MB: not kept among pytest's last runs


def _env(tmp_path, **extra):
    # A coach's environment: nothing pointing at the source tree or its virtualenv.
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "CALLMARK_HOME", "PYTHON_VLC_LIB_PATH",
                        "PYTHON_VLC_MODULE_PATH", "VLC_PLUGIN_PATH")}
    env.update(QT_QPA_PLATFORM="offscreen", CALLMARK_VLC_ARGS="--aout=dummy --vout=dummy",
               XDG_CONFIG_HOME=str(tmp_path / "config"), **extra)
    return env


def _mapped(pid: int) -> set[str]:
    try:
        with open(f"/proc/{pid}/maps") as maps:
            return {line.split()[-1] for line in maps if "/" in line}
    except OSError:
        return set()


def test_the_bundle_opens_the_demo_call_and_transcribes_it(bundle, tmp_path):
    folder = bundle.parent.resolve()
    env = _env(tmp_path)
    work = tmp_path / "elsewhere"
    work.mkdir()
    home = tmp_path / "home"

    shown = subprocess.run([str(bundle), "--version"], cwd=work, env=env, capture_output=True, text=True, timeout=60)
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.strip() == f"callmark {version('callmark')}"

    # The window, offscreen, on a new library: it adds the demo call it carries and opens it.
    window = subprocess.Popen([str(bundle), "--offscreen", "--home", str(home), "--quit-after", "8"], cwd=work,
                              env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    libraries: set[str] = set()
    while window.poll() is None:
        libraries |= _mapped(window.pid)
        time.sleep(0.2)
    _, stderr = window.communicate()
    assert window.returncode == 0, stderr
    vlc = {p for p in libraries if re.search(r"/libvlc(core)?\.so|/vlc/plugins/", p)}
    assert any(p.endswith("/libvlc.so.5") for p in vlc), "the window never loaded libvlc"
    assert any("/vlc/plugins/" in p for p in vlc), "libvlc loaded no plugin"
    # Its own plugin cache (made by bundle.sh): libvlc opens the few plugins it uses, not all of them.
    shipped = list((folder / "_internal" / "vlc" / "plugins").rglob("*.so"))
    assert (folder / "_internal" / "vlc" / "plugins" / "plugins.dat").is_file()
    opened = {p for p in vlc if "/vlc/plugins/" in p}
    assert len(opened) < len(shipped) / 3, f"libvlc opened {len(opened)} of {len(shipped)} plugins: no cache?"
    outside = sorted(p for p in vlc if not p.startswith(str(folder)))
    assert not outside, f"libvlc or its plugins came from outside the bundle: {outside[:5]}"
    assert not any(p.startswith(str(REPO.resolve())) for p in libraries), "the bundle loaded from the source tree"

    listed = subprocess.run([str(bundle), "--home", str(home), "calls", "list", "--json"], cwd=work, env=env,
                            capture_output=True, text=True, timeout=60)
    assert listed.returncode == 0, listed.stderr
    (demo,) = json.loads(listed.stdout)
    assert demo["title"] == "Discovery - Acme Logistics (demo)"
    settings = configparser.ConfigParser()
    settings.read(tmp_path / "config" / "Callmark" / "Callmark.conf")
    assert settings.get("workspace", "last_call") == str(demo["id"])

    # Its own Whisper model, in a child process the frozen executable starts (multiprocessing's spawn).
    done = subprocess.run([str(bundle), "--home", str(home), "transcribe", str(demo["id"])], cwd=work, env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert "transcribed with tiny.en" in done.stdout
    out = work / "demo.txt"
    exported = subprocess.run([str(bundle), "--home", str(home), "transcript", "export", str(demo["id"]),
                               "--format", "txt", "-o", str(out)], cwd=work, env=env, capture_output=True,
                              text=True, timeout=60)
    assert exported.returncode == 0, exported.stderr
    heard = set(re.findall(r"[a-z']+", out.read_text("utf-8").lower()))
    script = json.loads(paths.DEMO_SCRIPT.read_text("utf-8"))["lines"]
    said = set(re.findall(r"[a-z']+", " ".join(line["text"] for line in script).lower()))
    assert len(heard & said) >= 0.6 * len(said), f"the transcript shares only {len(heard & said)} of {len(said)} words"
