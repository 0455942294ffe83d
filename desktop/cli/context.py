"""What a sub-command works with: the data folder and the store, opened on first use."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from db.store import DamagedStoreError, Store
from desktop import paths
from desktop.errors import CallmarkError


class Context:
    def __init__(self, home: str | None, store: str | None = None):
        self._home_arg = home
        self._store_arg = store
        self._home: Path | None = None
        self._store: Store | None = None

    @property
    def store_choice(self) -> str | None:
        """The chosen store (``--store``, ``CALLMARK_STORE``, the app's preferences), or None for the
        data folder's file."""
        return paths.chosen_store(self._store_arg, self.home)

    @property
    def home(self) -> Path:
        if self._home is None:
            self._home = paths.data_home(self._home_arg)
        return self._home

    @property
    def store(self) -> Store:
        if self._store is None:
            from desktop.store_choice import open_chosen

            try:
                self._store = open_chosen(self.store_choice, self.home)
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
