"""Transcripts in the store: save a whole version at once, read the current one, edit, rename speakers.

A transcript is saved in one transaction once it is complete (a cancelled
transcription leaves nothing). Editing never overwrites: the first edit copies
the current version into a new `edited` version, so the original stays.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from db.models import Call, Segment, Speaker, Transcript
from db.store import Store
from desktop.core.enums import Role, TranscriptOrigin
from desktop.errors import CallmarkError, NotFound
from desktop.services.changes import MOMENTS, TRANSCRIPT, Change, change
from desktop.services.rows import (  # noqa: F401 - the workspace's reads, plain sqlite3
    SegmentRow,
    TranscriptRow,
    current_transcript,
    current_transcript_id,
    text_under,
)


def _words(words) -> list | None:
    if not words:
        return None
    out = []
    for w in words:
        out.append(w if isinstance(w, dict) else asdict(w) if hasattr(w, "__dataclass_fields__") else dict(w))
    return out


def save_transcript(
    store: Store, call_id: int, segments: Iterable, *, origin: TranscriptOrigin | str,
    model: str | None = None, language: str | None = None, source_file: str | None = None, suggest: bool = True,
) -> TranscriptRow:
    """Store a complete transcript as the call's current one (previous versions stay, not current).

    `suggest=False`: the caller runs the suggestion pass itself once it has set the speakers' roles.
    """
    rows = list(segments)
    with store.write() as session:
        if session.get(Call, call_id) is None:
            raise NotFound(f"call {call_id}: no such call in this library")
        tid = write_transcript(session, call_id, rows, origin=origin, model=model, language=language,
                               source_file=source_file)
    if suggest:
        suggestions_changed(store, call_id)
    return current_transcript(store, call_id, transcript_id=tid)


def suggestions_changed(store: Store, call_id: int) -> None:
    """The transcript or its roles changed: the moment finder runs again (it skips what is unchanged)."""
    from desktop.services.suggestions import after_transcript_change

    after_transcript_change(store, call_id)


def write_transcript(session: Session, call_id: int, rows: list, *, origin: TranscriptOrigin | str,
                     model: str | None = None, language: str | None = None, source_file: str | None = None) -> int:
    """Inside the caller's transaction (a folder import adds the call and its transcript together)."""
    session.execute(update(Transcript).where(Transcript.call_id == call_id).values(is_current=False))
    transcript = Transcript(call_id=call_id, origin=TranscriptOrigin(origin), model=model, language=language,
                            source_file=source_file, is_current=True)
    session.add(transcript)
    session.flush()
    session.add_all(
        Segment(transcript_id=transcript.id, start_ms=int(s.start_ms), end_ms=int(s.end_ms),
                speaker=s.speaker, text=s.text, words=_words(getattr(s, "words", None)))
        for s in rows
    )
    for label in sorted({s.speaker for s in rows if s.speaker}):
        _speaker(session, call_id, label)
    return transcript.id


def _speaker(session: Session, call_id: int, label: str) -> Speaker:
    found = session.scalar(select(Speaker).where(Speaker.call_id == call_id, Speaker.label == label))
    if found is None:
        found = Speaker(call_id=call_id, label=label, name=label)
        session.add(found)
        session.flush()
    return found


def speaker_names(session: Session, call_id: int) -> dict[str, str]:
    """Transcript label -> the name the coach gave that voice."""
    return dict(session.execute(select(Speaker.label, Speaker.name).where(Speaker.call_id == call_id)).all())


def versions(store: Store, call_id: int) -> list[tuple[int, str, bool]]:
    with store.read() as session:
        return [(t.id, t.origin.value, t.is_current) for t in session.scalars(
            select(Transcript).where(Transcript.call_id == call_id).order_by(Transcript.id))]


def _editable(session: Session, call_id: int) -> Transcript:
    """The current transcript if it is already an edit; else a new `edited` copy of it."""
    current = session.scalar(select(Transcript).where(Transcript.call_id == call_id,
                                                      Transcript.is_current.is_(True)))
    if current is None:
        raise CallmarkError(f"call {call_id}: has no transcript to edit")
    if current.origin is TranscriptOrigin.EDITED:
        return current
    copy = Transcript(call_id=call_id, origin=TranscriptOrigin.EDITED, model=current.model,
                      language=current.language, based_on_id=current.id, is_current=True)
    current.is_current = False
    session.add(copy)
    session.flush()
    for seg in current.segments:
        session.add(Segment(transcript_id=copy.id, start_ms=seg.start_ms, end_ms=seg.end_ms,
                            speaker=seg.speaker, text=seg.text, words=seg.words))
    session.flush()
    return copy


def _line(session: Session, transcript: Transcript, call_id: int, start_ms: int) -> Segment:
    """The transcript's line that starts at ``start_ms`` (lines are found by start, stable across versions)."""
    seg = session.scalar(select(Segment).where(Segment.transcript_id == transcript.id,
                                               Segment.start_ms == start_ms).limit(1))
    if seg is None:
        raise NotFound(f"call {call_id}: no transcript line starts at {start_ms} ms")
    return seg


def edit_segment(store: Store, call_id: int, start_ms: int, *, text: str | None = None,
                 speaker: str | None = None) -> TranscriptRow:
    """Fix one line's text or speaker (the line is found by its start time, stable across versions)."""
    with store.write() as session:
        seg = _line(session, _editable(session, call_id), call_id, start_ms)
        if text is not None:
            seg.text = text
            if seg.words:
                seg.words = None  # word times no longer match the corrected text
        if speaker is not None:
            seg.speaker = speaker
            _speaker(session, call_id, speaker)
    suggestions_changed(store, call_id)
    return current_transcript(store, call_id)


def edit_line(store: Store, call_id: int, start_ms: int, *, text: str | None = None,
              speaker: str | None = None) -> Change:
    """Fix one line (``edit_segment``) as a coach edit; undo puts back its words, speaker and word times."""
    with store.read() as session:
        seg = _line(session, _editable(session, call_id), call_id, start_ms)
        before = (seg.text, seg.speaker, seg.words)
    edit_segment(store, call_id, start_ms, text=text, speaker=speaker)
    return _line_change(call_id, start_ms, before)


def _line_change(call_id: int, start_ms: int, before: tuple) -> Change:
    return change("Edit line", TRANSCRIPT, MOMENTS, call_id=call_id,
                  undo=lambda s: _put_line(s, call_id, start_ms, before))


def _put_line(store: Store, call_id: int, start_ms: int, values: tuple) -> Change:
    text, speaker, words = values
    with store.write() as session:
        seg = _line(session, _editable(session, call_id), call_id, start_ms)
        now = (seg.text, seg.speaker, seg.words)
        seg.text, seg.speaker, seg.words = text, speaker, words
        if speaker is not None:
            _speaker(session, call_id, speaker)
    suggestions_changed(store, call_id)
    return _line_change(call_id, start_ms, now)


def restore_version(store: Store, call_id: int, transcript_id: int) -> None:
    """Make an earlier version (e.g. the original Whisper output) current again."""
    with store.write() as session:
        target = session.get(Transcript, transcript_id)
        if target is None or target.call_id != call_id:
            raise NotFound(f"call {call_id}: no transcript version {transcript_id}")
        session.execute(update(Transcript).where(Transcript.call_id == call_id).values(is_current=False))
        target.is_current = True
    suggestions_changed(store, call_id)


def rename_speaker(store: Store, call_id: int, label: str, name: str, role: Role | str | None = None) -> None:
    """Name a voice once for the whole call."""
    with store.write() as session:
        found = session.scalar(select(Speaker).where(Speaker.call_id == call_id,
                                                     (Speaker.label == label) | (Speaker.name == label)))
        if found is None:
            raise NotFound(f"call {call_id}: no speaker {label!r}")
        found.name = name.strip() or found.label
        if role is not None:
            found.role = Role(role)
    suggestions_changed(store, call_id)


def set_rep_speaker(store: Store, call_id: int, label: str) -> None:
    """Mark which voice is the rep (the others keep their roles)."""
    with store.write() as session:
        for spk in session.scalars(select(Speaker).where(Speaker.call_id == call_id)):
            if spk.label == label or spk.name == label:
                spk.role = Role.REP
            elif spk.role is Role.REP:
                spk.role = None
    suggestions_changed(store, call_id)


def speakers(store: Store, call_id: int) -> list[dict]:
    with store.read() as session:
        return [{"label": s.label, "name": s.name, "role": s.role.value if s.role else None,
                 "channel": s.channel}
                for s in session.scalars(select(Speaker).where(Speaker.call_id == call_id))]


