"""Transcribing a call through the store: real tiny.en, speakers by channel, cancel and bad input keep nothing."""

from __future__ import annotations

import subprocess
import threading

import pytest

from desktop.core.enums import TranscriptOrigin
from desktop.services import calls, transcripts
from desktop.services import transcription as service
from desktop.transcription.models import ModelNotFoundError
from desktop.transcription.runner import Cancelled, Completed, Progress, SegmentDecoded, Started


def _demo(store, demo_media, rep="Riley Rep") -> int:
    call, _ = calls.add_call(store, demo_media, title="Acme discovery", rep=rep)
    return call.id


@pytest.mark.slow
def test_demo_call_is_transcribed_saved_and_split_by_channel(store, demo_media):
    call_id = _demo(store, demo_media)
    seen: list = []
    saved = service.transcribe_call(store, call_id, on_event=seen.append, cpu_threads=2)
    assert isinstance(seen[0], Started) and isinstance(seen[-1], service.Saved)
    shown = [e for e in seen if isinstance(e, SegmentDecoded)]
    assert len(shown) > 5
    # The first seconds show first, as a preview; then the real pass, which alone is saved.
    previews = [e.segment for e in shown if e.preview]
    assert previews and shown[0].preview and max(p.end_ms for p in previews) <= 10_500
    assert all(not e.preview for e in shown[len(previews):])
    decoded = next(e.result for e in seen if isinstance(e, Completed)).segments
    assert decoded[0].start_ms < previews[-1].end_ms, "the real pass starts at the beginning, not after the preview"
    # Saved lines are the decoded words, cut where the voice changes channel: none lost, none added.
    decoded_words = [w.text for seg in decoded for w in seg.words]
    assert [w["text"] for seg in saved.segments for w in seg.words] == decoded_words
    fractions = [e.fraction for e in seen if isinstance(e, Progress)]
    assert fractions == sorted(fractions) and fractions[-1] > 0.99

    current = transcripts.current_transcript(store, call_id)
    assert current.id == saved.id and current.origin == TranscriptOrigin.WHISPER
    assert current.model == "tiny.en" and current.language == "en"
    text = " ".join(s.text for s in current.segments).lower()
    assert "send me some information" in text
    assert any(s.words for s in current.segments), "word timings are kept"
    # Rep on the left channel, named from the call's rep; the customer on the right.
    by_speaker = {s.speaker for s in current.segments}
    assert {"Riley Rep", "Customer"} <= by_speaker
    line = next(s for s in current.segments if "send me some information" in s.text.lower())
    assert line.speaker == "Customer"
    # Whisper ran "...time today. Hi Riley" into one segment; the reply is the customer's own line now.
    assert not any("today" in s.text and "Hi Riley" in s.text for s in current.segments)
    roles = {s["name"]: (s["role"], s["channel"]) for s in transcripts.speakers(store, call_id)}
    assert roles["Riley Rep"] == ("rep", 0) and roles["Customer"] == ("customer", 1)
    assert calls.get_call(store, call_id).transcript_status == "whisper"


@pytest.mark.slow
def test_cancel_mid_way_leaves_no_transcript(store, demo_media):
    call_id = _demo(store, demo_media)
    run = service.CallTranscription(store, service.plan_for_call(store, call_id, cpu_threads=2))
    events = []
    for event in run.events():
        events.append(event)
        if isinstance(event, SegmentDecoded):
            threading.Thread(target=run.cancel).start()  # from another thread, as the GUI does
    assert isinstance(events[-1], Cancelled)
    assert run.transcript is None
    assert transcripts.current_transcript(store, call_id) is None
    assert transcripts.versions(store, call_id) == []
    assert run.job.pid is not None and not _alive(run.job.pid), "the child was killed and reaped"


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split()[2] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.slow
def test_a_silent_recording_is_refused_by_name_and_nothing_saved(store, tmp_path):
    silent = tmp_path / "silent.wav"
    subprocess.run(["sox", "-n", "-r", "16000", "-c", "1", str(silent), "trim", "0", "4"], check=True)
    call, _ = calls.add_call(store, silent)
    with pytest.raises(service.TranscriptionFailed, match=r"silent\.wav: no speech found"):
        service.transcribe_call(store, call.id, cpu_threads=2)
    assert transcripts.versions(store, call.id) == []


def test_preferences_are_stored_and_override_per_run(store, demo_media, tmp_path):
    assert service.load_preferences(store) == service.TranscriptionPreferences()
    service.save_preferences(store, service.TranscriptionPreferences(" small.en ", False, "EN"))
    assert service.load_preferences(store) == service.TranscriptionPreferences("small.en", False, "en")
    call_id = _demo(store, demo_media)
    # A name not in the cache, network off: refused, saying what was tried.
    with pytest.raises(ModelNotFoundError, match="network is not allowed"):
        service.plan_for_call(store, call_id)
    # Allowed for this run: the plan downloads (the child is never started here).
    plan = service.plan_for_call(store, call_id, allow_network=True)
    assert plan.model.needs_network and plan.allow_network and plan.settings.language == "en"
    # A broken folder given for one run names the folder.
    broken = tmp_path / "model"
    broken.mkdir()
    with pytest.raises(ModelNotFoundError, match=str(broken)):
        service.plan_for_call(store, call_id, model=str(broken))
    # Back to the bundled tiny.en; language auto; the stereo call gets channel names.
    service.save_preferences(store, service.TranscriptionPreferences())
    plan = service.plan_for_call(store, call_id, language="auto")
    assert plan.model.label == "tiny.en" and plan.model.source == "bundled"
    assert plan.settings.language is None and plan.channel_names == ("Riley Rep", "Customer")


def test_a_recording_missing_from_disk_is_named(store, tmp_path):
    copy = tmp_path / "call.wav"
    subprocess.run(["sox", "-n", "-r", "16000", "-c", "1", str(copy), "synth", "1", "sine", "440"], check=True)
    call, _ = calls.add_call(store, copy)
    copy.unlink()
    with pytest.raises(service.TranscriptionFailed, match=r"call\.wav: the recording is not on this computer"):
        service.plan_for_call(store, call.id)


def test_a_file_argument_is_added_once_and_ids_resolve(store, demo_media):
    first, added = service.call_for_input(store, str(demo_media))
    again, added_again = service.call_for_input(store, str(demo_media))
    assert added and not added_again and first == again
    assert service.call_for_input(store, str(first)) == (first, False)
