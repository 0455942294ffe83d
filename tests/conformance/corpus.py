"""Where the conformance corpora of real files live: `../shared/conformance/` beside the repository.

The project does not copy them in (their licences vary; see each SOURCES.md).
CALLMARK_CONFORMANCE points elsewhere; the folder must be there (a test never skips for want of it).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def corpus_dir(name: str) -> Path | None:
    base = Path(os.environ.get("CALLMARK_CONFORMANCE") or REPO.parent / "shared" / "conformance")
    folder = base / name
    return folder if folder.is_dir() else None


def require(name: str) -> Path:
    """The corpus folder; a missing corpus fails the test, naming where it was looked for."""
    folder = corpus_dir(name)
    if folder is None:
        where = os.environ.get("CALLMARK_CONFORMANCE") or REPO.parent / "shared" / "conformance"
        message = f"conformance corpus {name!r} not found under {where} (set CALLMARK_CONFORMANCE)"
        pytest.fail(message)
    return folder
