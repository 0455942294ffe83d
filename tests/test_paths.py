"""The data folder on Linux: the XDG rule, as platformdirs gives it (without importing it at start)."""

from __future__ import annotations

from pathlib import Path

import platformdirs
import pytest

from desktop import paths


@pytest.mark.parametrize("xdg", [None, "", "  ", "/tmp/some-xdg-data"])
def test_the_data_folder_is_where_platformdirs_puts_it(monkeypatch, xdg):
    if xdg is None:
        monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    else:
        monkeypatch.setenv("XDG_DATA_HOME", xdg)
    assert paths._platform_data_dir() == Path(platformdirs.user_data_dir(paths.APP_NAME, appauthor=False))


def test_what_callmark_ships_is_found_through_the_package():
    # desktop/resources links to the top-level resources/ here; in a wheel it is a copy (tests/packaging).
    for path in (paths.DEMO_MEDIA, paths.DEMO_SCRIPT, paths.SCHEMA, paths.PACKET_TEMPLATES / "packet.html.j2",
                 paths.ICONS / "hicolor" / "scalable" / "apps" / "callmark.svg",
                 paths.DESKTOP_FILES / "callmark.desktop"):
        assert path.is_file(), path
        assert path.is_relative_to(paths.resource())
    assert paths.resource().resolve() == (Path(__file__).resolve().parent.parent / "resources")
