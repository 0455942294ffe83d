"""The player against the real libvlc (dummy audio and video output)."""

from __future__ import annotations

import ctypes
import sys
import threading
import time

import numpy as np
import pytest
import vlc

from desktop.playback.player import (
    HEADLESS_OPTIONS,
    MediaNotFoundError,
    PlaybackError,
    Player,
    PlayerState,
    clamp_rate,
)
from tests.benchmarks.bench_mark import measure_marks
from tests.playback.conftest import TONE_HZ, TONE_SECONDS, run_for, wait_until, write_tone


def test_headless_options_start_libvlc():
    with Player(HEADLESS_OPTIONS) as player:
        assert player.state is PlayerState.EMPTY


def test_unknown_vlc_option_is_a_clear_error():
    with pytest.raises(PlaybackError, match="--no-such-option"):
        Player(["--no-such-option"])


def test_missing_file_is_refused_naming_it(player, tmp_path):
    missing = tmp_path / "acme discovery.mp3"
    with pytest.raises(MediaNotFoundError, match="acme discovery.mp3.*no such file"):
        player.load(missing)
    assert player.state is PlayerState.EMPTY


def test_a_folder_is_not_a_recording(player, tmp_path):
    with pytest.raises(MediaNotFoundError, match="not a file"):
        player.load(tmp_path)


def test_play_without_a_call_says_so(player):
    with pytest.raises(PlaybackError, match="open a call first"):
        player.play()


def test_file_removed_after_loading_is_refused_at_play(player, tmp_path):
    path = write_tone(tmp_path / "gone.wav", 1)
    player.load(path)
    path.unlink()
    with pytest.raises(MediaNotFoundError, match="gone.wav"):
        player.play()


def test_garbage_file_reports_an_error_naming_it(player, tmp_path):
    garbage = tmp_path / "not a call.mp3"
    garbage.write_bytes(np.random.default_rng(1).bytes(100_000))
    errors: list[str] = []
    threads: list[int] = []
    player.on_error = lambda message: (errors.append(message), threads.append(threading.get_ident()))
    player.load(garbage)
    player.play()
    wait_until(player, lambda: bool(errors))
    assert "not a call.mp3" in errors[0]
    assert "cannot decode" in errors[0] or "can decode" in errors[0]
    assert player.state is PlayerState.ERROR
    assert player.error == errors[0]
    assert threads == [threading.get_ident()]  # delivered by tick(), on our thread


def test_after_an_error_a_good_file_plays(player, tmp_path, tone_file):
    garbage = tmp_path / "broken.wav"
    garbage.write_bytes(b"RIFF" + bytes(5000))
    player.load(garbage)
    player.play()
    wait_until(player, lambda: player.state is PlayerState.ERROR)
    player.load(tone_file)
    assert player.error is None
    player.play()
    wait_until(player, lambda: player.vlc_time_ms() > 0)
    assert player.is_playing


def test_length_is_known_after_loading(player, tone_file):
    lengths: list[int] = []
    player.on_length = lengths.append
    player.load(tone_file)
    wait_until(player, lambda: player.duration_ms is not None)
    assert player.duration_ms == TONE_SECONDS * 1000
    assert lengths == [TONE_SECONDS * 1000]


def test_play_advances_and_pause_holds(player, tone_file):
    states: list[PlayerState] = []
    player.on_state = states.append
    player.load(tone_file)
    player.play()
    run_for(player, 0.8)
    assert player.is_playing
    playing_at = player.position_ms()
    assert 300 <= playing_at <= 2000
    player.pause()
    paused_at = player.position_ms()
    run_for(player, 0.4)
    assert player.position_ms() == paused_at
    assert states == [PlayerState.READY, PlayerState.PLAYING, PlayerState.PAUSED]
    vlc_paused = player.vlc_time_ms()
    run_for(player, 0.3)
    assert player.vlc_time_ms() == vlc_paused  # VLC really stopped too


def test_toggle(player, tone_file):
    player.load(tone_file)
    player.toggle()
    assert player.is_playing
    player.toggle()
    assert player.state is PlayerState.PAUSED


def test_seek_while_paused_then_play_continues_there(player, tone_file):
    player.load(tone_file)
    player.play()
    run_for(player, 0.3)
    player.pause()
    player.seek(6000)
    assert player.position_ms() == 6000
    player.play()  # no auto-rewind after a seek: the coach chose this spot
    run_for(player, 0.7)
    assert 6000 <= player.vlc_time_ms() <= 7500
    assert abs(player.position_ms() - player.vlc_time_ms()) < 400


def test_seek_before_first_play_starts_there(player, tone_file):
    player.load(tone_file)
    player.seek(4000)
    assert player.position_ms() == 4000
    player.play()
    wait_until(player, lambda: player.vlc_time_ms() >= 4000)
    assert player.vlc_time_ms() < 5500
    assert player.position_ms() >= 4000


def test_seek_is_clamped_to_the_media(player, tone_file):
    player.load(tone_file)
    wait_until(player, lambda: player.duration_ms is not None)
    player.seek(-500)
    assert player.position_ms() == 0
    player.seek(99_000)
    assert player.position_ms() == TONE_SECONDS * 1000


def test_skip_back_and_forward(player, tone_file):
    player.load(tone_file)
    player.seek(5000)
    player.skip(-2000)
    assert player.position_ms() == 3000
    player.skip(1500)
    assert player.position_ms() == 4500


def resume_window(player, tolerance_ms: int = 30) -> tuple[float, float]:
    """Call ``play()`` and return where it can have resumed. The clock runs on
    from the resume point, so the position read after the call lies between
    that point and that point plus the time the call took (long on a loaded
    machine)."""
    before = time.monotonic()
    player.play()
    position = player.position_ms()
    took_ms = (time.monotonic() - before) * 1000 * player.rate()
    return position - took_ms - tolerance_ms, position + tolerance_ms


def test_auto_rewind_on_resume(player, tone_file):
    player.load(tone_file)
    player.seek(3000)
    player.play()
    run_for(player, 0.5)
    player.pause()
    paused_at = player.position_ms()
    earliest, latest = resume_window(player)
    assert earliest <= paused_at - 1000 <= latest


def test_auto_rewind_can_be_turned_off(tone_file):
    with Player(HEADLESS_OPTIONS, auto_rewind_ms=0) as player:
        player.load(tone_file)
        player.play()
        run_for(player, 0.5)
        player.pause()
        paused_at = player.position_ms()
        earliest, latest = resume_window(player)
        assert earliest <= paused_at <= latest


@pytest.mark.parametrize(("asked", "got"), [(1.0, 1.0), (1.57, 1.6), (0.1, 0.5), (5.0, 2.0), (0.74, 0.7)])
def test_rate_is_clamped_to_tenths(asked, got):
    assert clamp_rate(asked) == got


def test_rate_change_reaches_vlc_and_the_clock(player, tone_file):
    player.load(tone_file)
    assert player.set_rate(2.4) == 2.0
    player.play()
    wait_until(player, lambda: player.vlc_time_ms() > 0)
    assert player.rate() == 2.0
    assert player._mp.get_rate() == pytest.approx(2.0)
    start = player.vlc_time_ms()
    wait_until(player, lambda: player.vlc_time_ms() >= start + 1200)
    player.set_rate(0.5)
    assert player.clock.rate == 0.5


def test_pitch_is_kept_when_faster(tone_file):
    """At 1.5x the 440 Hz tone must still come out at 440 Hz (scaletempo)."""
    chunks: list[bytes] = []

    @vlc.CallbackDecorators.AudioPlayCb
    def capture(opaque, samples, count, pts):
        chunks.append(ctypes.string_at(samples, count * 2))

    with Player(HEADLESS_OPTIONS) as player:
        player._mp.audio_set_callbacks(capture, None, None, None, None, None)
        player._mp.audio_set_format("S16N", 16_000, 1)
        player.load(tone_file)
        player.set_rate(1.5)
        player.play()
        wait_until(player, lambda: sum(map(len, chunks)) > 2 * 24_000)
    audio = np.frombuffer(b"".join(chunks), dtype=np.int16).astype(float)[4000:]
    spectrum = np.abs(np.fft.rfft(audio * np.hanning(len(audio))))
    peak_hz = np.fft.rfftfreq(len(audio), 1 / 16_000)[spectrum.argmax()]
    assert peak_hz == pytest.approx(TONE_HZ, abs=5)  # 660 Hz if pitch went up


@pytest.mark.slow
def test_clock_follows_the_true_media_position(tone_file):
    result = measure_marks(tone_file, 1.0, seconds=2.5, settle_s=0.8)
    assert len(result.clock_ms) > 20
    # VLC's steps put get_time() a couple of hundred ms off; the clock is not.
    assert np.median(result.clock_ms) < 30
    assert np.median(result.naive_ms) > 3 * np.median(result.clock_ms)
    assert result.fitted_rate == pytest.approx(1.0, abs=0.02)


def test_mark_takes_off_the_reaction_delay(player, tone_file):
    player.load(tone_file)
    player.seek(5000)
    assert player.mark_ms() == 5000  # paused: the playhead is the mark
    player.play()
    run_for(player, 0.4)
    # Read between two positions: the clock runs on between the calls.
    before, mark, after = player.position_ms(), player.mark_ms(), player.position_ms()
    assert before - 300 - 2 <= mark <= after - 300 + 2
    assert player.mark_ms(reaction_delay_ms=0) >= after


def test_loop_replays_the_span(player, tone_file):
    player.load(tone_file)
    player.play()
    player.set_loop(1000, 1600)
    assert player.loop == (1000, 1600)
    run_for(player, 0.3)
    wraps = 0
    last = player.position_ms()
    for _ in range(120):
        player.tick()
        now = player.position_ms()
        assert 1000 <= now <= 1700
        wraps += now < last
        last = now
        run_for(player, 0.015)
    assert wraps >= 2
    player.clear_loop()
    run_for(player, 1.0)
    assert player.position_ms() > 1700


def test_loop_needs_a_real_span(player, tone_file):
    player.load(tone_file)
    with pytest.raises(ValueError, match="start < end"):
        player.set_loop(2000, 2000)


def test_end_of_media_then_play_starts_over(player, tone_file):
    ended: list[bool] = []
    player.on_end = lambda: ended.append(True)
    player.load(tone_file)
    player.play()
    wait_until(player, lambda: player.vlc_time_ms() > 0)
    player.seek(TONE_SECONDS * 1000 - 400)
    wait_until(player, lambda: player.state is PlayerState.ENDED)
    assert ended == [True]
    assert player.position_ms() == TONE_SECONDS * 1000
    player.play()
    run_for(player, 0.6)
    assert player.is_playing
    assert 0 < player.vlc_time_ms() < 2000


def test_loop_at_the_end_of_the_media_keeps_looping(player, tone_file):
    player.load(tone_file)
    player.play()
    player.set_loop(TONE_SECONDS * 1000 - 500, TONE_SECONDS * 1000 + 1000)
    run_for(player, 2.0)
    assert player.is_playing
    assert player.position_ms() >= TONE_SECONDS * 1000 - 500


def test_stop_goes_back_to_the_start(player, tone_file):
    player.load(tone_file)
    player.play()
    run_for(player, 0.4)
    player.stop()
    assert player.state is PlayerState.READY
    assert player.position_ms() == 0
    assert player.vlc_time_ms() == -1


def test_event_pending_wakes_from_vlc(player, tone_file):
    woken = threading.Event()
    player.on_event_pending = woken.set
    player.load(tone_file)
    player.play()
    assert woken.wait(5)


def test_video_window_is_handed_to_vlc(player):
    player.set_window(0x2A00007)
    if sys.platform.startswith("linux"):
        assert player._mp.get_xwindow() == 0x2A00007
    elif sys.platform == "win32":
        assert player._mp.get_hwnd() == 0x2A00007
    else:
        assert player._mp.get_nsobject() == 0x2A00007


def test_release_twice_is_harmless(tone_file):
    player = Player(HEADLESS_OPTIONS)
    player.load(tone_file)
    player.play()
    player.release()
    player.release()
    with pytest.raises(PlaybackError, match="closed"):
        player.play()
    with pytest.raises(PlaybackError, match="closed"):
        player.load(tone_file)
