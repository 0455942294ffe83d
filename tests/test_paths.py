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
