"""Every judged file of the subtitle corpus (W3C WebVTT tests, webvtt-py, pysrt, Zoom, Teams) reads as expected.

The expectations come from reference parsers (see the corpus's SOURCES.md); the
file is imported into a real store and read back, as the coach would.
"""

from __future__ import annotations

import json

import pytest

from desktop.errors import CallmarkError
from desktop.services import calls
from desktop.services import transcript_io as io
from desktop.services import transcripts
from desktop.transcription.subtitles import TranscriptFileError
from tests.conformance.corpus import corpus_dir, require

FOLDER = corpus_dir("subtitles")
EXPECTED = json.loads((FOLDER / "expectations.json").read_text(encoding="utf-8"))["files"] if FOLDER else {}


def norm(text: str | None) -> str:
    return " ".join((text or "").replace("\u200e", "").replace("\u200f", "").split())


def cues(rows) -> list[tuple]:
    return sorted((r[0], r[1], norm(r[2]) or None, norm(r[3])) for r in rows)


def import_and_read(store, media, path):
    """The cues Callmark keeps from the file, or None when it refuses the file."""
    call, _ = calls.add_call(store, media, title=path.name)
    try:
        io.import_transcript(store, call.id, path)
    except (CallmarkError, TranscriptFileError) as exc:
        assert str(exc).startswith(str(path)), f"a refusal names the file: {exc}"
        return None
    current = transcripts.current_transcript(store, call.id)
    return cues((s.start_ms, s.end_ms, s.speaker, s.text) for s in current.segments)


@pytest.mark.parametrize("name", sorted(EXPECTED) or ["(corpus missing)"])
def test_corpus_file_reads_as_expected(store, demo_media, name):
    folder = require("subtitles")
    exp = EXPECTED[name]
    got = import_and_read(store, demo_media, folder / name)
    if exp["expect"] == "cues":
        assert got == cues(exp["cues"])
    elif exp["expect"] == "no-cues":
        assert not got
    else:  # the specification or the peer rejects it: refused, or read as the lenient reading
        if got is not None and exp.get("lenient_cues") is not None:
            assert got == cues(exp["lenient_cues"])
