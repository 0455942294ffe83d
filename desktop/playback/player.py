"""The call player: python-vlc behind a small, Qt-free interface.

Threading rules (libvlc's, not ours):
- VLC reports events on its own thread, and sometimes synchronously inside a
  libvlc call (``set_time`` fires TimeChanged on the caller's thread). Calling
  libvlc from inside such a callback can deadlock, so the event handlers here
  only note the event: time reports go straight into the thread-safe clock,
  everything else into a queue.
- The GUI calls ``tick()`` every 15-30 ms (a QTimer). ``tick()`` drains the
  queue on the GUI thread and runs the plain callbacks (``on_error``,
  ``on_end``, ``on_state``, ``on_length``) there, where calling back into the
  player is safe. ``on_event_pending`` is the one exception: it is called on
  VLC's thread to say "tick soon" and must not touch the player.
- Bad input that can be checked at once (a missing file) raises; what only
  VLC can find out (a file it cannot decode, a file gone mid-play) arrives
  later through ``on_error`` as one message naming the file.
"""

from __future__ import annotations

import sys
import time
from collections import deque
from collections.abc import Callable, Sequence
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING

from desktop.errors import CallmarkError
from desktop.playback.clock import DEFAULT_REACTION_DELAY_MS, PlaybackClock, TimeSource

# What the app always wants: no title overlay, no network look-ups (Lua
# scripts fetch art and lyrics; metadata access may go online), no user
# vlcrc changing outputs behind our back, and pitch kept when the rate
# changes (scaletempo, VLC's default, stated so no config can turn it off).
BASE_OPTIONS: tuple[str, ...] = (
    "--quiet",
    "--ignore-config",
    "--no-video-title-show",
    "--no-osd",
    "--no-lua",
    "--no-metadata-network-access",
    "--no-media-library",
    "--no-stats",
    "--audio-time-stretch",
)
# Qt talks to X through xcb; VLC's Xlib modules need XInitThreads, which Qt
# does not call.
DEFAULT_OPTIONS: tuple[str, ...] = BASE_OPTIONS + (("--no-xlib",) if sys.platform.startswith("linux") else ())
# Tests, CI and benchmarks: real decoding and timing, no sound card, no window.
HEADLESS_OPTIONS: tuple[str, ...] = DEFAULT_OPTIONS + ("--aout=dummy", "--vout=dummy")

RATE_MIN = 0.5
RATE_MAX = 2.0
RATE_STEP = 0.1
DEFAULT_AUTO_REWIND_MS = 1000
DEFAULT_SKIP_MS = 5000
TICK_INTERVAL_MS = 20  # what the GUI's timer should use


class PlaybackError(CallmarkError):
    """Something about playback the coach should be told, in one line."""


class MediaNotFoundError(PlaybackError):
    pass


class MediaUnplayableError(PlaybackError):
    pass



if TYPE_CHECKING:
    import vlc
else:
    vlc = None  # python-vlc: imported with the first Player, not when the window is built


def _import_vlc() -> None:
    global vlc
    if vlc is None:
        import vlc as module

        vlc = module

class PlayerState(StrEnum):
    EMPTY = "empty"  # nothing loaded
    READY = "ready"  # loaded, not started (or stopped)
    PLAYING = "playing"
    PAUSED = "paused"
    ENDED = "ended"
    ERROR = "error"


def clamp_rate(rate: float) -> float:
    """0.5x to 2x in steps of 0.1."""
    stepped = round(rate / RATE_STEP) * RATE_STEP
    return round(min(RATE_MAX, max(RATE_MIN, stepped)), 1)


_EVENTS = (
    "MediaPlayerTimeChanged",
    "MediaPlayerLengthChanged",
    "MediaPlayerEncounteredError",
    "MediaPlayerEndReached",
    "MediaPlayerESAdded",
    "MediaPlayerPlaying",
    "MediaPlayerPaused",
)


class Player:
    """One media player. Create it on the GUI thread; call it from there."""

    def __init__(
        self,
        vlc_options: Sequence[str] | None = None,
        *,
        auto_rewind_ms: int = DEFAULT_AUTO_REWIND_MS,
        time_source: TimeSource = time.monotonic,
    ) -> None:
        _import_vlc()
        options = list(DEFAULT_OPTIONS if vlc_options is None else vlc_options)
        instance = vlc.Instance(options)
        if instance is None:
            raise PlaybackError(f"libvlc could not start with options {' '.join(options)}")
        self._instance = instance
        self._mp = instance.media_player_new()
        self._time = time_source
        self.clock = PlaybackClock(time_source)
        self.auto_rewind_ms = auto_rewind_ms
        self.on_error: Callable[[str], None] | None = None
        self.on_end: Callable[[], None] | None = None
        self.on_state: Callable[[PlayerState], None] | None = None
        self.on_length: Callable[[int], None] | None = None
        self.on_event_pending: Callable[[], None] | None = None  # VLC's thread!

        self._path: Path | None = None
        self._media: vlc.Media | None = None
        self._state = PlayerState.EMPTY
        self._error: str | None = None
        self._length_ms = 0
        self._streams = 0  # elementary streams VLC found; 0 at the end = undecodable
        self._start_ms = 0  # where to start when the input is not running
        self._seeked_since_pause = False
        self._loop: tuple[int, int] | None = None
        self._rate = 1.0
        self._generation = 0  # events from an input we since stopped are dropped
        self._load_id = 0  # the media's own events outlive input restarts
        self._pending: deque[tuple[int, str, int]] = deque()
        self._released = False

        # Keep the wrappers: python-vlc's C callback lives on them, and a
        # fresh event_manager() could not detach what this one attached.
        self._events = self._mp.event_manager()
        for name in _EVENTS:
            self._events.event_attach(getattr(vlc.EventType, name), self._on_vlc_event, name)
        self._media_events: vlc.EventManager | None = None

    # --- what the GUI reads ------------------------------------------------

    @property
    def path(self) -> Path | None:
        return self._path

    @property
    def state(self) -> PlayerState:
        return self._state

    @property
    def is_playing(self) -> bool:
        return self._state is PlayerState.PLAYING

    @property
    def error(self) -> str | None:
        """The last error message, until the next load."""
        return self._error

    @property
    def duration_ms(self) -> int | None:
        """Length of the media once VLC knows it (after play starts)."""
        return self._length_ms or None

    @property
    def loop(self) -> tuple[int, int] | None:
        return self._loop

    def rate(self) -> float:
        return self._rate

    def position_ms(self) -> int:
        return self.clock.now_ms()

    def mark_ms(self, reaction_delay_ms: float = DEFAULT_REACTION_DELAY_MS) -> int:
        return self.clock.mark_ms(reaction_delay_ms)

    def vlc_time_ms(self) -> int:
        """VLC's own coarse ``get_time()`` (-1 when stopped): for comparison only."""
        return self._mp.get_time()

    # --- commands ------------------------------------------------------------

    def load(self, path: str | Path) -> None:
        """Open a media file, paused at 0. Raises if the file is not there."""
        path = Path(path)
        self._check_alive()
        _check_file(path)
        self._stop_input()
        self._pending.clear()
        media = self._instance.media_new_path(str(path))
        if media is None:
            raise MediaUnplayableError(f"Cannot play {path}: VLC could not open it.")
        self._mp.set_media(media)
        self._drop_media()
        self._load_id += 1
        self._media = media
        # Learn the length before playing (the timeline needs it): a local
        # parse only, no network look-ups.
        self._media_events = media.event_manager()
        self._media_events.event_attach(
            vlc.EventType.MediaDurationChanged, self._on_media_duration, self._load_id)
        media.parse_with_options(vlc.MediaParseFlag.local, 0)
        self._path = path
        self._error = None
        self._length_ms = 0
        self._streams = 0
        self._start_ms = 0
        self._loop = None
        self.clock.reset(0)
        self._set_state(PlayerState.READY)

    def play(self) -> None:
        """Start or resume. A resume after a pause backs up ``auto_rewind_ms``."""
        self._check_alive()
        if self._path is None:
            raise PlaybackError("Nothing to play: open a call first.")
        if self._state is PlayerState.PLAYING:
            return
        _check_file(self._path)
        if self._state is PlayerState.PAUSED and self._input_running():
            if self.auto_rewind_ms > 0 and not self._seeked_since_pause:
                self.seek(self.position_ms() - self.auto_rewind_ms)
            self._mp.set_pause(0)
        else:
            self._start_input()
        self.clock.on_play()
        self._set_state(PlayerState.PLAYING)

    def pause(self) -> None:
        if self._state is not PlayerState.PLAYING:
            return
        self._mp.set_pause(1)
        self.clock.on_pause()  # the interpolated position, not VLC's stale one
        self._seeked_since_pause = False
        self._set_state(PlayerState.PAUSED)

    def toggle(self) -> None:
        if self._state is PlayerState.PLAYING:
            self.pause()
        else:
            self.play()

    def seek(self, ms: int) -> None:
        """Go to ``ms`` (clamped to the media), playing or not."""
        if self._path is None:
            return
        ms = max(0, int(ms))
        if self._length_ms:
            ms = min(ms, self._length_ms)
        # The clock first: VLC may echo the new time synchronously, and
        # anything it reports from before the seek must already be stale.
        self.clock.on_seek(ms)
        self._seeked_since_pause = True
        if self._input_running():
            self._mp.set_time(ms)
        else:
            self._start_ms = ms  # VLC ignores set_time without a running input

    def skip(self, delta_ms: int) -> None:
        self.seek(self.position_ms() + delta_ms)

    def set_rate(self, rate: float) -> float:
        """Set the speed (0.5x-2x, steps of 0.1, pitch kept); returns it."""
        rate = clamp_rate(rate)
        self._rate = rate
        self._mp.set_rate(rate)
        self.clock.on_rate(rate)
        return rate

    def set_loop(self, start_ms: int, end_ms: int) -> None:
        """Replay [start_ms, end_ms) until ``clear_loop()``; jumps in if outside."""
        if not 0 <= start_ms < end_ms:
            raise ValueError(f"a loop needs 0 <= start < end, got {start_ms}..{end_ms} ms")
        self._loop = (int(start_ms), int(end_ms))
        if not start_ms <= self.position_ms() < end_ms:
            self.seek(start_ms)

    def clear_loop(self) -> None:
        self._loop = None

    def set_window(self, win_id: int) -> None:
        """Draw video into a native window (a QWidget's ``winId()``)."""
        if sys.platform.startswith("linux"):
            self._mp.set_xwindow(int(win_id))
        elif sys.platform == "win32":
            self._mp.set_hwnd(int(win_id))
        elif sys.platform == "darwin":
            self._mp.set_nsobject(int(win_id))
        else:
            raise PlaybackError(f"Embedding video is not supported on {sys.platform}.")

    def stop(self) -> None:
        """Stop and go back to the start; the media stays loaded."""
        self._stop_input()
        self._start_ms = 0
        self.clock.reset(0)
        if self._path is not None:
            self._set_state(PlayerState.READY)

    def release(self) -> None:
        if self._released:
            return
        self._released = True
        for name in _EVENTS:
            self._events.event_detach(getattr(vlc.EventType, name))
        self._mp.stop()
        self._drop_media()
        self._mp.release()
        self._instance.release()

    def _drop_media(self) -> None:
        if self._media_events is not None:
            self._media_events.event_detach(vlc.EventType.MediaDurationChanged)
            self._media_events = None
        if self._media is not None:
            self._media.parse_stop()
            self._media.release()
            self._media = None

    def __enter__(self) -> Player:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()

    def tick(self) -> int:
        """Call from the GUI thread every ~20 ms; returns the position.

        Delivers VLC's events to the callbacks, feeds ``get_time()`` to the
        clock (a fallback: the TimeChanged event already does, more exactly)
        and keeps a loop looping.
        """
        while self._pending:
            generation, name, value = self._pending.popleft()
            if generation == self._generation or generation == -self._load_id:
                self._handle(name, value)
        if self._state is PlayerState.PLAYING:
            self.clock.on_vlc_time(self._mp.get_time())
            if self._loop is not None and self.position_ms() >= self._loop[1]:
                self.seek(self._loop[0])
        return self.position_ms()

    # --- inside -----------------------------------------------------------

    def _on_vlc_event(self, event: vlc.Event, name: str) -> None:
        # VLC's thread (or inside a libvlc call): note it, nothing more.
        if name == "MediaPlayerTimeChanged":
            self.clock.on_vlc_time(event.u.new_time, self._time())
            return
        value = event.u.new_length if name == "MediaPlayerLengthChanged" else 0
        self._pending.append((self._generation, name, value))
        wake = self.on_event_pending
        if wake is not None:
            wake()

    def _on_media_duration(self, event: vlc.Event, load_id: int) -> None:
        # VLC's thread, like _on_vlc_event.
        self._pending.append((-load_id, "MediaDurationChanged", event.u.new_duration))
        wake = self.on_event_pending
        if wake is not None:
            wake()

    def _handle(self, name: str, value: int) -> None:
        if name in ("MediaPlayerLengthChanged", "MediaDurationChanged"):
            if value > 0 and value != self._length_ms:
                self._length_ms = value
                if self.on_length is not None:
                    self.on_length(value)
        elif name == "MediaPlayerESAdded":
            self._streams += 1
        elif name == "MediaPlayerEncounteredError":
            self._fail(self._unplayable_message())
        elif name == "MediaPlayerEndReached":
            if self._streams == 0:
                self._fail(self._unplayable_message())
            elif self._loop is not None:
                self._start_ms = self._loop[0]
                self._start_input()
            else:
                self.clock.on_pause(self._length_ms or None)
                self._set_state(PlayerState.ENDED)
                if self.on_end is not None:
                    self.on_end()
        # Playing / Paused: our own commands already set the state; the events
        # only wake the GUI.

    def _unplayable_message(self) -> str:
        path = self._path
        if path is not None and not path.exists():
            return f"Cannot play {path}: the file is no longer there (moved or deleted?)."
        return (f"Cannot play {path}: VLC found no audio or video it can decode "
                "(a damaged file, or not a recording).")

    def _fail(self, message: str) -> None:
        self._error = message
        self.clock.on_pause()
        self._set_state(PlayerState.ERROR)
        if self.on_error is not None:
            self.on_error(message)

    def _check_alive(self) -> None:
        if self._released:
            raise PlaybackError("The player was closed; open the call again.")

    def _input_running(self) -> bool:
        if self._state not in (PlayerState.PLAYING, PlayerState.PAUSED):
            return False
        # Right after play() VLC may still say NothingSpecial or Opening;
        # set_time works then. Only a finished input ignores it.
        return self._mp.get_state() not in (vlc.State.Ended, vlc.State.Error)

    def _start_input(self) -> None:
        """(Re)start VLC's input, at ``_start_ms`` (0 again after the end)."""
        start = self._start_ms
        if self._state is PlayerState.ENDED and self._length_ms and start >= self._length_ms:
            start = 0
        self._stop_input()
        self._streams = 0
        self._mp.play()
        self._mp.set_rate(self._rate)
        if start > 0:
            self.clock.on_seek(start)
            self._mp.set_time(start)  # works once play() has created the input
        else:
            self.clock.on_seek(0)
        self._start_ms = 0

    def _stop_input(self) -> None:
        # stop() waits for VLC's input thread, so every event of the old
        # input is queued before the generation moves on.
        self._mp.stop()
        self._generation += 1

    def _set_state(self, state: PlayerState) -> None:
        if state is self._state:
            return
        self._state = state
        if self.on_state is not None:
            self.on_state(state)


def _check_file(path: Path) -> None:
    if not path.exists():
        raise MediaNotFoundError(f"Cannot play {path}: no such file.")
    if not path.is_file():
        raise MediaNotFoundError(f"Cannot play {path}: not a file.")
