"""Stereo speaker split on a generated call: rep on the left, customer on the right."""

from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pytest

from desktop.transcription.channels import (
    ChannelSplitError,
    assign_speakers_by_channel,
    channel_levels_db,
    decode_stereo,
)
from desktop.transcription.segments import Segment

from .conftest import speak


@pytest.fixture(scope="module")
def dialer_call(tmp_path_factory) -> tuple[Path, list[Segment]]:
    """Rep speaks on the left 0–~3 s, customer on the right after, rep again at the end."""
    d = tmp_path_factory.mktemp("dialer")
    rep1 = speak("Hi Casey, thanks for making time today.", d / "rep1.wav")
    cust = speak("Just send me some information.", d / "cust.wav", voice="en-gb")
    rep2 = speak("Who else will review it?", d / "rep2.wav")
    sil = d / "sil.wav"
    subprocess.run(["sox", "-n", "-r", "16000", "-c", "1", str(sil), "trim", "0", "0.5"], check=True)

    def length_ms(p: Path) -> int:
        out = subprocess.run(["soxi", "-D", str(p)], check=True, capture_output=True, text=True)
        return int(float(out.stdout) * 1000)

    a, b, c, s = (length_ms(p) for p in (rep1, cust, rep2, sil))
    # Each speaker's track carries silence while the other talks, as dialers record.
    left = d / "left.wav"
    right = d / "right.wav"
    quiet = {p: d / f"quiet-{p.name}" for p in (rep1, cust, rep2)}
    for p, q in quiet.items():
        subprocess.run(["sox", str(p), str(q), "vol", "0.02"], check=True)  # a little crosstalk
    subprocess.run(["sox", str(rep1), str(sil), str(quiet[cust]), str(sil), str(rep2), str(left)], check=True)
    subprocess.run(["sox", str(quiet[rep1]), str(sil), str(cust), str(sil), str(quiet[rep2]), str(right)],
                   check=True)
    stereo = d / "dialer.wav"
    subprocess.run(["sox", "-M", str(left), str(right), str(stereo)], check=True)
    segments = [Segment(0, a, None, "Hi Casey, thanks for making time today."),
                Segment(a + s, a + s + b, None, "Just send me some information."),
                Segment(a + 2 * s + b, a + 2 * s + b + c, None, "Who else will review it?")]
    return stereo, segments


def test_each_segment_goes_to_the_louder_channel(dialer_call) -> None:
    path, segments = dialer_call
    named = assign_speakers_by_channel(segments, path)
    assert [s.speaker for s in named] == ["Rep", "Customer", "Rep"]
    assert [s.text for s in named] == [s.text for s in segments]
    assert all(s.speaker is None for s in segments)  # the input is not changed


def test_channel_names_can_be_given(dialer_call) -> None:
    path, segments = dialer_call
    named = assign_speakers_by_channel(segments, path, ("Riley Rep", "Casey Customer"))
    assert [s.speaker for s in named] == ["Riley Rep", "Casey Customer", "Riley Rep"]


def test_decoded_at_low_rate_per_channel(dialer_call) -> None:
    path, segments = dialer_call
    audio = decode_stereo(path)
    assert audio.dtype == np.float32 and audio.shape[0] == 2
    assert abs(audio.shape[1] / 8000 * 1000 - segments[-1].end_ms) < 100
    left, right = channel_levels_db(audio, segments[1].start_ms, segments[1].end_ms)
    assert right - left > 20  # crosstalk at 2 % is ~34 dB down


def test_equal_channels_keep_the_speaker(tmp_path, dialer_call) -> None:
    _, segments = dialer_call
    mono = speak("Both channels say the same thing.", tmp_path / "mono.wav")
    fake_stereo = tmp_path / "fake.wav"
    subprocess.run(["sox", str(mono), "-c", "2", str(fake_stereo)], check=True)
    seg = [Segment(0, 1500, "Someone", "Both channels")]
    assert assign_speakers_by_channel(seg, fake_stereo)[0].speaker == "Someone"


def test_mono_and_bad_files_are_refused_by_name(tmp_path) -> None:
    mono = speak("Only one channel.", tmp_path / "mono.wav")
    with pytest.raises(ChannelSplitError, match=f"{mono}: not a two-channel recording"):
        assign_speakers_by_channel([Segment(0, 100, None, "x")], mono)
    junk = tmp_path / "junk.wav"
    junk.write_text("not audio")
    with pytest.raises(ChannelSplitError, match=f"{junk}: cannot read the recording"):
        decode_stereo(junk)


def test_a_segment_running_across_a_turn_is_cut_where_the_voice_changes(dialer_call) -> None:
    from desktop.transcription.segments import Word

    path, segments = dialer_call
    rep, cust = segments[0], segments[1]
    # Whisper hears both channels mixed and runs one segment over the turn.
    words = [Word(rep.start_ms + 200, rep.start_ms + 700, "Hi"),
             Word(rep.start_ms + 800, rep.end_ms - 200, "Casey,"),
             Word(cust.start_ms + 100, cust.start_ms + 900, "Just"),
             Word(cust.start_ms + 1000, cust.end_ms - 100, "information.")]
    merged = Segment(rep.start_ms, cust.end_ms, None, "Hi Casey, Just information.", words)
    pieces = assign_speakers_by_channel([merged], path)
    assert [(p.speaker, p.text) for p in pieces] == [("Rep", "Hi Casey,"), ("Customer", "Just information.")]
    assert pieces[0].start_ms == merged.start_ms and pieces[-1].end_ms == merged.end_ms
    assert pieces[0].end_ms <= pieces[1].start_ms
    assert [w.text for p in pieces for w in p.words] == ["Hi", "Casey,", "Just", "information."]


def test_one_speakers_sentence_cut_by_a_window_is_joined(dialer_call) -> None:
    path, segments = dialer_call
    rep = segments[0]
    middle = (rep.start_ms + rep.end_ms) // 2
    halves = [Segment(rep.start_ms, middle, None, "Hi Casey, thanks"),
              Segment(middle, rep.end_ms, None, "for making time today.")]
    joined = assign_speakers_by_channel(halves, path)
    assert [(s.speaker, s.text) for s in joined] == [("Rep", "Hi Casey, thanks for making time today.")]
    # a finished sentence is not joined to the next one
    whole = assign_speakers_by_channel([rep, segments[2]], path)
    assert len(whole) == 2
