"""A terminal progress bar on stderr for `callmark transcribe`.

Draws `[#####.....] 42%  ETA 0:12` in place with \r, only when stderr is a
terminal (or when forced), so pipes and logs stay clean.
"""

from __future__ import annotations

import sys
from typing import TextIO


def format_eta(seconds: float | None) -> str:
    if seconds is None:
        return "--:--"
    total = int(round(seconds))
    h, rest = divmod(total, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


class ProgressBar:
    """`update(fraction, eta_s)` redraws; `finish()` ends the line."""

    def __init__(self, stream: TextIO | None = None, *, width: int = 30, label: str = "",
                 force: bool = False) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.width = width
        self.label = label
        isatty = getattr(self.stream, "isatty", lambda: False)
        self.enabled = force or bool(isatty())
        self._last = ""

    def render(self, fraction: float, eta_s: float | None) -> str:
        fraction = min(1.0, max(0.0, fraction))
        filled = int(fraction * self.width)
        bar = "#" * filled + "." * (self.width - filled)
        prefix = f"{self.label} " if self.label else ""
        return f"{prefix}[{bar}] {int(fraction * 100):3d}%  ETA {format_eta(eta_s)}"

    def update(self, fraction: float, eta_s: float | None = None) -> None:
        if not self.enabled:
            return
        line = self.render(fraction, eta_s)
        if line == self._last:
            return  # no flicker from identical redraws
        pad = " " * max(0, len(self._last) - len(line))
        self.stream.write("\r" + line + pad)
        self.stream.flush()
        self._last = line

    def finish(self, message: str = "") -> None:
        if not self.enabled:
            return
        if message:
            pad = " " * max(0, len(self._last) - len(message))
            self.stream.write("\r" + message + pad)
        self.stream.write("\n")
        self.stream.flush()
        self._last = ""
