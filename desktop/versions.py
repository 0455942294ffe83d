"""What this Callmark is made of: its version and those of the parts it runs on (Help ▸ About).

Qt-free; the dialog adds Qt's own. Each lookup says "not found" rather than fail: About is
where a coach looks when something is missing.
"""

from __future__ import annotations

import sqlite3
from importlib.metadata import PackageNotFoundError, version


def callmark_version() -> str:
    from desktop import __version__

    return __version__


def libvlc_version() -> str:
    try:
        import vlc

        raw = vlc.libvlc_get_version()
    except Exception:  # noqa: BLE001 - python-vlc raises several kinds when libvlc is absent
        return "not found"
    return raw.decode("utf-8", "replace") if isinstance(raw, bytes) else str(raw)


def package_version(name: str) -> str:
    try:
        return version(name)
    except PackageNotFoundError:
        return "not found"


def component_versions() -> list[tuple[str, str]]:
    """(part, version) for everything but Qt, in the order About shows them."""
    return [
        ("libvlc", libvlc_version()),
        ("faster-whisper", package_version("faster-whisper")),
        ("SQLite", sqlite3.sqlite_version),
    ]
