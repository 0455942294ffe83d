"""Read WebVTT and SRT transcripts (Zoom, Teams, others) and write TXT/SRT/VTT/JSON.

Libraries in this space either reject Teams timestamps or drop cues without a
word; this parser reads what it can and names, by line, every cue it could
not read, so a coach can trust the count. A file that is not a subtitle file
at all raises `TranscriptFileError` naming the file and the line.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from desktop.errors import CallmarkError
from desktop.transcription.segments import Segment, segments_from_json_obj, segments_to_json_obj
from desktop.transcription.webvtt import cue_text, has_signature, parse_vtt

EXPORT_FORMATS = ("txt", "srt", "vtt", "json")


class TranscriptFileError(CallmarkError):
    """A transcript file that cannot be read at all; the message names the file and line."""

    def __init__(self, path: str | Path, reason: str, line: int | None = None) -> None:
        self.path = str(path)
        self.line = line
        self.reason = reason
        where = f"{self.path}, line {line}" if line is not None else self.path
        super().__init__(f"{where}: {reason}")


@dataclass(frozen=True, slots=True)
class SubtitleProblem:
    """One cue that could not be read: where it starts and why."""

    line: int
    reason: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.reason}"


@dataclass(slots=True)
class SubtitleParse:
    """What a subtitle file held: the cues read, each cue skipped, each cue not readable."""

    segments: list[Segment]
    problems: list[SubtitleProblem] = field(default_factory=list)  # unreadable: the import refuses
    skipped: list[SubtitleProblem] = field(default_factory=list)  # what a reader skips, e.g. empty cues
    cue_count: int = 0  # cues found in the file, read or not
    kind: str = "vtt"  # "vtt" or "srt"
    encoding: str = "utf-8"

    def problem_lines(self, path: str | Path) -> list[str]:
        """One line per unread cue, `FILE, line N: reason`, for the CLI and dialogs."""
        return [f"{path}, line {p.line}: {p.reason}" for p in self.problems]

    def skipped_lines(self, path: str | Path) -> list[str]:
        """One line per block skipped as a reader skips it, `FILE, line N: reason`."""
        return [f"{path}, line {p.line}: {p.reason}" for p in self.skipped]


# ---------------------------------------------------------------- decoding

def decode_subtitle_bytes(data: bytes, path: str | Path = "<bytes>") -> tuple[str, str]:
    """Decode UTF-8 (with or without BOM), UTF-32 or UTF-16 (BOM, or plain with NULs), or cp1252."""
    if data.startswith(b"\xef\xbb\xbf"):
        return _decode(data[3:], "utf-8", path), "utf-8-sig"
    if data.startswith((b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff")):
        return _decode(data, "utf-32", path), "utf-32"
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return _decode(data, "utf-16", path), "utf-16"
    if len(data) >= 4 and b"\x00" in data[:200]:
        # UTF-16 without a BOM: ASCII text leaves every other byte NUL. Other
        # NULs are characters of the text (the reader replaces them).
        head = data[:200]
        if head[1::2].count(0) > len(head) // 4 and head[0::2].count(0) == 0:
            return _decode(data, "utf-16-le", path), "utf-16-le"
        if head[0::2].count(0) > len(head) // 4 and head[1::2].count(0) == 0:
            return _decode(data, "utf-16-be", path), "utf-16-be"
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    return _decode(data, "cp1252", path), "cp1252"


def _decode(data: bytes, encoding: str, path: str | Path) -> str:
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1 if encoding in ("utf-8", "cp1252") else None
        if encoding.startswith("utf-16"):
            line = data[: exc.start].decode(encoding, errors="replace").count("\n") + 1
        raise TranscriptFileError(
            path, f"cannot decode as {encoding} (byte 0x{data[exc.start]:02x})", line=line
        ) from None


# ---------------------------------------------------------------- parsing

_TIME = re.compile(r"^(-)?(?:(\d+):)?(\d+):(\d+)(?:[.,](\d+))?$")
_VOICE = re.compile(r"<v(?:\.[^\s>]*)?(?:\s+([^>]*))?>", re.IGNORECASE)
_TAG = re.compile(r"</?[^>\s][^>]*>")
_ZOOM_SPEAKER = re.compile(r"^([^:<>\n]{1,80}):\s+(.*)$", re.DOTALL)
_ID_LIKE = re.compile(r"^(\d+|[0-9a-fA-F-]{8,}/\d+-\d+)$")


def parse_time_ms(text: str) -> int:
    """`01:02:03.456`, `0:0:5.320`, `00:05,1`, `-0:0:1.000` (clamped to 0) -> milliseconds."""
    m = _TIME.match(text.strip())
    if not m:
        raise ValueError(f"unreadable time {text.strip()!r}")
    minus, hours, minutes, seconds, frac = m.groups()
    total = int(hours or 0) * 3_600_000 + int(minutes) * 60_000 + int(seconds) * 1000
    if frac:
        total += int(round(int(frac) / 10 ** len(frac) * 1000))
    if minus:
        total = -total
    return max(total, 0)  # Teams writes small negative offsets; a recording starts at 0.


def read_subtitles(path: str | Path) -> SubtitleParse:
    """Read a .vtt or .srt file from disk (any of the supported encodings)."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise TranscriptFileError(path, f"cannot read the file ({exc.strerror or exc})") from None
    text, encoding = decode_subtitle_bytes(data, path)
    result = parse_subtitles(text, path)
    result.encoding = encoding
    return result


@dataclass(slots=True)
class _Cue:
    line: int
    start_ms: int
    end_ms: int
    voice: str | None
    raw: str  # the text before a "Name: " prefix is taken off
    text: str


def parse_subtitles(text: str, path: str | Path = "<text>") -> SubtitleParse:
    """Parse WebVTT (as the specification reads it) or SRT text.

    Raises TranscriptFileError only if the text is not a subtitle file at all.
    """
    text = text.lstrip("\ufeff")
    had_nul = "\x00" in text
    # The WebVTT parser's first step: NUL becomes U+FFFD, every line end LF.
    text = text.replace("\x00", "\ufffd").replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    first = next(((i, ln.strip()) for i, ln in enumerate(lines) if ln.strip()), None)
    if first is None:
        raise TranscriptFileError(path, "the file is empty", line=1)
    if has_signature(text):
        result = SubtitleParse(segments=[], kind="vtt")
        cues = _read_vtt(text, result)
    elif first[1].upper().startswith("WEBVTT"):
        raise TranscriptFileError(
            path, f"not a WebVTT file: it must start with the line 'WEBVTT', not {first[1][:40]!r}",
            line=first[0] + 1)
    elif not any("-->" in ln for ln in lines):
        if had_nul:
            raise TranscriptFileError(path, "binary data, not a WebVTT or SRT text file", line=1)
        raise TranscriptFileError(
            path, f"not a WebVTT or SRT file: no cue timing line ('-->') found; "
            f"starts with {first[1][:40]!r}", line=first[0] + 1)
    else:
        result = SubtitleParse(segments=[], kind="srt")
        cues = []
        for start_line, block in _cue_blocks(lines):
            cue = _read_srt_cue(start_line, block, result)
            if cue is not None:
                cues.append(cue)
    _take_speakers(cues)
    for cue in cues:
        if cue.text:
            result.segments.append(Segment(cue.start_ms, cue.end_ms, cue.voice, cue.text))
        else:
            result.skipped.append(SubtitleProblem(cue.line, "cue has no text; skipped"))
    result.skipped.sort(key=lambda p: p.line)
    return result


def _read_vtt(text: str, result: SubtitleParse) -> list[_Cue]:
    cues, skips = parse_vtt(text)
    result.cue_count = len(cues) + len(skips)
    result.skipped.extend(SubtitleProblem(s.line, s.reason) for s in skips)
    out = []
    for cue in cues:
        voice, content = cue_text(cue.text)
        out.append(_Cue(cue.line, cue.start_ms, cue.end_ms, _clean(voice or "", unescape=False) or None,
                        cue.text.strip(), _clean(content, unescape=False)))
    return out


def _blocks(lines: list[str]) -> Iterable[tuple[int, list[str]]]:
    """Blank-line separated blocks, each with its first line's 1-based number."""
    block: list[str] = []
    start = 0
    for i, line in enumerate(lines):
        if line.strip():
            if not block:
                start = i + 1
            block.append(line.rstrip())
        elif block:
            yield start, block
            block = []
    if block:
        yield start, block


def _cue_blocks(lines: list[str]) -> Iterable[tuple[int, list[str]]]:
    """SRT cue blocks; also splits cues run together without a blank line between them."""
    for start, block in _blocks(lines):
        cur_start, cur = start, []
        for j, line in enumerate(block):
            is_timing = "-->" in line
            # A timing line after text lines begins the next cue (blank line missing).
            if is_timing and any("-->" in ln for ln in cur):
                carry = []
                if cur and _ID_LIKE.match(cur[-1].strip()) and "-->" not in cur[-1]:
                    carry = [cur.pop()]
                yield cur_start, cur
                cur_start, cur = start + j - len(carry), carry
            cur.append(line)
        yield cur_start, cur


def _read_srt_cue(start_line: int, block: list[str], result: SubtitleParse) -> _Cue | None:
    """SRT has no specification: read what players read, name by line what cannot be."""
    result.cue_count += 1
    timing_at = next((k for k, ln in enumerate(block[:2]) if "-->" in ln), None)
    if timing_at is None:
        result.problems.append(SubtitleProblem(start_line, "no cue timing line ('start --> end')"))
        return None
    line_no = start_line + timing_at
    left, _, right = block[timing_at].partition("-->")
    end_text = right.strip().split()[0] if right.strip() else ""
    try:
        start_ms = parse_time_ms(left)
        end_ms = parse_time_ms(end_text)
    except ValueError as exc:
        result.problems.append(SubtitleProblem(line_no, f"cue timing not readable: {exc}"))
        return None
    if end_ms < start_ms:
        result.problems.append(SubtitleProblem(
            line_no, f"cue ends ({end_text}) before it starts ({left.strip()})"))
        return None
    raw = "\n".join(ln.strip() for ln in block[timing_at + 1:])
    voice = _VOICE.search(raw)
    speaker = _clean(voice.group(1) or "") or None if voice else None
    return _Cue(line_no, start_ms, end_ms, speaker, raw, _clean(_TAG.sub("", raw)))


def _take_speakers(cues: list[_Cue]) -> None:
    """Take "Name: text" prefixes as speakers when the file is a meeting transcript.

    Zoom writes most cues as "Name: text", with names repeating; in a film's
    subtitles "Une chose en sa faveur: elle..." is a sentence, not a speaker. A
    prefix naming someone who speaks in a <v> tag elsewhere is a speaker too.
    Our own exports wrap unattributed "Note: ..." text in <c>, so cues starting
    with a tag are not candidates.
    """
    voices = {c.voice for c in cues if c.voice}
    plain = [c for c in cues if not c.voice and not c.raw.startswith("<")]
    prefixed = []
    for cue in plain:
        m = _ZOOM_SPEAKER.match(cue.text)
        if m and m.group(1).strip():
            prefixed.append((cue, m.group(1).strip(), m.group(2)))
    names = [name for _, name, _ in prefixed]
    repeats = len(set(names)) < len(names)
    meeting = 2 * len(prefixed) > len(plain) and (repeats or len(prefixed) == len(plain))
    for cue, name, rest in prefixed:
        if meeting or name in voices:
            cue.voice, cue.text = name, rest


def _clean(text: str, unescape: bool = True) -> str:
    if unescape:
        text = html.unescape(text)
    return " ".join(text.replace("\u200e", "").replace("\u200f", "").split())


# ---------------------------------------------------------------- writing

def _clock(ms: int, sep: str) -> str:
    h, rest = divmod(ms, 3_600_000)
    m, rest = divmod(rest, 60_000)
    s, milli = divmod(rest, 1000)
    return f"{h:02d}:{m:02d}:{s:02d}{sep}{milli:03d}"


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _cue_text(seg: Segment, voice_tags: bool) -> str:
    text = _escape(seg.text)
    if seg.speaker:
        if voice_tags:
            return f"<v {_escape(seg.speaker)}>{text}</v>"
        return f"{_escape(seg.speaker)}: {text}"
    if _ZOOM_SPEAKER.match(text):
        # Without a speaker, "Note: ..." would read back as speaker "Note"; a
        # class span keeps it plain text for our reader and is hidden by players.
        return f"<c>{text}</c>"
    return text


def to_vtt(segments: Iterable[Segment]) -> str:
    out = ["WEBVTT", ""]
    for n, seg in enumerate(segments, 1):
        out += [str(n), f"{_clock(seg.start_ms, '.')} --> {_clock(seg.end_ms, '.')}",
                _cue_text(seg, voice_tags=True), ""]
    return "\n".join(out)


def to_srt(segments: Iterable[Segment]) -> str:
    out: list[str] = []
    for n, seg in enumerate(segments, 1):
        out += [str(n), f"{_clock(seg.start_ms, ',')} --> {_clock(seg.end_ms, ',')}",
                _cue_text(seg, voice_tags=False), ""]
    return "\n".join(out)


def to_txt(segments: Iterable[Segment]) -> str:
    """`[mm:ss] Speaker: text` per line (`[h:mm:ss]` past the first hour); for reading."""
    out = []
    for seg in segments:
        total_s = seg.start_ms // 1000
        h, rest = divmod(total_s, 3600)
        m, s = divmod(rest, 60)
        stamp = f"{h}:{m:02d}:{s:02d}" if h else f"{m:02d}:{s:02d}"
        who = f"{seg.speaker}: " if seg.speaker else ""
        out.append(f"[{stamp}] {who}{seg.text}")
    return "\n".join(out) + ("\n" if out else "")


def to_json(segments: Iterable[Segment]) -> str:
    return json.dumps(segments_to_json_obj(list(segments)), ensure_ascii=False, indent=2) + "\n"


def export_transcript(segments: Iterable[Segment], fmt: str) -> str:
    """Render segments as one of EXPORT_FORMATS."""
    writers = {"txt": to_txt, "srt": to_srt, "vtt": to_vtt, "json": to_json}
    if fmt not in writers:
        raise ValueError(f"unknown export format {fmt!r}; choose one of {', '.join(EXPORT_FORMATS)}")
    return writers[fmt](segments)


def read_json_transcript(path: str | Path) -> list[Segment]:
    """Read back a JSON export (`{"segments": [...]}` or a bare list)."""
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise TranscriptFileError(path, f"cannot read the file ({exc.strerror or exc})") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise TranscriptFileError(path, "not UTF-8 text, so not a transcript JSON file", line=line) from None
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        raise TranscriptFileError(path, f"not valid JSON: {exc.msg}", line=exc.lineno) from None
    except RecursionError:
        raise TranscriptFileError(path, "not a transcript JSON file: nested too deeply") from None
    try:
        return segments_from_json_obj(obj)
    except (KeyError, TypeError, ValueError, AttributeError, OverflowError) as exc:
        raise TranscriptFileError(path, f"not a transcript JSON file: {exc}") from None
