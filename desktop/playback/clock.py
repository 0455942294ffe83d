"""The playback clock: where the media is *now*, to the millisecond.

libvlc's ``get_time()`` only moves every ~250-300 ms, so a mark taken from it
can land a quarter of a second off. This clock keeps an *anchor* (a media
position and the monotonic instant it was true) and advances from it at the
playback rate; every fresh report from VLC, every pause, seek and rate change
re-anchors it.

Qt-free and thread-safe: VLC reports times from its own thread while the GUI
reads the clock from its thread. The time source is injectable so tests can
drive it by hand.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

TimeSource = Callable[[], float]  # seconds, monotonic

DEFAULT_REACTION_DELAY_MS = 300


class PlaybackClock:
    """Interpolated media position between libvlc's coarse time updates.

    ``max_backstep_ms``: a VLC report slightly *behind* the interpolated
    position is jitter, not a jump; the clock holds still until the media
    catches up instead of running backwards. Larger differences are real
    (VLC knows best) and are taken at once.

    ``max_extrapolation_ms``: how long to keep advancing without any news
    from VLC. If VLC stalls (buffering, a slow disk, the end of the file) the
    clock stops rather than drifting away from the media.

    ``seek_settle_ms``: after a seek, VLC may still report times from before
    it (a queued event, or 0 while the input restarts). For this long only
    reports near the seek target are believed.

    Seek lead: after a seek while playing, VLC's timeline restarts a few tens
    of ms *ahead* of the target (measured: 30-40 ms with libvlc 3.0), and its
    first update comes ~250 ms later. The clock learns that lead from the
    jump at each first update and starts the next seek from target + lead.
    """

    def __init__(
        self,
        time_source: TimeSource = time.monotonic,
        *,
        max_backstep_ms: float = 150.0,
        max_extrapolation_ms: float = 1500.0,
        seek_settle_ms: float = 1000.0,
    ) -> None:
        self._now = time_source
        self._max_backstep_ms = max_backstep_ms
        self._max_extrapolation_s = max_extrapolation_ms / 1000.0
        self._seek_settle_s = seek_settle_ms / 1000.0
        self._lock = threading.Lock()
        self._anchor_ms = 0.0
        self._anchor_t = time_source()
        self._rate = 1.0
        self._playing = False
        self._floor_ms: float | None = None  # hold point while VLC catches up
        self._last_vlc_ms: int | None = None
        self._seek_target_ms: float | None = None
        self._seek_t = 0.0
        self._seek_lead_ms = 0.0
        self._learning_lead = False  # the first update after a playing seek
        self._leads_seen = 0

    # --- reading -------------------------------------------------------

    @property
    def playing(self) -> bool:
        return self._playing

    @property
    def rate(self) -> float:
        return self._rate

    def now_ms(self) -> int:
        """The media position now, in milliseconds."""
        with self._lock:
            return int(round(self._position(self._now())))

    def mark_ms(self, reaction_delay_ms: float = DEFAULT_REACTION_DELAY_MS) -> int:
        """Where a mark lands: now, minus the coach's reaction delay.

        The delay is the coach's reaction time in wall-clock time, so while
        playing at 1.5x the media has moved 1.5x as far in it. When paused
        the coach has already placed the playhead deliberately (a seek, a
        click on a segment), so no delay is taken off. 0 disables the delay.
        """
        with self._lock:
            position = self._position(self._now())
            if self._playing and reaction_delay_ms > 0:
                position -= reaction_delay_ms * self._rate
            return max(0, int(round(position)))

    # --- events --------------------------------------------------------

    def on_vlc_time(self, ms: int, at: float | None = None) -> None:
        """A time reported by VLC (an event or a ``get_time()`` poll).

        Only a *changed* value is news: polling between VLC's updates keeps
        returning the same stale number, which must not re-anchor the clock.
        """
        if ms is None or ms < 0:  # -1: no media / stopped
            return
        with self._lock:
            t = self._now() if at is None else at
            if ms == self._last_vlc_ms:
                return
            self._last_vlc_ms = ms
            if self._seek_target_ms is not None:
                if t - self._seek_t > self._seek_settle_s:
                    self._seek_target_ms = None
                elif ms == self._seek_target_ms:
                    return  # VLC echoing set_time: no news about the timeline
                elif not self._near_seek_target(ms, t):
                    return  # a report from before the seek
            if not self._playing:
                # While paused the clock already sits where the pause or the
                # seek put it; late reports only echo the past. A seek's own
                # confirmation is the exception.
                if self._seek_target_ms is not None:
                    self._anchor_ms, self._anchor_t = float(ms), t
                return
            before = self._position(t)
            if self._learning_lead:
                self._learning_lead = False
                self._learn_seek_lead(ms - before)
            behind = before - ms
            self._floor_ms = before if 0 < behind <= self._max_backstep_ms else None
            self._anchor_ms, self._anchor_t = float(ms), t

    def on_play(self, at: float | None = None) -> None:
        with self._lock:
            t = self._now() if at is None else at
            self._anchor_ms, self._anchor_t = self._position(t), t
            self._floor_ms = None
            self._playing = True

    def on_pause(self, ms: float | None = None, at: float | None = None) -> None:
        """Stop advancing; at ``ms`` if given, else where the clock is now.

        Pass no ``ms`` when pausing from the app: VLC's own ``get_time()`` is
        up to 300 ms stale, the interpolated position is the better guess.
        """
        with self._lock:
            t = self._now() if at is None else at
            position = self._position(t) if ms is None else float(ms)
            self._anchor_ms, self._anchor_t = max(0.0, position), t
            self._floor_ms = None
            self._playing = False

    def on_seek(self, ms: float, at: float | None = None) -> None:
        with self._lock:
            t = self._now() if at is None else at
            target = max(0.0, float(ms))
            lead = self._seek_lead_ms if self._playing else 0.0
            self._anchor_ms, self._anchor_t = target + lead, t
            self._floor_ms = None
            self._seek_target_ms, self._seek_t = target, t
            self._learning_lead = self._playing

    def on_rate(self, rate: float, at: float | None = None) -> None:
        if rate <= 0:
            raise ValueError(f"playback rate must be positive, got {rate}")
        with self._lock:
            t = self._now() if at is None else at
            self._anchor_ms, self._anchor_t = self._position(t), t
            self._floor_ms = None
            self._rate = float(rate)

    def reset(self, ms: float = 0.0) -> None:
        """A new media, or the player stopped: paused at ``ms``, no history."""
        with self._lock:
            self._anchor_ms, self._anchor_t = max(0.0, float(ms)), self._now()
            self._floor_ms = None
            self._playing = False
            self._last_vlc_ms = None
            self._seek_target_ms = None
            self._learning_lead = False

    # --- inside the lock -------------------------------------------------

    def _position(self, t: float) -> float:
        if not self._playing:
            return self._anchor_ms
        elapsed = min(max(0.0, t - self._anchor_t), self._max_extrapolation_s)
        position = self._anchor_ms + elapsed * 1000.0 * self._rate
        if self._floor_ms is not None:
            position = max(position, self._floor_ms)
        return position

    def _learn_seek_lead(self, jump_ms: float) -> None:
        # The first seek is taken whole, later ones half-way: settles at
        # once, shrugs off one odd seek. A big jump is something else (a
        # failed seek), not the lead. VLC restarts at or after the target,
        # never before: a report that looks behind was only delivered late
        # (a busy machine), so the lead stays >= 0 and a seek never shows a
        # position before the one the coach asked for.
        if abs(jump_ms) <= self._max_backstep_ms:
            weight = 0.5 if self._leads_seen else 1.0
            lead = self._seek_lead_ms + weight * jump_ms
            self._seek_lead_ms = min(100.0, max(0.0, lead))
            self._leads_seen += 1

    def _near_seek_target(self, ms: int, t: float) -> bool:
        target = self._seek_target_ms
        assert target is not None
        travelled = max(0.0, t - self._seek_t) * 1000.0 * self._rate if self._playing else 0.0
        return target - self._max_backstep_ms <= ms <= target + travelled + 500.0
