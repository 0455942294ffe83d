"""The transcript as a list model: one row per line, plain SegmentRow data, no widget per line.

Built on QStringListModel (the lines' text, kept in C++) rather than QAbstractListModel with a
Python ``rowCount``: the list view lays out all rows and asks the model for every row's index each
time (four times before a 3,000-line call is first painted), and a Python ``rowCount`` behind each
of those asks made that layout take twenty times longer. The text, times and speakers the view
shows come from ``data`` here; the C++ list is the same text, for row counting.
"""

from __future__ import annotations

import bisect

from PySide6.QtCore import QStringListModel, Qt

from desktop.services.rows import SegmentRow

START_ROLE = Qt.ItemDataRole.UserRole + 1
END_ROLE = Qt.ItemDataRole.UserRole + 2
SPEAKER_ROLE = Qt.ItemDataRole.UserRole + 3
CURRENT_ROLE = Qt.ItemDataRole.UserRole + 4
MATCH_ROLE = Qt.ItemDataRole.UserRole + 5
WORDS_ROLE = Qt.ItemDataRole.UserRole + 6
# Plain ints and flags made once: an enum member looked up on Qt's classes runs Python code, and
# the view asks every visible line for these on each repaint.
DISPLAY_ROLE = int(Qt.ItemDataRole.DisplayRole)
TOOLTIP_ROLE = int(Qt.ItemDataRole.ToolTipRole)
_LINE_FLAGS = Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemNeverHasChildren
_NO_FLAGS = Qt.ItemFlag.NoItemFlags


def line_text(segment: SegmentRow) -> str:
    """What the line shows: its text (a click finds the word in it, see ``word_at``), or its words
    joined when it has no text of its own. The word timings are not read for this: read from the
    store they are still JSON, and decoding every line's held up opening a long call."""
    return segment.text.strip() or " ".join(str(w.get("text", "")).strip() for w in segment.words or ()).strip()


def word_at(text: str, words: list[dict], char: int) -> dict | None:
    """The word of ``words`` that character ``char`` of the shown ``text`` falls in (or just before).

    The words are found in the text in order, so punctuation or spacing that differs between the
    line's text and its word list does not shift the match.
    """
    pos = 0
    found = None
    for word in words:
        piece = str(word.get("text", "")).strip()
        if not piece:
            continue
        at = text.find(piece, pos)
        if at < 0:
            continue  # not in the text (an edit changed it): the next words may still be
        found = word
        pos = at + len(piece)
        if char <= pos:
            return word
    return found


class TranscriptModel(QStringListModel):
    def __init__(self, parent=None):
        super().__init__(parent)
        self._segments: list[SegmentRow] = []
        self._starts: list[int] = []
        self._texts: list[str] = []
        self._lower: list[str] | None = None
        self._current = -1
        self._matches: set[int] = set()
        self.query = ""

    # --- content ----------------------------------------------------------------

    def set_segments(self, segments: list[SegmentRow]) -> None:
        self._segments = list(segments)
        self._starts = [s.start_ms for s in self._segments]
        self._texts = [line_text(s) for s in self._segments]
        self._lower = None
        self._current = -1
        self._matches = set()
        self.query = ""
        self.setStringList(self._texts)  # resets the model: views ask data() of the lines above

    def append_segments(self, segments: list[SegmentRow]) -> None:
        """Add lines at the end (a transcription streaming in) without resetting the view."""
        if not segments:
            return
        first = len(self._segments)
        texts = [line_text(s) for s in segments]
        self._segments.extend(segments)
        self._starts.extend(s.start_ms for s in segments)
        self._texts.extend(texts)
        self._lower = None
        self.insertRows(first, len(texts))  # rowsInserted: views ask data() of the lines above
        self.blockSignals(True)  # the C++ copy of the text; nothing new for the views
        try:
            for row, text in enumerate(texts, first):
                self.setData(self.index(row), text)
        finally:
            self.blockSignals(False)

    def segment(self, row: int) -> SegmentRow:
        return self._segments[row]

    def segments(self) -> list[SegmentRow]:
        return self._segments

    def text(self, row: int) -> str:
        return self._texts[row]

    def line(self, row: int) -> tuple[SegmentRow, str, bool, bool]:
        """What the delegate paints, in one call: the line, its text, whether it is the current
        line and whether it matches the find."""
        return self._segments[row], self._texts[row], row == self._current, row in self._matches

    # --- following playback -----------------------------------------------------

    @property
    def current_row(self) -> int:
        return self._current

    def row_at(self, ms: int) -> int:
        """The line being spoken at ``ms`` (or the last one started before it); -1 before the first."""
        row = bisect.bisect_right(self._starts, ms) - 1
        return row

    def set_position(self, ms: int) -> bool:
        """Move the highlight; True if it moved to another line."""
        row = self.row_at(ms)
        if row == self._current:
            return False
        old, self._current = self._current, row
        for r in (old, row):
            if 0 <= r < len(self._segments):
                idx = self.index(r)
                self.dataChanged.emit(idx, idx, [CURRENT_ROLE])
        return True

    # --- find -----------------------------------------------------------------------

    def find(self, query: str) -> list[int]:
        """Rows whose text contains ``query`` (case-insensitive); they are highlighted."""
        self.query = query.strip()
        needle = self.query.lower()
        if self._lower is None:
            self._lower = [t.lower() for t in self._texts]
        found = [i for i, t in enumerate(self._lower) if needle and needle in t]
        changed = self._matches.symmetric_difference(found)
        self._matches = set(found)
        if changed:
            self.dataChanged.emit(self.index(min(changed)), self.index(max(changed)), [MATCH_ROLE])
        return found

    # --- Qt -----------------------------------------------------------------------------

    def flags(self, index):
        # Read-only lines (QStringListModel's are editable); corrections go through the edit dialog.
        return _LINE_FLAGS if index.isValid() else _NO_FLAGS

    def data(self, index, role=DISPLAY_ROLE):
        if not index.isValid():
            return None
        row = index.row()
        seg = self._segments[row]
        if role == DISPLAY_ROLE:
            return self._texts[row]
        if role == START_ROLE:
            return seg.start_ms
        if role == END_ROLE:
            return seg.end_ms
        if role == SPEAKER_ROLE:
            return seg.speaker
        if role == CURRENT_ROLE:
            return row == self._current
        if role == MATCH_ROLE:
            return row in self._matches
        if role == WORDS_ROLE:
            return seg.words
        if role == TOOLTIP_ROLE:
            return self._texts[row]
        return None
