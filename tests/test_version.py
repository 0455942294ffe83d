"""One version number: pyproject.toml's, read back from the installed package's metadata."""

from __future__ import annotations

import tomllib
from importlib.metadata import version

import desktop
from tests.conftest import REPO, run_cli


def test_the_version_is_the_package_metadata_and_the_command_prints_it():
    declared = tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))["project"]["version"]
    assert desktop.__version__ == version("callmark") == declared
    assert run_cli("--version", check=True).stdout.strip() == f"callmark {declared}"
