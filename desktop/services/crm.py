"""CRM evidence beside the call: import opportunity exports, link calls, check next steps.

The export is parsed and planned entirely before the store is touched
(`desktop.exchange.crm_csv`, `crm_plan`); `apply_import` then writes the whole
plan in one transaction, so a refused file leaves the store as it was.

When is a next step "as of"? Each history entry (OpportunitySnapshot) is dated
by the row's Last Modified Date when the export has that column (the CRM's own
time for the state the row shows, in UTC), and by the time of the import when
it doesn't. The CRM time is the better one: a next step typed the day before
the call but imported a week after it must not count as recorded after the
call. Every import also notes when it last saw each opportunity
(`Opportunity.updated_at`), so an import after the call that finds the next
step unchanged is a conclusive "not recorded", not a missing import.

A history entry is added when an import creates an opportunity, and whenever
the next step, its date or the stage changes; other fields (owner, close
date...) are updated in place without history.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date, datetime, timezone, tzinfo
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from sqlalchemy import select
from sqlalchemy.orm import Session

from db.base import utcnow
from db.models import Call, Opportunity, OpportunitySnapshot
from db.store import Store
from desktop.core import opportunity
from desktop.core.enums import Crm
from desktop.core.indicators import CrmCheck
from desktop.core.next_step_check import NextStepCheck, NextStepValue, check_next_step_recorded
from desktop.errors import CallmarkError, NotFound
from desktop.exchange.crm_csv import CrmImportError, OpportunityRow, ParsedExport, parse_export
from desktop.exchange.crm_headers import FIELDS, normalize_external_id
from desktop.exchange.crm_links import LinkSuggestion, suggest_opportunities
from desktop.exchange.crm_plan import ImportPlan, plan_import
from desktop.exchange.crm_plan import OpportunitySnapshot as PlannedSnapshot
from desktop.services.changes import CRM, Change, change
from desktop.services.lookup import one
from desktop.services.people import get_setting, set_setting

#: store-side setting: field -> header the coach mapped once (e.g. a custom next-step date)
COLUMNS_SETTING = "crm_columns"
#: fields whose change adds a history entry (declared in desktop.core.opportunity)
HISTORY_FIELDS = opportunity.HISTORY
#: fields a coach can cite as evidence in a coaching item, with their labels
CITABLE_FIELDS = opportunity.CITABLE
CRM_LABELS = {Crm.SALESFORCE: "Salesforce", Crm.HUBSPOT: "HubSpot", Crm.OTHER: "CRM"}


# --- plain data handed to the CLI and the GUI ------------------------------------------------


@dataclass(frozen=True)
class OpportunityInfo(opportunity.OpportunityFields):
    """A stored opportunity: its ids, the declared fields (``name`` is "" when the export had none)
    and when an import last saw it (UTC)."""

    id: int
    crm: str
    external_id: str
    last_seen: datetime

    @property
    def crm_label(self) -> str:
        return CRM_LABELS.get(Crm(self.crm), self.crm)

    def to_json(self) -> dict:
        keys = ("id", "crm", "external_id", *opportunity.NAMES, "last_seen")
        return {k: (v.isoformat() if isinstance(v, (date, datetime)) else v)
                for k, v in ((k, getattr(self, k)) for k in keys)}


@dataclass(frozen=True)
class HistoryEntry:
    """The stage and next step as one import saw them."""

    as_of: datetime
    stage: str | None
    next_step: str | None
    next_step_date: date | None
    source_file: str | None
    #: True when dated after the call (False: before or on the call's day)
    after_call: bool | None = None

    def to_json(self) -> dict:
        return {"as_of": self.as_of.isoformat(), "stage": self.stage, "next_step": self.next_step,
                "next_step_date": self.next_step_date.isoformat() if self.next_step_date else None,
                "source_file": self.source_file, "after_call": self.after_call}


@dataclass(frozen=True)
class CallOpportunity:
    """What the workspace shows beside a call: its opportunity, history and next-step check."""

    call_id: int
    call_at: datetime | None
    opportunity: OpportunityInfo
    history: list[HistoryEntry]
    check: NextStepCheck

    def to_json(self) -> dict:
        return {"call_id": self.call_id,
                "call_at": self.call_at.isoformat() if self.call_at else None,
                "opportunity": self.opportunity.to_json(),
                "history": [h.to_json() for h in self.history],
                "next_step_check": check_json(self.check)}


def check_json(check: NextStepCheck) -> dict:
    value = check.value
    return {"recorded": check.recorded, "conclusive": check.conclusive, "reason": check.reason,
            "value": None if value is None else {
                "as_of": value.as_of.isoformat(), "next_step": value.next_step,
                "next_step_date": value.next_step_date.isoformat() if value.next_step_date else None}}


@dataclass
class ImportResult:
    plan: ImportPlan
    #: ids (store) of the opportunities created or updated
    written: list[int] = field(default_factory=list)
    history_added: int = 0


# --- import ---------------------------------------------------------------------------------------


def remembered_columns(store: Store) -> dict[str, str]:
    with store.read() as session:
        value = get_setting(session, COLUMNS_SETTING) or {}
    return {str(k): str(v) for k, v in dict(value).items() if v}


def remember_columns(store: Store, mapping: Mapping[str, str] | None) -> dict[str, str]:
    """Remember field -> header for the next imports; an empty header forgets that field."""
    mapping = dict(mapping or {})
    unknown = sorted(set(mapping) - set(FIELDS))
    if unknown:
        raise CallmarkError(f"column mapping: unknown field {unknown[0]!r} "
                            f"(fields: {', '.join(FIELDS)})")
    current = remembered_columns(store)
    for name, header in mapping.items():
        header = (header or "").strip()
        if header:
            current[name] = header
        else:
            current.pop(name, None)
    with store.write() as session:
        set_setting(session, COLUMNS_SETTING, current)
    return current


def _naive_utc(value: datetime | None, time_zone: tzinfo | None = None) -> datetime | None:
    """UTC without tzinfo, as the store keeps times. A time without an offset is in
    `time_zone` (the coach's choice at import), else in the machine's own zone."""
    if value is None:
        return None
    if value.tzinfo is None:
        value = value.replace(tzinfo=time_zone) if time_zone is not None else value.astimezone()
    return value.astimezone(timezone.utc).replace(tzinfo=None)


def parse_time_zone(name: str | None) -> tzinfo | None:
    """An IANA zone name ("Europe/Amsterdam", "UTC"); None or "" is the machine's zone."""
    if not name:
        return None
    try:
        return ZoneInfo(name.strip())
    except (ZoneInfoNotFoundError, ValueError):
        raise CallmarkError(f"time zone {name!r}: not a known zone name "
                            "(e.g. Europe/Amsterdam, America/New_York, UTC)") from None


def read_export(path: str | Path, crm: Crm | str | None = None,
                columns: Mapping[str, str] | None = None, day_first: bool | None = None,
                *, remembered: Mapping[str, str] | None = None) -> ParsedExport:
    """Parse an export without the store (safe off the GUI thread).

    columns: the coach's mapping for this import (a missing header is an error);
    remembered: the stored mapping, used when `columns` is None and dropped,
    with a warning, when this file lacks one of its headers.
    """
    if columns is not None:
        return parse_export(path, crm=crm, columns=columns or None, day_first=day_first)
    remembered = dict(remembered or {})
    try:
        return parse_export(path, crm=crm, columns=remembered or None, day_first=day_first)
    except CrmImportError as exc:
        # A remembered column belongs to one kind of export; another export may not
        # have it. Read this one without the mapping and say so.
        if not remembered or "mapped to" not in str(exc):
            raise
    parsed = parse_export(path, crm=crm, day_first=day_first)
    shown = ", ".join(f"{h!r} ({f.replace('_', ' ')})" for f, h in remembered.items())
    parsed.warnings.append(f"the remembered column {shown} is not in this export; "
                           "imported without it")
    return parsed


def _parse(store: Store, path, crm, columns, day_first) -> ParsedExport:
    remembered = remembered_columns(store) if columns is None else None
    return read_export(path, crm, columns, day_first, remembered=remembered)


def _snapshots(session: Session, crm: Crm) -> dict[str, PlannedSnapshot]:
    latest: dict[int, datetime] = {}
    for opp_id, as_of in session.execute(
            select(OpportunitySnapshot.opportunity_id, OpportunitySnapshot.as_of)
            .join(Opportunity).where(Opportunity.crm == crm)):
        if opp_id not in latest or as_of > latest[opp_id]:
            latest[opp_id] = as_of
    out = {}
    for o in session.scalars(select(Opportunity).where(Opportunity.crm == crm)):
        out[o.external_id] = PlannedSnapshot(
            o.external_id, last_modified=latest.get(o.id), **{**opportunity.values(o), "name": o.name or None})
    return out


def _plan(session: Session, parsed: ParsedExport, time_zone: tzinfo | None = None) -> ImportPlan:
    # Compare CRM times in UTC, as the store keeps them; the parsed export stays as read.
    in_utc = dataclasses.replace(parsed, rows=[
        dataclasses.replace(r, last_modified=_naive_utc(r.last_modified, time_zone))
        for r in parsed.rows])
    plan = plan_import(in_utc, _snapshots(session, parsed.crm))
    if parsed.naive_times:
        plan.warnings.append(f"Last Modified Date times have no time zone: read as "
                             f"{zone_name(time_zone)} and stored in UTC")
    return plan


def zone_name(time_zone: tzinfo | None) -> str:
    if time_zone is None:
        return f"this computer's time zone ({datetime.now().astimezone().tzname()})"
    return str(time_zone)


def preview_import(store: Store, path: str | Path, crm: Crm | str | None = None,
                   columns: Mapping[str, str] | None = None,
                   day_first: bool | None = None, *, parsed: ParsedExport | None = None,
                   time_zone: tzinfo | None = None) -> ImportPlan:
    """What importing `path` would create and update. Writes nothing.

    columns: field -> header; None uses the mapping remembered in the store.
    parsed: an export already read with `read_export` (the GUI reads it off its thread).
    time_zone: the zone of times written without an offset (None: the machine's).
    Raises CrmImportError (file and line) for an export Callmark refuses.
    """
    parsed = parsed or _parse(store, path, crm, columns, day_first)
    with store.read() as session:
        return _plan(session, parsed, time_zone)


def _set_fields(opp: Opportunity, row: OpportunityRow, names) -> None:
    for name in names:
        value = getattr(row, name)
        if name == "name":
            value = value or ""
        setattr(opp, name, value)


def apply_import(store: Store, path: str | Path, crm: Crm | str | None = None,
                 columns: Mapping[str, str] | None = None, day_first: bool | None = None,
                 *, now: datetime | None = None, parsed: ParsedExport | None = None,
                 time_zone: tzinfo | None = None) -> ImportResult:
    """Import an export: everything is read and checked first, then written in one transaction.

    now: the import's time (naive UTC; tests script timelines with it).
    parsed: an export already read with `read_export` (what the coach previewed).
    time_zone: the zone of times written without an offset (None: the machine's).
    """
    parsed = parsed or _parse(store, path, crm, columns, day_first)
    imported_at = _naive_utc(now) or utcnow()
    source = str(Path(path).resolve())
    compared = [f for f in opportunity.NAMES if f in parsed.columns]
    with store.write() as session:
        # Planned inside the write transaction: nothing can change between plan and write.
        plan = _plan(session, parsed, time_zone)
        has_next_step = "next_step" in parsed.columns
        dated_by_crm = "last_modified" in parsed.columns
        if plan.errors:
            raise CrmImportError(f"{source}: {plan.errors[0]}")
        result = ImportResult(plan)
        by_id = {o.external_id: o for o in session.scalars(
            select(Opportunity).where(Opportunity.crm == parsed.crm))}
        created = []
        for row in plan.created:
            opp = Opportunity(crm=parsed.crm, external_id=row.external_id, updated_at=imported_at,
                              next_step_seen_at=imported_at if has_next_step else None)
            _set_fields(opp, row, compared)
            opp.history.append(_snapshot(opp, row, imported_at, source, has_next_step, dated_by_crm))
            session.add(opp)
            created.append(opp)
            result.history_added += 1
        for upd in plan.updated:
            opp = by_id[upd.row.external_id]
            _set_fields(opp, upd.row, [c.field for c in upd.changes])
            opp.updated_at = imported_at
            if has_next_step:
                opp.next_step_seen_at = imported_at
            if any(c.field in HISTORY_FIELDS for c in upd.changes):
                opp.history.append(_snapshot(opp, upd.row, imported_at, source, has_next_step,
                                             dated_by_crm))
                result.history_added += 1
        for row in plan.unchanged:
            opp = by_id[row.external_id]
            opp.updated_at = imported_at  # seen again, unchanged
            if has_next_step:
                opp.next_step_seen_at = imported_at
        session.flush()
        result.written = [o.id for o in created] + [by_id[u.row.external_id].id
                                                    for u in plan.updated]
    return result


def _snapshot(opp: Opportunity, row: OpportunityRow, imported_at: datetime, source: str,
              has_next_step: bool, dated_by_crm: bool) -> OpportunitySnapshot:
    return OpportunitySnapshot(as_of=row.last_modified or imported_at, source_file=source,
                               **{f: getattr(opp, f) for f in HISTORY_FIELDS}, next_step_known=has_next_step,
                               dated_by_crm=dated_by_crm and row.last_modified is not None)


# --- opportunities and links -------------------------------------------------------------------


def _info(opp: Opportunity) -> OpportunityInfo:
    return OpportunityInfo(id=opp.id, crm=opp.crm.value, external_id=opp.external_id, last_seen=opp.updated_at,
                           **{**opportunity.values(opp), "name": opp.name or ""})


def list_opportunities(store: Store) -> list[OpportunityInfo]:
    with store.read() as session:
        return [_info(o) for o in session.scalars(
            select(Opportunity).order_by(Opportunity.name, Opportunity.id))]


def _call(session: Session, call_id: int) -> Call:
    call = one(session, Call, int(call_id))
    return call


def find_opportunity(session: Session, ref: str | int) -> Opportunity:
    """By CRM id (a Salesforce 15-character id finds its 18-character form), else by store id."""
    text = str(ref).strip()
    if not text:
        raise CallmarkError("opportunity: give its CRM id (e.g. 0065g00000XyZ1A or 9001)")
    for crm in Crm:
        found = session.scalar(select(Opportunity).where(
            Opportunity.crm == crm, Opportunity.external_id == normalize_external_id(crm, text)))
        if found is not None:
            return found
    if text.lstrip("#").isdigit():
        found = session.get(Opportunity, int(text.lstrip("#")))
        if found is not None:
            return found
    raise NotFound(f"opportunity {text}: no imported opportunity has this id "
                   "(import the CRM export first: callmark crm import FILE)")


def link_call(store: Store, call_id: int, opportunity_ref: str | int) -> OpportunityInfo:
    """Link a call to an opportunity by hand (CRM id, or the store's id)."""
    with store.write() as session:
        call = _call(session, call_id)
        opp = find_opportunity(session, opportunity_ref)
        call.opportunity_id = opp.id
        return _info(opp)


def unlink_call(store: Store, call_id: int) -> None:
    with store.write() as session:
        _call(session, call_id).opportunity_id = None


def suggest_links(store: Store, call_id: int) -> list[LinkSuggestion]:
    """Opportunities whose name or account appears in the call title, best first.

    Each suggestion's `opportunity` is an OpportunityInfo."""
    with store.read() as session:
        title = _call(session, call_id).title
    return suggest_opportunities(title, list_opportunities(store))


# --- the call's opportunity and the next-step check ----------------------------------------------


def _after(as_of: datetime, call_at: datetime | None) -> bool | None:
    # As the check reads it: a date-only CRM time (midnight) on the call's day is before it.
    return None if call_at is None else as_of > call_at


def _history_values(opp: Opportunity) -> list[NextStepValue]:
    values = [NextStepValue(s.as_of, s.next_step, s.next_step_date, s.next_step_known,
                            s.dated_by_crm) for s in opp.history]
    # The last import that saw it unchanged also tells what the next step was then,
    # if that export had a Next step column.
    seen = opp.next_step_seen_at
    values.append(NextStepValue(seen or opp.updated_at, opp.next_step, opp.next_step_date,
                                known=seen is not None, crm_time=False))
    if seen is not None and opp.updated_at > seen:
        values.append(NextStepValue(opp.updated_at, opp.next_step, opp.next_step_date,
                                    known=False, crm_time=False))
    return values


def _check(call: Call) -> NextStepCheck:
    if call.opportunity is None:
        return NextStepCheck(False, "the call is not linked to an opportunity", None, False)
    if call.recorded_at is None:
        return NextStepCheck(False, "the call has no recording date to compare the CRM with",
                             None, False)
    return check_next_step_recorded(call.recorded_at, _history_values(call.opportunity))


def opportunity_for_call(store: Store, call_id: int) -> CallOpportunity | None:
    """The linked opportunity, its history marked before/after the call, and the check."""
    with store.read() as session:
        call = _call(session, call_id)
        opp = call.opportunity
        if opp is None:
            return None
        history = [HistoryEntry(s.as_of, s.stage, s.next_step, s.next_step_date, s.source_file,
                                _after(s.as_of, call.recorded_at))
                   for s in sorted(opp.history, key=lambda s: (s.as_of, s.id))]
        return CallOpportunity(call.id, call.recorded_at, _info(opp), history, _check(call))


def next_step_check(store: Store, call_id: int) -> NextStepCheck:
    """Is a customer-confirmed next step with a date recorded after this call?"""
    with store.read() as session:
        return _check(_call(session, call_id))


def _linked_calls(session: Session, manager: str | None):
    calls = session.scalars(select(Call).where(Call.opportunity_id.is_not(None))
                            .order_by(Call.recorded_at, Call.id)).all()
    if manager:
        calls = [c for c in calls if c.manager is not None and c.manager.name == manager]
    return calls


def inspection_checks(store: Store, manager: str | None = None) -> list[NextStepCheck]:
    """The next-step check for every call linked to an opportunity (one manager's, if given)."""
    with store.read() as session:
        return [_check(c) for c in _linked_calls(session, manager)]


def crm_checks(store: Store, manager: str | None = None) -> list[CrmCheck]:
    """The conclusive checks, dated by the call, as the inspection-quality indicator reads them."""
    with store.read() as session:
        out = []
        for call in _linked_calls(session, manager):
            check = _check(call)
            if check.conclusive and call.recorded_at is not None:
                out.append(CrmCheck(call.recorded_at.date(), check.recorded))
        return out


# --- operations: linking as a coach edit, with undo (desktop.services.changes) ---------------------


def link(store: Store, call_id: int, opportunity_ref: str | int | None) -> Change:
    """Link a call to an opportunity (None: unlink); undo puts back the link it had before."""
    with store.read() as session:
        before = _call(session, call_id).opportunity_id
    if opportunity_ref is None:
        unlink_call(store, call_id)
        row, label = None, "Unlink opportunity"
    else:
        row, label = link_call(store, call_id, opportunity_ref), "Link opportunity"
    return change(label, CRM, call_id=call_id, ids=[call_id], row=row,
                  undo=lambda s: link(s, call_id, before))
