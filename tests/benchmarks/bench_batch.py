"""Many calls transcribed: the app against bare faster-whisper one after another, same run, and the words.

- batch_ratio: the app transcribing six 10-minute recordings end to end, as its queue runs them (calls in a
  real store, claimed from the queue, one Whisper child with the model loaded once transcribing
  runner.parallel_calls() of them at once, previews, messages, parent-side events, each transcript saved
  and read for suggestions) ÷ bare faster-whisper transcribing the same six one after another in one fresh
  interpreter (the model loaded once: the friendliest baseline) with the app's previous settings (tiny.en,
  int8, 2 threads, VAD, word timestamps, beam 5). Both use the machine's cores: bare puts two threads on
  one recording, the app one thread on each of two.
- batch_ratio_one_at_a_time: the same queue with one call at a time on both threads (what the parallel
  calls add).
- batch_ratio_batched: faster-whisper's batched pipeline (desktop.transcription.batched, batch size
  BATCH_SIZE), a job per call one after another, for comparison: faster, but it loses words (below).
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
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from desktop.transcription.models import resolve_model
from desktop.transcription.runner import TranscriptionJob, parallel_calls
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


def _distinct_copy(path: Path, n: int, folder: Path) -> Path:
    """The same recording with a few bytes of its own after the audio (the library knows a call by its
    file's SHA-256, and the six are one recording)."""
    data = path.read_bytes()
    if data[:4] != b"RIFF":
        return path  # only the benchmark's WAVs repeat
    extra = b"cmrk" + (4).to_bytes(4, "little") + n.to_bytes(4, "little")
    body = data + extra
    out = folder / f"{path.stem}-{n}{path.suffix}"
    out.write_bytes(body[:4] + (len(body) - 8).to_bytes(4, "little") + body[8:])
    return out


def queue_run(files: list[Path], parallel: int | None = None) -> tuple[float, list[str]]:
    """Seconds from the queue's start to the last transcript saved, and each call's saved text."""
    from db.store import open_store
    from desktop.services import calls, transcripts
    from desktop.services import transcription_queue as q

    with tempfile.TemporaryDirectory(prefix="callmark-batch-") as tmp:
        folder = Path(tmp)
        store = open_store(folder / "callmark.sqlite3")
        try:
            ids = [calls.add_call(store, _distinct_copy(f, n, folder), title=f"call {n}")[0].id
                   for n, f in enumerate(files)]
            q.enqueue(store, ids)
            start = time.perf_counter()
            outcomes = list(q.run_queue(store, parallel=parallel))
            seconds = time.perf_counter() - start
            failed = [o for o in outcomes if o.outcome != "transcribed"]
            if failed:
                raise RuntimeError(f"the queue did not transcribe every call: {failed}")
            texts = [" ".join(s.text for s in transcripts.current_transcript(store, cid).segments) for cid in ids]
        finally:
            store.close()
    return seconds, texts


def texts_bare(model: str, files: list[Path]) -> list[str]:
    return bare_run(model, files)[1]


def texts_app(model, files: list[Path], settings: TranscriptionSettings) -> list[str]:
    return app_run(model, files, settings)[1]


def run(quick: bool) -> dict[str, float]:
    model = resolve_model()
    files = [speech_file(1 if quick else 10)] * CALLS
    batched = replace(SETTINGS, batch_size=BATCH_SIZE)
    bare_s, app_s, one_s, batched_s = [], [], [], []
    for _ in range(1 if quick else 2):  # alternated, so drift on a shared machine hits all of them
        bare_s.append(bare_run(model.location, files)[0])
        app_s.append(queue_run(files)[0])
        one_s.append(queue_run(files, parallel=1)[0])
        batched_s.append(app_run(model, files, batched)[0])
    recordings = wer_calls.recordings()[:1] if quick else wer_calls.recordings()
    paths = [path for path, _ref in recordings]
    refs = [ref for _path, ref in recordings]
    figures = {
        "batch_ratio": round(min(app_s) / min(bare_s), 3),
        "batch_ratio_one_at_a_time": round(min(one_s) / min(bare_s), 3),
        "batch_ratio_batched": round(min(batched_s) / min(bare_s), 3),
        "parallel_calls": parallel_calls(),
    }
    for name, hyps in (("bare", texts_bare(model.location, paths)), ("app", queue_run(paths)[1]),
                       ("app_batched", texts_app(model, paths, batched))):
        figures[f"wer_{name}"] = round(wer_calls.pooled_wer(list(zip(refs, hyps))), 4)
        figures[f"wer_demo_{name}"] = round(wer_calls.pooled_wer([(refs[0], hyps[0])]), 4)
    return figures


if __name__ == "__main__":
    print(run("--quick" in sys.argv))
