"""Suggestions: the moment finder run over a call's transcript, cached, and the coach's verdicts.

The pass reads the call's current transcript and its speakers' roles, and keeps its findings
and figures under a fingerprint of what it read (lines, roles, phrase lists, rules): asking
again with nothing changed reads the cache and runs nothing. Transcripts call
`after_transcript_change` when they are made, imported, edited, restored or their roles change.

A suggestion is never a moment until the coach accepts it (`accept`, desktop.services.verdicts);
dismissing records the verdict. Both return what changed and how to undo it.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from db.store import Store
from desktop.core.detect import (
    CUSTOMER,
    LABELS,
    REP,
    RULES_VERSION,
    UNKNOWN,
    Figures,
    Finding,
    Line,
    PhraseBook,
    conversation_figures,
    default_weights,
    detect,
    load_phrase_book,
)
from desktop.errors import CallmarkError, NotFound
from desktop.services.changes import MOMENTS, SUGGESTIONS, Change, change

log = logging.getLogger(__name__)

COACH_PHRASES = "detect"  # <data folder>/detect/*.json: the coach's own phrases, added to the shipped lists


# --- who is who ---------------------------------------------------------------------------------------


def call_roles(store: Store, call_id: int) -> dict[str | None, str]:
    """Each speaker's name in the transcript -> rep, customer or unknown.

    In order: the role stored on the speaker (`callmark transcript set-rep`, or the channel a
    stereo dialer recording gave it), the stereo channel (left = rep), then the call's rep by
    name (a Zoom or Teams VTT keeps the names). Once the rep is known, every other voice is the
    customer's side. Nothing known: every voice is unknown, and nothing is guessed.
    """
    con = store.reader()
    if con.execute('SELECT 1 FROM "call" WHERE id = ?', (int(call_id),)).fetchone() is None:
        raise NotFound(f"call {call_id}: no such call in this library")
    speakers = con.execute("SELECT label, name, role, channel FROM speaker WHERE call_id = ? ORDER BY id",
                           (int(call_id),)).fetchall()
    rep_row = con.execute('SELECT p.name FROM "call" c JOIN person p ON p.id = c.rep_id WHERE c.id = ?',
                          (int(call_id),)).fetchone()
    rep_name = (rep_row[0] or "").strip().casefold() if rep_row else ""
    roles: dict[str, str | None] = {}
    other: set[str] = set()  # a coach, a manager: not the customer's side
    for _label, name, role, channel in speakers:
        if role in (REP, CUSTOMER):
            roles[name] = role
        elif role is not None:
            roles[name] = None
            other.add(name)
        elif channel is not None:
            roles[name] = REP if channel == 0 else CUSTOMER
        else:
            roles[name] = None
    if REP not in roles.values() and rep_name:
        named = [n for n in roles if roles[n] is None and n not in other and n.strip().casefold() == rep_name]
        if not named:  # "Riley" in the VTT for the call's rep "Riley Rep"
            first = rep_name.split()[0]
            named = [n for n in roles if roles[n] is None and n not in other and n.strip()
                     and n.split()[0].casefold() == first]
        if len(named) == 1:
            roles[named[0]] = REP
    if REP in roles.values():
        for name in roles:
            if roles[name] is None and name not in other:
                roles[name] = CUSTOMER
    return {name: role or UNKNOWN for name, role in roles.items()}


# --- the phrase lists -------------------------------------------------------------------------------------

_BOOKS: dict[tuple, PhraseBook] = {}


def phrase_book(store: Store) -> PhraseBook:
    """The shipped lists plus the coach's own (<data folder>/detect/*.json), re-read when a file changes."""
    folder = Path(store.path).parent / COACH_PHRASES
    files = tuple(sorted((str(p), p.stat().st_mtime_ns) for p in folder.glob("*.json"))) if folder.is_dir() else ()
    book = _BOOKS.get(files)
    if book is None:
        book = load_phrase_book([folder])
        _BOOKS.clear()
        _BOOKS[files] = book
    return book


# --- the pass -----------------------------------------------------------------------------------------------


@dataclass
class CallSuggestions:
    """What the pass found on a call's current transcript."""

    call_id: int
    transcript_id: int | None
    fingerprint: str
    findings: list[Finding]
    figures: Figures
    ran: bool  # False: the transcript had not changed and the cache answered


def _lines(store: Store, call_id: int) -> tuple[int | None, list[Line]]:
    """The current transcript's lines as rows.current_transcript gives them, reading only what the
    finder reads: no segment ids, no word timings, no row objects to turn into lines afterwards."""
    con = store.reader()
    head = con.execute('SELECT id FROM "transcript" WHERE call_id = ? AND is_current = TRUE '
                       "ORDER BY id DESC LIMIT 1", (int(call_id),)).fetchone()
    if head is None:
        return None, []
    get = dict(con.execute("SELECT label, name FROM speaker WHERE call_id = ?", (int(call_id),))).get
    rows = con.execute("SELECT start_ms, end_ms, speaker, text FROM segment WHERE transcript_id = ? "
                       "ORDER BY start_ms, id", (head[0],)).fetchall()
    return head[0], [Line(start, end, get(spk, spk), text) for start, end, spk, text in rows]


def fingerprint(lines: list[Line], roles: dict, book: PhraseBook) -> str:
    # One string hashed once: the same digest as feeding the pieces one by one, without a call per line.
    parts = [f"rules {RULES_VERSION}\x1ephrases {book.fingerprint()}\x1eweights {default_weights().source}\x1e"]
    parts += [f"{name}\x1f{roles[name]}\x1e" for name in sorted(roles, key=str)]
    parts += [f"{ln.start_ms}\x1f{ln.end_ms}\x1f{ln.speaker}\x1f{ln.text}\x1e" for ln in lines]
    return hashlib.sha256("".join(parts).encode()).hexdigest()


def _cached(store: Store, call_id: int) -> tuple | None:
    import json

    row = store.reader().execute("SELECT fingerprint, transcript_id, findings, figures FROM suggestion_cache "
                                 "WHERE call_id = ?", (int(call_id),)).fetchone()
    if row is None:
        return None
    return row[0], row[1], json.loads(row[2]), json.loads(row[3])


def refresh(store: Store, call_id: int) -> CallSuggestions:
    """Run the pass on the call's current transcript unless the cache already holds its findings."""
    result = compute(store, call_id)
    if result.ran:
        save_cache(store, result.call_id, result.transcript_id, result.fingerprint, *cache_json(result))
    return result


def compute(store: Store, call_id: int) -> CallSuggestions:
    """The pass's answer for the call (from the cache when nothing changed), without writing anything."""
    transcript_id, lines = _lines(store, call_id)
    roles = call_roles(store, call_id)
    book = phrase_book(store)
    print_ = fingerprint(lines, roles, book)
    cached = _cached(store, call_id)
    if cached is not None and cached[0] == print_:
        _, tid, found, figs = cached
        return CallSuggestions(call_id, tid, print_, [Finding(**f) for f in found],
                               Figures(figs["values"], figs.get("reasons", {})), ran=False)
    findings = detect(lines, roles, book)
    figures = conversation_figures(lines, roles, findings)
    return CallSuggestions(call_id, transcript_id, print_, findings, figures, ran=True)


def cache_json(result: CallSuggestions) -> tuple[str, str]:
    """The findings and figures as the cache keeps them."""
    import json

    return (json.dumps([f.to_json() for f in result.findings], ensure_ascii=False),
            json.dumps({"values": result.figures.values, "reasons": result.figures.reasons}, ensure_ascii=False))


def save_cache(store: Store, call_id: int, transcript_id: int | None, print_: str, findings_json: str,
               figures_json: str) -> None:
    save_caches(store, [(call_id, transcript_id, print_, findings_json, figures_json)])


def save_caches(store: Store, rows: list[tuple]) -> None:
    """(call_id, transcript_id, fingerprint, findings JSON, figures JSON) for each call, in one transaction."""
    from sqlalchemy import text

    from db.base import utcnow

    at = utcnow()
    # One statement with the JSON written here: the ORM's JSON type copies every finding to track changes.
    with store.write() as session:
        session.execute(text(
            "INSERT INTO suggestion_cache (call_id, transcript_id, fingerprint, findings, figures, computed_at) "
            "VALUES (:call, :transcript, :print, :findings, :figures, :at) ON CONFLICT (call_id) DO UPDATE SET "
            "transcript_id = excluded.transcript_id, fingerprint = excluded.fingerprint, "
            "findings = excluded.findings, figures = excluded.figures, computed_at = excluded.computed_at"),
            [{"call": call_id, "transcript": transcript_id, "print": print_, "findings": findings,
              "figures": figures, "at": at} for call_id, transcript_id, print_, findings, figures in rows])


def after_transcript_change(store: Store, call_id: int) -> CallSuggestions | None:
    """The one hook the transcript services call. The transcript is already saved: a pass that
    fails (a coach's phrase file with a typo) is logged and leaves the old suggestions. The call's
    tracker counts follow (desktop.services.trackers), for this call only."""
    from desktop.services.trackers import after_transcript_change as count_trackers

    result = None
    try:
        result = refresh(store, call_id)
    except CallmarkError as exc:
        log.warning("call %s: suggestions not refreshed: %s", call_id, exc)
    except Exception as exc:  # noqa: BLE001 - never lose the save the coach just made over this
        log.warning("call %s: suggestions not refreshed (%s)", call_id, type(exc).__name__)
    count_trackers(store, call_id)
    return result


@dataclass(frozen=True)
class LibraryProgress:
    done: int
    total: int
    call_id: int
    ran: bool  # False: unchanged, skipped
    found: int


def refresh_library(store: Store, child_from: int | None = None) -> Iterator[LibraryProgress]:
    """The pass over every call with a transcript, one call at a time, yielding progress.

    A long pass reads in a child process (desktop.services.library_pass), so the window's process
    only writes the results; a short one is not worth the child's start-up and runs here.
    """
    from desktop.services.library_pass import CHILD_FROM, refresh_in_child

    ids = [r[0] for r in store.reader().execute(
        'SELECT DISTINCT call_id FROM "transcript" WHERE is_current ORDER BY call_id')]
    # A team store's connection is the server's, not a file a child could open: read here.
    if store.dialect == "sqlite" and len(ids) >= (CHILD_FROM if child_from is None else child_from):
        yield from refresh_in_child(store, ids)
        return
    for done, call_id in enumerate(ids, start=1):
        result = refresh(store, call_id)
        yield LibraryProgress(done, len(ids), call_id, result.ran, len(result.findings))


# --- reading suggestions with their verdicts -----------------------------------------------------------------


@dataclass(frozen=True)
class Suggestion:
    finding: Finding
    verdict: str | None  # accepted, dismissed, or None: still open
    moment_id: int | None

    def to_json(self) -> dict:
        return self.finding.to_json()


def check_labels(labels: Iterable[str] | None) -> list[str] | None:
    if labels is None:
        return None
    wanted = list(labels)
    unknown = [lab for lab in wanted if lab not in LABELS]
    if unknown:
        raise CallmarkError(f"--label {unknown[0]!r}: not a label; choose from {', '.join(LABELS)}")
    return wanted


def suggestions(store: Store, call_id: int, labels: Iterable[str] | None = None) -> list[Suggestion]:
    """The call's findings in time order, each with the coach's verdict if there is one."""
    wanted = check_labels(labels)
    result = refresh(store, call_id)
    verdicts = {fid: (verdict, moment) for fid, verdict, moment in store.reader().execute(
        "SELECT finding_id, verdict, moment_id FROM suggestion_verdict WHERE call_id = ?", (int(call_id),))}
    out = []
    for f in result.findings:
        if wanted is not None and f.label not in wanted:
            continue
        verdict, moment = verdicts.get(f.id, (None, None))
        out.append(Suggestion(f, verdict, moment))
    return out


def why_none(store: Store, call_id: int) -> str | None:
    """Why a call has no suggestions, when it is not simply a call without any: no transcript, or no roles."""
    from desktop.services.rows import current_transcript_id

    if current_transcript_id(store, call_id) is None:
        return "has no transcript yet: they are read from it once it is made or imported"
    roles = call_roles(store, call_id)
    if not any(role in (REP, CUSTOMER) for role in roles.values()):
        return ("no speaker has a role, so nothing can be read as the rep's or the customer's; "
                "say who the rep is with `callmark transcript set-rep CALL SPEAKER`")
    return None


def call_figures(store: Store, call_id: int) -> Figures:
    return refresh(store, call_id).figures


# The verdicts live in their own module; these are the names the command and the GUI use.
from desktop.services.verdicts import (  # noqa: E402 - after the pass they build on
    LabelTally,
    VerdictChange,
    accept,
    dismiss,
    label_precision,
    undo,
)

__all__ = ["CallSuggestions", "LabelTally", "LibraryProgress", "Suggestion", "VerdictChange", "accept",
           "after_transcript_change", "call_figures", "call_roles", "dismiss", "label_precision", "phrase_book",
           "refresh", "refresh_library", "suggestions", "undo", "why_none", "decide"]


# --- operations: accept and dismiss as coach edits, with undo (desktop.services.changes) -----------------


def decide(store: Store, call_id: int, ids: list[str], verdict: str) -> Change:
    """Accept (a moment each) or dismiss suggestions; undo takes the verdicts and their moments back."""
    made = accept(store, call_id, list(ids)) if verdict == "accepted" else dismiss(store, call_id, list(ids))
    n = len(made.decided)
    what = made.decided[0].label.replace("_", " ") if n == 1 else f"{n} suggestions"
    label = f"{'Accept' if verdict == 'accepted' else 'Dismiss'} {what}"
    moment_ids = [m.id for m in made.moments]

    def take_back(s: Store) -> Change:
        made.undo(s)
        return change(f"Undo: {label.lower()}", SUGGESTIONS, MOMENTS, call_id=call_id, ids=moment_ids,
                      undo=lambda again: decide(again, call_id, ids, verdict))

    return change(label, SUGGESTIONS, MOMENTS, call_id=call_id, ids=moment_ids, row=made, undo=take_back)
