"""Transcripts in the store: save a whole version at once, read the current one, edit, rename speakers.

A transcript is saved in one transaction once it is complete (a cancelled
transcription leaves nothing). Editing never overwrites: the first edit copies
the current version into a new `edited` version, so the original stays.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field

from sqlalchemy import Text, cast, select, update
from sqlalchemy.orm import Session

from db.models import Call, Segment, Speaker, Transcript
from db.store import Store
from desktop.core.enums import Role, TranscriptOrigin
from desktop.errors import CallmarkError, NotFound


@dataclass(slots=True)  # thousands per call: slots make them cheaper to build and hold
class SegmentRow:
    start_ms: int
    end_ms: int
    speaker: str | None
    text: str
    words: list | None = None
    id: int | None = None

    def to_record(self) -> dict:
        out = {"start_ms": self.start_ms, "end_ms": self.end_ms, "speaker": self.speaker, "text": self.text}
        if self.words:
            out["words"] = self.words
        return out


@dataclass
class TranscriptRow:
    id: int
    call_id: int
    origin: str
    model: str | None
    language: str | None
    segments: list[SegmentRow] = field(default_factory=list)

    def to_json(self) -> dict:
        out = asdict(self)
        out["segments"] = [s.to_record() for s in self.segments]
        return out


def _words(words) -> list | None:
    if not words:
        return None
    out = []
    for w in words:
        out.append(w if isinstance(w, dict) else asdict(w) if hasattr(w, "__dataclass_fields__") else dict(w))
    return out


def save_transcript(
    store: Store, call_id: int, segments: Iterable, *, origin: TranscriptOrigin | str,
    model: str | None = None, language: str | None = None, source_file: str | None = None,
) -> TranscriptRow:
    """Store a complete transcript as the call's current one (previous versions stay, not current)."""
    rows = list(segments)
    origin = TranscriptOrigin(origin)
    with store.write() as session:
        if session.get(Call, call_id) is None:
            raise NotFound(f"call {call_id}: no such call in this library")
        session.execute(update(Transcript).where(Transcript.call_id == call_id).values(is_current=False))
        transcript = Transcript(call_id=call_id, origin=origin, model=model, language=language,
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
        tid = transcript.id
    return current_transcript(store, call_id, transcript_id=tid)


def _speaker(session: Session, call_id: int, label: str) -> Speaker:
    found = session.scalar(select(Speaker).where(Speaker.call_id == call_id, Speaker.label == label))
    if found is None:
        found = Speaker(call_id=call_id, label=label, name=label)
        session.add(found)
        session.flush()
    return found


def current_transcript(store: Store, call_id: int, transcript_id: int | None = None) -> TranscriptRow | None:
    with store.read() as session:
        query = select(Transcript.id, Transcript.origin, Transcript.model, Transcript.language).where(
            Transcript.call_id == call_id)
        query = query.where(Transcript.id == transcript_id) if transcript_id else query.where(
            Transcript.is_current.is_(True))
        transcript = session.execute(query.order_by(Transcript.id.desc()).limit(1)).first()
        if transcript is None:
            return None
        names = speaker_names(session, call_id)
        # One plain query, words as raw JSON text: decoding every row through the JSON type costs
        # more than the rest of opening a long call, and most lines have no word timings.
        segs = session.execute(
            select(Segment.id, Segment.start_ms, Segment.end_ms, Segment.speaker, Segment.text,
                   cast(Segment.words, Text))
            .where(Segment.transcript_id == transcript.id).order_by(Segment.start_ms, Segment.id)
        ).all()
        get = names.get
        return TranscriptRow(
            transcript.id, call_id, transcript.origin.value, transcript.model, transcript.language,
            [SegmentRow(start, end, get(spk, spk), text, _decode_words(words), sid)
             for sid, start, end, spk, text, words in segs],
        )


def current_transcript_id(store: Store, call_id: int) -> int | None:
    """The id of the call's current transcript version (cheap: tells whether a kept copy is stale)."""
    with store.read() as session:
        return session.scalar(select(Transcript.id).where(Transcript.call_id == call_id,
                                                          Transcript.is_current.is_(True))
                              .order_by(Transcript.id.desc()).limit(1))


def _decode_words(raw: str | None) -> list | None:
    if raw is None or raw == "null":
        return None
    return json.loads(raw)


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


def edit_segment(store: Store, call_id: int, start_ms: int, *, text: str | None = None,
                 speaker: str | None = None) -> TranscriptRow:
    """Fix one line's text or speaker (the line is found by its start time, stable across versions)."""
    with store.write() as session:
        transcript = _editable(session, call_id)
        seg = session.scalar(select(Segment).where(Segment.transcript_id == transcript.id,
                                                   Segment.start_ms == start_ms).limit(1))
        if seg is None:
            raise NotFound(f"call {call_id}: no transcript line starts at {start_ms} ms")
        if text is not None:
            seg.text = text
            if seg.words:
                seg.words = None  # word times no longer match the corrected text
        if speaker is not None:
            seg.speaker = speaker
            _speaker(session, call_id, speaker)
    return current_transcript(store, call_id)


def restore_version(store: Store, call_id: int, transcript_id: int) -> None:
    """Make an earlier version (e.g. the original Whisper output) current again."""
    with store.write() as session:
        target = session.get(Transcript, transcript_id)
        if target is None or target.call_id != call_id:
            raise NotFound(f"call {call_id}: no transcript version {transcript_id}")
        session.execute(update(Transcript).where(Transcript.call_id == call_id).values(is_current=False))
        target.is_current = True


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


def set_rep_speaker(store: Store, call_id: int, label: str) -> None:
    """Mark which voice is the rep (the others keep their roles)."""
    with store.write() as session:
        for spk in session.scalars(select(Speaker).where(Speaker.call_id == call_id)):
            if spk.label == label or spk.name == label:
                spk.role = Role.REP
            elif spk.role is Role.REP:
                spk.role = None


def speakers(store: Store, call_id: int) -> list[dict]:
    with store.read() as session:
        return [{"label": s.label, "name": s.name, "role": s.role.value if s.role else None,
                 "channel": s.channel}
                for s in session.scalars(select(Speaker).where(Speaker.call_id == call_id))]


def text_under(segments: list[SegmentRow], start_ms: int, end_ms: int) -> tuple[str, str | None]:
    """The transcript's words under a span, and the speaker who says most of them.

    Uses word times where the transcript has them; otherwise whole lines that overlap.
    """
    if not segments:
        return "", None
    end_ms = max(end_ms, start_ms + 1)
    pieces: list[str] = []
    weight: dict[str | None, int] = {}
    for seg in _overlapping(segments, start_ms, end_ms):
        overlap = min(seg.end_ms, end_ms) - max(seg.start_ms, start_ms)
        weight[seg.speaker] = weight.get(seg.speaker, 0) + max(overlap, 1)
        words = seg.words or []
        chosen = [w for w in words if w.get("end_ms", 0) > start_ms and w.get("start_ms", 0) < end_ms]
        if chosen:
            pieces.append(" ".join(str(w.get("text", "")).strip() for w in chosen))
        else:
            pieces.append(seg.text.strip())
    speaker = max(weight, key=weight.get) if weight else None
    return " ".join(p for p in pieces if p).strip(), speaker


def _overlapping(segments: list[SegmentRow], start_ms: int, end_ms: int) -> list[SegmentRow]:
    import bisect

    starts = [s.start_ms for s in segments]
    i = max(bisect.bisect_right(starts, start_ms) - 1, 0)
    out = []
    while i < len(segments) and segments[i].start_ms < end_ms:
        if segments[i].end_ms > start_ms:
            out.append(segments[i])
        i += 1
    return out
