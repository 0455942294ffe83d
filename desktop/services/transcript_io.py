"""Bring a Zoom/Teams/SRT/JSON transcript into a call, and write a call's transcript out.

An import is all or nothing: every cue in the file is counted; what a
reader skips (an empty cue, a WebVTT block the specification skips) is named
by line in the summary, and if an SRT cue cannot be read at all the import is
refused with one `FILE, line N: reason` line per cue (unless the coach asks
to keep the readable ones). Exports are written
whole or not at all (desktop.exchange.safe_write).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from db.store import Store
from desktop.core.enums import TranscriptOrigin
from desktop.errors import CallmarkError
from desktop.services import calls as call_service
from desktop.services import transcripts as transcript_service
from desktop.transcription.segments import Segment, Word
from desktop.transcription.subtitles import (
    EXPORT_FORMATS,
    export_transcript,
    read_json_transcript,
    read_subtitles,
)

IMPORT_SUFFIXES = (".vtt", ".srt", ".json")


class TranscriptImportError(CallmarkError):
    """A transcript file that was not imported; the message names the file and each bad line."""

    def __init__(self, message: str, problems: list[str] | None = None) -> None:
        self.problems = list(problems or [])
        super().__init__("\n".join([message, *self.problems]) if self.problems else message)


@dataclass
class ImportSummary:
    call_id: int
    source_file: str
    cue_count: int
    imported: int
    skipped: list[str] = field(default_factory=list)  # `FILE, line N: reason`: skipped blocks and cues
    speakers: list[str] = field(default_factory=list)
    transcript_id: int | None = None

    def to_json(self) -> dict:
        return {"call_id": self.call_id, "source_file": self.source_file, "cue_count": self.cue_count,
                "imported": self.imported, "skipped": self.skipped, "speakers": self.speakers,
                "transcript_id": self.transcript_id}


def read_transcript_file(path: str | Path, *, keep_readable: bool = False) -> tuple[list[Segment], int, list[str]]:
    """(segments, cues in the file, unread cue lines). Raises TranscriptImportError / TranscriptFileError."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in IMPORT_SUFFIXES:
        raise TranscriptImportError(f"{path}: not a transcript file Callmark reads "
                                    f"(use {', '.join(IMPORT_SUFFIXES)})")
    if suffix == ".json":
        segments = read_json_transcript(path)
        return segments, len(segments), []
    parsed = read_subtitles(path)
    problems = parsed.problem_lines(path)
    if problems and not keep_readable:
        raise TranscriptImportError(
            f"{path}: {len(problems)} of {parsed.cue_count} cues could not be read; nothing was imported "
            "(fix them, or import the readable cues only)", problems)
    # What a reader skips (an empty cue, a block with bad timings) is reported, never refused.
    skipped = sorted(parsed.skipped_lines(path) + problems, key=_line_of)
    return parsed.segments, parsed.cue_count, skipped


def _line_of(problem_line: str) -> int:
    _, _, rest = problem_line.rpartition(", line ")
    number = rest.split(":", 1)[0]
    return int(number) if number.isdigit() else 0


def import_transcript(store: Store, call_id: int, path: str | Path, *,
                      keep_readable: bool = False) -> ImportSummary:
    """Read the whole file, then save it in one transaction as the call's current transcript."""
    path = Path(path).expanduser()
    call_service.get_call(store, call_id)  # an unknown call fails before the file is read
    segments, cues, skipped = read_transcript_file(path, keep_readable=keep_readable)
    if not segments:
        raise TranscriptImportError(f"{path}: the file holds no cues to import")
    segments.sort(key=lambda s: (s.start_ms, s.end_ms))
    saved = transcript_service.save_transcript(
        store, call_id, segments, origin=TranscriptOrigin.IMPORT, source_file=str(path.resolve()))
    speakers = sorted({s.speaker for s in segments if s.speaker})
    return ImportSummary(call_id, str(path), cues, len(segments), skipped, speakers, saved.id)


def as_segments(rows: list[transcript_service.SegmentRow]) -> list[Segment]:
    """Store rows (speaker names applied) as plain Segments, word timings kept."""
    out = []
    for row in rows:
        words = None
        if row.words:
            words = [Word.from_dict({k: w[k] for k in ("start_ms", "end_ms", "text", "probability") if k in w})
                     for w in row.words]
        out.append(Segment(row.start_ms, row.end_ms, row.speaker, row.text, words))
    return out


def render_export(store: Store, call_id: int, fmt: str) -> str:
    """The call's current transcript as txt, srt, vtt or json."""
    fmt = fmt.lower().lstrip(".")
    if fmt not in EXPORT_FORMATS:
        raise CallmarkError(f"--format {fmt!r}: choose one of {', '.join(EXPORT_FORMATS)}")
    call = call_service.get_call(store, call_id)
    transcript = transcript_service.current_transcript(store, call_id)
    if transcript is None or not transcript.segments:
        raise CallmarkError(f"call {call_id} ({call.title}): has no transcript to export; "
                            "run `callmark transcribe` or import one first")
    return export_transcript(as_segments(transcript.segments), fmt)


def export_to_file(store: Store, call_id: int, fmt: str, out: str | Path) -> Path:
    """Write the export atomically (a failed write leaves nothing behind)."""
    from desktop.exchange.safe_write import atomic_write_text

    text = render_export(store, call_id, fmt)
    return atomic_write_text(Path(out).expanduser(), text)


def format_for_path(path: str | Path) -> str | None:
    suffix = Path(path).suffix.lower().lstrip(".")
    return suffix if suffix in EXPORT_FORMATS else None
