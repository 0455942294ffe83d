"""The terminal progress bar: drawn in place on a terminal, silent in a pipe."""

from __future__ import annotations

import io

from desktop.transcription.progress import ProgressBar, format_eta


class FakeTty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_draws_in_place_on_a_terminal() -> None:
    out = FakeTty()
    bar = ProgressBar(out, width=10)
    bar.update(0.42, 12)
    bar.update(0.42, 12)  # identical: not redrawn
    bar.update(1.0, 0)
    bar.finish("done")
    assert out.getvalue() == ("\r[####......]  42%  ETA 0:12"
                              "\r[##########] 100%  ETA 0:00"
                              "\rdone                       \n")


def test_silent_when_not_a_terminal_unless_forced() -> None:
    out = io.StringIO()
    bar = ProgressBar(out)
    bar.update(0.5, 3)
    bar.finish()
    assert out.getvalue() == ""
    forced = ProgressBar(out, width=4, label="call.mp4", force=True)
    forced.update(0.5, None)
    assert out.getvalue() == "\rcall.mp4 [##..]  50%  ETA --:--"


def test_eta_format() -> None:
    assert [format_eta(s) for s in (None, 0, 12.4, 75, 3725)] == ["--:--", "0:00", "0:12", "1:15", "1:02:05"]
