"""Bring a whole folder of recordings into the library: a Zoom download, a Teams export, a dialer's night.

The folder is walked recursively. Each recording is probed and hashed; one
already in the library (same SHA-256), or seen earlier in this folder, is
skipped; a transcript beside it (`.vtt`, `.srt`: Zoom's and Teams' own) is read
before anything is written, and the call and its transcript are added in one
transaction, so a crash in the middle leaves whole calls only. Title, date and
source come from the names (desktop.services.recording_names). A stereo
recording that is not a meeting is a dialer's: its speakers come from the
louder channel (desktop.transcription.channels), when transcribed and, for an
imported transcript that names no speakers, at once.

Qt-free: iterate `FolderImport.events()` (progress, then one entry per file);
the CLI draws a bar, the GUI runs the same iterator on a worker thread.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path

from db.store import Store
from desktop.core.enums import CallSource, Role
from desktop.errors import CallmarkError
from desktop.services.recording_names import (
    MEDIA_SUFFIXES,
    TRANSCRIPT_SUFFIXES,
    VIDEO_SUFFIXES,
    NameReading,
    read_names,
    transcript_beside,
)

ADDED, SKIPPED, FAILED = "added", "skipped", "failed"
SETTLE_SECONDS = 5.0  # a watched file changed this recently may still be being written


class FolderImportError(CallmarkError):
    """The folder itself cannot be imported (missing, not a folder); the message names it."""


@dataclass(frozen=True)
class Found:
    """A recording found in the folder, with what its names say and its transcript file if any."""

    path: Path
    reading: NameReading
    transcript: Path | None


@dataclass
class ImportEntry:
    """What happened to one file: added, skipped or failed, and why."""

    path: str
    outcome: str
    reason: str | None = None
    call_id: int | None = None
    title: str | None = None
    source: str | None = None
    recorded_at: str | None = None
    transcript: str | None = None  # the transcript file imported with the call
    lines: int = 0

    def to_json(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class ImportProgress:
    done: int
    total: int
    path: Path | None  # the file being looked at now

    @property
    def fraction(self) -> float:
        return self.done / self.total if self.total else 1.0


@dataclass
class ImportSummary:
    folder: str
    dry_run: bool
    entries: list[ImportEntry] = field(default_factory=list)

    def of(self, outcome: str) -> list[ImportEntry]:
        return [e for e in self.entries if e.outcome == outcome]

    @property
    def added(self) -> list[ImportEntry]:
        return self.of(ADDED)

    @property
    def skipped(self) -> list[ImportEntry]:
        return self.of(SKIPPED)

    @property
    def failed(self) -> list[ImportEntry]:
        return self.of(FAILED)

    def counts(self) -> str:
        verb = "would add" if self.dry_run else "added"
        return f"{verb} {len(self.added)}, skipped {len(self.skipped)}, failed {len(self.failed)}"

    def to_json(self) -> dict:
        return {"folder": self.folder, "dry_run": self.dry_run, "added": len(self.added),
                "skipped": len(self.skipped), "failed": len(self.failed),
                "entries": [e.to_json() for e in self.entries]}


# --- finding --------------------------------------------------------------------------------------


def check_folder(root: str | Path) -> Path:
    root = Path(root).expanduser()
    if not root.exists():
        raise FolderImportError(f"{root}: no such folder")
    if not root.is_dir():
        raise FolderImportError(f"{root}: is a file, not a folder (use `callmark calls add` for one recording)")
    return root


def find_recordings(root: str | Path, *, settled_before: float | None = None) -> tuple[list[Found], list[ImportEntry]]:
    """Every recording under `root` (sorted by path), and the files set aside without being read.

    A Zoom meeting folder often holds the same meeting twice (the video and an audio-only copy): the
    video is kept (it holds the audio too), the other is skipped with the reason. `settled_before`:
    leave out files modified after that time (a watched folder's file still being copied).
    """
    root = check_folder(root)
    media: list[Path] = []
    transcripts: dict[Path, list[Path]] = {}
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        here = Path(folder)
        for name in sorted(files):
            if name.startswith("."):
                continue
            path = here / name
            suffix = path.suffix.lower()
            if suffix in MEDIA_SUFFIXES:
                if settled_before is not None and _modified(path) > settled_before:
                    continue
                media.append(path)
            elif suffix in TRANSCRIPT_SUFFIXES:
                transcripts.setdefault(here, []).append(path)
    found: list[Found] = []
    set_aside: list[ImportEntry] = []
    kept_by_meeting: dict[str, Found] = {}
    for path in media:
        reading = read_names(path)
        item = Found(path, reading, transcript_beside(path, reading, transcripts.get(path.parent, [])))
        if reading.source is CallSource.ZOOM and reading.meeting:
            kept = kept_by_meeting.get(reading.meeting)
            if kept is not None:
                keep, drop = (item, kept) if _prefer(item, kept) else (kept, item)
                kept_by_meeting[reading.meeting] = keep
                if keep is item:
                    found[found.index(kept)] = item
                set_aside.append(ImportEntry(str(drop.path), SKIPPED, f"another recording of the Zoom meeting "
                                             f"in {keep.path.name} (kept that one)", source=CallSource.ZOOM.value))
                continue
            kept_by_meeting[reading.meeting] = item
        found.append(item)
    return found, set_aside


def _prefer(a: Found, b: Found) -> bool:
    """Of two files of one meeting: the video, else the one with a transcript, else the first by name."""
    def rank(f: Found):
        return (f.path.suffix.lower() in VIDEO_SUFFIXES, f.transcript is not None)
    return rank(a) > rank(b)  # a tie keeps the first


def _modified(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


# --- importing ------------------------------------------------------------------------------------


class FolderImport:
    """One folder imported. Iterate `events()`; `cancel()` from any thread stops after the current file.

    Events: ImportProgress before each file (and once at the end), ImportEntry after each.
    `summary` holds every entry once done.
    """

    def __init__(self, store: Store, root: str | Path, *, dry_run: bool = False,
                 rep: str | None = None, manager: str | None = None, known_paths_skip: bool = False,
                 settled_before: float | None = None) -> None:
        self.store = store
        self.root = Path(root).expanduser()
        self.dry_run = dry_run
        self.rep = rep
        self.manager = manager
        # A watched folder is scanned again and again: a file already in the library at the same path
        # is passed over without hashing it each time.
        self.known_paths_skip = known_paths_skip
        self.settled_before = settled_before
        self.summary = ImportSummary(str(self.root), dry_run)
        self._cancelled = threading.Event()

    def cancel(self) -> None:
        self._cancelled.set()

    @property
    def cancelled(self) -> bool:
        return self._cancelled.is_set()

    def events(self) -> Iterator[ImportProgress | ImportEntry]:
        found, set_aside = find_recordings(self.root, settled_before=self.settled_before)
        total = len(found) + len(set_aside)
        known = self._known_hashes()
        paths = self._known_paths() if self.known_paths_skip else {}
        seen: dict[str, str] = {}
        done = 0
        for entry in set_aside:
            done += 1
            self.summary.entries.append(entry)
            yield entry
        for item in found:
            if self.cancelled:
                break
            yield ImportProgress(done, total, item.path)
            entry = self._one(item, known, paths, seen)
            done += 1
            self.summary.entries.append(entry)
            yield entry
        yield ImportProgress(done, total, None)

    def run(self) -> ImportSummary:
        for _event in self.events():
            pass
        return self.summary

    def _known_hashes(self) -> dict[str, tuple[int, str, str | None]]:
        con = self.store.reader()
        return {sha: (cid, title, path) for cid, sha, title, path
                in con.execute('SELECT id, media_sha256, title, media_path FROM "call"')}

    def _known_paths(self) -> dict[str, int]:
        con = self.store.reader()
        return {p: cid for cid, p in con.execute('SELECT id, media_path FROM "call" WHERE media_path IS NOT NULL')}

    def _one(self, item: Found, known: dict, paths: dict, seen: dict) -> ImportEntry:
        from desktop.media.probe import MediaError
        from desktop.services.calls import inspect_media

        path = item.path
        resolved = str(path.resolve())
        if resolved in paths:
            return ImportEntry(str(path), SKIPPED, f"already in the library as call {paths[resolved]}",
                               call_id=paths[resolved])
        try:
            inspected = inspect_media(path)
        except MediaError as exc:
            return ImportEntry(str(path), FAILED, exc.problem)
        except OSError as exc:
            return ImportEntry(str(path), FAILED, f"can't be read ({exc.strerror or exc})")
        if not inspected.info.has_audio:
            return ImportEntry(str(path), FAILED, "has no audio track (nothing to replay or transcribe)")
        digest = inspected.sha256
        if digest in known:
            cid, title, stored = known[digest]
            if stored and stored != resolved and not Path(stored).exists():
                self._found_here(digest, path)  # added elsewhere (another machine): this is where it is here
            return ImportEntry(str(path), SKIPPED, f"already in the library as call {cid} ({title})", call_id=cid)
        if digest in seen:
            return ImportEntry(str(path), SKIPPED, f"the same recording as {seen[digest]}")
        seen[digest] = str(path)
        reading = item.reading
        source = reading.source
        if source is None and inspected.info.channels == 2 and not inspected.info.has_video:
            source = CallSource.DIALER  # the rep on one channel, the customer on the other
        title = (reading.title or _title_from(path)).strip()
        entry = ImportEntry(str(path), ADDED, title=title, source=source.value if source else None,
                            recorded_at=reading.recorded_at.isoformat() if reading.recorded_at else None)
        segments = None
        if item.transcript is not None:
            segments, problem = _read_transcript(item.transcript, inspected)
            if problem:
                entry.reason = f"added without its transcript: {problem}"
            else:
                entry.transcript, entry.lines = str(item.transcript), len(segments)
        if self.dry_run:
            return entry
        try:
            entry.call_id = self._write(inspected, title, reading, source, segments, item.transcript)
        except Exception as exc:  # noqa: BLE001 - a store error on one file: said, and the others go on
            return ImportEntry(str(path), FAILED, f"could not be saved ({exc}); nothing was written")
        known[digest] = (entry.call_id, title, resolved)
        return entry

    def _found_here(self, digest: str, path: Path) -> None:
        from desktop.services.this_machine import machine_of

        if not self.dry_run:
            machine_of(self.store).remember(digest, path)

    def _write(self, inspected, title: str, reading: NameReading, source: CallSource | None,
               segments: list | None, transcript_file: Path | None) -> int:
        from db.models import Call
        from desktop.core.enums import TranscriptOrigin
        from desktop.services.people import person
        from desktop.services.transcripts import write_transcript

        from desktop.services.this_machine import machine_of

        info = inspected.info
        machine = machine_of(self.store).name
        with self.store.write() as session:
            call = Call(title=title, media_path=str(inspected.path.resolve()), media_filename=inspected.path.name,
                        media_sha256=inspected.sha256, media_machine=machine, duration_ms=info.duration_ms,
                        has_video=info.has_video,
                        channels=info.channels, recorded_at=reading.recorded_at, source=source,
                        rep=person(session, self.rep, Role.REP), manager=person(session, self.manager, Role.MANAGER))
            session.add(call)
            session.flush()
            if segments:
                write_transcript(session, call.id, segments, origin=TranscriptOrigin.IMPORT,
                                 source_file=str(transcript_file.resolve()))
                if info.channels == 2:
                    _channel_roles(session, call.id)
            call_id = call.id
        if segments:  # the moment finder reads the new transcript, as for any other import
            from desktop.services.transcripts import suggestions_changed

            suggestions_changed(self.store, call_id)
        return call_id


def _read_transcript(path: Path, inspected) -> tuple[list | None, str | None]:
    """The transcript's lines, or the one-line problem; a stereo call's nameless lines get channel speakers."""
    from desktop.services.transcript_io import read_transcript_file

    try:
        segments, _cues, _bad = read_transcript_file(path)
    except Exception as exc:  # noqa: BLE001 - TranscriptImportError, TranscriptFileError: one line
        return None, str(exc).splitlines()[0]
    if not segments:
        return None, f"{path}: the file holds no cues"
    segments.sort(key=lambda s: (s.start_ms, s.end_ms))
    if inspected.info.channels == 2 and not any(s.speaker for s in segments):
        from desktop.transcription.channels import DEFAULT_CHANNEL_NAMES, ChannelSplitError, assign_speakers_by_channel

        try:
            segments = assign_speakers_by_channel(segments, inspected.path, DEFAULT_CHANNEL_NAMES)
        except ChannelSplitError:
            pass  # one voice, as written
    return segments, None


def _channel_roles(session, call_id: int) -> None:
    """Speakers named after a channel (the split above) get that channel and its role."""
    from sqlalchemy import select

    from db.models import Speaker
    from desktop.transcription.channels import DEFAULT_CHANNEL_NAMES

    roles = {DEFAULT_CHANNEL_NAMES[0]: (0, Role.REP), DEFAULT_CHANNEL_NAMES[1]: (1, Role.CUSTOMER)}
    for spk in session.scalars(select(Speaker).where(Speaker.call_id == call_id)):
        if spk.label in roles:
            spk.channel, spk.role = roles[spk.label]


def _title_from(media: Path) -> str:
    return media.stem.replace("_", " ").replace("-", " ").strip().title() or media.name


def settled_time(now: float | None = None) -> float:
    """Files modified after this are left for the watched folder's next look."""
    return (time.time() if now is None else now) - SETTLE_SECONDS
