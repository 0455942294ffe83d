"""A CRM import as a coach edit: ``import_export`` returns its Change, whose undo puts every
opportunity of that CRM back as it was before (the ones it created gone, the fields and the
history of the others as they were), in one transaction.

The redo imports the same export again, as read and previewed, at the same import time, so the
history it writes is the one the coach saw the first time.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, tzinfo
from pathlib import Path

from sqlalchemy import delete, select, true

from db.base import utcnow
from db.models import Opportunity, OpportunitySnapshot
from db.store import Store
from desktop.core.enums import Crm
from desktop.exchange.crm_csv import ParsedExport
from desktop.services import crm
from desktop.services.changes import CRM, Change, change

_COLUMNS = [c.key for c in Opportunity.__table__.columns]


def import_export(store: Store, path: str | Path, kind: Crm | str | None = None,
                  columns: Mapping[str, str] | None = None, day_first: bool | None = None, *,
                  now: datetime | None = None, parsed: ParsedExport | None = None,
                  time_zone: tzinfo | None = None) -> Change:
    """``crm.apply_import`` (same arguments); the Change's row is its ImportResult."""
    parsed = parsed or crm.read_export(path, kind, columns, day_first,
                                       remembered=crm.remembered_columns(store) if columns is None else None)
    now = now or utcnow()
    before = _saved(store, parsed.crm)
    result = crm.apply_import(store, path, parsed=parsed, now=now, time_zone=time_zone)
    s = result.plan.summary()
    return change(f"Import CRM export ({s['created']} created, {s['updated']} updated)", CRM,
                  ids=result.written, row=result,
                  undo=lambda st: _put_back(st, parsed.crm, before, path, parsed, now, time_zone))


def _saved(store: Store, kind: Crm) -> tuple[dict[int, dict], set[int]]:
    """Every opportunity of this CRM (its columns) and the ids of their history entries."""
    with store.read() as session:
        opps = {o.id: {k: getattr(o, k) for k in _COLUMNS}
                for o in session.scalars(select(Opportunity).where(Opportunity.crm == kind))}
        history = set(session.scalars(select(OpportunitySnapshot.id).where(
            OpportunitySnapshot.opportunity_id.in_(list(opps))))) if opps else set()
    return opps, history


def _put_back(store: Store, kind: Crm, before: tuple[dict[int, dict], set[int]], path, parsed,
              now, time_zone) -> Change:
    opps, history = before
    touched = []
    with store.write() as session:
        for opp in session.scalars(select(Opportunity).where(Opportunity.crm == kind)).all():
            saved = opps.get(opp.id)
            if saved is None:  # created by the import
                session.delete(opp)
                touched.append(opp.id)
                continue
            changed = [k for k, v in saved.items() if getattr(opp, k) != v]
            for key in changed:
                setattr(opp, key, saved[key])
            if changed:
                touched.append(opp.id)
        if opps:
            session.execute(delete(OpportunitySnapshot).where(
                OpportunitySnapshot.opportunity_id.in_(list(opps)),
                OpportunitySnapshot.id.not_in(list(history)) if history else true()))
        session.expire_all()
    return change("Take back the CRM import", CRM, ids=touched,
                  undo=lambda st: import_export(st, path, parsed=parsed, now=now, time_zone=time_zone))
