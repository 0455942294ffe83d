"""Which store to open: the data folder's SQLite file (the default), another file, or a team store.

``--store`` (or ``CALLMARK_STORE``) names it: a ``postgresql://`` URL opens the
team store on that server (db/server.py), anything else is a path to an SQLite
store. Nothing more is imported for the default, so the window's start stays
as it was.
"""

from __future__ import annotations

from pathlib import Path

from desktop import paths

SERVER_SCHEMES = ("postgresql://", "postgres://", "postgresql+psycopg://")


def is_server(spec: str | None) -> bool:
    return bool(spec) and str(spec).lower().startswith(SERVER_SCHEMES)


def open_chosen(spec: str | None, home: Path):
    """Open (creating or migrating as needed) the store the coach chose, used from this machine
    (``home`` keeps where its recordings are here: desktop.services.this_machine)."""
    from db.store import open_store
    from desktop.services.this_machine import attach

    if is_server(spec):
        from db.server import open_server_store

        return attach(open_server_store(spec), home)
    if spec:
        path = Path(spec).expanduser().resolve()
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        return attach(open_store(path, path.parent / "backups"), home)
    return attach(open_store(paths.store_path(home), paths.backups_dir(home)), home)
