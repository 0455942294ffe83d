"""The team store's roles and row-level security: blind review kept by the server, not by the app.

Each coach logs in as their own database role, a member of ``callmark_coach``;
a manager's role is a member of ``callmark_manager``. The policies:

- a coach sees their own moments and items, and another coach's only once that
  coach has shared them (``shared_at`` set); a coach writes only their own rows
  (an item's evidence goes with its item);
- a manager reads only what was shared, and writes nothing;
- everything else (calls, transcripts, people, cycles) is the team's library.

The store's owner (who ran ``callmark team init``) is not bound by the
policies: it moves stores in and out (``callmark db copy``).
"""

from __future__ import annotations

import re

COACHES = "callmark_coach"
MANAGERS = "callmark_manager"
OWNED = ("moment", "coaching_item")
ROLE_NAME = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")

_ROLES = f"""
DO $$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '{COACHES}') THEN CREATE ROLE {COACHES} NOLOGIN; END IF;
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '{MANAGERS}') THEN CREATE ROLE {MANAGERS} NOLOGIN; END IF;
END $$;
"""


def _owned_policies(table: str) -> str:
    return f"""
ALTER TABLE {table} ALTER COLUMN owner_role SET DEFAULT current_user;
ALTER TABLE {table} ENABLE ROW LEVEL SECURITY;
CREATE POLICY {table}_own ON {table} TO {COACHES}
  USING (owner_role = current_user) WITH CHECK (owner_role = current_user);
CREATE POLICY {table}_shared ON {table} FOR SELECT TO {COACHES}, {MANAGERS} USING (shared_at IS NOT NULL);
"""


_EVIDENCE = f"""
ALTER TABLE item_evidence ENABLE ROW LEVEL SECURITY;
CREATE POLICY item_evidence_seen ON item_evidence FOR SELECT TO {COACHES}, {MANAGERS}
  USING (EXISTS (SELECT 1 FROM coaching_item i WHERE i.id = item_id));
CREATE POLICY item_evidence_own ON item_evidence TO {COACHES}
  USING (EXISTS (SELECT 1 FROM coaching_item i WHERE i.id = item_id AND i.owner_role = current_user))
  WITH CHECK (EXISTS (SELECT 1 FROM coaching_item i WHERE i.id = item_id AND i.owner_role = current_user));
"""


def create_policies(execute) -> None:
    execute(_ROLES)
    for table in OWNED:
        execute(_owned_policies(table))
    execute(_EVIDENCE)


def drop_policies(execute) -> None:
    for table in OWNED:
        execute(f"DROP POLICY IF EXISTS {table}_own ON {table}; DROP POLICY IF EXISTS {table}_shared ON {table};"
                f"ALTER TABLE {table} DISABLE ROW LEVEL SECURITY;"
                f"ALTER TABLE {table} ALTER COLUMN owner_role DROP DEFAULT;")
    execute("DROP POLICY IF EXISTS item_evidence_seen ON item_evidence;"
            "DROP POLICY IF EXISTS item_evidence_own ON item_evidence;"
            "ALTER TABLE item_evidence DISABLE ROW LEVEL SECURITY;")


def grant_team(conn) -> None:
    """The team's privileges on every table and sequence (again after each migration: new tables)."""
    conn.exec_driver_sql(_ROLES)
    conn.exec_driver_sql(
        f"GRANT USAGE ON SCHEMA public TO {COACHES}, {MANAGERS};"
        f"GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO {COACHES};"
        # UPDATE: a coach copying a library in keeps its ids and moves the sequences past them.
        f"GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA public TO {COACHES};"
        f"GRANT SELECT ON ALL TABLES IN SCHEMA public TO {MANAGERS};"
        f"REVOKE INSERT, UPDATE, DELETE ON alembic_version FROM {COACHES};")


_MEMBER = """SELECT g.rolname FROM pg_auth_members m JOIN pg_roles g ON g.oid = m.roleid
             JOIN pg_roles u ON u.oid = m.member WHERE u.rolname = current_user AND g.rolname IN (%s, %s)"""


def team_role(conn) -> tuple[str, str | None]:
    """(this connection's role, 'coach' / 'manager' / None for the store's owner or anyone else)."""
    me = conn.exec_driver_sql("SELECT current_user").scalar()
    groups = {r[0] for r in conn.exec_driver_sql(_MEMBER, (COACHES, MANAGERS))}
    kind = "coach" if COACHES in groups else "manager" if MANAGERS in groups else None
    return me, kind


def check_role_name(name: str) -> str:
    name = name.strip()
    if not ROLE_NAME.match(name):
        from desktop.errors import CallmarkError

        raise CallmarkError(f"{name!r}: a coach's name on the team store is a database role: lower-case letters, "
                            "digits and _, starting with a letter (e.g. sam_rivera)")
    return name
