"""Small pieces of wording the app uses everywhere."""

from __future__ import annotations


def plural(n: int, word: str, many: str | None = None) -> str:
    """"1 moment", "3 moments", "0 moments"; ``many`` for words that do not just take an s."""
    return f"{n} {word if n == 1 else (many or word + 's')}"


def file_name(title: str, recorded_at: str | None, suffix: str) -> str:
    """A file name for an export, from the call: "discovery-acme-logistics-2026-11-20.callmark.json"."""
    import re
    import unicodedata

    plain = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9]+", "-", plain.lower()).strip("-")[:60].strip("-") or "call"
    day = (recorded_at or "")[:10]
    return f"{slug}-{day}{suffix}" if re.fullmatch(r"\d{4}-\d{2}-\d{2}", day) else f"{slug}{suffix}"
