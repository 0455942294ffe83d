"""A native surface VLC draws video into (only shown when the call has video)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QFrame


class VideoSurface(QFrame):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("video")
        self.setMinimumSize(240, 135)
        palette = self.palette()
        palette.setColor(QPalette.ColorRole.Window, Qt.GlobalColor.black)
        self.setPalette(palette)
        self.setAutoFillBackground(True)
        # VLC paints into this window directly; Qt must not paint over it.
        self.setAttribute(Qt.WidgetAttribute.WA_NativeWindow)
        self.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent)

    def native_id(self) -> int:
        return int(self.winId())
