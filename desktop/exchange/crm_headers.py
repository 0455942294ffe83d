"""Which column of a CRM opportunity export holds which field.

Salesforce report exports use column labels (`Opportunity ID`), Data Loader
exports use API names (`Id`, often upper-cased to `ID`), HubSpot uses labels or
internal names (`Record ID` / `hs_object_id`). Headers are compared after
`normalize_header`, so case, surrounding or doubled whitespace and a stray
byte-order mark never matter.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from desktop.core import opportunity
from desktop.core.enums import Crm
from desktop.errors import CallmarkError

#: The fields Callmark reads from an opportunity export, in display order: the id, the declared
#: fields (desktop.core.opportunity) and when the CRM last changed the row.
FIELDS = ("external_id", *opportunity.NAMES, "last_modified")
DATE_FIELDS = (*opportunity.DATES, "last_modified")

# Aliases in order of preference: when an export has two columns for one field
# (Account.Name and AccountId), the earlier alias wins.
SALESFORCE_HEADERS: dict[str, tuple[str, ...]] = {
    "external_id": ("Opportunity ID", "Id"),
    "name": ("Opportunity Name", "Name"),
    "account": ("Account Name", "Account.Name", "AccountId", "Account ID"),
    "stage": ("Stage", "StageName"),
    "next_step": ("Next Step", "NextStep"),
    # Salesforce has no standard next-step date; these are the usual custom
    # names. Anything else is mapped by the coach once (see `columns=`).
    "next_step_date": ("Next Step Date", "Next_Step_Date__c"),
    "close_date": ("Close Date", "CloseDate"),
    "owner": ("Opportunity Owner", "Owner.Name", "Owner Name", "OwnerId", "Owner ID"),
    "last_modified": ("Last Modified Date", "LastModifiedDate"),
}

HUBSPOT_HEADERS: dict[str, tuple[str, ...]] = {
    "external_id": ("Record ID", "hs_object_id", "Deal ID"),
    "name": ("Deal Name", "dealname"),
    "account": ("Associated Company", "Associated Company (Primary)", "Company name"),
    "stage": ("Deal Stage", "dealstage"),
    "next_step": ("Next step", "hs_next_step"),
    # HubSpot deals have no next-step date; the next scheduled activity is the
    # closest thing the export carries.
    "next_step_date": ("Next activity date", "notes_next_activity_date"),
    "close_date": ("Close Date", "closedate"),
    "owner": ("Deal owner", "hubspot_owner_id"),
    "last_modified": ("Last Modified Date", "hs_lastmodifieddate"),
}

HEADERS_BY_CRM: dict[Crm, dict[str, tuple[str, ...]]] = {
    Crm.SALESFORCE: SALESFORCE_HEADERS,
    Crm.HUBSPOT: HUBSPOT_HEADERS,
}

# Columns that hold ids rather than names: fine to store, useless for
# suggesting links from a call title, so the import says so.
ID_VALUED_HEADERS = {"accountid", "account id", "ownerid", "owner id", "hubspot_owner_id"}


_SF_ID15 = re.compile(r"^[A-Za-z0-9]{15}$")
_SF_SUFFIX = "ABCDEFGHIJKLMNOPQRSTUVWXYZ012345"
_UPPER_AS_BITS = str.maketrans({chr(c): ("1" if chr(c).isupper() else "0")
                                for c in range(128) if chr(c).isalnum()})
# Excel shows long numeric ids as 1.23457E+11 and saves them that way: the id is lost.
EXCEL_MANGLED_ID = re.compile(r"^\d(?:[.,]\d+)?E\+\d+$", re.IGNORECASE)


def normalize_external_id(crm: Crm | str, text: str) -> str:
    """The id as Callmark stores it.

    Salesforce reports export 15-character, case-sensitive ids and Data
    Loader 18-character ones for the same record; both become the 18-character
    form so re-importing with the other tool updates rather than duplicates.
    """
    text = text.strip()
    if Crm(crm) is Crm.SALESFORCE and _SF_ID15.match(text):
        # Each 5-character chunk's upper-case letters, as bits (first char = lowest bit).
        mask = text.translate(_UPPER_AS_BITS)
        return text + "".join(_SF_SUFFIX[int(mask[i:i + 5][::-1], 2)] for i in (0, 5, 10))
    return text


def normalize_header(text: str) -> str:
    """Case-, whitespace- and BOM-insensitive form of a header."""
    return " ".join(text.replace("\ufeff", "").split()).casefold()


def _hubspot_company_column(norm: str) -> bool:
    # HubSpot names association columns "Associated Company", "Associated
    # Company (Primary)", "Associated Company Name"...; the "...IDs" ones hold ids.
    return norm.startswith("associated company") and not norm.rstrip(")").endswith(("id", "ids"))


@dataclass
class ColumnMatch:
    """The outcome of matching a header row: the CRM and field -> column index."""

    crm: Crm
    indexes: dict[str, int]
    headers: list[str]
    warnings: list[str] = field(default_factory=list)

    @property
    def columns(self) -> dict[str, str]:
        """field -> the header text as the file spells it."""
        return {f: self.headers[i].replace("\ufeff", "").strip() for f, i in self.indexes.items()}


class HeaderError(CallmarkError, ValueError):
    """A header row Callmark can't use; the reader adds the file and line."""


def _match_profile(norm_headers: Sequence[str], aliases: Mapping[str, tuple[str, ...]],
                   crm: Crm) -> dict[str, int]:
    positions: dict[str, int] = {}
    for i, h in enumerate(norm_headers):
        positions.setdefault(h, i)
    found: dict[str, int] = {}
    for name, names in aliases.items():
        for alias in names:
            i = positions.get(normalize_header(alias))
            if i is not None:
                found[name] = i
                break
    if crm is Crm.HUBSPOT and "account" not in found:
        for i, h in enumerate(norm_headers):
            if _hubspot_company_column(h):
                found["account"] = i
                break
    return found


def count_known_headers(headers: Sequence[str]) -> int:
    """How many cells look like a known CRM header (used to pick the delimiter)."""
    known = {normalize_header(a) for prof in HEADERS_BY_CRM.values()
             for names in prof.values() for a in names}
    return sum(1 for h in headers
               if normalize_header(h) in known or _hubspot_company_column(normalize_header(h)))


def match_columns(headers: Sequence[str], *, crm: Crm | str | None = None,
                  columns: Mapping[str, str] | None = None) -> ColumnMatch:
    """Match a header row to fields, detecting the CRM unless `crm` is given.

    `columns` maps a field to a header the coach chose (for example
    ``{"next_step_date": "Decision Call Date"}``); it overrides the built-in
    names. Raises HeaderError with the headers found when no id column is there.
    """
    norm = [normalize_header(h) for h in headers]
    if crm is not None:
        crm = Crm(crm)
    profiles = ([crm] if crm in HEADERS_BY_CRM
                else list(HEADERS_BY_CRM))  # Crm.OTHER or None: try both
    candidates = [(c, _match_profile(norm, HEADERS_BY_CRM[c], c)) for c in profiles]
    with_id = [(c, m) for c, m in candidates if "external_id" in m]
    custom = dict(columns or {})
    for name in custom:
        if name not in FIELDS:
            raise HeaderError(f"unknown field {name!r} in the column mapping "
                              f"(fields: {', '.join(FIELDS)})")
    if not with_id and "external_id" not in custom:
        shown = ", ".join(repr(h.replace("\ufeff", "").strip()) for h in headers) or "none"
        expected = sorted({a for c in profiles for a in HEADERS_BY_CRM[c]["external_id"]})
        raise HeaderError(f"no recognisable opportunity id column (expected one of "
                          f"{', '.join(expected)}); headers found: {shown}")
    # Most fields matched wins; Salesforce first on a tie (ids are distinct anyway).
    chosen_crm, found = max(with_id or candidates, key=lambda cm: len(cm[1]))
    if crm is Crm.OTHER:
        chosen_crm = Crm.OTHER
    indexes = dict(found)
    for name, header in custom.items():
        want = normalize_header(header)
        if want not in norm:
            shown = ", ".join(repr(h.replace("\ufeff", "").strip()) for h in headers)
            raise HeaderError(f"the column {header!r} mapped to {name} is not in the file; "
                              f"headers found: {shown}")
        indexes[name] = norm.index(want)
    match = ColumnMatch(chosen_crm, indexes, list(headers))
    for name in ("account", "owner"):
        if name in indexes and norm[indexes[name]] in ID_VALUED_HEADERS:
            match.warnings.append(
                f"the {name} column {match.columns[name]!r} holds ids, not names"
                + ("; export Account.Name to get link suggestions from call titles"
                   if name == "account" else ""))
    return match
