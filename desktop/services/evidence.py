"""Evidence on a coaching item as coach edits: cite moments, add a 1:1 note, remove either.

Each operation writes through the items service (one transaction each) and
returns a ``Change`` (desktop.services.changes) whose ``undo`` takes it back:
a removed evidence row comes back with its id, a cited moment is freed again.
A CRM field is cited with ``crm_evidence.cite``, which undoes through ``remove``.
"""

from __future__ import annotations

from datetime import date

from db.models import CoachingItem, ItemEvidence
from db.store import Store
from desktop.core.words import plural
from desktop.errors import NotFound
from desktop.services import items
from desktop.services.changes import ITEMS, MOMENTS, Change, change
from desktop.services.lookup import one


def cite_moments(store: Store, item_id: int, moment_ids: list[int]) -> Change:
    """Cite moments on an item (``items.add_moments``); undo frees them again."""
    new = [int(m) for m in moment_ids]
    before = {m.id for m in items.get_item(store, item_id).moments}
    row = items.add_moments(store, item_id, new)
    added = [m for m in new if m not in before]
    return change(f"Cite {plural(len(new), 'moment')}", ITEMS, MOMENTS, call_id=_call_of(row, added),
                  ids=[item_id, *added], row=row, undo=lambda s: _uncite(s, item_id, added))


def uncite_moment(store: Store, item_id: int, moment_id: int) -> Change:
    """Take a moment off an item (``items.remove_moment``); undo cites it again."""
    call_id = _call_of(items.get_item(store, item_id), [moment_id])
    row = items.remove_moment(store, item_id, moment_id)
    return change("Remove moment from item", ITEMS, MOMENTS, call_id=call_id, ids=[item_id, moment_id],
                  row=row, undo=lambda s: cite_moments(s, item_id, [moment_id]))


def _uncite(store: Store, item_id: int, moment_ids: list[int]) -> Change:
    call_id = _call_of(items.get_item(store, item_id), moment_ids)
    row = None
    for moment_id in moment_ids:
        row = items.remove_moment(store, item_id, moment_id)
    return change(f"Remove {plural(len(moment_ids), 'moment')} from item", ITEMS, MOMENTS, call_id=call_id,
                  ids=[item_id, *moment_ids], row=row or items.get_item(store, item_id),
                  undo=lambda s: cite_moments(s, item_id, moment_ids))


def _call_of(row: items.ItemRow, moment_ids: list[int]) -> int | None:
    # The moments list of that call shows which item a moment feeds: it refreshes for this change.
    calls = {m.call_id for m in row.moments if m.id in moment_ids}
    return calls.pop() if len(calls) == 1 else None


def add_note(store: Store, item_id: int, text: str, on_date: date | str | None) -> Change:
    """Add a dated 1:1 note as evidence (``items.add_evidence``); undo removes it."""
    before = {e.id for e in items.get_item(store, item_id).evidence}
    row = items.add_evidence(store, item_id, "note", text, on_date)
    evidence_id = next(e.id for e in row.evidence if e.id not in before)
    return added(row, evidence_id, "Add 1:1 note")


def added(row: items.ItemRow, evidence_id: int, label: str) -> Change:
    """The Change of evidence just written on an item: undo removes it."""
    return change(label, ITEMS, ids=[row.id], row=row, undo=lambda s: remove(s, row.id, evidence_id))


def remove(store: Store, item_id: int, evidence_id: int) -> Change:
    """Remove evidence from an item; undo puts the same row back (its id, text, date, field)."""
    with store.read() as session:
        found = session.get(ItemEvidence, int(evidence_id))
        if found is None or found.item_id != int(item_id):
            raise NotFound(f"evidence {evidence_id}: not cited by item {item_id}")
        saved = {c.key: getattr(found, c.key) for c in ItemEvidence.__table__.columns}
    row = items.remove_evidence(store, item_id, evidence_id)
    return change("Remove evidence", ITEMS, ids=[item_id], row=row,
                  undo=lambda s: added(_restore(s, saved), saved["id"], "Restore evidence"))


def _restore(store: Store, saved: dict) -> items.ItemRow:
    with store.write() as session:
        one(session, CoachingItem, saved["item_id"])
        session.add(ItemEvidence(**saved))
    return items.get_item(store, saved["item_id"])
