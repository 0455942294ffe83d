"""Every row of a store as text, to compare before and after something that must write nothing."""

from __future__ import annotations

import sqlite3


def dump(store) -> list[str]:
    """SQLite: the file's full SQL dump (schema, rows, search index). A team store: every row of
    every table in key order, read through the store's own engine."""
    if store.dialect == "sqlite":
        con = sqlite3.connect(f"file:{store.path}?mode=ro", uri=True)
        try:
            return list(con.iterdump())
        finally:
            con.close()
    from sqlalchemy import select

    from db.models import Base

    out = []
    with store.engine.connect() as conn:
        for table in Base.metadata.sorted_tables:
            for row in conn.execute(select(table).order_by(*table.primary_key.columns)):
                out.append(f"{table.name}: {tuple(row)!r}")
    return out


def reopen(store):
    """The same store opened again, as a new start of Callmark would."""
    if store.dialect == "sqlite":
        from db.store import open_store

        return open_store(store.path)
    from db.server import open_server_store

    return open_server_store(store.url)
