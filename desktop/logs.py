"""Callmark's log: a rotating file in the platform's user log folder, for finding out what went wrong.

What goes in: what the app did (a backup made, a store found damaged, a call
relinked, by id) and the traceback of anything unexpected. What never goes in:
transcript text, notes, names or any other thing a coach wrote; an unexpected
error is logged by its type and where it happened, never by its message (it may
quote a line of a transcript), and the home folder is written ``~``.

Nothing here is imported or opened at start-up: the exception hook is a plain
function, and the file is opened when the first line is written.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

APP_NAME = "Callmark"
ENV_LOG_DIR = "CALLMARK_LOG_DIR"
LOG_FILE = "callmark.log"
MAX_BYTES = 1_000_000
KEEP = 5  # callmark.log.1 … .5

_configured = False


def log_dir() -> Path:
    """The platform's user log folder (platformdirs), or CALLMARK_LOG_DIR."""
    if os.environ.get(ENV_LOG_DIR):
        return Path(os.environ[ENV_LOG_DIR]).expanduser()
    import platformdirs

    return Path(platformdirs.user_log_dir(APP_NAME, appauthor=False))


def _scrub(text: str) -> str:
    import re

    home = str(Path.home())
    if home and home != "/":
        text = text.replace(home, "~")
    return re.sub(r"[\w.+-]+@[\w-]+\.[\w.-]+", "<email>", text)


def logger(name: str = "callmark"):
    """A logger under ``callmark`` whose lines go to the rotating file (set up on first use)."""
    import logging

    _configure()
    return logging.getLogger(name if name.startswith("callmark") else f"callmark.{name}")


def _configure() -> None:
    global _configured
    if _configured:
        return
    import logging
    import logging.handlers

    _configured = True
    root = logging.getLogger("callmark")
    root.setLevel(logging.INFO)
    root.propagate = False
    try:
        folder = log_dir()
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        handler: logging.Handler = logging.handlers.RotatingFileHandler(
            folder / LOG_FILE, maxBytes=MAX_BYTES, backupCount=KEEP, encoding="utf-8", delay=True)
    except OSError:
        handler = logging.NullHandler()  # no log is better than an app that can't start

    class Scrubbed(logging.Formatter):
        def format(self, record):
            return _scrub(super().format(record))

    handler.setFormatter(Scrubbed("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root.addHandler(handler)


def describe_unexpected(exc_type, exc, tb) -> str:
    """The traceback with each exception's type and frames, but not its message."""
    import traceback

    out: list[str] = []
    seen: set[int] = set()
    chain = []
    current = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        chain.append(current)
        current = current.__cause__ or current.__context__
    for n, item in enumerate(reversed(chain)):
        if n:
            out.append("  then, while handling it:")
        frames = traceback.extract_tb(item.__traceback__ if item is not exc else tb)
        out.extend(line.rstrip("\n") for line in traceback.format_list(frames))
        out.append(f"{type(item).__module__}.{type(item).__qualname__} (message left out)")
    return _scrub("\n".join(out))


def log_unexpected(exc_type, exc, tb, where: str = "") -> None:
    try:
        logger().error("unexpected %s%s\n%s", exc_type.__name__, f" in {where}" if where else "",
                       describe_unexpected(exc_type, exc, tb))
    except Exception:  # noqa: BLE001 - logging must never be what breaks
        pass


def install_excepthook() -> None:
    """Log every exception nothing caught (main thread, other threads, Qt slots), then go on as before."""
    import threading

    if getattr(sys.excepthook, "_callmark", False):
        return
    previous, previous_thread = sys.excepthook, threading.excepthook

    def hook(exc_type, exc, tb):
        if not issubclass(exc_type, KeyboardInterrupt):
            _note_damage(exc)
            log_unexpected(exc_type, exc, tb)
        previous(exc_type, exc, tb)

    def thread_hook(args):
        if args.exc_type is not SystemExit:
            _note_damage(args.exc_value)
            log_unexpected(args.exc_type, args.exc_value, args.exc_traceback,
                           where=f"thread {args.thread.name}" if args.thread else "")
        previous_thread(args)

    hook._callmark = True
    sys.excepthook = hook
    threading.excepthook = thread_hook


_open_stores: list = []


def watch_store(store) -> None:
    """An unexpected error that is SQLite reporting damage also tells this store (it stops writing)."""
    _open_stores.append(store)


def _note_damage(exc) -> None:
    for store in _open_stores:
        try:
            store.note_error(exc)
        except Exception:  # noqa: BLE001
            pass
