"""The player on the GUI thread: ticks it, and turns its callbacks into Qt signals.

VLC reports on its own thread. The player only notes those reports and calls
``on_event_pending`` there; we emit a signal that reaches ``tick`` through a
queued connection, so every message (errors included) is handled here on the
GUI thread, where widgets may be touched.

The player itself is made on a thread of its own once the window is painted
(``start_player``): importing python-vlc and starting libvlc take a tenth of a
second the coach should not wait for. A command that needs the player before
that waits for it (or makes it at once if it was never started).
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
        self._player: Player | None = None  # made after the paint: starting libvlc is not needed to paint
        self._starter = None  # the task making the player (desktop.ui.tasks)
        self._unavailable: str | None = None  # why libvlc could not start, once it failed
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
        """The VLC player, with any load still waiting for the first paint done first.

        Raises PlaybackError, every time, if libvlc could not be started (missing or broken).
        """
        if self._player is None:
            if self._unavailable is not None:
                raise PlaybackError(self._unavailable)
            starter, self._starter = self._starter, None
            try:
                if starter is not None:
                    starter.wait(None)  # started after the paint and not done yet: a key waits for it
                    if starter.error is not None:
                        raise starter.error
                    player = starter.result
                    player.auto_rewind_ms = self._auto_rewind_ms  # changed meanwhile?
                else:
                    player = self._make_player()
            except (Exception, SystemExit) as exc:  # python-vlc exits when its library path is wrong
                self._pending = None
                self._unavailable = f"Playback is not available: {exc or type(exc).__name__}"
                raise PlaybackError(self._unavailable) from exc
            self._player = player
        if self._pending is not None:
            self.finish_load()
        return self._player

    def _usable_player(self) -> Player | None:
        """The player, or None when playback is not available (reading state must not fail)."""
        try:
            return self.player
        except PlaybackError:
            return None

    def _make_player(self) -> Player:
        # Runs on the starter's thread (or the GUI thread): the callbacks only fire once a
        # recording is loaded, which happens on the GUI thread.
        player = Player(vlc_options(), auto_rewind_ms=self._auto_rewind_ms)
        player.on_error = self._on_player_error
        player.on_state = lambda state: self.state_changed.emit(state.value)
        player.on_length = self.length_changed.emit
        player.on_end = lambda: self.position_changed.emit(player.position_ms())
        player.on_event_pending = self._vlc_event_pending.emit
        return player

    def start_player(self) -> None:
        """Make the player on a thread of its own; a waiting load follows once it is made."""
        if self._player is None and self._starter is None:
            from desktop.ui.tasks import run_task

            done = lambda *_: self._on_player_started()  # noqa: E731 - result or error: the property takes it
            self._starter = run_task(self._make_player, done, receiver=self, on_error=done,
                                     name="callmark-player-start")

    @Slot()
    def _on_player_started(self) -> None:
        if self._starter is None:
            return  # a command took the player already
        self._guarded(lambda: self.player)  # takes the made player and does the waiting load

    # --- reading ---------------------------------------------------------------------

    @property
    def is_playing(self) -> bool:
        player = self._usable_player()
        return player is not None and player.is_playing

    @property
    def has_media(self) -> bool:
        return self._pending is not None or (self._player is not None and self.player.path is not None)

    @property
    def last_error(self) -> str | None:
        player = self._usable_player()
        return self._unavailable if player is None else player.error

    def position_ms(self) -> int:
        if self._pending is not None:  # not loaded yet: where it will start (switching away stays cheap)
            return self._pending[1]
        return self._player.position_ms() if self._player is not None else max(0, self._last_position)

    def mark_ms(self, reaction_delay_ms: int) -> int:
        player = self._usable_player()  # without playback a mark still lands, where the coach stands
        return self.position_ms() if player is None else player.mark_ms(reaction_delay_ms)

    def rate(self) -> float:
        player = self._usable_player()
        return 1.0 if player is None else player.rate()

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
        """The window is painted: start the player (off this thread) and do any waiting load."""
        self._hold = False
        if self._player is None and self._unavailable is None:
            self.start_player()  # the waiting load follows once the player is made
        else:
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
        player = self._usable_player()
        if player is None:
            self.error.emit(self._unavailable or "Playback is not available.")
            return False
        player.clear_loop()
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
        self._guarded(lambda: self.player.toggle())

    @Slot()
    def play(self) -> None:
        self._guarded(lambda: self.player.play())

    @Slot()
    def pause(self) -> None:
        self._guarded(lambda: self.player.pause())

    def seek(self, ms: int) -> None:
        self._guarded(lambda: self.player.seek(int(ms)))
        self._emit_position(force=True)

    def skip(self, delta_ms: int) -> None:
        self._guarded(lambda: self.player.skip(int(delta_ms)))
        self._emit_position(force=True)

    def change_rate(self, delta: float) -> None:
        self.set_rate(self.rate() + delta)

    def set_rate(self, rate: float) -> None:
        self._guarded(lambda: self.rate_changed.emit(self.player.set_rate(rate)))

    def set_auto_rewind(self, ms: int) -> None:
        self._auto_rewind_ms = max(0, int(ms))
        if self._player is not None:
            self._player.auto_rewind_ms = self._auto_rewind_ms

    def toggle_loop(self, start_ms: int, end_ms: int) -> bool:
        """Loop [start, end) or, if already looping it, stop looping. Returns looping or not."""
        if self._usable_player() is None:
            self.error.emit(self._unavailable or "Playback is not available.")
            return False
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
        starter, self._starter = self._starter, None
        if starter is not None:
            starter.wait(None)  # never leave libvlc starting behind a closed window
            if self._player is None:
                self._player = starter.result
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
        pos = self.position_ms()
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
