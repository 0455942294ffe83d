"""The bar above the transcript: progress with Cancel while a call transcribes, or an offer to transcribe."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QPushButton, QWidget


class TranscriptionBar(QWidget):
    """Shows one of: nothing; "No transcript yet [Transcribe] [Import…]"; progress + [Cancel]."""

    transcribe_requested = Signal()
    import_requested = Signal()
    cancel_requested = Signal()

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("transcriptionBar")
        self.label = QLabel()
        self.label.setObjectName("transcriptionStatus")
        # Wraps rather than widening the transcript: unwrapped, the progress line pushed the library
        # aside to a sliver while the demo call transcribed on the first start.
        self.label.setWordWrap(True)
        self.progress = QProgressBar()
        self.progress.setObjectName("transcriptionProgress")
        self.progress.setRange(0, 1000)
        self.progress.setTextVisible(False)
        self.progress.setMaximumHeight(8)
        self.progress.setMinimumWidth(80)
        self.transcribe = QPushButton("Transcribe")
        self.transcribe.setObjectName("transcribeButton")
        self.import_button = QPushButton("Import transcript…")
        self.cancel = QPushButton("Cancel")
        self.cancel.setObjectName("cancelTranscription")
        self.transcribe.clicked.connect(self.transcribe_requested)
        self.import_button.clicked.connect(self.import_requested)
        self.cancel.clicked.connect(self.cancel_requested)
        row = QHBoxLayout(self)
        row.setContentsMargins(4, 2, 4, 2)
        row.addWidget(self.label)
        row.addWidget(self.progress, 1)  # the bar takes the room; the words keep theirs
        row.addWidget(self.transcribe)
        row.addWidget(self.import_button)
        row.addWidget(self.cancel)
        self.show_nothing()

    def show_nothing(self) -> None:
        self.hide()

    def show_offer(self, shortcut: str = "") -> None:
        self.label.setText("This call has no transcript yet.")
        self.transcribe.setText(f"Transcribe ({shortcut})" if shortcut else "Transcribe")
        self.progress.hide()
        self.cancel.hide()
        self.transcribe.show()
        self.import_button.show()
        self.show()

    def show_progress(self, text: str, fraction: float | None) -> None:
        self.label.setText(text)
        self.transcribe.hide()
        self.import_button.hide()
        self.cancel.show()
        self.progress.show()
        if fraction is None:
            self.progress.setRange(0, 0)  # waiting: a busy bar
        else:
            self.progress.setRange(0, 1000)
            self.progress.setValue(int(max(0.0, min(1.0, fraction)) * 1000))
        self.show()
