"""The `callmark` command: the GUI by default, sub-commands over the same services.

Each module in this package that defines `register(subparsers, common)` adds its
sub-commands (and their names go into ``COMMANDS``: the window is told from a
sub-command without building the parser); a handler gets `(args, ctx)` and
returns an exit status. Problems the user can fix are raised as exceptions and
printed as one line on stderr.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

# Every sub-command's name. The bare `callmark` (the window) is told from a sub-command by this set
# alone: building the parser imports every command module and, through them, SQLAlchemy and the
# services, which held the window up by more than half a second. A test keeps it equal to the parser.
COMMANDS = frozenset({"calibrate", "calls", "crm", "cycles", "db", "indicators", "items", "media", "moments",
                      "observations", "packet", "queue", "record", "search", "team", "trackers", "transcribe",
                      "transcript", "transcription"})


def _common() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    # SUPPRESS: a --home given before the sub-command is not overwritten by this default.
    common.add_argument("--home", metavar="DIR", default=argparse.SUPPRESS,
                        help="data folder (default: CALLMARK_HOME or the platform's data folder)")
    common.add_argument("--store", metavar="URL", default=argparse.SUPPRESS,
                        help="a team store (postgresql://coach@host/callmark) or another store file "
                             "(default: CALLMARK_STORE, else the data folder's store)")
    return common


def build_parser() -> argparse.ArgumentParser:
    from desktop import __version__  # here: reading the package's metadata is not free at start-up

    common = _common()
    parser = argparse.ArgumentParser(
        prog="callmark",
        description="Replay sales calls beside their transcript, mark the moment, coach one behavior.",
        parents=[common],
    )
    parser.add_argument("--version", action="version", version=f"callmark {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in _command_modules():
        module.register(sub, common)
    return parser


def _command_modules():
    import importlib
    import pkgutil

    import desktop.cli as package

    for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name):
        if info.name.startswith("_") or info.name == "context":
            continue
        module = importlib.import_module(f"desktop.cli.{info.name}")
        if hasattr(module, "register"):
            yield module


def _wants_gui(argv: Sequence[str], commands: set[str]) -> bool:
    skip = False
    for arg in argv:
        if skip:
            skip = False
            continue
        if arg in ("--home", "--store"):
            skip = True
            continue
        if arg.startswith("-"):
            continue
        return arg not in commands
    return True


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    from desktop.logs import install_excepthook  # anything unexpected goes to the log (opened only then)

    install_excepthook()
    if _wants_gui(argv, COMMANDS) and not any(a in ("-h", "--help", "--version") for a in argv):
        from desktop.cli.gui import run_gui_from_argv

        return run_gui_from_argv(argv)
    from desktop.cli.context import Context, user_error_types

    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "handler", None):
        parser.print_help()
        return 0
    ctx = Context(getattr(args, "home", None), getattr(args, "store", None))
    try:
        return int(args.handler(args, ctx) or 0)
    except user_error_types() as exc:
        print(f"callmark: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("callmark: interrupted", file=sys.stderr)
        return 130
    finally:
        ctx.close()


def print_json(value) -> None:
    import json  # here: the window (a bare `callmark`) never prints JSON

    json.dump(value, sys.stdout, indent=2, ensure_ascii=False, default=str)
    sys.stdout.write("\n")


def print_rows(args, rows, line) -> int:
    """A list of records: their JSON objects with --json, else ``line(row)`` for each."""
    if args.json:
        print_json([r.to_json() for r in rows])
    else:
        for r in rows:
            print(line(r))
    return 0


def print_row(args, row, line=lambda r: r.id) -> int:
    """One record (or a plain dict): its JSON object with --json, else ``line(row)`` (its id by default)."""
    print_json(row.to_json() if hasattr(row, "to_json") else row) if args.json else print(line(row))
    return 0


def action(inner, name: str, common, handler, help: str):  # noqa: A002 - argparse's word
    """A sub-command's action that takes ``--json`` and runs ``handler(args, ctx)``; add its own arguments."""
    parser = inner.add_parser(name, parents=[common], help=help)
    parser.add_argument("--json", action="store_true")
    parser.set_defaults(handler=handler)
    return parser
