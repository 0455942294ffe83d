"""The child process side of transcription: faster-whisper, int8 on CPU.

Runs in a process started with multiprocessing's "spawn" context (runner.py): one
child loads the model once and transcribes the recordings the parent sends, several
at once (`run_worker`). For each recording it sends plain dict messages through a
one-way pipe, each with the recording's "job", in this order:

    {"type": "info", "duration_ms", "language", "language_probability"}
    {"type": "preview", "segment": Segment.to_dict()}        (the first seconds, on their own)
    {"type": "segment", "segment": Segment.to_dict()}        (as each is decoded)
    {"type": "progress", "done_ms", "duration_ms"}           (after each segment)
    {"type": "done", "segment_count", "language", "duration_ms"}
or  {"type": "error", "message"} / {"type": "cancelled"}      (and nothing after)

The first 10 s are decoded on their own and sent as a preview, so lines show within
seconds even for an hour-long call (faster-whisper alone decodes and runs VAD over the
whole file before yielding anything). Then the whole recording is transcribed from the
start, in windows of 10 minutes cut at a quiet moment, as bare faster-whisper reads it:
a window of its own costs Whisper the text before it, so the preview is never kept
(measured: a 10-second first window made 2.3 points more word errors than bare
faster-whisper on the spoken calls of tests/benchmarks/wer_calls.py). The parent shows
the preview until the real pass has passed it; only the real pass is the transcript.

No heavy import at module level: the child must set HF_HUB_OFFLINE before
huggingface_hub is imported, and the parent need not pay for faster-whisper.
"""

from __future__ import annotations

import os
import sys
import traceback
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from typing import Any

from desktop.errors import CallmarkError

SAMPLE_RATE = 16_000
PREVIEW_SECONDS = 10  # decoded first, on its own, so the coach sees lines within seconds
WINDOW_SECONDS = (600,)  # the real pass: 10-minute windows from the start (the last size repeats)
CUT_SEARCH_SECONDS = 3.0  # look this far back from a window's end for a quiet cut
MIN_TAIL_SECONDS = 30  # don't leave a last window shorter than this


@dataclass(frozen=True, slots=True)
class TranscriptionSettings:
    """What the coach can set; the rest stays at faster-whisper's defaults."""

    language: str | None = None  # None: detect from the first window
    vad_filter: bool = True
    word_timestamps: bool = True
    beam_size: int = 5  # faster-whisper's default
    compute_type: str = "int8"
    cpu_threads: int = 0  # 0: CTranslate2 picks
    # >0: windows after the first go through faster-whisper's batched pipeline, this many chunks at once
    # (desktop.transcription.batched). Off by default: on tiny.en it is faster but loses words; see
    # tests/benchmarks/bench_batch.py for both figures.
    batch_size: int = 0

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


class NetworkForbiddenError(CallmarkError, RuntimeError):
    """Raised inside the child when anything tries to reach the network."""


_NETWORK_EVENTS = {"socket.connect", "socket.getaddrinfo", "socket.gethostbyname",
                   "socket.gethostbyname_ex", "socket.gethostbyaddr", "socket.sendto",
                   "socket.sendmsg", "socket.bind", "urllib.Request"}


def forbid_network() -> None:
    """Refuse, from here on, every network socket in this process (audit hook).

    Local AF_UNIX sockets stay allowed; multiprocessing may use them.
    """
    import socket

    def hook(event: str, args: tuple) -> None:
        if event == "socket.__new__":
            family = args[1] if len(args) > 1 else None
            if family in (socket.AF_INET, socket.AF_INET6):
                raise NetworkForbiddenError("transcription tried to open a network socket "
                                            "while network is not allowed")
        elif event in _NETWORK_EVENTS:
            address = args[1] if len(args) > 1 else None
            if isinstance(address, (str, bytes)) and event in ("socket.connect", "socket.bind"):
                return  # an AF_UNIX path
            raise NetworkForbiddenError(f"transcription tried to reach the network ({event}) "
                                        "while network is not allowed")

    sys.addaudithook(hook)


def run_worker(commands: Any, conn: Any, model_location: str, settings: dict[str, Any], slots: int,
               allow_network: bool, child_setup: Callable[[], None] | None = None) -> None:
    """Entry point of the spawned child: load the model once, then transcribe the recordings the parent
    sends, up to `slots` at once, each in its own thread (the model has that many workers).

    Commands (parent -> child, one-way pipe): {"type": "job", "job", "media", "settings"},
    {"type": "cancel", "job"}, {"type": "close"}. Every message back carries its "job"; a model that
    cannot be loaded is one error with "job": None, and the child ends. Never raises.
    """
    import threading

    send_lock = threading.Lock()
    stops: dict[int, threading.Event] = {}
    threads: list[threading.Thread] = []

    def send(message: dict[str, Any]) -> None:
        with send_lock:
            conn.send(message)

    def serve(job: int, media_path: str, job_settings: TranscriptionSettings, stop: threading.Event) -> None:
        try:
            for message in transcribe_recording(model, media_path, job_settings, stop.is_set):
                send({**message, "job": job})
            if stop.is_set():
                send({"type": "cancelled", "job": job})
        except NetworkForbiddenError as exc:
            send({"type": "error", "job": job, "message": str(exc)})
        except Exception as exc:  # noqa: BLE001 - the parent shows the message
            send({"type": "error", "job": job, "message": describe_error(exc, media_path, model_location)})
            traceback.print_exc(file=sys.stderr)

    try:
        if child_setup is not None:
            child_setup()  # first, before the guard, so a test can watch every socket event
        if not allow_network:
            os.environ["HF_HUB_OFFLINE"] = "1"  # before huggingface_hub is imported
            os.environ["HF_HUB_DISABLE_TELEMETRY"] = "1"
            forbid_network()
        model = load_model(model_location, TranscriptionSettings(**settings), slots)
    except Exception as exc:  # noqa: BLE001 - the parent shows the message
        message = str(exc) if isinstance(exc, (NetworkForbiddenError, ModelLoadError)) else \
            f"the Whisper model at {model_location} could not be loaded ({type(exc).__name__}: {exc})"
        conn.send({"type": "error", "job": None, "message": message})
        conn.close()
        return
    try:
        while True:
            try:
                command = commands.recv()
            except (EOFError, OSError):
                break  # the parent is gone
            kind = command.get("type")
            if kind == "job":
                stop = stops[command["job"]] = threading.Event()
                thread = threading.Thread(target=serve, name=f"transcribe-{command['job']}", daemon=True,
                                          args=(command["job"], command["media"],
                                                TranscriptionSettings(**command["settings"]), stop))
                threads.append(thread)
                thread.start()
            elif kind == "cancel" and command["job"] in stops:
                stops[command["job"]].set()
            elif kind == "close":
                break
    finally:
        for stop in stops.values():
            stop.set()
        for thread in threads:
            thread.join(timeout=10)
        conn.close()


class ModelLoadError(CallmarkError, RuntimeError):
    """The model folder exists but CTranslate2 cannot load it."""


class RecordingError(CallmarkError, ValueError):
    """The recording has nothing to transcribe (no audio track, no samples)."""


def describe_error(exc: BaseException, media_path: str, model_location: str) -> str:
    """One line for the coach: which file or model, and what is wrong with it."""
    text = str(exc) or type(exc).__name__
    if isinstance(exc, ModelLoadError):
        return text
    if isinstance(exc, RecordingError):
        return f"{media_path}: {text}"
    if isinstance(exc, OSError) or type(exc).__module__.startswith("av"):
        return f"{media_path}: cannot decode the recording ({text})"
    return f"{media_path}: transcription failed ({type(exc).__name__}: {text})"


def media_duration_ms(media_path: str) -> int | None:
    """Duration from the container, without decoding; None if the file does not say."""
    import av

    with av.open(media_path) as container:
        if not container.streams.audio:
            raise RecordingError("the file has no audio track")
        stream = container.streams.audio[0]
        if stream.duration is not None and stream.time_base is not None:
            return int(stream.duration * stream.time_base * 1000)
        if container.duration is not None:
            return int(container.duration / 1000)  # AV_TIME_BASE is microseconds
    return None


def decode_blocks(media_path: str) -> Iterator[Any]:
    """Mono 16 kHz float32 blocks, decoded as the file is read (as faster-whisper does)."""
    import av
    import numpy as np

    with av.open(media_path, metadata_errors="ignore") as container:
        stream = container.streams.audio[0]
        resampler = av.AudioResampler(format="s16", layout="mono", rate=SAMPLE_RATE)
        for frame in container.decode(stream):
            for out in resampler.resample(frame):
                yield out.to_ndarray().reshape(-1).astype(np.float32) / 32768.0
        for out in resampler.resample(None):
            yield out.to_ndarray().reshape(-1).astype(np.float32) / 32768.0


def quiet_cut(audio: Any, end: int) -> int:
    """The quietest 20 ms frame in the few seconds before `end` (a cut that splits no word)."""
    import numpy as np

    frame = SAMPLE_RATE // 50
    start = max(0, end - int(CUT_SEARCH_SECONDS * SAMPLE_RATE))
    span = audio[start:end]
    n = len(span) // frame
    if n < 2:
        return end
    energy = (span[: n * frame].reshape(n, frame) ** 2).mean(axis=1)
    return start + int(np.argmin(energy)) * frame + frame // 2


def audio_windows(media_path: str, seconds: tuple[int, ...] = WINDOW_SECONDS) -> Iterator[tuple[int, Any]]:
    """(offset in samples, audio) windows of these lengths (the last repeats), cut in quiet places."""
    import numpy as np

    sizes = iter(seconds)
    pending: list[Any] = []
    pending_len = 0
    offset = 0
    target = next(sizes) * SAMPLE_RATE
    tail = MIN_TAIL_SECONDS * SAMPLE_RATE
    for block in decode_blocks(media_path):
        pending.append(block)
        pending_len += len(block)
        if pending_len < target + tail:
            continue
        audio = np.concatenate(pending)
        cut = quiet_cut(audio, target)
        yield offset, audio[:cut]
        offset += cut
        pending, pending_len = [audio[cut:]], len(audio) - cut
        target = next(sizes, seconds[-1]) * SAMPLE_RATE
    if pending_len:
        yield offset, np.concatenate(pending)


def load_model(model_location: str, settings: TranscriptionSettings, workers: int = 1) -> Any:
    """The Whisper model, with `workers` so that many recordings can be transcribed at once."""
    import threading

    from tqdm import tqdm

    # faster-whisper builds (disabled) tqdm bars, whose default lock is a named
    # multiprocessing semaphore; a child killed on cancel would leak it.
    tqdm.set_lock(threading.RLock())
    from faster_whisper import WhisperModel

    try:
        return WhisperModel(model_location, device="cpu", compute_type=settings.compute_type,
                            cpu_threads=settings.cpu_threads, num_workers=max(1, workers))
    except Exception as exc:  # noqa: BLE001 - CTranslate2 raises plain RuntimeError/ValueError
        raise ModelLoadError(f"the Whisper model at {model_location} could not be loaded "
                             f"({exc})") from exc


def transcribe_recording(model: Any, media_path: str, settings: TranscriptionSettings,
                         stopped: Callable[[], bool] = lambda: False) -> Iterator[dict[str, Any]]:
    """The protocol's messages for one recording (without "job"); ends early, silently, once `stopped()`."""
    duration_ms = media_duration_ms(media_path)
    language = settings.language
    pipeline = None
    if settings.batch_size > 0:
        from faster_whisper import BatchedInferencePipeline

        pipeline = BatchedInferencePipeline(model)

    def decode(audio: Any) -> tuple[Any, Any]:
        if pipeline is not None:
            from desktop.transcription.batched import transcribe_batched

            return transcribe_batched(pipeline, audio, language=language, beam_size=settings.beam_size,
                                      word_timestamps=settings.word_timestamps, batch_size=settings.batch_size)
        return model.transcribe(audio, language=language, beam_size=settings.beam_size,
                                vad_filter=settings.vad_filter, word_timestamps=settings.word_timestamps)

    # The preview: only when the recording is long enough to be worth two passes over its start.
    preview = duration_ms is None or duration_ms > (PREVIEW_SECONDS + MIN_TAIL_SECONDS) * 1000
    info = None
    if preview:
        windows = audio_windows(media_path, (PREVIEW_SECONDS, PREVIEW_SECONDS))
        first = next(windows, None)
        windows.close()
        if first is not None:
            segments, info = model.transcribe(first[1], language=language, beam_size=settings.beam_size,
                                              vad_filter=settings.vad_filter,
                                              word_timestamps=settings.word_timestamps)
            segments = list(segments)
            language = language or info.language
            yield _info(info, duration_ms)
            for seg in segments:
                yield {"type": "preview", "segment": _segment_dict(seg, 0.0)}
            if stopped():
                return
    count = 0
    done_ms = 0
    for offset, audio in audio_windows(media_path):
        offset_s = offset / SAMPLE_RATE
        segments, window_info = decode(audio)
        if info is None and window_info is not None:
            info = window_info
            language = language or info.language  # detected once, kept for the whole call
            yield _info(info, duration_ms)
        for seg in segments:
            if stopped():
                return
            count += 1
            segment = _segment_dict(seg, offset_s)
            done_ms = max(done_ms, segment["end_ms"])
            yield {"type": "segment", "segment": segment}
            yield {"type": "progress", "done_ms": done_ms, "duration_ms": duration_ms}
        done_ms = max(done_ms, int(round((offset + len(audio)) / SAMPLE_RATE * 1000)))
        yield {"type": "progress", "done_ms": done_ms, "duration_ms": duration_ms}
    if info is None:
        raise RecordingError("the recording has no audio to transcribe")
    yield {"type": "done", "segment_count": count, "language": language,
           "duration_ms": duration_ms if duration_ms is not None else done_ms}


def _info(info: Any, duration_ms: int | None) -> dict[str, Any]:
    return {"type": "info", "duration_ms": duration_ms, "language": info.language,
            "language_probability": float(info.language_probability)}


def _segment_dict(seg: Any, offset_s: float) -> dict[str, Any]:
    def ms(t: float) -> int:
        return int(round((t + offset_s) * 1000))

    words = None
    if seg.words is not None:
        words = [{"start_ms": ms(w.start), "end_ms": ms(w.end), "text": w.word.strip(),
                  "probability": round(float(w.probability), 4)} for w in seg.words]
    return {"start_ms": ms(seg.start), "end_ms": ms(seg.end), "speaker": None,
            "text": seg.text.strip(), "words": words}
