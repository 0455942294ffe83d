"""Calls in the library: add a recording (probe, hash, reference), list, find."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from sqlalchemy import select

from db.models import Call, Person
from db.store import Store
from desktop.core.enums import CallSource, Role
from desktop.errors import CallmarkError, NotFound
from desktop.services.changes import CALLS, ITEMS, Change, change
from desktop.services.lookup import one
from desktop.services.people import person
from desktop.services.rows import CallRow, get_call, list_calls  # noqa: F401 - read with plain sqlite3


def parse_recorded_at(text: str | None) -> datetime | None:
    """ISO 8601 date or instant; stored as naive UTC."""
    if not text:
        return None
    try:
        value = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError as exc:
        raise CallmarkError(f"--recorded-at {text!r}: not an ISO 8601 date or time (e.g. 2026-11-20T15:00)") from exc
    if value.tzinfo is not None:
        value = value.astimezone(timezone.utc).replace(tzinfo=None)
    return value


@dataclass(frozen=True)
class InspectedMedia:
    path: Path
    info: object  # desktop.media.probe.MediaInfo
    sha256: str


def inspect_media(path: str | Path) -> InspectedMedia:
    """Probe and hash a recording without touching the store (bad files fail here, before any write)."""
    from desktop.media.hashing import sha256_file
    from desktop.media.probe import probe

    media = Path(path).expanduser()
    info = probe(media)  # raises MediaError naming the file and the problem
    return InspectedMedia(media, info, sha256_file(media))


def add_call(
    store: Store,
    path: str | Path,
    *,
    inspected: InspectedMedia | None = None,
    title: str | None = None,
    rep: str | None = None,
    manager: str | None = None,
    recorded_at: str | datetime | None = None,
    source: str | CallSource | None = None,
) -> tuple[CallRow, bool]:
    """Add a recording to the library. Returns (call, created); the same file twice is the same call.

    The media stays where it is: the store keeps its path and SHA-256.
    """
    inspected = inspected or inspect_media(path)
    media, info, digest = inspected.path, inspected.info, inspected.sha256
    when = parse_recorded_at(recorded_at) if isinstance(recorded_at, str) or recorded_at is None else recorded_at
    kind = CallSource(source) if source else None
    from desktop.services.this_machine import machine_of

    machine = machine_of(store)
    found_here = False
    with store.write() as session:
        existing = session.scalar(select(Call).where(Call.media_sha256 == digest))
        if existing is not None:
            if not existing.media_path:  # a call known by hash only: this is where its recording is
                existing.media_path = str(media.resolve())
                existing.media_filename = media.name
                existing.media_machine = machine.name
            elif not Path(existing.media_path).exists():
                found_here = True  # where it was added stays; this machine remembers where it is here
            call_id, created = existing.id, False
        else:
            call = Call(
                title=(title or _title_from(media)).strip(),
                media_path=str(media.resolve()),
                media_filename=media.name,
                media_sha256=digest,
                media_machine=machine.name,
                duration_ms=info.duration_ms,
                has_video=info.has_video,
                channels=info.channels,
                recorded_at=when,
                source=kind,
                rep=person(session, rep, Role.REP),
                manager=person(session, manager, Role.MANAGER),
            )
            session.add(call)
            session.flush()
            call_id, created = call.id, True
    if found_here:
        machine.remember(digest, media)
    return get_call(store, call_id), created


def _title_from(media: Path) -> str:
    return media.stem.replace("_", " ").replace("-", " ").strip().title() or media.name


def resolve_call(store: Store, ref: str | int) -> CallRow:
    """A call by id, or by exact title, or by the media file's path."""
    text = str(ref).strip()
    if text.isdigit():
        return get_call(store, int(text))
    with store.read() as session:
        by_title = session.scalars(select(Call.id).where(Call.title == text)).all()
        if len(by_title) == 1:
            return get_call(store, by_title[0])
        if len(by_title) > 1:
            raise CallmarkError(f"call {text!r}: {len(by_title)} calls have this title; use the call id")
        candidate = Path(text).expanduser()
        if candidate.exists():
            where = str(candidate.resolve())
            found = session.scalar(select(Call.id).where(Call.media_path == where))
            if found is None:  # where this machine found a recording added elsewhere
                from desktop.services.this_machine import machine_of

                sha = {p: s for s, p in machine_of(store).recordings().items()}.get(where)
                found = session.scalar(select(Call.id).where(Call.media_sha256 == sha)) if sha else None
            if found is not None:
                return get_call(store, found)
    raise NotFound(f"call {text!r}: no such call in this library (use the id from `callmark calls list`)")


# --- the call's details, as a coach edit (desktop.services.changes) --------------------------------

DETAILS = ("title", "rep", "manager", "recorded_at", "source")


def edit(store: Store, call_id: int, **fields) -> Change:
    """Change a call's title, rep, manager, recorded date or source; undo puts the old ones back.

    ``rep`` and ``manager`` are names (blank: nobody); ``recorded_at`` ISO text (blank: unknown);
    ``source`` a CallSource value (blank: unknown)."""
    unknown = set(fields) - set(DETAILS)
    if unknown:
        raise CallmarkError(f"call {call_id}: {', '.join(sorted(unknown))} cannot be edited")
    before = get_call(store, call_id)
    old = {k: getattr(before, k) for k in fields}
    when = parse_recorded_at(fields["recorded_at"] or None) if "recorded_at" in fields else None
    kind = None
    if fields.get("source"):
        try:
            kind = CallSource(fields["source"])
        except ValueError as exc:
            raise CallmarkError(f"source {fields['source']!r}: not one of "
                                f"{', '.join(s.value for s in CallSource)}") from exc
    if "title" in fields and not (fields["title"] or "").strip():
        raise CallmarkError(f"call {call_id}: a call needs a title")
    with store.write() as session:
        call = one(session, Call, call_id)
        if "title" in fields:
            call.title = fields["title"].strip()
        if "rep" in fields:
            call.rep = person(session, fields["rep"], Role.REP)
        if "manager" in fields:
            call.manager = person(session, fields["manager"], Role.MANAGER)
        if "recorded_at" in fields:
            call.recorded_at = when
        if "source" in fields:
            call.source = kind
    row = get_call(store, call_id)
    return change("Edit call details", CALLS, ITEMS, call_id=call_id, ids=[call_id], row=row,
                  undo=lambda s: edit(s, call_id, **old))


def known_people(store: Store, role: Role | str) -> list[str]:
    """Names already used for this role (reps or managers), for completion."""
    with store.read() as session:
        return list(session.scalars(select(Person.name).where(Person.role == Role(role)).order_by(Person.name)))
