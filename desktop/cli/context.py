"""What a sub-command works with: the data folder and the store, opened on first use."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from db.store import DamagedStoreError, Store, StoreError, open_store
from desktop import paths
from desktop.errors import CallmarkError


class Context:
    def __init__(self, home: str | None):
        self._home_arg = home
        self._home: Path | None = None
        self._store: Store | None = None

    @property
    def home(self) -> Path:
        if self._home is None:
            self._home = paths.data_home(self._home_arg)
        return self._home

    @property
    def store(self) -> Store:
        if self._store is None:
            try:
                self._store = open_store(paths.store_path(self.home), paths.backups_dir(self.home))
            except DamagedStoreError as exc:
                from desktop.services.damage import set_aside

                report = set_aside(exc.path, paths.backups_dir(self.home), exc.detail)
                raise CallmarkError(report.message()) from exc
        return self._store

    def close(self) -> None:
        if self._store is not None:
            self._store.close()


def user_error_types() -> tuple[type[BaseException], ...]:
    """Exceptions that carry a message for the user (file and problem); no traceback for these."""
    return (CallmarkError, OSError, sqlite3.DatabaseError)
