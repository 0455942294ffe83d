"""Batched Whisper for the real pass (after the preview): faster-whisper's BatchedInferencePipeline, gaps filled.

faster-whisper's batched pipeline cuts the speech (found by its VAD) into
chunks of up to 30 s and decodes several chunks at once, which on the CPU
costs less than decoding 30-second windows one after another (measured:
tests/benchmarks/bench_batch.py). With a small model it also drops the end of
a chunk now and then: each chunk is decoded once, where the sequential loop
would go on from the last timestamp. So the speech the VAD heard but no word
covers is collected and decoded once more, batched too; the coach's
transcript loses no sentence to the speed-up.

Runs in the transcription child (worker.py); imports faster-whisper lazily.
"""

from __future__ import annotations

from typing import Any

SAMPLE_RATE = 16_000
CHUNK_SECONDS = 30.0  # Whisper's window: a chunk never longer
MISSED_MIN_SECONDS = 0.8  # speech this long that no word covers is decoded again
WORD_SLACK_SECONDS = 0.3  # word times are approximate; this much around a word counts as covered


def speech_regions(audio: Any) -> list[tuple[float, float]]:
    """Where the VAD hears speech, in seconds (faster-whisper's own VAD and its batched settings)."""
    from faster_whisper.vad import VadOptions, get_speech_timestamps

    found = get_speech_timestamps(audio, VadOptions(max_speech_duration_s=CHUNK_SECONDS, min_silence_duration_ms=160))
    return [(r["start"] / SAMPLE_RATE, r["end"] / SAMPLE_RATE) for r in found]


def chunks_of(regions: list[tuple[float, float]], limit: float = CHUNK_SECONDS) -> list[dict]:
    """Neighbouring speech regions joined into clips of at most `limit` seconds."""
    clips: list[list[float]] = []
    for start, end in regions:
        if clips and end - clips[-1][0] <= limit:
            clips[-1][1] = end
        else:
            clips.append([start, min(end, start + limit)])
    return [{"start": s, "end": e} for s, e in clips if e > s]


def uncovered(regions: list[tuple[float, float]], words: list[tuple[float, float]],
              min_seconds: float = MISSED_MIN_SECONDS) -> list[tuple[float, float]]:
    """Stretches of speech no word covers (sorted words), each at least `min_seconds` long."""
    out = []
    spans = sorted((max(0.0, s - WORD_SLACK_SECONDS), e + WORD_SLACK_SECONDS) for s, e in words)
    i = 0
    for start, end in regions:
        cursor = start
        while i < len(spans) and spans[i][1] <= start:
            i += 1
        j = i
        while j < len(spans) and spans[j][0] < end:
            if spans[j][0] - cursor >= min_seconds:
                out.append((cursor, spans[j][0]))
            cursor = max(cursor, spans[j][1])
            j += 1
        if end - cursor >= min_seconds:
            out.append((cursor, end))
    return out


def transcribe_batched(pipeline: Any, audio: Any, *, language: str | None, beam_size: int,
                       word_timestamps: bool, batch_size: int) -> tuple[list[Any], Any]:
    """(segments in time order, info) for one window of audio; segments are faster-whisper's own."""
    options = dict(language=language, beam_size=beam_size, word_timestamps=word_timestamps, batch_size=batch_size)
    # The pipeline's own VAD and chunks: measured, they lose fewer words than our own clips with
    # timestamps (tests/benchmarks/bench_batch.py).
    segments, info = pipeline.transcribe(audio, **options)
    found = list(segments)
    if word_timestamps and found:
        words = [(w.start, w.end) for s in found for w in (s.words or [])]
        missed = uncovered(speech_regions(audio), words)
        if missed:
            again, _info = pipeline.transcribe(audio, clip_timestamps=chunks_of(missed), vad_filter=False, **options)
            found.extend(s for s in again if s.text.strip())
    found.sort(key=lambda s: (s.start, s.end))
    return found, info
