"""The WebVTT file parser, as the W3C WebVTT specification (section 6) reads files.

Zoom, Teams and browsers all follow this algorithm, so a file reads here the
way a player shows it: a block the specification skips (bad timings, an id
line holding "-->", a style sheet after the first cue) is skipped, not a
reason to refuse the file, and it is reported with its line so the coach
knows what was left out. Only a file without the "WEBVTT" signature is not
WebVTT at all. Cue text is tokenised as the specification says: tags are
dropped, character references decoded, and the first <v> annotation is the
speaker.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

_ASCII_WS = " \t\n\f\r"  # the specification's "ASCII whitespace": no vertical tab
_DIGITS = "0123456789"
_STYLE_OR_REGION = re.compile(r"^(STYLE|REGION)[ \t]*$")
_NOTE = re.compile(r"^NOTE(?:[ \t\n]|$)")


@dataclass(slots=True)
class VttCue:
    line: int  # 1-based line of the timing line
    start_ms: int
    end_ms: int
    text: str  # the raw cue text, before tokenising


@dataclass(slots=True)
class VttSkip:
    line: int
    reason: str


def has_signature(text: str) -> bool:
    """A WebVTT file starts with WEBVTT followed by a space, a tab, a line end or nothing."""
    return text.startswith("WEBVTT") and (len(text) == 6 or text[6] in " \t\n")


def parse_vtt(text: str) -> tuple[list[VttCue], list[VttSkip]]:
    """Cues and skipped blocks of a WebVTT text (line ends already LF, NULs replaced)."""
    parser = _Parser(text)
    return parser.run()


class _Parser:
    def __init__(self, text: str) -> None:
        self.s = text
        self.pos = 0
        self.cues: list[VttCue] = []
        self.skipped: list[VttSkip] = []
        self._counted_to = 0
        self._lines_before = 0

    def line_no(self, pos: int) -> int:
        # Counted on from the last position asked about: a 2-hour transcript has
        # thousands of cues, and counting from the start each time is quadratic.
        if pos < self._counted_to:
            self._counted_to, self._lines_before = 0, 0
        self._lines_before += self.s.count("\n", self._counted_to, pos)
        self._counted_to = pos
        return self._lines_before + 1

    def collect_line(self) -> str:
        end = self.s.find("\n", self.pos)
        end = len(self.s) if end < 0 else end
        line = self.s[self.pos:end]
        self.pos = end
        return line

    def skip_newlines(self) -> None:
        while self.pos < len(self.s) and self.s[self.pos] == "\n":
            self.pos += 1

    def run(self) -> tuple[list[VttCue], list[VttSkip]]:
        self.collect_line()  # the signature line
        if self.pos >= len(self.s):
            return self.cues, self.skipped
        self.pos += 1
        if self.pos >= len(self.s):
            return self.cues, self.skipped
        if self.s[self.pos] != "\n":
            self.collect_block(in_header=True)
        else:
            self.pos += 1
        self.skip_newlines()
        seen_cue = False
        while self.pos < len(self.s):
            block_start = self.pos
            kind, cue = self.collect_block(in_header=False)
            if cue is not None:
                self.cues.append(cue)
                seen_cue = True
            elif kind == "style" and seen_cue:
                self.skipped.append(VttSkip(self.line_no(block_start),
                                            "style sheet after the first cue (ignored)"))
            elif kind not in ("style", "region", "note"):
                self.skipped.append(VttSkip(self.line_no(block_start), kind))
            self.skip_newlines()
        return self.cues, self.skipped

    def collect_block(self, in_header: bool) -> tuple[str, VttCue | None]:
        """The specification's "collect a WebVTT block": (what it was, the cue if one)."""
        line_count = 0
        previous = self.pos
        buffer = ""
        seen_cue = seen_arrow = False
        cue: VttCue | None = None
        kind = ""
        bad_timing = ""
        while True:
            line_start = self.pos
            line = self.collect_line()
            line_count += 1
            if self.pos < len(self.s):
                self.pos += 1
            if "-->" in line:
                if not in_header and (line_count == 1 or (line_count == 2 and not seen_arrow)):
                    seen_arrow = True
                    previous = self.pos
                    timing = parse_timing_line(line)
                    if isinstance(timing, str):
                        cue, bad_timing = None, timing
                    else:
                        cue = VttCue(self.line_no(line_start), timing[0], timing[1], "")
                        buffer = ""
                        seen_cue = True
                else:
                    self.pos = previous
                    break
            elif not line:
                break
            else:
                if not in_header and line_count == 2 and not seen_cue:
                    m = _STYLE_OR_REGION.match(buffer)
                    if m:
                        kind = m.group(1).lower()
                        buffer = ""
                if buffer:
                    buffer += "\n"
                buffer += line
                previous = self.pos
            if self.pos >= len(self.s):
                break
        if cue is not None:
            cue.text = buffer
            return "cue", cue
        if kind:
            return kind, None
        if in_header or _NOTE.match(buffer) or (not buffer and not bad_timing):
            return "note", None
        if bad_timing:
            return f"cue timing not readable: {bad_timing}; block skipped", None
        return "text outside any cue (no timing line); block skipped", None


def parse_timing_line(line: str) -> tuple[int, int] | str:
    """(start_ms, end_ms), or the reason the line is not a cue timing line."""
    pos = 0

    def skip_ws() -> None:
        nonlocal pos
        while pos < len(line) and line[pos] in _ASCII_WS:
            pos += 1

    skip_ws()
    start, pos = _timestamp(line, pos)
    if start is None:
        return f"start time {line.strip()[:40]!r} is not hh:mm:ss.ttt or mm:ss.ttt"
    skip_ws()
    if not line.startswith("-->", pos):
        return f"no '-->' after the start time in {line.strip()[:40]!r}"
    pos += 3
    skip_ws()
    end, pos = _timestamp(line, pos)
    if end is None:
        return f"end time in {line.strip()[:40]!r} is not hh:mm:ss.ttt or mm:ss.ttt"
    # The rest of the line holds cue settings, which a transcript does not need.
    return start, end


def _digits(line: str, pos: int) -> tuple[str, int]:
    end = pos
    while end < len(line) and line[end] in _DIGITS:
        end += 1
    return line[pos:end], end


def _timestamp(line: str, pos: int) -> tuple[int | None, int]:
    """The specification's "collect a WebVTT timestamp", in milliseconds."""
    if pos >= len(line) or line[pos] not in _DIGITS:
        return None, pos
    first, pos = _digits(line, pos)
    hours_first = len(first) != 2 or int(first) > 59
    if pos >= len(line) or line[pos] != ":":
        return None, pos
    second, pos = _digits(line, pos + 1)
    if len(second) != 2:
        return None, pos
    if hours_first or (pos < len(line) and line[pos] == ":"):
        if pos >= len(line) or line[pos] != ":":
            return None, pos
        third, pos = _digits(line, pos + 1)
        if len(third) != 2:
            return None, pos
        h, m, s = int(first), int(second), int(third)
    else:
        h, m, s = 0, int(first), int(second)
    if pos >= len(line) or line[pos] != ".":
        return None, pos
    frac, pos = _digits(line, pos + 1)
    if len(frac) != 3 or m > 59 or s > 59:
        return None, pos
    return ((h * 60 + m) * 60 + s) * 1000 + int(frac), pos


# ---------------------------------------------------------------- cue text

def cue_text(raw: str) -> tuple[str | None, str]:
    """(voice, text content) of a cue's text, as the cue text parser builds them."""
    voice: str | None = None
    out: list[str] = []
    i, n = 0, len(raw)
    while i < n:
        lt = raw.find("<", i)
        if lt < 0:
            out.append(html.unescape(raw[i:]))
            break
        out.append(html.unescape(raw[i:lt]))
        name, annotation, i = _tag(raw, lt + 1)
        if name == "v" and voice is None and annotation is not None:
            voice = annotation
    return voice, "".join(out)


def _tag(raw: str, i: int) -> tuple[str | None, str | None, int]:
    """Read one tag after its "<": (start tag name or None, annotation, position after it)."""
    n = len(raw)
    if i >= n:
        return None, None, i
    c = raw[i]
    if c == "/" or c in _DIGITS:  # an end tag or a timestamp tag: up to ">"
        end = raw.find(">", i)
        return None, None, n if end < 0 else end + 1
    name_end = i
    if c not in " \t\n\f.>":
        while name_end < n and raw[name_end] not in " \t\n\f.>":
            name_end += 1
    name = raw[i:name_end]
    j = name_end
    while j < n and raw[j] == ".":  # classes
        j += 1
        while j < n and raw[j] not in " \t\n\f.>":
            j += 1
    annotation = None
    if j < n and raw[j] in " \t\n\f":
        end = raw.find(">", j)
        end = n if end < 0 else end
        annotation = " ".join(html.unescape(raw[j:end]).split())
        j = end
    if j < n and raw[j] == ">":
        j += 1
    return name, annotation, j
