"""Small pieces of wording the app uses everywhere."""

from __future__ import annotations


def plural(n: int, word: str, many: str | None = None) -> str:
    """"1 moment", "3 moments", "0 moments"; ``many`` for words that do not just take an s."""
    return f"{n} {word if n == 1 else (many or word + 's')}"
