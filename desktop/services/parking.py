"""Parked observations: what the coach noticed but won't coach in this cycle.

The method keeps one behavior stable through a 90-day cycle and saves the other
observations for later. A parked observation sits on the manager being coached:
a moment (with an optional note) or just a note. Promoting one later makes it a
coaching item; the parked row stays, pointing at the item it became.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timezone

from sqlalchemy import select

from db.models import CoachingItem, Moment, ParkedObservation, Person
from db.store import Store
from desktop.core.enums import Role
from desktop.core.timefmt import format_ms
from desktop.errors import CallmarkError
from desktop.services import items
from desktop.services.changes import ITEMS, MOMENTS, PARKED, Change, change
from desktop.services.lookup import one
from desktop.services.people import local_coach_person, person

__all__ = ["ParkedRow", "park", "list_parked", "get_parked", "promote", "unpark",
           "keep_for_later", "forget", "promote_to_item"]


@dataclass(frozen=True)
class ParkedRow:
    id: int
    manager: str | None
    note: str
    moment_id: int | None
    call_id: int | None
    start_ms: int | None
    speaker: str | None
    quote: str | None
    promoted_item_id: int | None
    created_at: str

    @property
    def label(self) -> str:
        parts = []
        if self.start_ms is not None:
            who = f"{self.speaker}: " if self.speaker else ""
            parts.append(f"{format_ms(self.start_ms)}  {who}“{self.quote or ''}”")
        if self.note:
            parts.append(self.note)
        return " — ".join(parts) or "(empty)"

    def to_json(self) -> dict:
        return {"id": self.id, "manager": self.manager, "note": self.note, "moment_id": self.moment_id,
                "call_id": self.call_id, "start_ms": self.start_ms, "speaker": self.speaker,
                "quote": self.quote, "promoted_item_id": self.promoted_item_id,
                "created_at": self.created_at}


def _row(p: ParkedObservation, managers: dict[int, str]) -> ParkedRow:
    m = p.moment
    return ParkedRow(
        id=p.id, manager=managers.get(p.manager_id) if p.manager_id else None, note=p.note or "",
        moment_id=m.id if m else None, call_id=m.call_id if m else None,
        start_ms=m.start_ms if m else None, speaker=m.speaker if m else None,
        quote=m.quote if m else None, promoted_item_id=p.promoted_item_id,
        created_at=p.created_at.replace(tzinfo=timezone.utc).isoformat().replace("+00:00", "Z"),
    )


def _managers(session) -> dict[int, str]:
    return dict(session.execute(select(Person.id, Person.name)).all())


def park(store: Store, *, moment_id: int | None = None, note: str = "", manager: str | None = None) -> ParkedRow:
    """Park a moment (and/or a note) on a manager: the call's manager unless one is named."""
    note = (note or "").strip()
    if moment_id is None and not note:
        raise CallmarkError("park: give a moment or write a note of what you noticed")
    with store.write() as session:
        moment = None
        if moment_id is not None:
            moment = one(session, Moment, moment_id)
            if moment.item_id is not None:
                raise CallmarkError(f"moment {moment.id} at {format_ms(moment.start_ms)} already feeds item "
                                    f"{moment.item_id}; a moment that is being coached can't be parked")
            already = session.scalar(select(ParkedObservation.id).where(
                ParkedObservation.moment_id == moment.id, ParkedObservation.promoted_item_id.is_(None)))
            if already is not None:
                raise CallmarkError(f"moment {moment.id} at {format_ms(moment.start_ms)} is already parked "
                                    f"(parked observation {already})")
        owner = person(session, manager, Role.MANAGER) if manager else \
            (moment.call.manager if moment is not None else None)
        if owner is None:
            raise CallmarkError("park: name the manager this observation is for (the call has no manager)")
        parked = ParkedObservation(manager_id=owner.id, coach_id=local_coach_person(session).id,
                                   moment=moment, note=note)
        session.add(parked)
        session.flush()
        return _row(parked, _managers(session))


def list_parked(store: Store, manager: str | None = None, *, include_promoted: bool = False) -> list[ParkedRow]:
    """Parked observations, oldest first (the order they were noticed)."""
    with store.read() as session:
        query = select(ParkedObservation)
        if manager is not None:
            ids = session.scalars(select(Person.id).where(Person.name == manager.strip())).all()
            query = query.where(ParkedObservation.manager_id.in_(ids))
        if not include_promoted:
            query = query.where(ParkedObservation.promoted_item_id.is_(None))
        managers = _managers(session)
        rows = session.scalars(query.order_by(ParkedObservation.created_at, ParkedObservation.id))
        return [_row(p, managers) for p in rows]


def get_parked(store: Store, parked_id: int) -> ParkedRow:
    with store.read() as session:
        return _row(one(session, ParkedObservation, parked_id), _managers(session))


def promote(store: Store, parked_id: int) -> items.ItemRow:
    """Turn a parked observation into a coaching item for the same manager.

    A parked moment becomes the item's evidence and its note the first draft of
    the consequence; a note alone becomes dated 1:1-note evidence.
    """
    row = get_parked(store, parked_id)
    if row.promoted_item_id is not None:
        raise CallmarkError(f"parked observation {parked_id}: already promoted to item {row.promoted_item_id}")
    if row.moment_id is not None:
        item = items.create_item(store, [row.moment_id], manager=row.manager, consequence=row.note)
    else:
        item = items.create_item(store, [], manager=row.manager)
        item = items.add_evidence(store, item.id, "note", row.note, row.created_at[:10])
    with store.write() as session:
        session.get(ParkedObservation, parked_id).promoted_item_id = item.id
    return item


def unpark(store: Store, parked_id: int) -> None:
    """Forget a parked observation (the moment itself stays)."""
    with store.write() as session:
        session.delete(one(session, ParkedObservation, parked_id))


# --- operations: parking as a coach edit, with undo (desktop.services.changes) ---------------------


def keep_for_later(store: Store, *, moment_id: int | None = None, note: str = "",
                   manager: str | None = None) -> Change:
    """Park a moment and/or a note (``park``); undo forgets it."""
    return _parked(park(store, moment_id=moment_id, note=note, manager=manager), "Park for later")


def _parked(row: ParkedRow, label: str) -> Change:
    return change(label, PARKED, call_id=row.call_id, ids=[row.id], row=row,
                  undo=lambda s: forget(s, row.id))


def forget(store: Store, parked_id: int) -> Change:
    """Forget a parked observation (``unpark``); undo parks it again, the same row."""
    with store.read() as session:
        parked = one(session, ParkedObservation, parked_id)
        saved = {c.key: getattr(parked, c.key) for c in ParkedObservation.__table__.columns}
        call_id = parked.moment.call_id if parked.moment is not None else None
    unpark(store, parked_id)
    return change("Forget parked observation", PARKED, call_id=call_id, ids=[parked_id],
                  undo=lambda s: _parked(_restore(s, saved), "Park again"))


def _restore(store: Store, saved: dict) -> ParkedRow:
    with store.write() as session:
        session.add(ParkedObservation(**saved))
    return get_parked(store, saved["id"])


def promote_to_item(store: Store, parked_id: int) -> Change:
    """Make a parked observation a coaching item (``promote``); undo deletes that item and parks
    the observation again."""
    row = promote(store, parked_id)
    moment_ids = [m.id for m in row.moments]
    return change("Promote to item", PARKED, ITEMS, MOMENTS, call_id=get_parked(store, parked_id).call_id,
                  ids=[parked_id, row.id, *moment_ids], row=row,
                  undo=lambda s: _unpromote(s, parked_id, row.id))


def _unpromote(store: Store, parked_id: int, item_id: int) -> Change:
    with store.write() as session:
        one(session, ParkedObservation, parked_id).promoted_item_id = None
        item = one(session, CoachingItem, item_id)
        moment_ids = [m.id for m in item.moments]
        for moment in item.moments:
            moment.item_id = None
        session.delete(item)
    return change("Take back the promotion", PARKED, ITEMS, MOMENTS, call_id=get_parked(store, parked_id).call_id,
                  ids=[parked_id, item_id, *moment_ids], undo=lambda s: promote_to_item(s, parked_id))
