"""Real transcription with the bundled tiny.en in a spawned child: events, cancel, errors."""

from __future__ import annotations

import os
import subprocess
import threading

import pytest

from desktop.transcription.models import ResolvedModel, resolve_model
from desktop.transcription.runner import (
    Cancelled,
    Completed,
    Failed,
    JobOutcome,
    Progress,
    SegmentDecoded,
    Started,
    TranscriptionCancelled,
    TranscriptionError,
    TranscriptionJob,
    estimate_eta,
)
from desktop.transcription.worker import TranscriptionSettings

SETTINGS = TranscriptionSettings(cpu_threads=2)


def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    # A zombie still answers kill(0); it must have been reaped by join().
    with open(f"/proc/{pid}/stat") as f:
        return f.read().split()[2] == "Z"


@pytest.mark.slow
def test_transcribes_the_key_phrase_with_words_and_progress(short_call) -> None:
    job = TranscriptionJob(short_call, resolve_model(), SETTINGS)
    events = list(job.events())
    assert isinstance(events[0], Started)
    assert events[0].language == "en"
    assert 10_000 < events[0].duration_ms < 12_000
    assert isinstance(events[-1], Completed)
    assert job.outcome is JobOutcome.COMPLETED
    result = events[-1].result
    assert result is job.result and result.model == "tiny.en"
    text = " ".join(s.text for s in result.segments).lower()
    assert "send me some information" in text
    assert [e.segment for e in events if isinstance(e, SegmentDecoded)] == result.segments
    words = [w for s in result.segments for w in s.words]
    assert "information" in [w.text.strip(".,").lower() for w in words]
    for seg in result.segments:
        assert 0 <= seg.start_ms <= seg.end_ms <= 12_000
        assert seg.words[0].start_ms >= seg.start_ms - 50
    fractions = [e.fraction for e in events if isinstance(e, Progress)]
    assert fractions == sorted(fractions) and fractions[-1] == 1.0
    assert _gone(job.pid)


@pytest.mark.slow
def test_language_set_and_run_returns_the_result(short_call) -> None:
    seen = []
    result = TranscriptionJob(short_call, resolve_model(),
                              TranscriptionSettings(cpu_threads=2, language="en", beam_size=1,
                                                    word_timestamps=False)).run(seen.append)
    assert result.language == "en"
    assert all(s.words is None for s in result.segments)
    assert "information" in " ".join(s.text for s in result.segments).lower()
    assert isinstance(seen[-1], Completed)


@pytest.mark.slow
def test_cancel_mid_way_kills_the_child_and_leaves_no_result(long_call) -> None:
    job = TranscriptionJob(long_call, resolve_model(), SETTINGS)
    events = []
    for event in job.events():
        events.append(event)
        if isinstance(event, SegmentDecoded):
            job.cancel()
    assert isinstance(events[-1], Cancelled)
    assert job.outcome is JobOutcome.CANCELLED
    assert job.result is None
    assert not any(isinstance(e, Completed) for e in events)
    assert _gone(job.pid)
    with pytest.raises(TranscriptionCancelled, match="transcription cancelled"):
        job.run()


@pytest.mark.slow
def test_cancel_from_another_thread_while_waiting(long_call) -> None:
    job = TranscriptionJob(long_call, resolve_model(), SETTINGS)
    started = threading.Event()

    def watch() -> None:
        started.wait(60)
        job.cancel()

    threading.Thread(target=watch, daemon=True).start()
    events = []
    for event in job.events():
        events.append(event)
        if isinstance(event, Started):
            started.set()  # cancelled before the first window is decoded
    assert isinstance(events[-1], Cancelled)
    assert job.outcome is JobOutcome.CANCELLED and job.result is None
    assert _gone(job.pid)


def test_cancel_before_start_never_spawns(short_call) -> None:
    job = TranscriptionJob(short_call, resolve_model(), SETTINGS)
    job.cancel()
    assert [type(e) for e in job.events()] == [Cancelled]
    assert job.pid is None and job.result is None


@pytest.mark.slow
def test_stopping_iteration_early_cancels(long_call) -> None:
    job = TranscriptionJob(long_call, resolve_model(), SETTINGS)
    events = job.events()
    assert isinstance(next(events), Started)
    events.close()
    assert job.outcome is JobOutcome.CANCELLED
    assert _gone(job.pid)


def test_an_undecodable_recording_fails_with_the_file_named(tmp_path) -> None:
    bad = tmp_path / "call.wav"
    bad.write_text("this is not audio\n")
    job = TranscriptionJob(bad, resolve_model(), SETTINGS)
    events = list(job.events())
    assert isinstance(events[-1], Failed)
    assert events[-1].message.startswith(f"{bad}: cannot decode the recording")
    assert job.outcome is JobOutcome.FAILED and job.result is None
    with pytest.raises(TranscriptionError, match="no such recording"):
        TranscriptionJob(tmp_path / "missing.wav", resolve_model()).start()


def test_a_broken_model_fails_with_the_model_named(tmp_path, short_call) -> None:
    folder = tmp_path / "broken-model"
    folder.mkdir()
    (folder / "config.json").write_text("{}")
    (folder / "tokenizer.json").write_text("{}")
    (folder / "model.bin").write_bytes(b"\0" * 4096)
    job = TranscriptionJob(short_call, ResolvedModel(str(folder), "broken", "settings"), SETTINGS)
    events = list(job.events())
    assert isinstance(events[-1], Failed)
    assert events[-1].message.startswith(f"the Whisper model at {folder} could not be loaded (")


def test_a_file_without_audio_fails_with_the_file_named(tmp_path) -> None:
    from PySide6.QtGui import QColor, QImage

    image = tmp_path / "slide.png"
    picture = QImage(16, 16, QImage.Format.Format_RGB32)
    picture.fill(QColor("red"))
    assert picture.save(str(image))
    events = list(TranscriptionJob(image, resolve_model(), SETTINGS).events())
    assert isinstance(events[-1], Failed)
    assert events[-1].message == f"{image}: the file has no audio track"


@pytest.mark.slow
def test_a_silent_recording_completes_with_no_segments(tmp_path) -> None:
    silent = tmp_path / "silent.wav"
    subprocess.run(["sox", "-n", "-r", "16000", "-c", "1", str(silent), "trim", "0", "5"], check=True)
    result = TranscriptionJob(silent, resolve_model(), SETTINGS).run()
    assert result.segments == [] and result.duration_ms == 5000


def test_a_model_needing_download_is_refused_without_network(short_call) -> None:
    job = TranscriptionJob(short_call, ResolvedModel("small.en", "small.en", "download", True))
    with pytest.raises(TranscriptionError, match="network is not allowed"):
        job.start()


def test_eta_follows_the_pace_so_far() -> None:
    assert estimate_eta(10.0, 0.5) == pytest.approx(10.0)
    assert estimate_eta(3.0, 0.25) == pytest.approx(9.0)
    assert estimate_eta(5.0, 0.0) is None
    assert estimate_eta(5.0, 1.0) == 0.0


@pytest.mark.slow
def test_a_long_call_shows_a_preview_first_and_keeps_only_the_real_pass(long_call) -> None:
    """The first seconds are decoded on their own to show soonest; the transcript is the whole recording read
    from the start in one pass (a window of its own costs Whisper the words before it), so the preview's lines
    are shown but never kept, and the real pass's lines over the preview's seconds are kept but not shown twice."""
    job = TranscriptionJob(long_call, resolve_model(), SETTINGS)
    events = list(job.events())
    shown = [e for e in events if isinstance(e, SegmentDecoded)]
    previews = [e for e in shown if e.preview]
    assert previews and all(e is p for e, p in zip(shown, previews)), "the preview comes first"
    assert all(e.index == -1 and e.segment.end_ms <= 10_500 for e in previews)
    result = events[-1].result
    assert result.segments[0].start_ms < previews[0].segment.end_ms, "the real pass starts at the beginning"
    real = [e for e in shown if not e.preview]
    assert [e.segment for e in real] == result.segments[len(result.segments) - len(real):]
    assert all(e.segment.start_ms >= previews[-1].segment.end_ms for e in real), "no line is shown twice"
    assert all(result.segments[e.index] is e.segment for e in real)
    said = [s for s in result.segments if "send me some information" in s.text.lower()]
    # The recording is eight parts, each with the short call's lines: Whisper may run some of them together, so
    # the whole recording is checked by where they are.
    assert len(said) >= 4 and said[0].start_ms < result.duration_ms / 4
    assert said[-1].start_ms > result.duration_ms / 2 and result.segments[-1].end_ms > 0.8 * result.duration_ms
