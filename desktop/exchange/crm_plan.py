"""What importing an export would do to the opportunities already stored.

`plan_import` is pure: it compares a parsed export with snapshots of the
stored opportunities and says which rows create, update (with the changed
fields) or leave things unchanged. The preview and `--json` summary come from
the plan; the store applies it only after the coach (or `--dry-run` absent)
says so.

Only columns present in the export are compared: an export without a Next Step
column says nothing about next steps, so it must not clear them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime

from desktop.core import opportunity
from desktop.core.enums import Crm
from desktop.core.opportunity import OpportunityFields
from desktop.exchange.crm_csv import OpportunityRow, ParsedExport

#: Fields an import may change, in the order a preview lists them (all the declared ones).
COMPARED_FIELDS = opportunity.NAMES
NEXT_STEP_FIELDS = opportunity.NEXT_STEP


@dataclass(frozen=True)
class OpportunitySnapshot(OpportunityFields):
    """An opportunity as the store holds it now (plain data, no session): its id, the declared
    fields, and the CRM time of its latest history entry."""

    external_id: str
    last_modified: datetime | None = None


@dataclass(frozen=True)
class FieldChange:
    field: str
    old: object
    new: object


@dataclass(frozen=True)
class PlannedUpdate:
    row: OpportunityRow
    changes: tuple[FieldChange, ...]

    @property
    def next_step_changed(self) -> bool:
        """True when the store must add a next-step history entry."""
        return any(c.field in NEXT_STEP_FIELDS for c in self.changes)


@dataclass
class ImportPlan:
    crm: Crm
    source: str
    created: list[OpportunityRow] = field(default_factory=list)
    updated: list[PlannedUpdate] = field(default_factory=list)
    unchanged: list[OpportunityRow] = field(default_factory=list)
    #: rows older than what is stored (by Last Modified Date): left as they are
    older: list[OpportunityRow] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    #: the order day/month dates are read in (None: the export has no such dates), and why
    day_first: bool | None = None
    day_first_reason: str = ""
    #: (line, cell, close date as read) where the order decides the date
    date_samples: list[tuple[int, str, date]] = field(default_factory=list)

    def summary(self) -> dict[str, object]:
        """The `callmark crm import --json` object. Older rows count as unchanged:
        nothing is written for them. "dates" is there when the order of day and month
        decides some close date (03/04/2026), to show which order was read."""
        out: dict[str, object] = {"crm": str(self.crm), "created": len(self.created),
                                  "updated": len(self.updated),
                                  "unchanged": len(self.unchanged) + len(self.older),
                                  "errors": len(self.errors)}
        if self.day_first is not None and self.date_samples:
            out["dates"] = {"order": date_order_name(self.day_first), "why": self.day_first_reason,
                            "examples": [{"line": line, "cell": cell, "read_as": when.isoformat()}
                                         for line, cell, when in self.date_samples]}
        return out

    @property
    def writes_anything(self) -> bool:
        return bool(self.created or self.updated)


def _same(old: object, new: object) -> bool:
    # An empty cell and a missing value are the same thing to a coach.
    return (old or None) == (new or None)


def _comparable(a: datetime, b: datetime) -> bool:
    return (a.tzinfo is None) == (b.tzinfo is None)


def plan_import(parsed: ParsedExport,
                existing: dict[str, OpportunitySnapshot]) -> ImportPlan:
    """Compare an export with the stored opportunities of the same CRM, keyed by id."""
    plan = ImportPlan(parsed.crm, parsed.source, warnings=list(parsed.warnings),
                      day_first=parsed.day_first, day_first_reason=parsed.day_first_reason,
                      date_samples=list(parsed.ambiguous_dates))
    compared = [f for f in COMPARED_FIELDS if f in parsed.columns]
    for row in parsed.rows:
        old = existing.get(row.external_id)
        if old is None:
            plan.created.append(row)
            continue
        if (row.last_modified and old.last_modified
                and _comparable(row.last_modified, old.last_modified)
                and row.last_modified < old.last_modified):
            plan.older.append(row)
            continue
        changes = tuple(FieldChange(f, getattr(old, f), getattr(row, f))
                        for f in compared if not _same(getattr(old, f), getattr(row, f)))
        if changes:
            plan.updated.append(PlannedUpdate(row, changes))
        else:
            plan.unchanged.append(row)
    if plan.older:
        plan.warnings.append(
            f"{len(plan.older)} opportunities in this export are older than the stored ones "
            f"(by Last Modified Date) and are left as they are, e.g. {plan.older[0].external_id}")
    return plan


def _show(value: object) -> str:
    if value is None or value == "":
        return "(empty)"
    if isinstance(value, (date, datetime)):
        return value.isoformat()
    return repr(str(value))


def preview_lines(plan: ImportPlan) -> list[str]:
    """One line per opportunity that would change, for the preview before writing."""
    lines = []
    for row in plan.created:
        step = f", next step {_show(row.next_step)}" if row.next_step else ""
        when = f" by {row.next_step_date.isoformat()}" if row.next_step_date else ""
        lines.append(f"create {row.external_id} {_show(row.name)}"
                     f" (stage {_show(row.stage)}{step}{when})")
    for upd in plan.updated:
        diffs = "; ".join(f"{c.field.replace('_', ' ')} {_show(c.old)} -> {_show(c.new)}"
                          for c in upd.changes)
        lines.append(f"update {upd.row.external_id} {_show(upd.row.name)}: {diffs}")
    return lines


def date_order_name(day_first: bool) -> str:
    return "day/month" if day_first else "month/day"


def date_order_lines(plan: ImportPlan, flip: str | None = None) -> list[str]:
    """How the export's day/month dates are read, with close dates as they will be stored,
    so the coach can flip the order before anything is written (`flip`: how, in words)."""
    if plan.day_first is None or not plan.date_samples:
        return []
    other = flip or f"reading dates as {date_order_name(not plan.day_first)}"
    lines = [f"dates read as {date_order_name(plan.day_first)} ({plan.day_first_reason})"]
    for line, cell, when in plan.date_samples:
        lines.append(f"  line {line}: close date {cell} -> {when.strftime('%d %B %Y').lstrip('0')}")
    lines.append(f"  if these are wrong, preview again {other}")
    return lines
