"""One behavior per item: where a text holding two behaviors splits, and the second item it becomes.

The method keeps exactly one behavior on an item; a second one is a second item
for the same manager (coaching-framework.txt, "choose one behavior").
"""

from __future__ import annotations

import re

from db.models import CoachingItem
from db.store import Store
from desktop.core.behavior_text import ALL_VERBS
from desktop.core.behavior_words import DETERMINERS
from desktop.errors import CallmarkError
from desktop.services.item_rows import ItemRow
from desktop.services.people import local_coach_person

__all__ = ["split_text", "split_behavior"]


_JOINS = re.compile(r"\s*(?:;|,?\s*\band also\b|\bas well as\b|,?\s*\band then\b|,\s*then\b|,?\s*\band\b|,|\s[&+])\s*")
# A leading situation ("When the customer asks for information, ask ...") is not a second action.
_SITUATION = re.compile(r"^(?:when|whenever|during|in|at|before|after|if|once|each time|every time|on|for|"
                        r"as soon as)\b[^,]*,", re.IGNORECASE)


def split_text(text: str) -> tuple[str, str] | None:
    """Where a text holding two behaviors splits: ("Ask ...", "Confirm ..."), or None.

    Splits at the last join ("and also", "; ", ", and", "then") followed by an
    action verb; quoted words and a leading situation are left alone.
    """
    stripped = (text or "").strip()
    quoted = [(m.start(), m.end()) for m in re.finditer(r"\"[^\"]*\"|“[^”]*”", stripped)]
    situation = _SITUATION.match(stripped)
    skip_before = situation.end() if situation else 0
    best = None
    for m in _JOINS.finditer(stripped):
        if m.start() < skip_before or m.start() == 0 or any(a <= m.start() < b for a, b in quoted):
            continue
        rest = stripped[m.end():]
        verb = re.match(r"(?:also\s+)?([A-Za-z]+)\s*([A-Za-z']*)", rest)
        join = m.group(0).strip(" ,")
        # A verb the check knows, or any word with its object after it ("and renew the licences").
        if verb and (verb.group(1).lower() in ALL_VERBS or verb.group(2).lower() in DETERMINERS
                     or join in (";", "and also", "as well as")):
            best = m
    if best is None:
        return None
    first = stripped[: best.start()].rstrip(" ,;")
    second = re.sub(r"^also\s+", "", stripped[best.end():].strip(), flags=re.IGNORECASE)
    if not first or not second:
        return None
    if not first.endswith((".", "?", "!")):
        first += "."
    return first, second[0].upper() + second[1:]


def split_behavior(store: Store, item_id: int, second_behavior: str | None = None,
                   *, moment_ids: list[int] | tuple[int, ...] = (), new_id: int | None = None
                   ) -> tuple[ItemRow, ItemRow]:
    """Keep one behavior on this item and start a second item for the other.

    Without `second_behavior`, the item's own text is split where a second action
    joins the first (see `split_text`). The new item is for the same manager and
    cites `moment_ids` (moved from this item if they were cited here).
    Returns (this item, the new item).
    """
    # Late import: items re-exports this module, and citing rules live there.
    from desktop.services.items import _free_moment, _item, get_item, update_item

    current = get_item(store, item_id)
    if second_behavior is None:
        parts = split_text(current.behavior_text)
        if parts is None:
            raise CallmarkError(f"item {item_id}: its behavior holds one action; nothing to split off")
        first, second_behavior = parts
        update_item(store, item_id, behavior_text=first)
    with store.write() as session:
        item = _item(session, item_id)
        coach = local_coach_person(session)
        new = CoachingItem(id=new_id, coach=coach, manager=item.manager, behavior_text=second_behavior.strip(),
                           owner_does=item.owner_does, owner_reviews=item.owner_reviews,
                           cadence=item.cadence)
        session.add(new)
        session.flush()
        for moment_id in moment_ids:
            _free_moment(session, int(moment_id), allow_item=item.id).item_id = new.id
        session.flush()
        new_id = new.id
    return get_item(store, item_id), get_item(store, new_id)
