"""Small dialogs for transcripts: settings, a line's text and speaker, speakers, versions."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from desktop.services.transcription import TranscriptionPreferences
from desktop.ui.style import label_look

LANGUAGES = (("Detect automatically", ""), ("English", "en"), ("German", "de"), ("French", "fr"),
             ("Spanish", "es"), ("Italian", "it"), ("Dutch", "nl"), ("Portuguese", "pt"))


def _buttons(dialog: QDialog) -> QDialogButtonBox:
    box = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
    box.accepted.connect(dialog.accept)
    box.rejected.connect(dialog.reject)
    return box


class TranscriptionSettingsDialog(QDialog):
    """Model (a folder or a name), whether a name may be downloaded, and the language."""

    def __init__(self, prefs: TranscriptionPreferences, parent=None):
        super().__init__(parent)
        self.setWindowTitle("Transcription settings")
        self.model = QLineEdit(prefs.model or "")
        self.model.setPlaceholderText("empty: the bundled Whisper tiny.en (offline)")
        browse = QPushButton("Folder…")
        browse.clicked.connect(self._browse)
        model_row = QHBoxLayout()
        model_row.addWidget(self.model, 1)
        model_row.addWidget(browse)
        self.allow_network = QCheckBox("Allow downloading a model by name (once; off by default)")
        self.allow_network.setChecked(prefs.allow_network)
        self.language = QComboBox()
        self.language.setEditable(True)
        for label, code in LANGUAGES:
            self.language.addItem(label, code)
        found = self.language.findData(prefs.language or "")
        if found >= 0:
            self.language.setCurrentIndex(found)
        else:
            self.language.setEditText(prefs.language or "")
        form = QFormLayout()
        form.addRow("Whisper model", model_row)
        form.addRow("", self.allow_network)
        form.addRow("Language", self.language)
        hint = QLabel("Recordings are transcribed on this computer. A model folder holds a CTranslate2 "
                      "Whisper model (model.bin, config.json, tokenizer.json); a name such as small.en "
                      "is downloaded only if you allow it here.")
        hint.setWordWrap(True)
        label_look(hint, "hint")
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(hint)
        layout.addWidget(_buttons(self))

    def _browse(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Choose a Whisper model folder", self.model.text())
        if folder:
            self.model.setText(folder)

    def preferences(self) -> TranscriptionPreferences:
        code = self.language.currentData() if self.language.currentText() == \
            self.language.itemText(self.language.currentIndex()) else self.language.currentText()
        return TranscriptionPreferences(self.model.text().strip() or None, self.allow_network.isChecked(),
                                        (code or "").strip().lower() or None)


class LineEditDialog(QDialog):
    """Fix one line's words or who said it; placed over the line in the transcript."""

    def __init__(self, text: str, speaker: str | None, speakers: list[str], parent=None):
        super().__init__(parent)
        self.setWindowTitle("Edit line")
        self.setObjectName("lineEdit")
        self.text = QPlainTextEdit(text)
        self.text.setTabChangesFocus(True)
        self.speaker = QComboBox()
        self.speaker.setEditable(True)
        self.speaker.addItems(speakers)
        self.speaker.setEditText(speaker or "")
        form = QFormLayout()
        form.addRow("Speaker", self.speaker)
        form.addRow("Words", self.text)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(_buttons(self))
        self.resize(520, 170)

    def values(self) -> tuple[str, str | None]:
        return " ".join(self.text.toPlainText().split()), self.speaker.currentText().strip() or None


class SpeakersDialog(QDialog):
    """Rename a voice once for the whole call; mark which one is the rep."""

    def __init__(self, speakers: list[dict], rename, set_rep, parent=None):
        super().__init__(parent)
        self.setWindowTitle("Speakers")
        self._rename, self._set_rep = rename, set_rep
        self.list = QListWidget()
        self.name = QLineEdit()
        self.name.setPlaceholderText("New name for the selected speaker")
        rename_button = QPushButton("Rename")
        rep_button = QPushButton("This is the rep")
        rename_button.clicked.connect(self.rename_selected)
        rep_button.clicked.connect(self.mark_rep)
        self.name.returnPressed.connect(self.rename_selected)
        self.list.currentItemChanged.connect(
            lambda item, _old: self.name.setText(item.data(256)["name"] if item else ""))
        row = QHBoxLayout()
        row.addWidget(self.name, 1)
        row.addWidget(rename_button)
        row.addWidget(rep_button)
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        close.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.list, 1)
        layout.addLayout(row)
        layout.addWidget(close)
        self.set_speakers(speakers)

    def set_speakers(self, speakers: list[dict]) -> None:
        current = self.list.currentRow()
        self.list.clear()
        for spk in speakers:
            role = f"  ({spk['role']})" if spk.get("role") else ""
            item = QListWidgetItem(f"{spk['name']}{role}")
            item.setData(256, spk)
            self.list.addItem(item)
        if self.list.count():
            self.list.setCurrentRow(max(0, min(current, self.list.count() - 1)))

    def selected(self) -> dict | None:
        item = self.list.currentItem()
        return item.data(256) if item else None

    def rename_selected(self) -> None:
        spk = self.selected()
        if spk and self.name.text().strip():
            self.set_speakers(self._rename(spk["label"], self.name.text().strip()))

    def mark_rep(self) -> None:
        spk = self.selected()
        if spk:
            self.set_speakers(self._set_rep(spk["label"]))


class VersionsDialog(QDialog):
    """Every version of the call's transcript; restore one (e.g. the original Whisper output)."""

    WORDS = {"whisper": "Whisper (as transcribed)", "import": "Imported", "edited": "Edited by you"}

    def __init__(self, versions: list[tuple[int, str, bool]], parent=None):
        super().__init__(parent)
        self.setWindowTitle("Transcript versions")
        self.list = QListWidget()
        for number, (vid, origin, current) in enumerate(versions, 1):
            item = QListWidgetItem(f"{number}. {self.WORDS.get(origin, origin)}{'  — current' if current else ''}")
            item.setData(256, vid)
            self.list.addItem(item)
            if current:
                self.list.setCurrentItem(item)
        box = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.restore = box.addButton("Make current", QDialogButtonBox.ButtonRole.AcceptRole)
        box.accepted.connect(self.accept)
        box.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel("Edits never overwrite: the original stays here."))
        layout.addWidget(self.list, 1)
        layout.addWidget(box)

    def chosen(self) -> int | None:
        item = self.list.currentItem()
        return item.data(256) if item else None


__all__ = ["LineEditDialog", "SpeakersDialog", "TranscriptionSettingsDialog", "VersionsDialog", "QWidget"]
