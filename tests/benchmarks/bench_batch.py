"""Many calls transcribed: the app against bare faster-whisper one after another, same run, and the words.

- batch_ratio: the app transcribing six 10-minute recordings end to end (a spawned child per call,
  as the queue runs them, windows, messages, parent-side events) ÷ bare faster-whisper transcribing
  the same six one after another in one fresh interpreter (the model loaded once: the friendliest
  baseline), with the app's previous settings (tiny.en, int8, 2 threads, VAD, word timestamps,
  beam 5). Measured for the app's default (sequential windows) and, as `batch_ratio_batched`, for
  the batched pipeline (desktop.transcription.batched, batch size BATCH_SIZE).
- wer_bare, wer_app, wer_app_batched: word error rate, all errors over all reference words, on the shipped
  test recordings with known words (tests/benchmarks/wer_calls.py: the demo call and 24 development calls
  spoken in two voices, 25 minutes, ~4,000 words), case, punctuation, fillers and the spelling of numbers aside.
  wer_demo_*: the demo call alone (347 words: eight errors move it two points).

`--quick`: six 1-minute recordings, and the demo call alone for the words. The six are one cached espeak-ng
recording (bench_transcribe).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

from desktop.transcription.models import resolve_model
from desktop.transcription.runner import TranscriptionJob
from desktop.transcription.worker import TranscriptionSettings
from tests.benchmarks import wer_calls
from tests.benchmarks.bench_transcribe import speech_file

SETTINGS = TranscriptionSettings(cpu_threads=2)
BATCH_SIZE = 16
CALLS = 6

BARE = """
import sys
from faster_whisper import WhisperModel
model = WhisperModel(sys.argv[1], device="cpu", compute_type="int8", cpu_threads=2)
for path in sys.argv[2:]:
    segments, info = model.transcribe(path, beam_size=5, vad_filter=True, word_timestamps=True)
    print(" ".join(s.text.strip() for s in segments))
"""


def bare_run(model: str, files: list[Path]) -> tuple[float, list[str]]:
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", BARE, model, *map(str, files)], check=True, capture_output=True,
                         text=True, env={**os.environ, "HF_HUB_OFFLINE": "1"})
    return time.perf_counter() - start, out.stdout.splitlines()


def app_run(model, files: list[Path], settings: TranscriptionSettings) -> tuple[float, list[str]]:
    start = time.perf_counter()
    texts = [" ".join(s.text for s in TranscriptionJob(f, model, settings).run().segments) for f in files]
    return time.perf_counter() - start, texts


def texts_bare(model: str, files: list[Path]) -> list[str]:
    return bare_run(model, files)[1]


def texts_app(model, files: list[Path], settings: TranscriptionSettings) -> list[str]:
    return app_run(model, files, settings)[1]


def run(quick: bool) -> dict[str, float]:
    model = resolve_model()
    files = [speech_file(1 if quick else 10)] * CALLS
    batched = replace(SETTINGS, batch_size=BATCH_SIZE)
    bare_s, app_s, batched_s = [], [], []
    for _ in range(1 if quick else 2):  # alternated, so drift on a shared machine hits all three
        bare_s.append(bare_run(model.location, files)[0])
        app_s.append(app_run(model, files, SETTINGS)[0])
        batched_s.append(app_run(model, files, batched)[0])
    recordings = wer_calls.recordings()[:1] if quick else wer_calls.recordings()
    files = [path for path, _ref in recordings]
    refs = [ref for _path, ref in recordings]
    figures = {
        "batch_ratio": round(min(app_s) / min(bare_s), 3),
        "batch_ratio_batched": round(min(batched_s) / min(bare_s), 3),
    }
    for name, hyps in (("bare", texts_bare(model.location, files)), ("app", texts_app(model, files, SETTINGS)),
                       ("app_batched", texts_app(model, files, batched))):
        figures[f"wer_{name}"] = round(wer_calls.pooled_wer(list(zip(refs, hyps))), 4)
        figures[f"wer_demo_{name}"] = round(wer_calls.pooled_wer([(refs[0], hyps[0])]), 4)
    return figures


if __name__ == "__main__":
    print(run("--quick" in sys.argv))
