"""The team store's coaches: roles made by the store's owner, marks shared, two coaches calibrated.

``init_team`` builds (or brings up to date) the schema, the roles' grants and
the row-level security policies (db/team.py); ``add_coach`` makes a coach's
role. A coach's moments and items stay theirs alone until ``share_call``;
``compare_shared`` then matches two coaches' shared marks on a call directly,
with no record file in between (the record stays for coaches outside the team).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from sqlalchemy import text

from db.team import COACHES, MANAGERS, check_role_name, team_role
from desktop.core.calibration import DEFAULT_TOLERANCE_MS
from desktop.core.enums import Role
from desktop.errors import CallmarkError


class TeamError(CallmarkError):
    """Something only a team store, or only its owner, can do."""


def require_team(store, what: str) -> None:
    if store.dialect == "sqlite":
        raise TeamError(f"{store.path}: {what} is for a team store (callmark --store postgresql://...)")


def role_of(session) -> tuple[str, str | None]:
    """(the session's database role, 'coach' / 'manager' / None), asked once per connection."""
    conn = session.connection()
    info = conn.connection.info
    if "callmark_role" not in info:
        info["callmark_role"] = team_role(conn)
    return info["callmark_role"]


class _Record:
    """A plain result the CLI prints: ``--json`` gives its fields."""

    def to_json(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class TeamInfo(_Record):
    store: str
    schema: str
    role: str


def init_team(url: str) -> TeamInfo:
    """Create (or bring up to date) the team store at `url`: schema, grants, policies."""
    from db.server import open_server_store

    store = open_server_store(url)
    try:
        return TeamInfo(store.path, store.revision(), store.current_role())
    finally:
        store.close()


def add_coach(store, name: str, *, manager: bool = False, password: str | None = None) -> str:
    """Make `name` a role that logs in as a coach (or a manager); an existing role joins the group."""
    require_team(store, "adding a coach")
    import psycopg
    from psycopg import sql

    name = check_role_name(name)
    group = MANAGERS if manager else COACHES
    raw = store.engine.raw_connection()
    try:
        cur = raw.cursor()
        cur.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (name,))
        if cur.fetchone() is None:
            statement = sql.SQL("CREATE ROLE {} LOGIN IN ROLE {}").format(sql.Identifier(name), sql.Identifier(group))
            if password:
                statement = sql.SQL("{} PASSWORD {}").format(statement, sql.Literal(password))
            cur.execute(statement)
        else:
            cur.execute(sql.SQL("GRANT {} TO {}").format(sql.Identifier(group), sql.Identifier(name)))
        raw.commit()
    except psycopg.errors.InsufficientPrivilege:
        raw.rollback()
        raise TeamError(f"{store.path}: only the team store's owner can add coaches "
                        f"(run this as the role that ran `callmark team init`)") from None
    finally:
        raw.close()
    if not manager:
        from desktop.services.people import person

        with store.write() as session:  # calibration names the other coach by this person
            person(session, name, Role.COACH)
    return name


@dataclass(frozen=True)
class Shared(_Record):
    call_id: int
    moments: int
    items: int


def share_call(store, call_id: int) -> Shared:
    """Share my moments on the call and the items they feed: from now on the team sees them."""
    require_team(store, "sharing marks")
    with store.write() as session:
        moments = session.execute(text(
            "UPDATE moment SET shared_at = now() AT TIME ZONE 'utc' WHERE call_id = :c "
            "AND owner_role = current_user AND shared_at IS NULL"), {"c": int(call_id)}).rowcount
        items = session.execute(text(
            "UPDATE coaching_item SET shared_at = now() AT TIME ZONE 'utc' WHERE owner_role = current_user "
            "AND shared_at IS NULL AND id IN (SELECT item_id FROM moment WHERE call_id = :c "
            "AND item_id IS NOT NULL)"), {"c": int(call_id)}).rowcount
    return Shared(int(call_id), moments, items)


def compare_shared(store, call_id: int, other: str, *, tolerance_ms: int = DEFAULT_TOLERANCE_MS):
    """Calibrate my marks on the call with `other`'s, both shared first (blind review: neither
    saw the other's before committing to their own)."""
    require_team(store, "calibrating on shared marks")
    from desktop.services import calibration

    with store.read() as session:
        me, _kind = role_of(session)
        counts = dict(session.execute(text(
            "SELECT (owner_role = current_user AND shared_at IS NULL), count(*) FROM moment "
            "WHERE call_id = :c AND owner_role IN (current_user, :other) GROUP BY 1"),
            {"c": int(call_id), "other": other}).all())
        theirs = session.execute(text("SELECT count(*) FROM moment WHERE call_id = :c AND owner_role = :other"),
                                 {"c": int(call_id), "other": other}).scalar()
    if counts.get(True):
        raise TeamError(f"call {call_id}: share your marks first (`callmark team share {call_id}`); "
                        f"{counts[True]} of yours are not shared yet")
    if not theirs:
        raise TeamError(f"call {call_id}: {other} has shared no marks on this call yet")
    return calibration.compare(store, int(call_id), other, tolerance_ms=tolerance_ms)
