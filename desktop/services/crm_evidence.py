"""CRM fields as evidence in a coaching item: a field of an opportunity, as of its latest import."""

from __future__ import annotations

from datetime import date

from db.models import CoachingItem, ItemEvidence, Opportunity
from db.store import Store
from desktop.errors import CallmarkError
from desktop.services import evidence, items
from desktop.services.changes import Change
from desktop.services.crm import CITABLE_FIELDS, CRM_LABELS
from desktop.services.lookup import one


def _field_text(opp: Opportunity, name: str) -> str:
    value = getattr(opp, name)
    if name == "next_step" and opp.next_step_date is not None and value:
        return f"{value} (by {opp.next_step_date.isoformat()})"
    return value.isoformat() if isinstance(value, date) else (value or "")


def cite_crm_evidence(store: Store, item_id: int, opportunity_id: int, field_name: str) -> int:
    """Cite a CRM field of an opportunity, as of its latest import, as evidence in an item.

    Returns the new evidence id. The text names the CRM, the field and the
    opportunity; the date is the day of the import that last saw the value.
    """
    if field_name not in CITABLE_FIELDS:
        raise CallmarkError(f"CRM field {field_name!r}: cite one of {', '.join(CITABLE_FIELDS)}")
    with store.write() as session:
        item = one(session, CoachingItem, int(item_id))
        opp = one(session, Opportunity, int(opportunity_id))
        value = _field_text(opp, field_name)
        if not value:
            raise CallmarkError(f"opportunity {opp.external_id} ({opp.name}): the "
                                f"{CITABLE_FIELDS[field_name].lower()} is empty, nothing to cite")
        label = CRM_LABELS.get(opp.crm, "CRM")
        text = f"{label} {CITABLE_FIELDS[field_name].lower()} of {opp.name or opp.external_id}: {value}"
        evidence = ItemEvidence(kind="crm", text=text, on_date=opp.updated_at.date(),
                                opportunity_id=opp.id, field=field_name)
        item.evidence.append(evidence)
        session.flush()
        return evidence.id


def cite(store: Store, item_id: int, opportunity_id: int, field_name: str) -> Change:
    """Cite a CRM field as a coach edit (``cite_crm_evidence``); undo removes the evidence."""
    evidence_id = cite_crm_evidence(store, item_id, opportunity_id, field_name)
    return evidence.added(items.get_item(store, item_id), evidence_id,
                          f"Cite the CRM {CITABLE_FIELDS[field_name].lower()}")
