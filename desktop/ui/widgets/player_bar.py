"""Player controls: buttons bound to the registry's actions, the time, the speed."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import QHBoxLayout, QLabel, QSizePolicy, QToolButton, QWidget

from desktop.core.timefmt import format_ms
from desktop.ui.actions import ActionId, ActionRegistry
from desktop.ui.style import player_bar_sheet


class PlayerBar(QWidget):
    def __init__(self, registry: ActionRegistry, parent=None):
        super().__init__(parent)
        self.setObjectName("playerBar")
        self.setStyleSheet(player_bar_sheet())  # its buttons' own look, and only theirs (desktop.ui.style)
        row = QHBoxLayout(self)
        row.setContentsMargins(8, 4, 8, 4)
        row.setSpacing(4)

        def button(action_id: ActionId, label: str, name: str | None = None) -> QToolButton:
            b = QToolButton()
            b.setDefaultAction(registry[action_id])
            b.setText(label)
            b.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
            b.setObjectName(name or f"btn_{action_id.key}")
            b.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            row.addWidget(b)
            return b

        button(ActionId.BACK_TO_START, "⇤")
        button(ActionId.SKIP_BACK, "⟲ 5s", "skipBack")
        self.play_button = button(ActionId.PLAY_PAUSE, "▶", "playButton")
        button(ActionId.SKIP_FORWARD, "5s ⟳", "skipForward")
        self.time = QLabel("00:00.000 / 00:00.000")
        self.time.setObjectName("timeLabel")
        mono = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        mono.setPointSizeF(self.font().pointSizeF() + 1)  # the coach's font size, not the system's fixed one
        self.time.setFont(mono)
        self.time.setMinimumWidth(self.time.fontMetrics().horizontalAdvance("0:00:00.000 / 0:00:00.000") + 8)
        row.addSpacing(8)
        row.addWidget(self.time)
        row.addSpacing(8)
        button(ActionId.SLOWER, "−")
        self.rate = QLabel("1.0×")
        self.rate.setObjectName("rateLabel")
        self.rate.setToolTip("Playback speed (pitch kept)")
        row.addWidget(self.rate)
        button(ActionId.FASTER, "+")
        self.loop_button = button(ActionId.LOOP_MOMENT, "⟳ Loop", "loopButton")
        self.loop_button.setCheckable(True)
        row.addStretch(1)
        self.mark_button = button(ActionId.MARK, "● Mark", "markButton")
        button(ActionId.END_MARK, "End", "endMarkButton")
        self.delay = QLabel("")
        self.delay.setObjectName("delayLabel")
        # Shown where there is room for all of it (a narrow window, a large scale): never cut, and never
        # the reason the window can't fit the screen. The Mark button's tip says the same.
        self.delay.setMinimumWidth(1)  # not counted in the bar's minimum; its full width where there is room
        row.addWidget(self.delay)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self._duration = 0
        self._skip_ms = 5000

    def set_duration(self, ms: int) -> None:
        self._duration = int(ms or 0)

    def set_position(self, ms: int) -> None:
        self.time.setText(f"{format_ms(max(0, int(ms)))} / {format_ms(self._duration)}")

    def set_playing(self, playing: bool) -> None:
        self.play_button.setText("❚❚" if playing else "▶")

    def set_rate(self, rate: float) -> None:
        self.rate.setText(f"{rate:.1f}×")

    def set_looping(self, on: bool) -> None:
        self.loop_button.setChecked(on)

    def set_preferences(self, skip_ms: int, reaction_delay_ms: int) -> None:
        seconds = f"{skip_ms / 1000:g}s"
        self.findChild(QToolButton, "skipBack").setText(f"⟲ {seconds}")
        self.findChild(QToolButton, "skipForward").setText(f"{seconds} ⟳")
        self.delay.setText(f"mark −{reaction_delay_ms} ms" if reaction_delay_ms else "mark at playhead")
        self.delay.setToolTip("Reaction delay taken off each mark (Preferences)")
        self.mark_button.setToolTip(f"{self.mark_button.defaultAction().toolTip()} ({self.delay.text()})")
        self._fit_delay()

    def _fit_delay(self) -> None:
        layout = self.layout()
        others = layout.minimumSize().width()  # the delay label counts 1 px in it
        self.delay.setVisible(self.width() >= others + self.delay.sizeHint().width() + layout.spacing())

    def resizeEvent(self, event) -> None:  # noqa: N802
        super().resizeEvent(event)
        self._fit_delay()
