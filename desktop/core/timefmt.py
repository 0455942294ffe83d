"""Times in a recording as a coach reads and types them.

Times are integer milliseconds from the start of the recording (record-format.md).
`format_ms` writes "mm:ss.mmm" under an hour and "h:mm:ss.mmm" from an hour on;
`parse_time` reads what a coach is likely to type: "39.876", "00:39.876",
"1:02:03", "1:02:03.5", "75s", "1500ms".
"""

from __future__ import annotations

import re

from desktop.errors import CallmarkError

__all__ = ["TimeFormatError", "format_ms", "parse_time"]

_HOUR_MS = 3_600_000


class TimeFormatError(CallmarkError, ValueError):
    """A time a coach typed could not be read."""


def format_ms(ms: int) -> str:
    """00:39.876 for 39876; 1:02:03.500 for 3723500."""
    if isinstance(ms, bool) or not isinstance(ms, int):
        raise TimeFormatError(f"a time must be whole milliseconds, got {ms!r}")
    if ms < 0:
        raise TimeFormatError(f"a time cannot be negative, got {ms} ms")
    hours, rest = divmod(ms, _HOUR_MS)
    minutes, rest = divmod(rest, 60_000)
    seconds, millis = divmod(rest, 1000)
    if hours:
        return f"{hours}:{minutes:02d}:{seconds:02d}.{millis:03d}"
    return f"{minutes:02d}:{seconds:02d}.{millis:03d}"


_NUMBER = r"\d+(?:\.\d*)?|\.\d+"
_SUFFIXED = re.compile(rf"^({_NUMBER})\s*(ms|s|sec|secs|m|min|h)$")
_CLOCK = re.compile(r"^(?:(\d+):)?(\d+):(\d+(?:\.\d*)?)$")
_PLAIN = re.compile(rf"^({_NUMBER})$")
_UNIT_MS = {"ms": 1, "s": 1000, "sec": 1000, "secs": 1000, "m": 60_000, "min": 60_000, "h": _HOUR_MS}


def _seconds_to_ms(text: str) -> int:
    # Decimal arithmetic on the digits avoids float rounding (39.876 -> 39876, not 39875).
    whole, _, frac = text.partition(".")
    frac = (frac + "0000")[:4]
    ms = int(whole or "0") * 1000 + int(frac[:3])
    if int(frac[3]) >= 5:
        ms += 1
    return ms


def parse_time(text: str) -> int:
    """Milliseconds from what a coach typed; TimeFormatError (a ValueError) on anything else."""
    if not isinstance(text, str):
        raise TimeFormatError(f"a time must be text, got {type(text).__name__}")
    cleaned = text.strip().lower()
    if not cleaned:
        raise TimeFormatError("no time given: type e.g. 00:39.876, 39.876 or 75s")
    if m := _SUFFIXED.match(cleaned):
        number, unit = m.groups()
        if unit == "ms":
            if "." in number:
                raise TimeFormatError(f"{text!r} is not a time: milliseconds must be a whole number")
            return int(number)
        return round(_seconds_to_ms(number) * _UNIT_MS[unit] / 1000)
    if m := _PLAIN.match(cleaned):
        return _seconds_to_ms(m.group(1))
    if m := _CLOCK.match(cleaned):
        hours, minutes, seconds = m.groups()
        secs_ms = _seconds_to_ms(seconds)
        if secs_ms >= 60_000:
            raise TimeFormatError(f"{text!r} is not a time: seconds must be below 60")
        if hours is not None and int(minutes) >= 60:
            raise TimeFormatError(f"{text!r} is not a time: minutes must be below 60 when hours are given")
        return int(hours or 0) * _HOUR_MS + int(minutes) * 60_000 + secs_ms
    raise TimeFormatError(
        f"{text!r} is not a time: type e.g. 00:39.876, 1:02:03.5, 39.876 or 75s")
