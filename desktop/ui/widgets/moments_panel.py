"""The moments beside the transcript: a table (kind and note edited in place) and a note field.

The note field is where Ctrl+E lands while the call keeps playing; what is
typed is handed on after a short pause in typing, and at once when the field
loses focus or the window closes (``flush``), so no keystroke is lost.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING

from PySide6.QtCore import QItemSelectionModel, Qt, QTimer, Signal
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QStyledItemDelegate,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from desktop.core.enums import MomentKind
from desktop.ui.models.moments_model import KIND, MOMENT_ID_ROLE, NOTE, QUOTE, MomentsModel
from desktop.ui.style import kind_colour, label_look, table_look

if TYPE_CHECKING:
    from PySide6.QtGui import QIcon

NOTE_SAVE_DELAY_MS = 400


def kind_icon(kind: MomentKind) -> QIcon:
    from PySide6.QtGui import QIcon, QPixmap

    pixmap = QPixmap(12, 12)
    pixmap.fill(kind_colour(kind))
    return QIcon(pixmap)


def _combo_box() -> type:
    # Imported with the first kind editor, like QIcon and QPixmap in kind_icon: PySide builds a
    # class's enums when it is first imported (QIcon's ThemeIcon alone has some seventy members).
    from PySide6.QtWidgets import QComboBox

    return QComboBox


class MomentDelegate(QStyledItemDelegate):
    """Kind as a combo box; remembers the open editor so closing the window can commit it."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self._editor = None

    def createEditor(self, parent, option, index):  # noqa: N802
        if index.column() == KIND:
            editor = _combo_box()(parent)
            for kind in MomentKind:
                editor.addItem(kind_icon(kind), kind.label, kind.value)
            editor.activated.connect(lambda _i, e=editor: self.commitData.emit(e))
        else:
            editor = super().createEditor(parent, option, index)
        self._editor = weakref.ref(editor)
        return editor

    def setEditorData(self, editor, index):  # noqa: N802
        if isinstance(editor, _combo_box()):
            editor.setCurrentIndex(max(0, editor.findData(index.data(Qt.ItemDataRole.EditRole))))
        else:
            super().setEditorData(editor, index)

    def setModelData(self, editor, model, index):  # noqa: N802
        if isinstance(editor, _combo_box()):
            model.setData(index, editor.currentData(), Qt.ItemDataRole.EditRole)
        else:
            super().setModelData(editor, model, index)

    def commit_open_editor(self) -> None:
        editor = self._editor() if self._editor else None
        if editor is not None:
            try:
                self.commitData.emit(editor)
            except RuntimeError:
                pass  # the editor was already closed and deleted
        self._editor = None


class NoteField(QPlainTextEdit):
    """The note on the selected moment: a few wrapped lines, with a line edit's few signals and calls
    (``textEdited`` only for the coach's typing, ``editingFinished`` when focus leaves)."""

    textEdited = Signal(str)  # noqa: N815 - QLineEdit's name, kept so the panel reads the same
    editingFinished = Signal()  # noqa: N815

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setTabChangesFocus(True)
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self._loading = False
        lines = 3
        self.setFixedHeight(self.fontMetrics().lineSpacing() * lines + 12)
        self.textChanged.connect(lambda: None if self._loading else self.textEdited.emit(self.toPlainText()))

    def text(self) -> str:
        return self.toPlainText()

    def setText(self, text: str) -> None:  # noqa: N802 - QLineEdit's name
        self._loading = True
        try:
            self.setPlainText(text)
        finally:
            self._loading = False

    def end(self, _mark: bool = False) -> None:
        self.moveCursor(QTextCursor.MoveOperation.End)

    def focusOutEvent(self, event) -> None:  # noqa: N802 - Qt's name
        super().focusOutEvent(event)
        self.editingFinished.emit()


class MomentsPanel(QWidget):
    moment_activated = Signal(int)  # jump to it
    selection_changed = Signal(object)  # moment id or None
    note_edited = Signal(int, object)  # moment id, text or None

    def __init__(self, model: MomentsModel, parent=None):
        super().__init__(parent)
        self.setObjectName("momentsPanel")
        self.model = model
        self.title = label_look(QLabel("Moments"), "panelTitle")
        self.table = QTableView()
        self.table.setObjectName("moments")
        self.table.setAccessibleName("Moments")
        table_look(self.table)
        self.table.setModel(model)
        self.delegate = MomentDelegate(self.table)
        self.table.setItemDelegate(self.delegate)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.DoubleClicked
                                   | QAbstractItemView.EditTrigger.EditKeyPressed
                                   | QAbstractItemView.EditTrigger.SelectedClicked)
        self.table.verticalHeader().hide()
        self.table.setWordWrap(False)
        self.table.setAlternatingRowColors(True)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        # Each column as wide as what it shows needs in this font, so none is cut at the first-run width
        # (the kind's colour chip and the cell's padding included).
        fm = self.table.fontMetrics()
        self.table.setColumnWidth(0, fm.horizontalAdvance("00:00.000 – 00:00.000") + 16)
        self.table.setColumnWidth(KIND, max(fm.horizontalAdvance(k.label) for k in MomentKind) + 34)
        self.table.setColumnWidth(2, fm.horizontalAdvance("Speaker") + 20)
        self.table.setColumnWidth(QUOTE, 260)
        self.note = NoteField()
        self.note.setObjectName("noteField")
        self.note.setAccessibleName("Note on the selected moment")
        self.note.setPlaceholderText("Note on the selected moment (Ctrl+E) — saved as you type")
        self.note.setEnabled(False)
        self.note_label = QLabel("Note")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        layout.addWidget(self.title)
        layout.addWidget(self.table, 1)
        row = QHBoxLayout()
        row.addWidget(self.note_label)
        row.addWidget(self.note, 1)
        layout.addLayout(row)

        self._note_for: int | None = None
        self._note_timer = QTimer(self, singleShot=True, interval=NOTE_SAVE_DELAY_MS)
        self._note_timer.timeout.connect(self.flush_note)
        self.note.textEdited.connect(lambda _t: self._note_timer.start())
        self.note.editingFinished.connect(self.flush_note)
        self.table.selectionModel().currentRowChanged.connect(self._on_current_row)
        self.table.activated.connect(self._on_activated)
        self.table.doubleClicked.connect(self._on_activated)
        # A new call (or a reload) replaces every row: what was typed goes to the moment it was typed
        # for, before the rows go, and the field is then bound to nothing until a moment is selected.
        model.modelAboutToBeReset.connect(self.flush_note)
        model.modelReset.connect(self._on_model_reset)
        model.modelReset.connect(self._update_title)
        model.rowsInserted.connect(self._update_title)
        model.rowsRemoved.connect(self._update_title)
        model.dataChanged.connect(self._on_data_changed)

    # --- selection ----------------------------------------------------------------------

    def selected_id(self) -> int | None:
        index = self.table.currentIndex()
        return index.data(MOMENT_ID_ROLE) if index.isValid() else None

    def select(self, moment_id: int | None) -> None:
        row = None if moment_id is None else self.model.row_of(moment_id)
        if row is None:
            self.table.clearSelection()
            self.table.setCurrentIndex(self.model.index(-1, 0))
            return
        index = self.model.index(row, 0)
        self.table.selectionModel().setCurrentIndex(
            index, QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows)
        self.table.scrollTo(index)

    def _on_current_row(self, current, _previous) -> None:
        self.flush_note()
        moment_id = current.data(MOMENT_ID_ROLE) if current.isValid() else None
        self._load_note(moment_id)
        self.selection_changed.emit(moment_id)

    def _on_activated(self, index) -> None:
        if index.isValid() and index.column() not in (KIND, NOTE):
            self.moment_activated.emit(index.data(MOMENT_ID_ROLE))

    # --- note -----------------------------------------------------------------------------

    @property
    def note_for(self) -> int | None:
        """The one moment the note field is bound to (None: the field is empty and disabled)."""
        return self._note_for

    def focus_note(self) -> None:
        if self._note_for is None:
            return
        self.note.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.note.end(False)

    def _load_note(self, moment_id: int | None) -> None:
        """Bind the note field to one moment (or to none: then it is empty and disabled)."""
        self._note_timer.stop()
        moment = self.model.get(moment_id) if moment_id is not None else None
        self._note_for = moment.id if moment is not None else None
        self.note.setEnabled(moment is not None)
        self.note.setText(moment.note or "" if moment else "")

    def _on_model_reset(self) -> None:
        self._load_note(None)

    def flush_note(self) -> None:
        """Hand on what was typed in the note field now (no-op if unchanged)."""
        self._note_timer.stop()
        if self._note_for is None:
            return
        moment = self.model.get(self._note_for)
        if moment is None:  # the moment it was bound to is gone (deleted): nothing to write it on
            self._load_note(None)
            return
        text = self.note.text().strip() or None
        if text != moment.note:
            self.note_edited.emit(moment.id, text)

    def flush(self) -> None:
        """Commit every edit in progress: the note field and any cell being edited."""
        self.delegate.commit_open_editor()
        self.flush_note()

    def _on_data_changed(self, *_args) -> None:
        if self._note_for is not None and not self.note.hasFocus():
            self._load_note(self._note_for)

    def _update_title(self, *_args) -> None:
        n = self.model.rowCount()
        self.title.setText(f"Moments · {n}" if n else "Moments — Ctrl+M marks one")
