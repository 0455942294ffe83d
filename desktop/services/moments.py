"""Moments: marked, edited, deleted and restored, each change written at once.

A moment takes its quote and speaker from the transcript under it, whether it
was marked in the GUI or added from the command line.
"""

from __future__ import annotations

from db.models import Call, Moment
from db.store import Store
from desktop.core.enums import MomentKind
from desktop.core.timefmt import format_ms
from desktop.errors import CallmarkError
from desktop.services import transcripts
from desktop.services.changes import ITEMS, MOMENTS, Change, change
from desktop.services.lookup import one
from desktop.services.people import local_coach_person
# Moments are read one way, with plain sqlite3 (the workspace's path): a write reads its row back after it.
from desktop.services.rows import DEFAULT_SPAN_MS, MomentRow, get_moment, get_moments, list_moments  # noqa: F401


def _check_span(call: Call, start_ms: int, end_ms: int) -> None:
    if start_ms < 0 or end_ms < start_ms:
        raise CallmarkError(f"moment {start_ms}–{end_ms} ms: the end must not come before the start")
    if call.duration_ms and start_ms > call.duration_ms:
        raise CallmarkError(
            f"moment at {start_ms} ms: past the end of call {call.id} ({call.duration_ms} ms)")


def add_moment(
    store: Store, call_id: int, start_ms: int, end_ms: int | None = None, *,
    kind: MomentKind | str = MomentKind.OTHER, note: str | None = None, quote: str | None = None,
    speaker: str | None = None,
) -> MomentRow:
    """Mark a moment. Without an end it spans DEFAULT_SPAN_MS (clipped to the recording)."""
    start_ms = int(start_ms)
    with store.read() as session:
        call = one(session, Call, call_id)
        duration = call.duration_ms
    if end_ms is None:
        end_ms = start_ms + DEFAULT_SPAN_MS
        if duration:
            end_ms = min(end_ms, duration)
    end_ms = int(end_ms)
    if quote is None or speaker is None:
        current = transcripts.current_transcript(store, call_id)
        found_quote, found_speaker = transcripts.text_under(current.segments if current else [], start_ms, end_ms)
        quote = found_quote if quote is None else quote
        speaker = found_speaker if speaker is None else speaker
    with store.write() as session:
        moment_id = new_moment(session, call_id, start_ms, end_ms, kind=kind, note=note, quote=quote,
                               speaker=speaker).id
    return get_moment(store, moment_id)


def new_moment(session, call_id: int, start_ms: int, end_ms: int, *, kind: MomentKind | str, note: str | None,
               quote: str | None, speaker: str | None) -> Moment:
    """Write one moment inside the caller's transaction (with what else must land with it)."""
    call = one(session, Call, call_id)
    _check_span(call, start_ms, end_ms)
    moment = Moment(call_id=call_id, start_ms=start_ms, end_ms=end_ms, kind=MomentKind(kind),
                    speaker=speaker, quote=quote or "", note=note, coach=local_coach_person(session))
    session.add(moment)
    session.flush()
    return moment


EDITABLE = {"start_ms", "end_ms", "kind", "speaker", "quote", "note"}


def update_moment(store: Store, moment_id: int, **changes) -> MomentRow:
    unknown = set(changes) - EDITABLE
    if unknown:
        raise ValueError(f"not editable on a moment: {', '.join(sorted(unknown))}")
    with store.write() as session:
        moment = one(session, Moment, moment_id)
        start = int(changes.get("start_ms", moment.start_ms))
        end = int(changes.get("end_ms", moment.end_ms))
        _check_span(moment.call, start, end)
        for key, value in changes.items():
            setattr(moment, key, MomentKind(value) if key == "kind" else value)
    return get_moment(store, moment_id)


def requote(store: Store, moment_id: int) -> MomentRow:
    """Refill quote and speaker from the transcript after the span moved."""
    row = get_moment(store, moment_id)
    current = transcripts.current_transcript(store, row.call_id)
    quote, speaker = transcripts.text_under(current.segments if current else [], row.start_ms, row.end_ms)
    return update_moment(store, moment_id, quote=quote, speaker=speaker)


def delete_moment(store: Store, moment_id: int) -> dict:
    """Delete and return everything needed to restore it exactly (for undo)."""
    with store.write() as session:
        moment = one(session, Moment, moment_id)
        saved = {c.key: getattr(moment, c.key) for c in Moment.__table__.columns}
        session.delete(moment)
        return saved


def restore_moment(store: Store, saved: dict) -> MomentRow:
    """Put back a deleted moment with its id, uid and links (undo of delete)."""
    with store.write() as session:
        session.add(Moment(**saved))
    return get_moment(store, saved["id"])


# --- operations: what the coach does, each returning its Change and undo (desktop.services.changes) ---

_LABELS = {"kind": "Change kind", "note": "Edit note", "start_ms": "Move moment", "end_ms": "Set the end"}


def mark(store: Store, call_id: int, start_ms: int, end_ms: int | None = None, **fields) -> Change:
    """Mark a moment (``add_moment``); undo deletes it."""
    return _added(add_moment(store, call_id, start_ms, end_ms, **fields), f"Mark at {format_ms(int(start_ms))}")


def _added(row: MomentRow, label: str) -> Change:
    return change(label, MOMENTS, ITEMS, call_id=row.call_id, ids=[row.id], row=row,
                  undo=lambda s: remove(s, row.id))


def edit(store: Store, moment_id: int, **fields) -> Change:
    """Change fields of a moment (``update_moment``); undo puts the old values back."""
    before = get_moment(store, moment_id)
    old = {k: getattr(before, k) for k in fields}
    row = update_moment(store, moment_id, **fields)
    label = next((_LABELS[k] for k in ("start_ms", "kind", "note", "end_ms") if k in fields), "Edit moment")
    return change(label, MOMENTS, call_id=row.call_id, ids=[row.id], row=row,
                  undo=lambda s: edit(s, moment_id, **old))


def remove(store: Store, moment_id: int) -> Change:
    """Delete a moment (``delete_moment``); undo brings it back with its id and links."""
    before = get_moment(store, moment_id)
    saved = delete_moment(store, moment_id)
    return change(f"Delete moment at {format_ms(before.start_ms)}", MOMENTS, ITEMS, call_id=before.call_id,
                  ids=[moment_id], undo=lambda s: _added(restore_moment(s, saved), "Restore moment"))
