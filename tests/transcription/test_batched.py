"""Batched Whisper: chunks of speech, the speech no word covers, and a real run on the demo call."""

from __future__ import annotations

import pytest

from desktop.transcription.batched import chunks_of, uncovered
from desktop.transcription.models import resolve_model
from desktop.transcription.runner import TranscriptionJob
from desktop.transcription.worker import TranscriptionSettings


def test_neighbouring_speech_is_joined_into_chunks_of_at_most_thirty_seconds():
    regions = [(0.5, 4.0), (5.0, 12.0), (13.0, 29.0), (31.0, 40.0), (41.0, 95.0)]
    assert chunks_of(regions) == [{"start": 0.5, "end": 29.0}, {"start": 31.0, "end": 40.0},
                                  {"start": 41.0, "end": 71.0}]


def test_speech_no_word_covers_is_found_and_short_gaps_are_not():
    regions = [(0.0, 10.0), (12.0, 20.0)]
    words = [(0.2, 0.6), (0.7, 1.2), (1.3, 4.0), (12.1, 12.5), (18.0, 19.9)]  # 4-10 s and 12.5-18 s unheard
    missed = uncovered(regions, words)
    assert [(round(a, 1), round(b, 1)) for a, b in missed] == [(4.3, 10.0), (12.8, 17.7)]
    assert uncovered([(0.0, 2.0)], [(0.1, 0.9), (1.2, 1.9)]) == []  # a breath between words is not speech lost


@pytest.mark.slow
def test_the_batched_pipeline_transcribes_a_real_call_with_word_times(demo_media):
    result = TranscriptionJob(demo_media, resolve_model(), TranscriptionSettings(cpu_threads=2, batch_size=8)).run()
    text = " ".join(s.text for s in result.segments).lower()
    assert "send me some information" in text and "finance director" in text
    starts = [s.start_ms for s in result.segments]
    assert starts == sorted(starts) and result.segments[-1].end_ms <= result.duration_ms + 500
    assert all(s.words for s in result.segments)
