"""Search every transcript in the library: call, time, speaker and the line with the match in bold."""

from __future__ import annotations

import html

from PySide6.QtCore import QRectF, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QHeaderView,
    QLabel,
    QLineEdit,
    QStyle,
    QStyledItemDelegate,
    QTreeView,
    QVBoxLayout,
)

from desktop.core.timefmt import format_ms
from desktop.core.words import plural
from desktop.services import search as search_service
from desktop.ui.models.row_table import RowTableModel
from desktop.ui.style import label_look

COLUMNS = ("Call", "Time", "Speaker", "Line")
HIT_ROLE = Qt.ItemDataRole.UserRole + 1


def marked_html(hit: search_service.SearchHit) -> str:
    """The line as HTML with the coach's words in bold (MARK_START/MARK_END from the search service)."""
    text = html.escape(hit.marked)
    return text.replace(search_service.MARK_START, "<b>").replace(search_service.MARK_END, "</b>")


class SearchResultsModel(RowTableModel):
    columns = COLUMNS

    def __init__(self, parent=None):
        super().__init__(parent)
        self._hits: list[search_service.SearchHit] = []

    def set_hits(self, hits) -> None:
        self.beginResetModel()
        self._hits = list(hits)
        self.endResetModel()

    def hit(self, row: int) -> search_service.SearchHit:
        return self._hits[row]

    def row_count(self) -> int:
        return len(self._hits)

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        hit = self._hits[index.row()]
        col = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            # whole seconds: the line's start is what opening it plays from
            return (hit.call_title, format_ms(hit.start_ms)[:-4], hit.speaker or "", hit.text)[col]
        if role == HIT_ROLE:
            return hit
        if role == Qt.ItemDataRole.ToolTipRole:
            return hit.text
        return None


class MarkedLineDelegate(QStyledItemDelegate):
    """Paints the Line column as rich text so the match shows in bold."""

    def paint(self, painter, option, index) -> None:
        hit = index.data(HIT_ROLE)
        if hit is None:
            return super().paint(painter, option, index)
        self.initStyleOption(option, index)
        option.text = ""
        style = option.widget.style() if option.widget else None
        if style is not None:
            style.drawControl(QStyle.ControlElement.CE_ItemViewItem, option, painter, option.widget)
        doc = QTextDocument()
        doc.setDefaultFont(option.font)
        doc.setDocumentMargin(2)
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        colour = option.palette.highlightedText().color() if selected else option.palette.text().color()
        doc.setHtml(f"<span style='color:{colour.name()}'>{marked_html(hit)}</span>")
        doc.setTextWidth(option.rect.width())
        painter.save()
        painter.translate(option.rect.topLeft())
        painter.setClipRect(QRectF(0, 0, option.rect.width(), option.rect.height()))
        doc.drawContents(painter)
        painter.restore()

    def sizeHint(self, option, index) -> QSize:  # noqa: N802
        base = super().sizeHint(option, index)
        return QSize(base.width(), max(base.height(), option.fontMetrics.lineSpacing() + 6))


class LibrarySearchDialog(QDialog):
    """Type words; every word must appear (the last as a prefix). Enter or double-click opens a result."""

    result_chosen = Signal(int, int)  # call id, start ms

    def __init__(self, store, parent=None, *, limit: int = 200):
        super().__init__(parent)
        self.setObjectName("librarySearch")
        self.setWindowTitle("Search all calls")
        self.resize(820, 460)
        self.store = store
        self.limit = limit
        self.field = QLineEdit()
        self.field.setPlaceholderText("Words said in any call, e.g. budget owner")
        self.field.setClearButtonEnabled(True)
        self.count = QLabel(" ")
        label_look(self.count, "hint")
        self.model = SearchResultsModel(self)
        self.results = QTreeView()
        self.results.setObjectName("searchResults")
        self.results.setRootIsDecorated(False)
        self.results.setUniformRowHeights(True)
        self.results.setAlternatingRowColors(True)
        self.results.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.results.setModel(self.model)
        self.results.setItemDelegateForColumn(3, MarkedLineDelegate(self.results))
        header = self.results.header()
        header.setStretchLastSection(True)
        header.resizeSection(0, 200)
        header.resizeSection(1, 70)
        header.resizeSection(2, 110)
        header.setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
        layout = QVBoxLayout(self)
        layout.addWidget(self.field)
        layout.addWidget(self.count)
        layout.addWidget(self.results, 1)
        self._debounce = QTimer(self, singleShot=True, interval=120)
        self._debounce.timeout.connect(self.run_search)
        self.field.textChanged.connect(lambda _t: self._debounce.start())
        self.field.returnPressed.connect(self.open_current)
        self.results.activated.connect(lambda index: self.open_row(index.row()))

    def run_search(self) -> None:
        text = self.field.text()
        hits = search_service.search(self.store, text, limit=self.limit)
        self.model.set_hits(hits)
        if hits:
            self.results.setCurrentIndex(self.model.index(0, 0))
            more = " (the best first)" if len(hits) >= self.limit else ""
            self.count.setText(f"{plural(len(hits), 'line')}{more}")
        else:
            self.count.setText("No line matches." if text.strip() else " ")

    def open_current(self) -> None:
        if self._debounce.isActive():
            self._debounce.stop()
            self.run_search()
        index = self.results.currentIndex()
        if index.isValid():
            self.open_row(index.row())

    def open_row(self, row: int) -> None:
        hit = self.model.hit(row)
        self.result_chosen.emit(hit.call_id, hit.start_ms)
        self.accept()
