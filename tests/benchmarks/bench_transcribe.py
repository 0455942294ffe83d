"""Transcription speed: the app's pipeline against bare faster-whisper, same run.

- transcribe_ratio: app wall time ÷ bare faster-whisper wall time, same model
  (bundled tiny.en), same settings (int8, 2 CPU threads, VAD on, word
  timestamps, beam 5, language auto), same file. Both are measured from
  launch to the last segment: bare = a fresh interpreter running the plain
  faster-whisper loop; app = TranscriptionJob (spawned child, windows,
  messages through the pipe, parent-side events). Best of the pairs run.
- transcribe_rtf: app wall time ÷ audio duration.
- first_segment_s: from starting the job to the first segment, on a
  60-minute recording (10 minutes with quick).

Audio is spoken by espeak-ng from a fixed script and joined with sox, so it is
the same on every machine; it is cached in ~/.cache/callmark-bench (or
$CALLMARK_BENCH_CACHE).
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from desktop.transcription.models import resolve_model
from desktop.transcription.runner import SegmentDecoded, TranscriptionJob
from desktop.transcription.worker import TranscriptionSettings

SETTINGS = TranscriptionSettings(cpu_threads=2)  # everything else at faster-whisper's defaults

SCRIPT = [
    ("en-us", "Hi Casey, thanks for making time today. I know the quarter is busy."),
    ("en-gb", "Sure. We have about thirty minutes, then I have to join our finance review."),
    ("en-us", "Great. Last time you mentioned onboarding was taking your team six weeks."),
    ("en-gb", "Yes, new hires spend most of their first month waiting for access and training."),
    ("en-us", "What does that delay cost you, in deals or in ramp time?"),
    ("en-gb", "Hard to say exactly. Maybe two or three deals a quarter slip because of it."),
    ("en-us", "Who else feels that pain? Is it mostly sales, or support as well?"),
    ("en-gb", "Support too. Our head of support, Priya, complains about it every week."),
    ("en-us", "If we could cut onboarding to two weeks, what would that be worth to you?"),
    ("en-gb", "Honestly, just send me some information and I will take a look."),
    ("en-us", "Happy to. What will you review, and who else needs to be involved?"),
    ("en-gb", "Our CFO signs anything above fifty thousand, and legal reads the contract."),
    ("en-us", "Understood. What would the CFO need to see to say yes this quarter?"),
    ("en-gb", "A clear payback period, probably under nine months, and two references."),
    ("en-us", "We can provide both. Could we book thirty minutes with her next Tuesday?"),
    ("en-gb", "Let me check her calendar. Tuesday afternoon might work."),
    ("en-us", "Perfect. I will send an invite for two o'clock and an agenda today."),
    ("en-gb", "Sounds good. Please include the pricing for two hundred seats."),
    ("en-us", "Will do. Is there a competing project that could take this budget?"),
    ("en-gb", "There is a data warehouse migration, but that is funded separately."),
    ("en-us", "Good to know. What happens if nothing changes before next year?"),
    ("en-gb", "We keep hiring into a slow process, and the attrition problem gets worse."),
]
SILENCE_S = 0.4


def _cache_dir() -> Path:
    root = os.environ.get("CALLMARK_BENCH_CACHE") or Path.home() / ".cache" / "callmark-bench"
    path = Path(root)
    path.mkdir(parents=True, exist_ok=True)
    return path


def _run(*args: str) -> None:
    subprocess.run(args, check=True, capture_output=True)


def speech_file(minutes: int) -> Path:
    """A `minutes`-long 16 kHz mono WAV of the sales-call script, made once and cached."""
    key = hashlib.sha256(repr((SCRIPT, SILENCE_S, 1)).encode()).hexdigest()[:12]
    cache = _cache_dir()
    out = cache / f"call-{key}-{minutes}min.wav"
    if out.exists():
        return out
    if minutes > 10:  # longer files are the 10-minute one repeated
        ten = speech_file(10)
        _run("sox", *[str(ten)] * (minutes // 10), str(out))
        return out
    with tempfile.TemporaryDirectory(dir=cache) as tmp:
        parts = []
        silence = Path(tmp) / "silence.wav"
        _run("sox", "-n", "-r", "16000", "-c", "1", str(silence), "trim", "0", str(SILENCE_S))
        for n, (voice, text) in enumerate(SCRIPT):
            raw, wav = Path(tmp) / f"{n}.raw.wav", Path(tmp) / f"{n}.wav"
            _run("espeak-ng", "-v", voice, "-s", "165", "-w", str(raw), text)
            _run("sox", str(raw), "-r", "16000", "-c", "1", str(wav))
            parts += [str(wav), str(silence)]
        once = Path(tmp) / "once.wav"
        _run("sox", *parts, str(once))
        once_s = float(subprocess.run(["soxi", "-D", str(once)], check=True, capture_output=True,
                                      text=True).stdout)
        repeats = int(minutes * 60 / once_s) + 1
        joined = Path(tmp) / "joined.wav"
        _run("sox", *[str(once)] * repeats, str(joined))
        partial = Path(tmp) / "out.wav"
        _run("sox", str(joined), str(partial), "trim", "0", str(minutes * 60))
        partial.replace(out)
    return out


BARE = """
import sys
from faster_whisper import WhisperModel
model = WhisperModel(sys.argv[1], device="cpu", compute_type="int8", cpu_threads=2)
segments, info = model.transcribe(sys.argv[2], beam_size=5, vad_filter=True, word_timestamps=True)
n = sum(1 for _ in segments)
print(n, info.duration)
"""


def bare_seconds(model: str, audio: Path) -> tuple[float, int]:
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", BARE, model, str(audio)], check=True,
                         capture_output=True, text=True, env={**os.environ, "HF_HUB_OFFLINE": "1"})
    return time.perf_counter() - start, int(out.stdout.split()[0])


def app_seconds(model, audio: Path) -> tuple[float, int]:
    start = time.perf_counter()
    result = TranscriptionJob(audio, model, SETTINGS).run()
    return time.perf_counter() - start, len(result.segments)


def first_segment_seconds(model, audio: Path) -> float:
    start = time.perf_counter()
    job = TranscriptionJob(audio, model, SETTINGS)
    for event in job.events():
        if isinstance(event, SegmentDecoded):
            elapsed = time.perf_counter() - start
            job.cancel()
            return elapsed
    raise RuntimeError(f"{audio}: no segment came out")


def run(quick: bool) -> dict[str, float]:
    model = resolve_model()
    audio = speech_file(2 if quick else 10)
    duration_s = float(subprocess.run(["soxi", "-D", str(audio)], check=True, capture_output=True,
                                      text=True).stdout)
    bare, app = [], []
    for _ in range(1 if quick else 2):  # alternate, so drift on a shared machine hits both
        bare.append(bare_seconds(model.location, audio)[0])
        app.append(app_seconds(model, audio)[0])
    long_audio = speech_file(10 if quick else 60)
    return {
        "transcribe_ratio": round(min(app) / min(bare), 3),
        "transcribe_rtf": round(min(app) / duration_s, 4),
        "transcribe_bare_rtf": round(min(bare) / duration_s, 4),
        "first_segment_s": round(first_segment_seconds(model, long_audio), 2),
    }


if __name__ == "__main__":
    print(run("--quick" in sys.argv))
