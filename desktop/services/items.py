"""Coaching items: from moments to one behavior, one practice and the next evidence point.

Every field is saved on its own (`update_item(item, field=value)`), so the
editor can write as the coach types. Rules the method sets and this module
keeps:
- a moment feeds one item; an item may cite several moments, from several calls;
- an item holds exactly one behavior: a second one becomes a second item
  (`split_behavior`, or `create_item` from another moment);
- items belong to the manager being coached, the call's manager by default;
  the coach is the local coach.
"""

from __future__ import annotations

import re
from datetime import date, datetime

from sqlalchemy import select
from sqlalchemy.orm import Session
from sqlalchemy.orm.exc import StaleDataError

from db.models import Call, CoachingItem, ItemEvidence, Moment, Person
from db.store import Store
from desktop.core.behaviors import library
from desktop.core.enums import (
    QUALIFICATION_GAPS,
    BehaviorChange,
    ItemStatus,
    PracticeKind,
    Role,
)
from desktop.core.review_rule import ContinueAfter, ReviewRuleError
from desktop.core.specificity import Finding, ItemDraft, check_item
from desktop.core.timefmt import format_ms
from desktop.errors import CallmarkError, NotFound
from desktop.services.changes import ITEMS, MOMENTS, Change, change
from desktop.services.item_rows import CitedMoment, EvidenceRow, ItemRow, item_row
from desktop.services.item_split import split_behavior, split_text
from desktop.services.lookup import one
from desktop.services.people import local_coach_person, person

__all__ = [
    "CitedMoment", "EditConflict", "EvidenceRow", "ItemRow", "TEXT_FIELDS", "create_item", "start", "split", "update_item", "get_item",
    "resolve_item", "list_items", "item_for_moment", "add_moments", "remove_moment", "add_evidence",
    "remove_evidence", "delete_item", "split_behavior", "split_text", "known_behaviors",
    "behavior_library", "draft", "findings", "parse_due",
]

# Fields saved as plain text, one at a time, as the coach types.
TEXT_FIELDS = ("consequence", "behavior_text", "practice_task", "owner_does", "owner_reviews",
               "cadence", "indicator", "next_evidence", "review_rule_text")
OTHER_FIELDS = ("behavior_change", "practice_kind", "next_evidence_due", "continue_after",
                "qualification_gap", "status", "manager", "practice_done")
EVIDENCE_KINDS = ("crm", "note")


def _item(session: Session, item_id: int) -> CoachingItem:
    item = one(session, CoachingItem, item_id)
    return item


def get_item(store: Store, item_id: int) -> ItemRow:
    with store.read() as session:
        return item_row(_item(session, item_id))


_UID = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")


def looks_like_item_ref(ref: str) -> bool:
    text = str(ref).strip()
    return text.isdigit() or bool(_UID.match(text))


def resolve_item(store: Store, ref: str | int) -> ItemRow:
    """An item by its number or its UUID (the id it travels under in a record)."""
    text = str(ref).strip()
    if text.isdigit():
        return get_item(store, int(text))
    with store.read() as session:
        item = session.scalar(select(CoachingItem).where(CoachingItem.uid == text.lower()))
        if item is None:
            raise NotFound(f"item {text}: no such coaching item")
        return item_row(item)


def list_items(store: Store, manager: str | None = None, *, status: str | None = None,
               call_id: int | None = None, include_imported: bool = False) -> list[ItemRow]:
    """Items, newest first; for one manager (by name), status or call when asked."""
    with store.read() as session:
        query = select(CoachingItem)
        if manager is not None:
            ids = session.scalars(select(Person.id).where(Person.name == manager.strip())).all()
            if not ids:
                raise NotFound(f"manager {manager!r}: nobody of that name in this library")
            query = query.where(CoachingItem.manager_id.in_(ids))
        if status is not None:
            query = query.where(CoachingItem.status == ItemStatus(status))
        if not include_imported:
            query = query.where(CoachingItem.imported.is_(False))
        if call_id is not None:
            query = query.where(CoachingItem.id.in_(
                select(Moment.item_id).where(Moment.call_id == call_id, Moment.item_id.is_not(None))))
        items = session.scalars(query.order_by(CoachingItem.created_at.desc(), CoachingItem.id.desc()))
        return [item_row(i) for i in items]


def item_for_moment(store: Store, moment_id: int) -> ItemRow | None:
    """The item a moment feeds, if any."""
    with store.read() as session:
        moment = one(session, Moment, moment_id)
        return item_row(moment.item) if moment.item is not None else None


def known_behaviors(store: Store) -> list[str]:
    """Behaviors already written in this library, most recently changed first."""
    with store.read() as session:
        texts = session.scalars(
            select(CoachingItem.behavior_text).where(CoachingItem.behavior_text != "")
            .order_by(CoachingItem.updated_at.desc(), CoachingItem.id.desc())).all()
    return [t for t in texts if t.strip()]


def behavior_library(store: Store) -> list[str]:
    """The seed's wordings, then those already written here (each once): what the editor offers."""
    return library(known_behaviors(store))


# --- creating and citing ---------------------------------------------------------------


def _free_moment(session: Session, moment_id: int, *, allow_item: int | None = None) -> Moment:
    moment = one(session, Moment, moment_id)
    if moment.item_id is not None and moment.item_id != allow_item:
        other = moment.item
        about = f" (“{_short(other.behavior_text)}”)" if other and other.behavior_text.strip() else ""
        raise CallmarkError(
            f"moment {moment.id} at {format_ms(moment.start_ms)} already feeds item {moment.item_id}{about}; "
            "a moment feeds one item. Open that item, or remove the moment from it first.")
    return moment


def _short(text: str, width: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"


def create_item(store: Store, moment_ids: list[int] | tuple[int, ...] = (), *, manager: str | None = None,
                item_id: int | None = None, **fields) -> ItemRow:
    """A new item citing these moments; fields as in `update_item`.

    The manager defaults to the first moment's call manager; the coach is the
    local coach. Owner defaults: the manager does the practice, the coach reviews it.
    `item_id` brings back an item an undo took away, under its own id (so later redos still find it).
    """
    moment_ids = list(dict.fromkeys(int(m) for m in moment_ids))
    _check_fields(fields)
    with store.write() as session:
        moments = [_free_moment(session, m) for m in moment_ids]
        if manager is not None:
            owner = person(session, manager, Role.MANAGER)
        else:
            owner = next((m.call.manager for m in moments if m.call and m.call.manager), None)
        if not moments and owner is None:
            raise CallmarkError("a new item needs a moment to start from, or the manager it is for")
        coach = local_coach_person(session)
        item = CoachingItem(id=item_id, coach=coach, manager=owner, owner_does=owner.name if owner else "",
                            owner_reviews=coach.name)
        session.add(item)
        session.flush()
        for moment in moments:
            moment.item_id = item.id
        for key, value in fields.items():
            _set(session, item, key, value)
        session.flush()
        session.refresh(item)
        return item_row(item)


def add_moments(store: Store, item_id: int, moment_ids: list[int]) -> ItemRow:
    """Cite more moments (from any call); each must not feed another item already."""
    with store.write() as session:
        item = _item(session, item_id)
        for moment_id in moment_ids:
            _free_moment(session, int(moment_id), allow_item=item.id).item_id = item.id
        session.flush()
        session.refresh(item)
        return item_row(item)


def remove_moment(store: Store, item_id: int, moment_id: int) -> ItemRow:
    with store.write() as session:
        item = _item(session, item_id)
        moment = session.get(Moment, moment_id)
        if moment is None or moment.item_id != item.id:
            raise NotFound(f"moment {moment_id}: not cited by item {item_id}")
        moment.item_id = None
        session.flush()
        session.refresh(item)
        return item_row(item)


def add_evidence(store: Store, item_id: int, kind: str, text: str, on_date: date | str | None,
                 *, field: str | None = None) -> ItemRow:
    """Cite a CRM field ("crm") or a 1:1 note ("note"), with the date it was true or written."""
    if kind not in EVIDENCE_KINDS:
        raise CallmarkError(f"evidence kind {kind!r}: use 'crm' (a CRM field) or 'note' (a 1:1 note)")
    if not (text or "").strip():
        raise CallmarkError("evidence: write what the CRM field or the 1:1 note says")
    with store.write() as session:
        item = _item(session, item_id)
        item.evidence.append(ItemEvidence(kind=kind, text=text.strip(), on_date=parse_due(on_date),
                                          field=field))
        session.flush()
        return item_row(item)


def remove_evidence(store: Store, item_id: int, evidence_id: int) -> ItemRow:
    with store.write() as session:
        item = _item(session, item_id)
        found = next((e for e in item.evidence if e.id == evidence_id), None)
        if found is None:
            raise NotFound(f"evidence {evidence_id}: not cited by item {item_id}")
        item.evidence.remove(found)
        session.flush()
        return item_row(item)


def delete_item(store: Store, item_id: int) -> None:
    """Delete an item; its moments are free to feed another one."""
    with store.write() as session:
        item = _item(session, item_id)
        for moment in item.moments:
            moment.item_id = None
        session.delete(item)


def start(store: Store, moment_ids: list[int] | tuple[int, ...] = (), *, manager: str | None = None,
          item_id: int | None = None, **fields) -> Change:
    """Ctrl+I: a new item from these moments (``create_item``); undo takes it away and frees its moments."""
    row = create_item(store, moment_ids, manager=manager, item_id=item_id, **fields)
    cited = tuple(m.id for m in row.moments)

    def undo(s: Store) -> Change:
        delete_item(s, row.id)
        return change("New item", ITEMS, MOMENTS, ids=[row.id],
                      undo=lambda again: start(again, cited, manager=manager, item_id=row.id, **fields))

    return change("New item", ITEMS, MOMENTS, ids=[row.id], row=row, undo=undo)


def split(store: Store, item_id: int, *, new_id: int | None = None) -> Change:
    """One behavior per item: split this item's behavior where a second action joins the first
    (``split_behavior``); the Change's row is (this item, the new one). Undo puts the text back whole."""
    before = get_item(store, item_id).behavior_text
    kept, new = split_behavior(store, item_id, new_id=new_id)

    def undo(s: Store) -> Change:
        delete_item(s, new.id)
        update_item(s, item_id, behavior_text=before)
        return change("Split behavior", ITEMS, ids=[item_id, new.id], undo=lambda again: split(again, item_id,
                                                                                           new_id=new.id))

    return change("Split behavior", ITEMS, ids=[item_id, new.id], row=(kept, new), undo=undo)


# --- editing, one field at a time -------------------------------------------------------


def parse_due(value: date | str | None) -> date | None:
    if value is None or value == "":
        return None
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    try:
        return date.fromisoformat(str(value).strip())
    except ValueError as exc:
        raise CallmarkError(f"date {value!r}: not an ISO date (e.g. 2026-12-14)") from exc


def _continue_after(value) -> ContinueAfter | None:
    if value is None or value == {}:
        return None
    try:
        if isinstance(value, ContinueAfter):
            return ContinueAfter(value.seen_in, value.of_reviewed, value.weeks_in_a_row)
        if isinstance(value, dict):
            return ContinueAfter(int(value["seen_in"]), int(value["of_reviewed"]), int(value["weeks_in_a_row"]))
        seen, of, weeks = value
        return ContinueAfter(int(seen), int(of), int(weeks))
    except ReviewRuleError as exc:
        raise CallmarkError(str(exc)) from exc
    except (KeyError, TypeError, ValueError) as exc:
        raise CallmarkError(
            f"review rule {value!r}: give seen_in, of_reviewed and weeks_in_a_row as whole numbers") from exc


def _enum(enum_cls, value, what: str):
    try:
        return enum_cls(value)
    except ValueError as exc:
        choices = ", ".join(m.value for m in enum_cls)
        raise CallmarkError(f"{what} {value!r}: use one of {choices}") from exc


def _check_fields(fields: dict) -> None:
    unknown = set(fields) - set(TEXT_FIELDS) - set(OTHER_FIELDS)
    if unknown:
        raise CallmarkError(f"not a field of a coaching item: {', '.join(sorted(unknown))}")


def _set(session: Session, item: CoachingItem, key: str, value) -> None:
    if key in TEXT_FIELDS:
        setattr(item, key, "" if value is None else str(value))
    elif key == "behavior_change":
        item.behavior_change = _enum(BehaviorChange, value, "behavior change")
    elif key == "practice_kind":
        item.practice_kind = _enum(PracticeKind, value, "practice")
    elif key == "status":
        item.status = _enum(ItemStatus, value, "status")
    elif key == "next_evidence_due":
        item.next_evidence_due = parse_due(value)
    elif key == "qualification_gap":
        gap = (value or "").strip().lower() or None
        if gap is not None and gap not in QUALIFICATION_GAPS:
            raise CallmarkError(f"qualification gap {value!r}: use meddicc:<criterion> or spiced:<criterion>, "
                                f"e.g. {QUALIFICATION_GAPS[1]} ({', '.join(QUALIFICATION_GAPS)})")
        item.qualification_gap = gap
    elif key == "continue_after":
        rule = _continue_after(value)
        item.continue_seen_in = rule.seen_in if rule else None
        item.continue_of_reviewed = rule.of_reviewed if rule else None
        item.continue_weeks_in_a_row = rule.weeks_in_a_row if rule else None
    elif key == "manager":
        item.manager = person(session, value, Role.MANAGER)
    elif key == "practice_done":
        item.practice_done = bool(value)


def update_item(store: Store, item_id: int, *, expected_version: int | None = None, **fields) -> ItemRow:
    """Save one field (or a few) of an item; everything else stays as it is.

    Text fields: consequence, behavior_text, practice_task, owner_does,
    owner_reviews, cadence, indicator, next_evidence, review_rule_text.
    Others: behavior_change (start/stop/adjust), practice_kind, next_evidence_due
    (date or ISO text, None to clear), continue_after ((N, M, K), a dict or
    None), qualification_gap (meddicc:/spiced: criterion, "" to clear), status
    (open/done/dropped), manager (a name), practice_done.
    With ``expected_version`` (the version the editor opened), a save made since by someone else
    (another coach on a team store, another window) is not overwritten: EditConflict, with both texts.
    """
    _check_fields(fields)
    try:
        with store.write() as session:
            item = _item(session, item_id)
            _check_owner(store, session, item)
            if expected_version is not None and item.version != expected_version:
                raise _Stale
            for key, value in fields.items():
                _set(session, item, key, value)
            try:
                session.flush()
            except StaleDataError:  # saved by another writer between this read and this write
                raise _Stale from None
            return item_row(item)
    except _Stale:
        raise EditConflict(item_id, fields, get_item(store, item_id), expected_version) from None


class _Stale(Exception):
    """The item changed under this save (turned into EditConflict once the transaction is gone)."""


class EditConflict(CallmarkError):
    """Two saves of the same item from the same version: the second is refused, both texts kept.

    ``mine`` holds the fields as this coach typed them (still in the editor), ``theirs`` the item as
    it is now saved; saving again with ``expected_version=theirs.version`` keeps this coach's text.
    """

    def __init__(self, item_id: int, mine: dict, theirs: ItemRow, expected_version: int | None):
        self.item_id, self.mine, self.theirs = item_id, dict(mine), theirs
        fields = ", ".join(sorted(mine))
        since = f"version {expected_version}, now {theirs.version}" if expected_version else f"now {theirs.version}"
        super().__init__(f"item {item_id}: {fields} was saved by someone else since you opened it ({since}); "
                         "nothing was overwritten: your text is kept in the editor, theirs in the store")


def _check_owner(store: Store, session: Session, item: CoachingItem) -> None:
    """On a team store, a coach changes only their own items (the server refuses the rest anyway)."""
    if store.dialect == "sqlite":
        return
    from desktop.services.team import role_of

    me, kind = role_of(session)
    if kind is not None and item.owner_role != me:
        from db.server import Refused

        raise Refused(f"{store.path}: not saved: item {item.id} is {item.owner_role}'s; "
                      "only the coach who made it can change it")


def edit(store: Store, item_id: int, expected_version: int | None = None, **fields) -> Change:
    """Save fields of an item (``update_item``, refused with EditConflict when ``expected_version`` is
    not the item's any more); undo puts the old values back."""
    before = get_item(store, item_id)
    old = {k: getattr(before, k) for k in fields}
    row = update_item(store, item_id, expected_version=expected_version, **fields)
    name = next(iter(fields)).replace("_", " ") if len(fields) == 1 else "item"
    return change(f"Edit {name}", ITEMS, ids=[item_id], row=row, undo=lambda s: edit(s, item_id, **old))


# --- the specificity check --------------------------------------------------------------


def draft(item: ItemRow) -> ItemDraft:
    """The item as the Qt-free check reads it."""
    return ItemDraft(
        moments=[(m.start_ms, m.quote) for m in item.moments],
        notes=[(e.text, e.on_date) for e in item.evidence],
        consequence=item.consequence,
        behavior_change=BehaviorChange(item.behavior_change) if item.behavior_change else None,
        behavior_text=item.behavior_text,
        practice_kind=PracticeKind(item.practice_kind) if item.practice_kind else None,
        practice_task=item.practice_task,
        owner_does=item.owner_does, owner_reviews=item.owner_reviews,
        next_evidence=item.next_evidence, next_evidence_due=item.next_evidence_due,
        created_on=date.fromisoformat(item.created_at[:10]) if item.created_at else None,
    )


def findings(item: ItemRow) -> list[Finding]:
    return check_item(draft(item))


def call_manager(store: Store, call_id: int) -> str | None:
    with store.read() as session:
        call = one(session, Call, call_id)
        return call.manager.name if call.manager else None
