"""What a recording's file and folder names say: the meeting's title, when it was recorded, where from.

Zoom's cloud-recording download puts each meeting in a folder named
`2026-11-20 15.00.00 Discovery Acme` (local time, then the topic), holding
`audio1234567890.m4a`, `video1234567890.mp4` or `GMT20261120-150000_Recording.m4a`
(GMT: UTC) and the meeting's transcript as a `.vtt`. Teams names a recording
`Discovery Acme-20261120_150000-Meeting Recording.mp4` and its transcript
`Discovery Acme.vtt` (or the recording's own name). Dialers put a date and time
somewhere in the name. Only names are read here; nothing is opened.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from desktop.core.enums import CallSource

AUDIO_SUFFIXES = frozenset({".mp3", ".m4a", ".wav", ".ogg", ".opus", ".oga", ".flac", ".aac", ".wma"})
VIDEO_SUFFIXES = frozenset({".mp4", ".m4v", ".webm", ".mkv", ".mov", ".avi"})
MEDIA_SUFFIXES = AUDIO_SUFFIXES | VIDEO_SUFFIXES
TRANSCRIPT_SUFFIXES = (".vtt", ".srt")

ZOOM_FOLDER = re.compile(r"^(\d{4})-(\d{2})-(\d{2}) (\d{2})\.(\d{2})\.(\d{2})(?: (.+))?$")
ZOOM_GMT = re.compile(r"^GMT(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})(\d{2})(?:_(.*))?$", re.I)
TEAMS_FILE = re.compile(r"^(?P<title>.+?)-(\d{4})(\d{2})(\d{2})_(\d{2})(\d{2})(\d{2})(?:UTC)?-Meeting Recording",
                        re.I)
# A date and time anywhere in a dialer's name: 20261120-150000, 2026-11-20_15-00-00, 2026-11-20T15:00:00 ...
DATED_NAME = re.compile(r"(?<!\d)(20\d{2})-?(\d{2})-?(\d{2})[ _T-]?(\d{2})[-.:h]?(\d{2})[-.:m]?(\d{2})(?!\d)")


@dataclass(frozen=True)
class NameReading:
    """What the names say about one recording (None where they say nothing)."""

    source: CallSource | None
    title: str | None
    recorded_at: datetime | None  # naive UTC, as the store keeps it
    meeting: str | None  # one key per meeting: a Zoom folder holds several files of one call


def _utc(parts, *, local: bool) -> datetime | None:
    try:
        value = datetime(*(int(p) for p in parts))
    except ValueError:
        return None  # 2026-13-45: not a date after all
    if local:  # the download's folder names use the computer's own clock
        value = value.astimezone(timezone.utc).replace(tzinfo=None)
    return value


def read_names(media: Path) -> NameReading:
    """Read a recording's name and its folder's; the most specific pattern wins."""
    stem = media.stem
    folder = ZOOM_FOLDER.match(media.parent.name)
    gmt = ZOOM_GMT.match(stem)
    if folder or gmt:
        topic = (folder.group(7) or "").strip() if folder else ""
        when = _utc(gmt.groups()[:6], local=False) if gmt else _utc(folder.groups()[:6], local=True)
        title = topic or (f"Zoom meeting {when:%Y-%m-%d %H:%M}" if when else None)
        meeting = str(media.parent) if folder else str(media.with_name(stem[:18]))
        return NameReading(CallSource.ZOOM, title, when, meeting)
    teams = TEAMS_FILE.match(stem)
    if teams:
        title = teams.group("title").strip()
        return NameReading(CallSource.TEAMS, title, _utc(teams.groups()[1:7], local=False),
                           str(media.with_name(stem)))
    dated = DATED_NAME.search(stem)
    if dated is None:
        return NameReading(None, None, None, None)
    when = _utc(dated.groups(), local=False)
    rest = " ".join((stem[: dated.start()] + " " + stem[dated.end():]).replace("_", " ").replace("-", " ").split())
    title = rest[:1].upper() + rest[1:] if rest else (f"Call {when:%Y-%m-%d %H:%M}" if when else None)
    return NameReading(None, title, when, None)


def transcript_beside(media: Path, reading: NameReading, transcripts: list[Path]) -> Path | None:
    """The transcript file that belongs to this recording, among those in its folder.

    The recording's own name (`call.vtt`, `GMT..._Recording.transcript.vtt`) first; then, for Teams,
    the meeting's title; then, for a Zoom meeting folder, its one transcript.
    """
    if not transcripts:
        return None
    by_stem = {}
    for t in transcripts:
        by_stem.setdefault(t.name.lower(), t)
    stem = media.stem.lower()
    for suffix in TRANSCRIPT_SUFFIXES:
        for name in (stem + suffix, stem + ".transcript" + suffix):
            if name in by_stem:
                return by_stem[name]
    if reading.source is CallSource.TEAMS and reading.title:
        for suffix in TRANSCRIPT_SUFFIXES:
            found = by_stem.get(reading.title.lower() + suffix)
            if found is not None:
                return found
        starts = [t for t in transcripts if t.stem.lower().startswith(reading.title.lower())]
        if len(starts) == 1:
            return starts[0]
    if reading.source is CallSource.ZOOM and ZOOM_FOLDER.match(media.parent.name):
        vtts = [t for t in transcripts if t.suffix.lower() == ".vtt" and "chat" not in t.stem.lower()]
        if len(vtts) == 1:
            return vtts[0]
    return None
