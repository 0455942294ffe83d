"""The playback clock, driven by a hand-moved time source."""

from __future__ import annotations

import threading

import pytest

from desktop.playback.clock import PlaybackClock


class FakeTime:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t

    def advance(self, ms: float) -> None:
        self.t += ms / 1000.0


@pytest.fixture
def fake() -> FakeTime:
    return FakeTime()


@pytest.fixture
def clock(fake: FakeTime) -> PlaybackClock:
    return PlaybackClock(fake)


def test_starts_paused_at_zero_and_does_not_move(clock, fake):
    fake.advance(5000)
    assert clock.now_ms() == 0
    assert not clock.playing


def test_interpolates_between_vlc_updates(clock, fake):
    clock.on_play()
    clock.on_vlc_time(300)
    fake.advance(120)
    assert clock.now_ms() == 420
    fake.advance(130)
    assert clock.now_ms() == 550


def test_reanchors_on_each_new_vlc_time(clock, fake):
    clock.on_play()
    clock.on_vlc_time(1000)
    fake.advance(250)
    clock.on_vlc_time(1270)  # VLC is 20 ms further than the interpolation
    assert clock.now_ms() == 1270
    fake.advance(10)
    assert clock.now_ms() == 1280


def test_repeated_stale_value_does_not_reanchor(clock, fake):
    clock.on_play()
    clock.on_vlc_time(600)
    fake.advance(200)
    clock.on_vlc_time(600)  # a poll between VLC's updates: same old number
    assert clock.now_ms() == 800


def test_interpolation_follows_rate(clock, fake):
    clock.on_rate(1.5)
    clock.on_play()
    clock.on_vlc_time(2000)
    fake.advance(200)
    assert clock.now_ms() == 2300


def test_rate_change_reanchors_at_the_current_position(clock, fake):
    clock.on_play()
    clock.on_vlc_time(1000)
    fake.advance(100)
    clock.on_rate(0.5)
    fake.advance(100)
    assert clock.now_ms() == 1150
    assert clock.rate == 0.5


def test_rate_must_be_positive(clock):
    with pytest.raises(ValueError, match="positive"):
        clock.on_rate(0)


def test_pause_freezes_at_the_interpolated_position(clock, fake):
    clock.on_play()
    clock.on_vlc_time(1000)
    fake.advance(180)
    clock.on_pause()
    fake.advance(1000)
    assert clock.now_ms() == 1180
    assert not clock.playing


def test_pause_at_given_position(clock, fake):
    clock.on_play()
    fake.advance(500)
    clock.on_pause(420)
    assert clock.now_ms() == 420


def test_late_vlc_report_while_paused_is_ignored(clock, fake):
    clock.on_play()
    clock.on_vlc_time(1000)
    fake.advance(200)
    clock.on_pause()
    clock.on_vlc_time(1150)  # VLC's update that raced the pause
    assert clock.now_ms() == 1200


def test_seek_while_paused_moves_and_stays(clock, fake):
    clock.on_seek(5000)
    fake.advance(300)
    assert clock.now_ms() == 5000
    clock.on_play()
    fake.advance(100)
    assert clock.now_ms() == 5100


def test_seek_while_playing_continues_from_target(clock, fake):
    clock.on_play()
    clock.on_vlc_time(3000)
    fake.advance(100)
    clock.on_seek(1000)
    fake.advance(50)
    assert clock.now_ms() == 1050


def test_reports_from_before_a_seek_are_ignored(clock, fake):
    clock.on_play()
    clock.on_vlc_time(3000)
    clock.on_seek(8000)
    fake.advance(20)
    clock.on_vlc_time(3250)  # queued before the seek took effect
    clock.on_vlc_time(0)  # the input restarting
    assert clock.now_ms() == 8020
    fake.advance(250)
    clock.on_vlc_time(8300)  # the first real report after the seek
    assert clock.now_ms() == 8300


def test_after_settling_any_report_is_believed_again(clock, fake):
    clock.on_play()
    clock.on_seek(8000)
    fake.advance(1200)
    clock.on_vlc_time(500)  # VLC could not seek after all
    assert clock.now_ms() == 500


def test_small_step_back_holds_instead_of_running_backwards(clock, fake):
    clock.on_play()
    clock.on_vlc_time(1000)
    fake.advance(300)
    assert clock.now_ms() == 1300
    clock.on_vlc_time(1260)  # VLC says 40 ms less: jitter
    assert clock.now_ms() == 1300
    fake.advance(20)
    assert clock.now_ms() == 1300  # still holding: media at 1280
    fake.advance(40)
    assert clock.now_ms() == 1320  # caught up, moving again


def test_large_step_back_is_a_real_jump(clock, fake):
    clock.on_play()
    clock.on_vlc_time(5000)
    fake.advance(200)
    clock.on_vlc_time(2000)
    assert clock.now_ms() == 2000


def test_never_runs_backwards_through_jittery_updates(clock, fake):
    clock.on_play()
    clock.on_vlc_time(0)
    seen = []
    media = 0.0
    for step, jitter in zip(range(40), [15, -25, 30, -10, 0] * 8):
        for _ in range(10):
            fake.advance(28)
            media += 28
            seen.append(clock.now_ms())
        clock.on_vlc_time(int(media + jitter))
        seen.append(clock.now_ms())
    assert all(b >= a for a, b in zip(seen, seen[1:]))
    assert abs(seen[-1] - media) <= 30


def test_stops_extrapolating_when_vlc_goes_quiet(fake):
    clock = PlaybackClock(fake, max_extrapolation_ms=1500)
    clock.on_play()
    clock.on_vlc_time(1000)
    fake.advance(10_000)
    assert clock.now_ms() == 2500


def test_negative_times_from_a_stopped_player_are_ignored(clock, fake):
    clock.on_seek(700)
    clock.on_vlc_time(-1)
    assert clock.now_ms() == 700


def test_mark_takes_off_the_reaction_delay_while_playing(clock, fake):
    clock.on_play()
    clock.on_vlc_time(10_000)
    fake.advance(100)
    assert clock.mark_ms() == 9_800
    assert clock.mark_ms(reaction_delay_ms=0) == 10_100
    assert clock.mark_ms(reaction_delay_ms=500) == 9_600


def test_mark_delay_is_reaction_time_so_it_scales_with_rate(clock, fake):
    clock.on_rate(1.5)
    clock.on_play()
    clock.on_vlc_time(10_000)
    assert clock.mark_ms(300) == 9_550


def test_mark_is_never_negative(clock, fake):
    clock.on_play()
    fake.advance(100)
    assert clock.mark_ms(300) == 0


def test_mark_while_paused_is_where_the_playhead_is(clock, fake):
    clock.on_seek(4_000)
    assert clock.mark_ms(300) == 4_000


def test_reset_forgets_everything(clock, fake):
    clock.on_play()
    clock.on_vlc_time(9000)
    clock.reset()
    fake.advance(500)
    assert clock.now_ms() == 0
    assert not clock.playing
    clock.on_play()
    clock.on_vlc_time(9000)  # same number as before the reset: still news
    assert clock.now_ms() == 9000


def test_reports_from_another_thread_are_safe(clock, fake):
    clock.on_play()

    def report() -> None:
        for ms in range(0, 30_000, 7):
            clock.on_vlc_time(ms)

    worker = threading.Thread(target=report)
    worker.start()
    readings = [clock.now_ms() for _ in range(5000)]
    worker.join()
    assert clock.now_ms() == 29_995
    assert all(0 <= r <= 29_995 for r in readings)


def test_echo_of_the_seek_target_does_not_reanchor(clock, fake):
    clock.on_play()
    clock.on_seek(4000)
    fake.advance(30)
    clock.on_vlc_time(4000)  # set_time's synchronous echo, a moment later
    assert clock.now_ms() == 4030


def _seek_and_report(clock: PlaybackClock, fake: FakeTime, target: int, vlc_lead: int) -> int:
    """Seek while playing; VLC's first update (250 ms on) runs ``vlc_lead`` ahead."""
    clock.on_seek(target)
    fake.advance(250)
    before = clock.now_ms()
    clock.on_vlc_time(target + 250 + vlc_lead)
    return target + 250 + vlc_lead - before


def test_learns_how_far_ahead_vlc_restarts_after_a_seek(clock, fake):
    clock.on_play()
    clock.on_vlc_time(1000)
    jumps = [_seek_and_report(clock, fake, target, 36) for target in (2000, 6000, 3000, 8000, 5000)]
    assert jumps[0] == 36
    assert all(abs(jump) <= 1 for jump in jumps[1:])  # seeks now start where VLC does
    clock.on_seek(7000)
    assert clock.now_ms() == pytest.approx(7036, abs=3)


def test_no_lead_when_seeking_while_paused(clock, fake):
    clock.on_play()
    for target in (2000, 6000, 3000):
        _seek_and_report(clock, fake, target, 40)
    clock.on_pause()
    clock.on_seek(9000)
    assert clock.now_ms() == 9000


def test_a_noisy_seek_moves_the_learned_lead_only_half_way(clock, fake):
    clock.on_play()
    _seek_and_report(clock, fake, 2000, 36)
    assert _seek_and_report(clock, fake, 6000, 56) == 20
    clock.on_seek(3000)
    assert clock.now_ms() == 3046


def test_an_odd_jump_after_a_seek_is_not_learned(clock, fake):
    clock.on_play()
    _seek_and_report(clock, fake, 2000, 900)  # not a lead: something else happened
    clock.on_seek(5000)
    assert clock.now_ms() == 5000


def test_a_late_report_after_a_seek_never_puts_the_clock_before_the_target(clock, fake):
    clock.on_play()
    _seek_and_report(clock, fake, 2000, -60)  # delivered late on a busy machine
    clock.on_seek(5000)
    assert clock.now_ms() == 5000
