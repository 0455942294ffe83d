"""The library: every call as a row (plain CallRow data), sorted and filtered here, shown a page at a time.

A coaching team's library holds ten thousand calls. A QSortFilterProxyModel
sorts and filters by asking the model for each row's data, one Python call
per comparison: with 10,000 calls the first sort alone held the window up for
a second, and each keystroke in the filter for a tenth. So this model keeps
the order itself: sorting is one `list.sort` over keys made once per call,
filtering one pass over each call's lower-cased words, and the view is given
rows a page at a time (`canFetchMore` / `fetchMore`) as it scrolls.

Each tracker adds a column of its counts (``set_trackers``), sortable like the others, and the filter
reads a word such as ``deferral>0`` or ``budget_owner=0`` as a condition on that tracker's count
(``>``, ``>=``, ``<``, ``<=``, ``=``, by the tracker's key), beside the plain words.

Rows (``rowCount``, ``call_at``, ``row_of``) are the calls shown, in order;
``call_ids()`` are all of them.
"""

from __future__ import annotations

import operator
import re

from PySide6.QtCore import QModelIndex, Qt

from desktop.core.timefmt import format_ms
from desktop.services.rows import CallRow
from desktop.ui.models.row_table import RowTableModel

COLUMNS = ("Title", "Rep", "Manager", "Date", "Duration", "Transcript", "Moments")
CALL_ID_ROLE = Qt.ItemDataRole.UserRole + 1
SORT_ROLE = Qt.ItemDataRole.UserRole + 2
PAGE = 500  # rows handed to the view at a time

TRANSCRIPT_WORDS = {"none": "—", "whisper": "Whisper", "import": "imported", "edited": "edited"}
_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
_CONDITION = re.compile(r"^([a-z0-9_]+)(>=|<=|>|<|=)(\d+)$")
_OPS = {">": operator.gt, ">=": operator.ge, "<": operator.lt, "<=": operator.le, "=": operator.eq}


def short_duration(ms: int) -> str:
    seconds = int(ms) // 1000
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"


def sort_key(call: CallRow, col: int):
    if col == 0:
        return call.title.lower()
    if col == 1:
        return (call.rep or "").lower()
    if col == 2:
        return (call.manager or "").lower()
    if col == 3:
        return call.recorded_at or ""
    if col == 4:
        return call.duration_ms
    if col == 5:
        return call.transcript_status
    return call.moment_count


def haystack(call: CallRow) -> str:
    """What the filter looks in: title, rep, manager, date and source, lower-cased once."""
    return " ".join(filter(None, (call.title, call.rep, call.manager, call.recorded_at, call.source))).lower()


class LibraryModel(RowTableModel):
    columns = COLUMNS

    def __init__(self, parent=None):
        super().__init__(parent)
        self._calls: list[CallRow] = []  # every call, in the order read
        self._hay: list[str] = []  # each call's filter text, same positions
        self._at: dict[int, int] = {}  # call id -> position in _calls
        self._order: list[int] = []  # positions of the calls shown, in the order shown
        self._loaded = 0  # shown rows the view has been given so far
        self._words: list[str] = []
        self._sort_column = 3
        self._descending = True
        self._sorted: list[int] | None = None  # every position in sort order, kept between keystrokes
        # Made once per library and reused: a sort then allocates one list, not ten thousand objects
        # (whose allocation set off the cyclic collector over every row, mid-keystroke).
        self._positions: list[int] = []
        self._keys: dict[int, list] = {}  # column -> each call's sort key, by position
        self.columns = COLUMNS
        self._trackers: list[tuple[int, str, str]] = []  # (id, key, name) of each tracker column, in order
        self._by_call: dict[int, dict[int, int]] = {}  # call id -> {tracker id: lines found}
        self._counts: dict[int, list[int]] = {}  # tracker id -> each call's count, by position
        self._conditions: list[tuple] = []  # (tracker id, compare, number) from the filter's words
        self._text = ""

    # --- filling ---------------------------------------------------------------------------------

    def set_calls(self, rows: list[CallRow]) -> None:
        self.beginResetModel()
        self._calls = list(rows)
        self._hay = [haystack(c) for c in self._calls]
        self._at = {c.id: i for i, c in enumerate(self._calls)}
        self._positions = list(range(len(self._calls)))
        self._keys = {}
        self._counts = {}
        self._sorted = None
        self._arrange()
        self.endResetModel()

    def set_trackers(self, trackers: list[tuple[int, str, str]], by_call: dict[int, dict[int, int]]) -> None:
        """Tracker columns (id, key, name) after the fixed ones, and every call's counts."""
        self.beginResetModel()
        if self._sort_column >= len(COLUMNS) + len(trackers):
            self._sort_column, self._descending = 3, True
        self._trackers = list(trackers)
        self.columns = COLUMNS + tuple(name for _id, _key, name in trackers)
        self._by_call = {int(c): dict(v) for c, v in by_call.items()}
        self._counts = {}
        self._keys = {col: keys for col, keys in self._keys.items() if col < len(COLUMNS)}
        self._sorted = None
        self._parse(self._text)
        self._arrange()
        self.endResetModel()

    def set_call_counts(self, call_id: int, counts: dict[int, int]) -> None:
        """One call was recounted (its transcript changed): its row shows the new counts."""
        if self._by_call.get(call_id, {}) == counts:
            return
        self._by_call[call_id] = dict(counts)
        at = self._at.get(call_id)
        if at is None:
            return
        for tid, values in self._counts.items():
            values[at] = counts.get(tid, 0)
        for col in list(self._keys):
            if col >= len(COLUMNS):
                self._keys[col][at] = self._sort_key(self._calls[at], col)
        if self._conditions or self._sort_column >= len(COLUMNS):  # it may move, or enter or leave the filter
            self.beginResetModel()
            self._sorted = None
            self._arrange()
            self.endResetModel()
            return
        row = self.row_of(call_id)
        if row is not None:
            self.dataChanged.emit(self.index(row, len(COLUMNS)), self.index(row, len(self.columns) - 1))

    def tracker_count(self, call_id: int, tracker_id: int) -> int:
        return self._by_call.get(call_id, {}).get(tracker_id, 0)

    def _sort_key(self, call: CallRow, col: int):
        if col < len(COLUMNS):
            return sort_key(call, col)
        return self._by_call.get(call.id, {}).get(self._trackers[col - len(COLUMNS)][0], 0)

    def _count_list(self, tracker_id: int) -> list[int]:
        values = self._counts.get(tracker_id)
        if values is None:
            by_call = self._by_call
            values = self._counts[tracker_id] = [by_call.get(c.id, {}).get(tracker_id, 0) for c in self._calls]
        return values

    def update_call(self, call: CallRow) -> None:
        """A call changed or was added: its row shows it (a new one goes where the order puts it)."""
        at = self._at.get(call.id)
        if at is not None:
            if self._sort_key(self._calls[at], self._sort_column) != self._sort_key(call, self._sort_column):
                self._sorted = None  # its place may have moved: sorted again on the next change
            self._calls[at] = call
            self._hay[at] = haystack(call)
            for col, keys in self._keys.items():
                keys[at] = self._sort_key(call, col)
            row = self.row_of(call.id)
            if row is not None:
                self.dataChanged.emit(self.index(row, 0), self.index(row, len(self.columns) - 1))
            return
        at = len(self._calls)
        self._calls.append(call)
        self._hay.append(haystack(call))
        self._at[call.id] = at
        self._positions.append(at)
        for col, keys in self._keys.items():
            keys.append(self._sort_key(call, col))
        for tid, values in self._counts.items():
            values.append(self._by_call.get(call.id, {}).get(tid, 0))
        if self._sorted is not None:
            self._sorted.insert(self._place(at, self._sorted), at)
        if not self._matches(at):
            return
        row = self._place(at, self._order)
        if row <= self._loaded:
            self.beginInsertRows(QModelIndex(), row, row)
            self._order.insert(row, at)
            self._loaded += 1
            self.endInsertRows()
        else:
            self._order.insert(row, at)  # beyond what the view has: it comes with the next page

    # --- asking ----------------------------------------------------------------------------------

    def row_count(self) -> int:
        return self._loaded

    def call_at(self, row: int) -> CallRow:
        return self._calls[self._order[row]]

    def call_ids(self) -> list[int]:
        """Every call in the library, shown or filtered out."""
        return [c.id for c in self._calls]

    def shown_count(self) -> int:
        """Calls that pass the filter (the view may not have been given them all yet)."""
        return len(self._order)

    def row_of(self, call_id: int | None) -> int | None:
        """The call's row, given to the view now if it was further down; None if filtered out."""
        if call_id is None:
            return None
        at = self._at.get(call_id)
        try:
            row = self._order.index(at) if at is not None else None  # a scan in C: no map to keep up
        except ValueError:
            return None  # filtered out
        if row is not None and row >= self._loaded:
            self._give(row + 1)
        return row

    # --- sorting and filtering ------------------------------------------------------------------

    def sort(self, column: int, order=Qt.SortOrder.AscendingOrder) -> None:  # noqa: A003 - Qt's name
        if (int(column), order == Qt.SortOrder.DescendingOrder) == (self._sort_column, self._descending) \
                and self._sorted is not None:
            return  # the view asks twice per header click (the indicator, then the sort)
        self.beginResetModel()
        self._sort_column = int(column)
        self._descending = order == Qt.SortOrder.DescendingOrder
        self._sorted = None
        self._arrange()
        self.endResetModel()

    def set_text(self, text: str) -> None:
        before = (self._words, self._conditions)
        self._text = text
        self._parse(text)
        if (self._words, self._conditions) == before:
            return
        self.beginResetModel()
        self._arrange()
        self.endResetModel()

    def _parse(self, text: str) -> None:
        """Plain words, and `key>n` conditions on a tracker's count (a word that names no tracker stays a word)."""
        keys = {key: tid for tid, key, _name in self._trackers}
        words, conditions = [], []
        for word in text.lower().split():
            found = _CONDITION.match(word)
            if found and found.group(1) in keys:
                conditions.append((keys[found.group(1)], _OPS[found.group(2)], int(found.group(3))))
            else:
                words.append(word)
        self._words, self._conditions = words, conditions

    def _matches(self, at: int) -> bool:
        hay = self._hay[at]
        if not all(w in hay for w in self._words):
            return False
        return all(compare(self._count_list(tid)[at], n) for tid, compare, n in self._conditions)

    def _arrange(self) -> None:
        if self._sorted is None:
            col, calls = self._sort_column, self._calls
            # Plain keys (no tuples: comparing those took most of a sort); ties keep the order read.
            keys = self._keys.get(col)
            if keys is None:
                keys = self._keys[col] = [self._sort_key(c, col) for c in calls]
            self._sorted = sorted(self._positions, key=keys.__getitem__, reverse=self._descending)
        positions = self._sorted
        hay = self._hay
        for word in self._words:  # one pass per word: each a plain comprehension, no per-row generator
            positions = [i for i in positions if word in hay[i]]
        for tid, compare, n in self._conditions:
            counts = self._count_list(tid)
            positions = [i for i in positions if compare(counts[i], n)]
        self._order = positions if (self._words or self._conditions) else list(positions)
        self._loaded = min(len(positions), PAGE)

    def _place(self, at: int, order: list[int]) -> int:
        """Where a call goes in an order of positions (binary search on the sort key)."""
        col, calls = self._sort_column, self._calls
        key = self._sort_key(calls[at], col)
        lo, hi = 0, len(order)
        while lo < hi:
            mid = (lo + hi) // 2
            here = self._sort_key(calls[order[mid]], col)
            if (here >= key) if self._descending else (here <= key):  # after its equals, as read
                lo = mid + 1
            else:
                hi = mid
        return lo

    # --- lazy rows -------------------------------------------------------------------------------

    def canFetchMore(self, parent=QModelIndex()) -> bool:  # noqa: N802
        return not parent.isValid() and self._loaded < len(self._order)

    def fetchMore(self, parent=QModelIndex()) -> None:  # noqa: N802
        if not parent.isValid():
            self._give(self._loaded + PAGE)

    def _give(self, upto: int) -> None:
        upto = min(upto, len(self._order))
        if upto <= self._loaded:
            return
        self.beginInsertRows(QModelIndex(), self._loaded, upto - 1)
        self._loaded = upto
        self.endInsertRows()

    # --- data ------------------------------------------------------------------------------------

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        call = self._calls[self._order[index.row()]]
        col = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return self._display(call, col)
        if role == CALL_ID_ROLE:
            return call.id
        if role == SORT_ROLE:
            return self._sort_key(call, col)
        if role == Qt.ItemDataRole.ToolTipRole and col == 0:
            return call.media_path or "known by its hash only (no media file on this computer)"
        if role == Qt.ItemDataRole.TextAlignmentRole and (col in (4, 6) or col >= len(COLUMNS)):
            return _RIGHT
        return None

    def _display(self, call: CallRow, col: int) -> str:
        if col >= len(COLUMNS):
            return str(self._sort_key(call, col))
        if col == 0:
            return call.title
        if col == 1:
            return call.rep or ""
        if col == 2:
            return call.manager or ""
        if col == 3:
            return (call.recorded_at or "")[:10]
        if col == 4:
            return short_duration(call.duration_ms)
        if col == 5:
            return TRANSCRIPT_WORDS.get(call.transcript_status, call.transcript_status)
        return str(call.moment_count)


__all__ = ["CALL_ID_ROLE", "COLUMNS", "LibraryModel", "format_ms", "short_duration"]
