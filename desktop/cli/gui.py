"""Bare `callmark [FILE]`: open the GUI (not a sub-command, so no `register`)."""

from __future__ import annotations

import argparse
import os
import sys


def gui_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="callmark", description="Open Callmark.")
    parser.add_argument("file", nargs="?", help="a recording to add to the library and open")
    parser.add_argument("--home", metavar="DIR", help="data folder")
    parser.add_argument("--store", metavar="URL", help="a team store (postgresql://coach@host/callmark) or a store file")
    parser.add_argument("--call", type=int, metavar="ID", help="open this call (an id from `callmark calls list`)")
    parser.add_argument("--offscreen", action="store_true",
                        help="run without a display (Qt's offscreen platform), e.g. for checks")
    parser.add_argument("--quit-after", type=float, metavar="SECONDS", help=argparse.SUPPRESS)
    parser.add_argument("--screenshot", metavar="PNG", help=argparse.SUPPRESS)
    return parser


def has_display() -> bool:
    if sys.platform in ("win32", "darwin"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def gui_args(argv) -> argparse.Namespace | None:
    """The window's arguments, or None (after saying why) when there is nowhere to show it."""
    args = gui_parser().parse_args(argv)
    if args.offscreen:
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    if os.environ.get("QT_QPA_PLATFORM") != "offscreen" and not has_display():
        print("callmark: no display found (DISPLAY and WAYLAND_DISPLAY are not set); "
              "run it in a desktop session, or pass --offscreen", file=sys.stderr)
        return None
    return args


def run_gui_from_argv(argv) -> int:
    args = gui_args(argv)
    if args is None:
        return 2
    from desktop.app import run

    return run(home=args.home, file=args.file, quit_after=args.quit_after, screenshot=args.screenshot,
               call_id=args.call, store=args.store)
