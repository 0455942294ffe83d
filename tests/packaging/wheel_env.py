"""A fresh virtual environment, outside the source tree, holding Callmark from its wheel alone.

Its dependencies are the test environment's, made visible by one .pth line (so the test needs no
network and no second copy of PySide6); Callmark itself is installed from the wheel with
--no-deps. The test environment's editable install is not: only site folders have their .pth
files read, so its finder never runs there.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

from tests.conftest import REPO

# Run inside the fresh environment: the `callmark` command, then a list of every module file it
# had loaded, written at exit, so the test can show nothing came from the source tree.
AUDIT = """\
import atexit, json, sys
out, argv = sys.argv[1], sys.argv[2:]
atexit.register(lambda: json.dump(sorted({str(getattr(m, "__file__", None) or "") for m in list(sys.modules.values())}),
                                  open(out, "w")))
from desktop.cli import main
sys.exit(main(argv))
"""


def build_wheel(out: Path) -> Path:
    """`pip wheel` of the source tree as it is now, with the build tools already here (no build
    environment fetched). Built from a copy (links kept, as desktop/resources is one), so no
    build/ folder left from an earlier build can slip stale files into the wheel."""
    tree = out.parent / "source"
    shutil.copytree(REPO, tree, symlinks=True,
                    ignore=shutil.ignore_patterns(".git", ".venv", "build", "dist", "*.egg-info", "__pycache__",
                                                  ".hypothesis", ".callmark-home"))
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation",
                    "--disable-pip-version-check", "-w", str(out), str(tree)],
                   check=True, capture_output=True, text=True, timeout=300)
    (wheel,) = out.glob("callmark-*.whl")
    return wheel


def make_env(folder: Path, wheel: Path) -> Path:
    """A venv in `folder` with the wheel installed; returns its bin/ folder."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(folder)], check=True, timeout=120)
    python = folder / "bin" / "python"
    purelib = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                             check=True, capture_output=True, text=True).stdout.strip()
    deps = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    Path(purelib, "callmark_test_dependencies.pth").write_text("\n".join(sorted(deps)) + "\n")
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-deps",
                    "--no-index", "--disable-pip-version-check", str(wheel)],
                   check=True, capture_output=True, text=True, timeout=300)
    return folder / "bin"


def clean_env(**extra: str) -> dict[str, str]:
    """The environment a coach's shell would give: no PYTHONPATH pointing back at the source tree."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "CALLMARK_HOME")}
    env.update(QT_QPA_PLATFORM="offscreen", CALLMARK_VLC_ARGS="--aout=dummy --vout=dummy", **extra)
    return env


def audited(bin_dir: Path, cwd: Path, *args: str, env: dict[str, str], timeout: float = 180):
    """Run `callmark ARGS` in the environment; returns (result, the module files it loaded)."""
    script = cwd / "audit_callmark.py"
    script.write_text(AUDIT)
    loaded = cwd / "loaded-modules.json"
    result = subprocess.run([str(bin_dir / "python"), str(script), str(loaded), *args], cwd=cwd, env=env,
                            capture_output=True, text=True, timeout=timeout)
    files = json.loads(loaded.read_text()) if loaded.exists() else []
    loaded.unlink(missing_ok=True)
    return result, files


def from_source_tree(files: list[str]) -> list[str]:
    """The loaded files that are in the source tree (following links, as desktop/resources is one),
    leaving out the dependencies' folder (the test environment may live in the tree, as .venv).
    Relative names are modules PySide6 carries inside its library (shibokensupport), not files."""
    repo, deps = REPO.resolve(), Path(sys.prefix).resolve()
    return [f for f in files
            if os.path.isabs(f) and Path(f).resolve().is_relative_to(repo) and not Path(f).resolve().is_relative_to(deps)]
