"""Fixtures the service tests share."""

from __future__ import annotations

import pytest

from desktop.services import calls, transcript_io
from tests.conftest import make_tone
from tests.services.demo_script import write_script_vtt


@pytest.fixture
def two_calls(store, demo_media, tmp_path):
    """The demo call and a tone, each with the demo script's transcript (the trackers' tests count on both)."""
    made = []
    for n, media in enumerate((demo_media, make_tone(tmp_path / "second.wav")), start=1):
        call, _ = calls.add_call(store, media, title=f"Discovery {n}", rep="Riley Rep")
        made.append(call.id)
    for n, call_id in enumerate(made):
        transcript_io.import_transcript(store, call_id, write_script_vtt(tmp_path / f"c{n}.vtt"))
    return made
