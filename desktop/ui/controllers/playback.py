"""The player on the GUI thread: ticks it, and turns its callbacks into Qt signals.

VLC reports on its own thread. The player only notes those reports and calls
``on_event_pending`` there; we emit a signal that reaches ``tick`` through a
queued connection, so every message (errors included) is handled here on the
GUI thread, where widgets may be touched.
"""

from __future__ import annotations

import os
import shlex
from pathlib import Path

from PySide6.QtCore import QObject, Qt, QTimer, Signal, Slot

from desktop.playback.player import (
    DEFAULT_OPTIONS,
    TICK_INTERVAL_MS,
    PlaybackError,
    Player,
    PlayerState,
)

VLC_ARGS_ENV = "CALLMARK_VLC_ARGS"


def vlc_options() -> list[str]:
    """The app's VLC options, plus any from CALLMARK_VLC_ARGS (tests: dummy outputs)."""
    extra = shlex.split(os.environ.get(VLC_ARGS_ENV, ""))
    return list(DEFAULT_OPTIONS) + extra


class PlaybackController(QObject):
    position_changed = Signal(int)  # ms, every tick while playing and after seeks
    state_changed = Signal(str)  # a PlayerState value
    rate_changed = Signal(float)
    length_changed = Signal(int)
    error = Signal(str)  # one line for the coach, naming the file
    loop_changed = Signal(bool)
    _vlc_event_pending = Signal()  # emitted on VLC's thread

    def __init__(self, parent: QObject | None = None, *, auto_rewind_ms: int = 1000):
        super().__init__(parent)
        self._auto_rewind_ms = auto_rewind_ms
        self._player: Player | None = None  # made on first use: starting libvlc is not needed to paint
        self._pending: tuple[str | Path | None, int, int | None] | None = None  # a load after the paint
        self._hold = False
        self._vlc_event_pending.connect(self.tick, Qt.ConnectionType.QueuedConnection)
        self._timer = QTimer(self)
        self._timer.setInterval(TICK_INTERVAL_MS)
        self._timer.setTimerType(Qt.TimerType.PreciseTimer)
        self._timer.timeout.connect(self.tick)
        self.state_changed.connect(self._on_state)
        self._last_position = -1

    @property
    def player(self) -> Player:
        """The VLC player, with any load still waiting for the first paint done first."""
        if self._player is None:
            player = Player(vlc_options(), auto_rewind_ms=self._auto_rewind_ms)
            player.on_error = self._on_player_error
            player.on_state = lambda state: self.state_changed.emit(state.value)
            player.on_length = self.length_changed.emit
            player.on_end = lambda: self.position_changed.emit(player.position_ms())
            player.on_event_pending = self._vlc_event_pending.emit
            self._player = player
        if self._pending is not None:
            self.finish_load()
        return self._player

    # --- reading ---------------------------------------------------------------------

    @property
    def is_playing(self) -> bool:
        return self.player.is_playing

    @property
    def has_media(self) -> bool:
        return self._pending is not None or (self._player is not None and self.player.path is not None)

    @property
    def last_error(self) -> str | None:
        return self.player.error

    def position_ms(self) -> int:
        if self._pending is not None:  # not loaded yet: where it will start (switching away stays cheap)
            return self._pending[1]
        return self.player.position_ms() if self._player is not None else 0

    def mark_ms(self, reaction_delay_ms: int) -> int:
        return self.player.mark_ms(reaction_delay_ms)

    def rate(self) -> float:
        return self.player.rate()

    # --- commands (slots) -------------------------------------------------------------

    def load_later(self, path: str | Path | None, start_ms: int = 0, video_window: int | None = None) -> None:
        """Open a call's media once the workspace is painted (or at the first command, whichever
        comes first), then seek to ``start_ms``. A missing file is said at once."""
        self._pending = None
        if not path or not Path(path).exists():
            self.load(path)
            return
        self._pending = (path, int(start_ms), video_window)
        self._last_position = int(start_ms)
        self.position_changed.emit(int(start_ms))
        QTimer.singleShot(0, self, lambda: self.finish_load(now=False))

    def hold_loads(self) -> None:
        """Keep a waiting load until ``release_loads`` (the window's first paint comes first);
        a command that needs the player still loads at once."""
        self._hold = True

    def release_loads(self) -> None:
        self._hold = False
        QTimer.singleShot(0, self, self.finish_load)

    def finish_load(self, *, now: bool = True) -> None:
        if self._pending is None or (self._hold and not now):
            return
        (path, start_ms, video_window), self._pending = self._pending, None
        if self.load(path):
            if video_window is not None:
                self.set_video_window(video_window)
            if start_ms > 0:
                self.seek(start_ms)

    def load(self, path: str | Path | None) -> bool:
        """Open a call's media; False (and an ``error``) if it can't be opened."""
        self._pending = None
        self.player.clear_loop()
        self.loop_changed.emit(False)
        if not path:
            self._stop_quietly()
            self.error.emit("This call's recording is not on this computer (known by its hash only).")
            return False
        try:
            self.player.load(path)
        except PlaybackError as exc:
            self._stop_quietly()
            self.error.emit(str(exc))
            return False
        self._emit_position(force=True)
        return True

    def _stop_quietly(self) -> None:
        if self._player is not None and self._player.path is not None:
            self.player.stop()
        self._timer.stop()

    @Slot()
    def toggle(self) -> None:
        self._guarded(self.player.toggle)

    @Slot()
    def play(self) -> None:
        self._guarded(self.player.play)

    @Slot()
    def pause(self) -> None:
        self._guarded(self.player.pause)

    def seek(self, ms: int) -> None:
        self._guarded(lambda: self.player.seek(int(ms)))
        self._emit_position(force=True)

    def skip(self, delta_ms: int) -> None:
        self._guarded(lambda: self.player.skip(int(delta_ms)))
        self._emit_position(force=True)

    def change_rate(self, delta: float) -> None:
        self.set_rate(self.player.rate() + delta)

    def set_rate(self, rate: float) -> None:
        self.rate_changed.emit(self.player.set_rate(rate))

    def set_auto_rewind(self, ms: int) -> None:
        self._auto_rewind_ms = max(0, int(ms))
        if self._player is not None:
            self._player.auto_rewind_ms = self._auto_rewind_ms

    def toggle_loop(self, start_ms: int, end_ms: int) -> bool:
        """Loop [start, end) or, if already looping it, stop looping. Returns looping or not."""
        if self.player.loop == (start_ms, end_ms) or end_ms <= start_ms:
            self.player.clear_loop()
            self.loop_changed.emit(False)
            return False
        self.player.set_loop(start_ms, end_ms)
        self.loop_changed.emit(True)
        self._emit_position(force=True)
        return True

    def set_video_window(self, win_id: int) -> None:
        try:
            self.player.set_window(win_id)
        except PlaybackError as exc:
            self.error.emit(str(exc))

    def release(self) -> None:
        self._timer.stop()
        self._pending = None
        if self._player is not None:
            self._player.on_event_pending = None
            self._player.release()

    # --- inside -------------------------------------------------------------------------

    @Slot()
    def tick(self) -> None:
        if self._player is None:
            return
        self.player.tick()
        self._emit_position()

    def _emit_position(self, force: bool = False) -> None:
        pos = self.player.position_ms()
        if force or pos != self._last_position:
            self._last_position = pos
            self.position_changed.emit(pos)

    def _guarded(self, command) -> None:
        try:
            command()
        except PlaybackError as exc:
            self.error.emit(str(exc))

    def _on_player_error(self, message: str) -> None:
        self.error.emit(message)

    def _on_state(self, value: str) -> None:
        # Tick fast only while playing; VLC's own events wake us otherwise.
        if value == PlayerState.PLAYING.value:
            self._timer.start()
        else:
            self._timer.stop()
            self._emit_position(force=True)
