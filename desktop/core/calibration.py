"""Calibration: match two coaches' moments on the same call, so results can be redone by hand.

Matching, exactly:
- A moment of mine and one of theirs are *candidates* when their intervals
  overlap — closed intervals, so touching ends count: max(starts) <= min(ends) —
  or when |their start - my start| <= tolerance_ms (default 5,000 ms).
- Pairs are made one-to-one, greedily, smallest |start difference| first; ties
  go to the earlier start of mine, then the earlier start of theirs (then the
  ids, so the result never depends on input order).
- moment_agreement = 2 x matched / (mine + theirs); 1.0 when both are empty.
- kind_kappa = Cohen's kappa over the kinds of the matched pairs:
  (p_o - p_e) / (1 - p_e), p_o = share of pairs with the same kind,
  p_e = sum over kinds of (my share of that kind x their share of it);
  None when fewer than 2 pairs or when p_e is 1.
- behavior_change_agreement = among matched pairs where both moments feed an
  item (behavior_change is not None), the share with the same change
  (start / stop / adjust); None when there are none.
- mean_start_offset_ms = mean of (their start - my start) over matched pairs,
  signed: positive means they marked later than I did; None when none.
Pairs are listed by my start (then theirs); unmatched ids by start.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from desktop.core.enums import BehaviorChange
from desktop.errors import CallmarkError

__all__ = ["CalMoment", "Pair", "CalibrationResult", "CalibrationError", "match", "is_candidate",
           "cohen_kappa", "DEFAULT_TOLERANCE_MS"]

DEFAULT_TOLERANCE_MS = 5000


class CalibrationError(CallmarkError, ValueError):
    """The moments given cannot be calibrated (bad interval, repeated id, bad tolerance)."""


@dataclass(frozen=True)
class CalMoment:
    id: str
    start_ms: int
    end_ms: int
    kind: str
    behavior_change: BehaviorChange | str | None = None  # None: the moment feeds no item


@dataclass(frozen=True)
class Pair:
    mine: CalMoment
    theirs: CalMoment

    @property
    def start_diff_ms(self) -> int:
        return self.theirs.start_ms - self.mine.start_ms

    def to_dict(self) -> dict[str, Any]:
        return {"mine": self.mine.id, "theirs": self.theirs.id,
                "start_diff_ms": self.start_diff_ms,
                "mine_kind": str(self.mine.kind), "theirs_kind": str(self.theirs.kind)}


@dataclass(frozen=True)
class CalibrationResult:
    pairs: list[Pair]
    only_mine: list[CalMoment]
    only_theirs: list[CalMoment]
    mine_count: int
    theirs_count: int
    tolerance_ms: int
    moment_agreement: float
    kind_kappa: float | None
    behavior_change_agreement: float | None
    mean_start_offset_ms: float | None = field(default=None)

    @property
    def matched(self) -> int:
        return len(self.pairs)

    def to_dict(self) -> dict[str, Any]:
        return {
            "matched": self.matched,
            "mine": self.mine_count,
            "theirs": self.theirs_count,
            "moment_agreement": self.moment_agreement,
            "kind_kappa": self.kind_kappa,
            "behavior_change_agreement": self.behavior_change_agreement,
            "mean_start_offset_ms": self.mean_start_offset_ms,
            "pairs": [p.to_dict() for p in self.pairs],
            "only_mine": [m.id for m in self.only_mine],
            "only_theirs": [m.id for m in self.only_theirs],
        }


def _validate(moments: list[CalMoment], whose: str) -> None:
    seen: set[str] = set()
    for m in moments:
        if m.start_ms < 0 or m.end_ms < m.start_ms:
            raise CalibrationError(
                f"{whose} moment {m.id}: interval {m.start_ms}-{m.end_ms} ms is not valid")
        if m.id in seen:
            raise CalibrationError(f"{whose} moment id {m.id} appears twice")
        seen.add(m.id)


def is_candidate(mine: CalMoment, theirs: CalMoment, tolerance_ms: int) -> bool:
    overlap = max(mine.start_ms, theirs.start_ms) <= min(mine.end_ms, theirs.end_ms)
    return overlap or abs(theirs.start_ms - mine.start_ms) <= tolerance_ms


def cohen_kappa(labels_a: list[str], labels_b: list[str]) -> float | None:
    """Cohen's kappa of two raters over the same items; None below 2 items or when p_e is 1."""
    if len(labels_a) != len(labels_b):
        raise CalibrationError("kappa needs the same number of labels from both coaches")
    n = len(labels_a)
    if n < 2:
        return None
    observed = sum(a == b for a, b in zip(labels_a, labels_b)) / n
    count_a, count_b = Counter(labels_a), Counter(labels_b)
    chance = sum(count_a[k] * count_b[k] for k in count_a) / (n * n)
    if chance >= 1.0:
        return None
    return (observed - chance) / (1.0 - chance)


def match(mine: list[CalMoment], theirs: list[CalMoment],
          tolerance_ms: int = DEFAULT_TOLERANCE_MS) -> CalibrationResult:
    """Pair my moments with theirs and compute the agreement figures (see module doc)."""
    if tolerance_ms < 0:
        raise CalibrationError(f"tolerance must be 0 ms or more, got {tolerance_ms}")
    _validate(mine, "my")
    _validate(theirs, "their")
    candidates = sorted(
        ((abs(t.start_ms - m.start_ms), m.start_ms, t.start_ms, m.id, t.id, m, t)
         for m in mine for t in theirs if is_candidate(m, t, tolerance_ms)),
        key=lambda c: c[:5])
    used_mine: set[str] = set()
    used_theirs: set[str] = set()
    pairs: list[Pair] = []
    for *_, m, t in candidates:
        if m.id in used_mine or t.id in used_theirs:
            continue
        used_mine.add(m.id)
        used_theirs.add(t.id)
        pairs.append(Pair(m, t))
    pairs.sort(key=lambda p: (p.mine.start_ms, p.theirs.start_ms, p.mine.id))

    total = len(mine) + len(theirs)
    agreement = 1.0 if total == 0 else 2 * len(pairs) / total
    kappa = cohen_kappa([str(p.mine.kind) for p in pairs], [str(p.theirs.kind) for p in pairs])
    both_items = [p for p in pairs
                  if p.mine.behavior_change is not None and p.theirs.behavior_change is not None]
    change_agreement = (sum(str(p.mine.behavior_change) == str(p.theirs.behavior_change)
                            for p in both_items) / len(both_items)) if both_items else None
    offset = sum(p.start_diff_ms for p in pairs) / len(pairs) if pairs else None

    def by_start(ms: list[CalMoment], used: set[str]) -> list[CalMoment]:
        return sorted((x for x in ms if x.id not in used), key=lambda x: (x.start_ms, x.id))

    return CalibrationResult(
        pairs=pairs, only_mine=by_start(mine, used_mine), only_theirs=by_start(theirs, used_theirs),
        mine_count=len(mine), theirs_count=len(theirs), tolerance_ms=tolerance_ms,
        moment_agreement=agreement, kind_kappa=kappa,
        behavior_change_agreement=change_agreement, mean_start_offset_ms=offset)
