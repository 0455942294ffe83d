"""Dates as CRM exports write them.

Accepted: ISO (`2026-12-14`, `2026-12-14 10:00`, `2026-12-14 10:00:00`,
`2026-12-14T10:00:00.000Z`, `2026/12/14`), slashed or dashed day and month
(`12/14/2026`, `14/12/2026`, `12/14/26`, with an optional `10:00 AM`) and
dotted European dates (`14.12.2026`, always day first).

`12/14/2026` vs `14/12/2026`: a slashed date is ambiguous only when both parts
are 12 or less. The order is decided once per file, never per cell: a value
whose first part is over 12 proves day/month, one whose second part is over 12
proves month/day; a file proving both is refused. When nothing proves it, the
caller's `day_first` decides, and it defaults to month/day, the US locale that
Salesforce and HubSpot exports use unless the user changed it.
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta, timezone
from functools import lru_cache

from desktop.errors import CallmarkError

_TIME = r"(?:[T ,]+(\d{1,2}):(\d{2})(?::(\d{2})(?:[.,]\d+)?)?\s*([AaPp]\.?[Mm]\.?)?\s*(Z|[+-]\d{2}:?\d{2})?)?"
_YEAR_FIRST = re.compile(r"^(\d{4})([-/.])(\d{1,2})\2(\d{1,2})" + _TIME + "$")
_PART_FIRST = re.compile(r"^(\d{1,2})([-/.])(\d{1,2})\2(\d{4}|\d{2})" + _TIME + "$")


class DateFormatError(CallmarkError, ValueError):
    """A cell that is not a date in any format an export uses."""


@lru_cache(maxsize=4096)  # exports repeat the same few hundred dates
def date_order_hint(text: str) -> bool | None:
    """True if `text` can only be day/month, False if only month/day, else None."""
    m = _PART_FIRST.match(text.strip())
    if not m:
        return None
    a, b = int(m.group(1)), int(m.group(3))
    if m.group(2) == ".":
        return True
    if a > 12 >= b:
        return True
    if b > 12 >= a:
        return False
    return None


def _time_parts(groups: tuple) -> tuple[int, int, int, timezone | None]:
    hh, mm, ss, ampm, tz = groups
    if hh is None:
        return 0, 0, 0, None
    h, mi, s = int(hh), int(mm), int(ss or 0)
    if ampm:
        pm = ampm[0] in "Pp"
        if not 1 <= h <= 12:
            raise DateFormatError("hour out of range for AM/PM")
        h = (h % 12) + (12 if pm else 0)
    zone = None
    if tz:
        if tz == "Z":
            zone = timezone.utc
        else:
            sign = -1 if tz[0] == "-" else 1
            digits = tz[1:].replace(":", "")
            zone = timezone(sign * timedelta(hours=int(digits[:2]), minutes=int(digits[2:])))
    return h, mi, s, zone


@lru_cache(maxsize=4096)
def parse_crm_timestamp(text: str, *, day_first: bool = False) -> datetime:
    """Parse a date or date-time cell; a date alone gives midnight.

    Keeps the zone when the cell has one (`Z`, `+01:00`), else returns a
    naive datetime in the exporter's local time.
    """
    raw = text.strip()
    m = _YEAR_FIRST.match(raw)
    if m:
        y, mo, d = int(m.group(1)), int(m.group(3)), int(m.group(4))
        rest = m.groups()[4:]
    else:
        m = _PART_FIRST.match(raw)
        if not m:
            raise DateFormatError(f"{raw!r} is not a date")
        a, b, y = int(m.group(1)), int(m.group(3)), int(m.group(4))
        if len(m.group(4)) == 2:
            y += 2000
        d, mo = (a, b) if (day_first or m.group(2) == ".") else (b, a)
        rest = m.groups()[4:]
    try:
        h, mi, s, zone = _time_parts(rest)
        return datetime(y, mo, d, h, mi, s, tzinfo=zone)
    except (ValueError, DateFormatError) as exc:
        order = "day/month" if day_first else "month/day"
        hint = f" (read as {order})" if not _YEAR_FIRST.match(raw) else ""
        raise DateFormatError(f"{raw!r} is not a valid date{hint}") from exc


def parse_crm_date(text: str, *, day_first: bool = False) -> date:
    """Parse a date cell (any time of day in it is dropped)."""
    return parse_crm_timestamp(text, day_first=day_first).date()
