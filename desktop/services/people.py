"""People by name and role: found or created, never duplicated."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from db.models import Person, Setting
from desktop.core.enums import Role
from desktop.errors import CallmarkError, NotFound

LOCAL_COACH_KEY = "local_coach"


def person(session: Session, name: str | None, role: Role, email: str | None = None) -> Person | None:
    """The person with this name and role, created if new. None for a blank name."""
    name = (name or "").strip()
    if not name:
        return None
    found = session.scalar(select(Person).where(Person.name == name, Person.role == role))
    if found is None:
        found = Person(name=name, role=role, email=email)
        session.add(found)
        session.flush()
    elif email and not found.email:
        found.email = email
    return found


def get_setting(session: Session, key: str, default=None):
    row = session.get(Setting, key)
    return default if row is None else row.value


def set_setting(session: Session, key: str, value) -> None:
    row = session.get(Setting, key)
    if row is None:
        session.add(Setting(key=key, value=value))
    else:
        row.value = value


def local_coach(session: Session) -> tuple[str, str | None] | None:
    """The coach using this machine (name, email), or None when not set yet.

    On a team store a coach is their database role: the role's name, whatever the shared settings say.
    """
    bind = session.get_bind()
    if bind.dialect.name != "sqlite":
        from desktop.services.team import role_of

        role, kind = role_of(session)
        if kind == "coach":
            return role, None
    value = get_setting(session, LOCAL_COACH_KEY)
    if not value or not value.get("name"):
        return None
    return value["name"], value.get("email")


def set_local_coach(session: Session, name: str, email: str | None = None) -> Person:
    set_setting(session, LOCAL_COACH_KEY, {"name": name.strip(), "email": (email or "").strip() or None})
    coach = person(session, name, Role.COACH, email)
    # "Reviews it: Me" written while the coach had no name yet now says who reviews it.
    from db.models import CoachingItem

    for item in session.scalars(select(CoachingItem).where(CoachingItem.owner_reviews == PLACEHOLDER_NAME)):
        item.owner_reviews = coach.name
    return coach


PLACEHOLDER_NAME = "Me"  # the local coach until they say who they are


def local_coach_person(session: Session, default_name: str = PLACEHOLDER_NAME) -> Person:
    """The local coach's Person row; a placeholder 'Me' until the coach gives a name."""
    found = local_coach(session)
    if found is None:
        return person(session, default_name, Role.COACH)
    return person(session, found[0], Role.COACH, found[1])


def coach_named(session: Session, name: str | None) -> Person:
    """The coach with this name, or the local coach when no name is given; a clear error otherwise."""
    if name is None:
        found = local_coach(session)
        if found is None:
            raise CallmarkError("no local coach yet: say who you are first "
                                "(`callmark record whoami --name NAME --email EMAIL`)")
        name = found[0]
    coach = session.scalar(select(Person).where(Person.name == name.strip(), Person.role == Role.COACH))
    if coach is None:
        raise NotFound(f"coach {name!r}: no coach of that name in this library")
    return coach
