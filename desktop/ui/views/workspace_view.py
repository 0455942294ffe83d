"""The workspace for the open call: header, player, waveform, then transcript | moments | inspector."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QLabel, QSplitter, QTabWidget, QVBoxLayout, QWidget

from desktop.ui.actions import ActionRegistry
from desktop.ui.models.moments_model import MomentsModel
from desktop.ui.style import banner_sheet, label_look, text_colour, theme
from desktop.ui.widgets.call_info import CallInfo
from desktop.ui.widgets.find_bar import FindBar
from desktop.ui.models.suggestions_model import SuggestionsModel
from desktop.ui.widgets.moments_panel import MomentsPanel
from desktop.ui.widgets.suggestions_panel import SuggestionsPanel
from desktop.ui.widgets.player_bar import PlayerBar
from desktop.ui.widgets.transcript_view import TranscriptView
from desktop.ui.widgets.video import VideoSurface
from desktop.ui.widgets.waveform import WaveformTimeline


FIRST_RUN_SIZES = (420, 330, 330)
MIN_TRANSCRIPT, MIN_MOMENTS, MIN_INSPECTOR = 240, 220, 230


class WorkspaceView(QWidget):
    """Lays out the workspace; the workspace controller wires it."""

    def __init__(self, registry: ActionRegistry, moments: MomentsModel, parent=None):
        super().__init__(parent)
        self.setObjectName("workspace")
        self.heading = label_look(QLabel("No call open"), "callTitle")
        self.details = label_look(QLabel("Open a call from the library, or drop a recording here."), "callDetails")
        self.banner = QLabel()
        self.banner.setObjectName("errorBanner")
        self.banner.setStyleSheet(banner_sheet())
        self.banner.setWordWrap(True)
        self.banner.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.banner.hide()
        self.player_bar = PlayerBar(registry)
        self.waveform = WaveformTimeline()
        self.video = VideoSurface()
        self.video.hide()

        self.transcript = TranscriptView()
        self.transcript.setAccessibleName("Transcript")
        self.find_bar = FindBar()
        self.transcript_empty = label_look(QLabel("This call has no transcript yet."), "emptyHint")
        self.transcript_empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.transcript_empty.hide()
        transcript_box = QWidget()
        tl = QVBoxLayout(transcript_box)
        tl.setContentsMargins(0, 0, 0, 0)
        tl.setSpacing(2)
        tl.addWidget(label_look(QLabel("Transcript"), "panelTitle"))
        tl.addWidget(self.find_bar)
        tl.addWidget(self.transcript, 1)
        tl.addWidget(self.transcript_empty, 1)
        # The picked line in full, when its row shows only the start of it (rows keep one height).
        self.line_detail = QLabel()
        self.line_detail.setObjectName("lineDetail")
        self.line_detail.setWordWrap(True)
        self.line_detail.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.line_detail.hide()
        tl.addWidget(self.line_detail)

        self.moments = MomentsPanel(moments)
        self.suggestions = SuggestionsPanel(SuggestionsModel(self))
        self.side = QSplitter(Qt.Orientation.Vertical)
        self.side.setObjectName("sideSplitter")
        self.side.addWidget(self.video)
        self.side.addWidget(self.moments)
        self.side.addWidget(self.suggestions)
        self.side.setStretchFactor(1, 1)
        self.side.setStretchFactor(2, 1)
        self.side.setChildrenCollapsible(False)

        self.inspector = QTabWidget()
        self.inspector.setObjectName("inspector")
        self.inspector.setAccessibleName("Inspector")
        self.inspector.setDocumentMode(True)
        self.call_info = CallInfo()
        self.inspector.addTab(self.call_info, "Call")

        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.setObjectName("workSplitter")
        self.splitter.addWidget(transcript_box)
        self.splitter.addWidget(self.side)
        self.splitter.addWidget(self.inspector)
        self.splitter.setStretchFactor(0, 5)
        self.splitter.setStretchFactor(1, 4)
        self.splitter.setStretchFactor(2, 2)
        # No panel can be dragged (or restored) down to a sliver: each keeps room for what it shows.
        transcript_box.setMinimumWidth(MIN_TRANSCRIPT)
        self.side.setMinimumWidth(MIN_MOMENTS)
        self.inspector.setMinimumWidth(MIN_INSPECTOR)
        self.splitter.setChildrenCollapsible(False)
        self.splitter.setSizes(list(FIRST_RUN_SIZES))  # the coach's own split is restored after
        self.transcript_box = transcript_box
        self._sizes_before_writing: list[int] | None = None

        line = QFrame()
        line.setFrameShape(QFrame.Shape.HLine)
        line.setFrameShadow(QFrame.Shadow.Plain)
        line.setObjectName("rule")
        text_colour(line, theme().rule)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 6, 6, 6)
        layout.setSpacing(4)
        layout.addWidget(self.heading)
        layout.addWidget(self.details)
        layout.addWidget(self.banner)
        layout.addWidget(self.player_bar)
        layout.addWidget(self.waveform)
        layout.addWidget(line)
        layout.addWidget(self.splitter, 1)

    # --- room to write ---------------------------------------------------------------------------

    @property
    def writing(self) -> bool:
        return self._sizes_before_writing is not None

    def set_writing(self, on: bool) -> None:
        """While writing an item the inspector takes the moments list's room and most of the
        transcript's; the transcript stays beside it, to read from and play the moment."""
        if on == self.writing:
            return
        if on:
            self._sizes_before_writing = self.splitter.sizes()
            total = sum(self._sizes_before_writing)
            self.side.hide()
            transcript = max(MIN_TRANSCRIPT, int(total * 0.32))
            self.splitter.setSizes([transcript, 0, total - transcript])
        else:
            sizes, self._sizes_before_writing = self._sizes_before_writing, None
            self.side.show()
            self.splitter.setSizes(sizes)

    def reset_layout(self) -> None:
        self.set_writing(False)
        self.side.show()
        self.splitter.setSizes(list(FIRST_RUN_SIZES))
        self.side.setSizes([0, 1, 1])

    def show_line_detail(self, text: str | None) -> None:
        self.line_detail.setText(text or "")
        self.line_detail.setVisible(bool(text))

    def show_error(self, message: str | None) -> None:
        self.banner.setText(message or "")
        self.banner.setVisible(bool(message))

    def show_transcript(self, has_lines: bool) -> None:
        self.transcript.setVisible(has_lines)
        self.transcript_empty.setVisible(not has_lines)
