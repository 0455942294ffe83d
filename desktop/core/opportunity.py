"""The fields of a CRM opportunity, declared once.

``OpportunityFields`` is the one declaration: each field's type, its label in the coach's words,
whether a change to it adds a history entry, and whether a coach may cite it as evidence. The
export's row (exchange.crm_csv), the plan's snapshot (exchange.crm_plan) and the service's
``OpportunityInfo`` are these fields plus their own; the lists the import, the history and the
evidence use are derived here. (The store's columns are in db.models.crm; a test checks they hold
each of these.)
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from datetime import date


def _field(label: str, *, history: bool = False, citable: bool = False):
    return dataclasses.field(default=None, metadata={"label": label, "history": history, "citable": citable})


@dataclass(frozen=True, kw_only=True)
class OpportunityFields:
    """What an export says of an opportunity (None: an empty cell, or no such column)."""

    name: str | None = _field("Name")
    account: str | None = _field("Account")
    stage: str | None = _field("Stage", history=True, citable=True)
    next_step: str | None = _field("Next step", history=True, citable=True)
    next_step_date: date | None = _field("Next step date", history=True, citable=True)
    close_date: date | None = _field("Close date", citable=True)
    owner: str | None = _field("Owner")


_DECLARED = dataclasses.fields(OpportunityFields)

#: every field, in the order a preview and a listing show them (what an import compares and writes)
NAMES: tuple[str, ...] = tuple(f.name for f in _DECLARED)
#: the coach's words for each
LABELS: dict[str, str] = {f.name: f.metadata["label"] for f in _DECLARED}
#: the fields holding a day
DATES: tuple[str, ...] = tuple(f.name for f in _DECLARED if f.type in ("date | None", date))
#: a change to one of these adds a history entry
HISTORY: tuple[str, ...] = tuple(f.name for f in _DECLARED if f.metadata["history"])
#: what a coach may cite as evidence in a coaching item, with its label
CITABLE: dict[str, str] = {f.name: f.metadata["label"] for f in _DECLARED if f.metadata["citable"]}
#: the next step and its date (a change to either is a new next step)
NEXT_STEP: tuple[str, ...] = ("next_step", "next_step_date")


def values(source) -> dict:
    """The declared fields of any object that has them (a stored opportunity, a row, a snapshot)."""
    return {name: getattr(source, name) for name in NAMES}
