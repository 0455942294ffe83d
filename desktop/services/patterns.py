"""A pattern is a detection label or a tracker: the one seam that finds where a pattern hit.

The coaching queue, the baseline table and adoption read patterns by name.
Detection labels are answered here from the detection pass's cache (a finding
the coach dismissed is not a hit: the coach said the detector was wrong).
Trackers (named phrase sets) answer through a source registered with
``register_source``: a function ``(store, names, call_ids) -> {call_id:
[Hit]}`` for the names it knows, and ``known(store) -> set of names``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable

from db.store import Store
from desktop.core.adoption import Hit
from desktop.core.detect.model import LABELS
from desktop.errors import NotFound

__all__ = ["Hit", "follows", "hits", "is_pattern", "register_source"]

# (known names, hits) of each other kind of pattern (trackers).
_SOURCES: list[tuple[Callable[[Store], set[str]], Callable[[Store, set[str], list[int]], dict]]] = []


def register_source(known: Callable[[Store], set[str]],
                    find: Callable[[Store, set[str], list[int]], dict[int, list[Hit]]]) -> None:
    _SOURCES.append((known, find))


def _sources() -> list:
    """The registered sources, the trackers' first among them (registered on first need: trackers
    import the store's models, which this module's callers may not need)."""
    global _TRACKERS_IN
    if not _TRACKERS_IN:
        _TRACKERS_IN = True
        from desktop.services import trackers

        _SOURCES.insert(0, (trackers.pattern_names, trackers.pattern_hits))
    return _SOURCES


_TRACKERS_IN = False


def follows(store: Store) -> dict[str, str | None]:
    """Each tracker's name and the detection label it follows (``desktop.core.adoption.indicator_for``)."""
    from desktop.services import trackers

    return trackers.followed_labels(store)


def is_pattern(store: Store, name: str) -> bool:
    return name in LABELS or any(name in known(store) for known, _find in _sources())


# Each call's cached findings, parsed: (store, call) -> (the cache row's fingerprint and time, the findings
# as (id, label, start_ms, end_ms, speaker, quote)). A manager's dashboard, queue and adoption read the same
# thousands of calls on every change; only a call whose cache was written again is parsed again.
_PARSED: dict[tuple[int, int], tuple[tuple, list[tuple]]] = {}
_PARSED_MAX = 50_000


def _findings(store: Store, db, chunk: list[int], marks: str) -> dict[int, list[tuple]]:
    stamps = {call_id: (fp, at) for call_id, fp, at in db.execute(
        f"SELECT call_id, fingerprint, computed_at FROM suggestion_cache WHERE call_id IN ({marks})", chunk)}
    out: dict[int, list[tuple]] = {}
    stale = []
    for call_id, stamp in stamps.items():
        known = _PARSED.get((id(store), call_id))
        if known is not None and known[0] == stamp:
            out[call_id] = known[1]
        else:
            stale.append(call_id)
    for start in range(0, len(stale), 500):
        part = stale[start:start + 500]
        for call_id, fp, at, findings in db.execute(
                f"SELECT call_id, fingerprint, computed_at, findings FROM suggestion_cache WHERE call_id IN "
                f"({','.join('?' * len(part))})", part):
            parsed = [(f["id"], f["label"], f["start_ms"], f["end_ms"], f.get("speaker"), f.get("quote", ""))
                      for f in json.loads(findings)]
            if len(_PARSED) >= _PARSED_MAX:
                _PARSED.clear()
            _PARSED[(id(store), call_id)] = ((fp, at), parsed)
            out[call_id] = parsed
    return out


def _label_hits(store: Store, labels: set[str], call_ids: list[int]) -> dict[int, list[Hit]]:
    out: dict[int, list[Hit]] = {c: [] for c in call_ids}
    if not labels or not call_ids:
        return out
    db = store.reader()
    for start in range(0, len(call_ids), 500):  # SQLite's limit on parameters, with room to spare
        chunk = call_ids[start:start + 500]
        marks = ",".join("?" * len(chunk))
        dismissed = set(db.execute(f"SELECT call_id, finding_id FROM suggestion_verdict WHERE call_id IN "
                                   f"({marks}) AND verdict = 'dismissed'", chunk))
        for call_id, findings in _findings(store, db, chunk, marks).items():
            out[call_id] = [Hit(label, start_ms, end_ms, speaker, quote)
                            for fid, label, start_ms, end_ms, speaker, quote in findings
                            if label in labels and (call_id, fid) not in dismissed]
    return out


def hits(store: Store, names: Iterable[str], call_ids: Iterable[int]) -> dict[int, list[Hit]]:
    """Every hit of the named patterns on each call, by call (calls not read yet: no hits)."""
    names, call_ids = set(names), [int(c) for c in call_ids]
    out = _label_hits(store, names & set(LABELS), call_ids)
    rest = names - set(LABELS)
    for known, find in _sources():
        mine = rest & known(store)
        if mine:
            rest -= mine
            for call_id, found in find(store, mine, call_ids).items():
                out.setdefault(call_id, []).extend(found)
    if rest:
        raise NotFound(f"pattern {sorted(rest)[0]!r}: not a detection label or tracker")
    return out
