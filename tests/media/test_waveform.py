"""Waveform peaks: right shape and values, one decode per recording, an atomic cache."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest

from desktop.media.hashing import sha256_file
from desktop.media.probe import MediaError
from desktop.media.waveform import (PEAKS_PER_SECOND, Peaks, _PeakReducer, cache_path, compute_peaks,
                                    load_or_compute)
from tests.media.conftest import DEMO_AUDIO, DEMO_SCRIPT, tone, write_audio


@pytest.fixture
def stepped_wav(tmp_path):
    """3 s stereo WAV: left loud (0.8) in second 0, right soft (0.25) in second 2, silence elsewhere."""
    rate = 22050  # 220.5 samples per bucket: bucket edges must not drift
    left = np.zeros(3 * rate, np.float32)
    right = np.zeros(3 * rate, np.float32)
    left[:rate] = tone(1, rate, 0.8, 441)
    right[2 * rate:] = tone(1, rate, 0.25, 441)
    return write_audio(tmp_path / "stepped.wav", np.stack([left, right]), rate, "wav", "pcm_s16le")


def test_peaks_follow_each_channel(stepped_wav):
    peaks = compute_peaks(stepped_wav)
    assert isinstance(peaks, Peaks)
    assert peaks.per_second == PEAKS_PER_SECOND
    assert peaks.channels.dtype == np.float32
    assert peaks.channels.shape == (2, 300)
    assert peaks.duration_ms == 3000
    left, right = peaks.channels
    np.testing.assert_allclose(left[:100], 0.8, atol=0.01)
    assert left[101:].max() == 0.0
    assert right[:199].max() == 0.0
    np.testing.assert_allclose(right[201:], 0.25, atol=0.01)
    np.testing.assert_array_equal(peaks.mix, np.maximum(left, right))
    assert peaks.bucket_at(2500) == 250 and peaks.bucket_at(10**9) == 299


def test_mono_recording_gives_one_row(tmp_path):
    path = write_audio(tmp_path / "mono.m4a", tone(2, 16000, 0.5)[None, :], 16000, "mp4", "aac", 48_000)
    peaks = compute_peaks(path)
    assert peaks.channels.shape[0] == 1
    # AAC decodes a little priming and padding around the 2 s; the peaks cover what decodes.
    assert abs(peaks.channels.shape[1] - peaks.duration_ms // 10) <= 10
    assert 0.4 < float(np.median(peaks.mix)) < 0.6


@pytest.mark.parametrize("rate", [8000, 11025, 22050, 44100, 48000])
def test_bucket_edges_are_exact_whatever_the_block_sizes(rate):
    rng = np.random.default_rng(rate)
    samples = rng.uniform(-1, 1, (2, rate * 3 + 77)).astype(np.float32)
    reducer = _PeakReducer(rate, 100)
    at = 0
    for size in rng.integers(1, rate, 200):
        reducer.add(samples[:, at:at + size])
        at += size
        if at >= samples.shape[1]:
            break
    bucket = np.arange(samples.shape[1]) * 100 // rate
    expected = np.stack([[np.abs(row[bucket == k]).max() for k in range(bucket[-1] + 1)] for row in samples])
    np.testing.assert_array_equal(reducer.result(), expected)


def test_demo_call_peaks_show_rep_left_and_customer_right():
    peaks = compute_peaks(DEMO_AUDIO)
    script = json.loads(DEMO_SCRIPT.read_text())
    for line in script["lines"]:
        a, b = peaks.bucket_at(line["start_ms"]) + 5, peaks.bucket_at(line["end_ms"]) - 5
        mine, other = (0, 1) if line["channel"] == "left" else (1, 0)
        assert peaks.channels[mine, a:b].max() > 0.3
        assert peaks.channels[other, a:b].max() < 0.05, line["text"]


def test_cache_is_written_once_and_reused_without_decoding(stepped_wav, tmp_path):
    cache_dir = tmp_path / "cache"
    sha = sha256_file(stepped_wav)
    calls: list[tuple[int, int]] = []
    first = load_or_compute(stepped_wav, sha, cache_dir, progress=lambda d, t: calls.append((d, t)))
    target = cache_path(cache_dir, sha)
    assert target.is_file()
    assert calls and calls[-1] == (3000, 3000)
    assert os.listdir(cache_dir) == [target.name]  # no temporary file left behind
    before = target.stat().st_mtime_ns

    # The media is gone: only the cache can answer, so nothing is decoded.
    stepped_wav.unlink()
    again = load_or_compute(stepped_wav, sha, cache_dir)
    assert target.stat().st_mtime_ns == before
    assert again.duration_ms == first.duration_ms and again.per_second == first.per_second
    np.testing.assert_allclose(again.channels, first.channels, atol=1 / 255)
    assert target.stat().st_size < 2_000


def test_damaged_cache_file_is_recomputed(stepped_wav, tmp_path):
    sha = sha256_file(stepped_wav)
    target = cache_path(tmp_path, sha)
    target.write_bytes(b"half a file")
    peaks = load_or_compute(stepped_wav, sha, tmp_path)
    assert peaks.channels.shape == (2, 300)
    assert load_or_compute(tmp_path / "gone.wav", sha, tmp_path).channels.shape == (2, 300)


def test_cache_key_must_be_a_sha256(stepped_wav, tmp_path):
    with pytest.raises(ValueError):
        load_or_compute(stepped_wav, "../../etc/passwd", tmp_path)


def test_unreadable_media_is_a_media_error(tmp_path):
    fake = tmp_path / "notes.ogg"
    fake.write_text("not audio")
    with pytest.raises(MediaError, match="not an audio or video file"):
        load_or_compute(fake, "0" * 64, tmp_path / "cache")
    assert not (tmp_path / "cache").exists() or not any((tmp_path / "cache").iterdir())
