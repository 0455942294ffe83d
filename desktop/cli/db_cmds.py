"""`callmark db check|backup|backups|restore|recover|copy`."""

from __future__ import annotations

from pathlib import Path

from desktop import paths
from desktop.cli import print_json
from desktop.services import maintenance


def register(sub, common) -> None:
    parser = sub.add_parser("db", parents=[common], help="look after the store")
    inner = parser.add_subparsers(dest="db_command", metavar="ACTION", required=True)
    chk = inner.add_parser("check", parents=[common], help="integrity, references, schema, search index")
    chk.add_argument("--json", action="store_true")
    chk.add_argument("--full", action="store_true",
                     help="also FTS5's check of every search entry (saves in an open Callmark wait while it runs)")
    chk.set_defaults(handler=_check)
    bak = inner.add_parser("backup", parents=[common], help="online backup of the store")
    bak.add_argument("-o", "--output", metavar="FILE")
    bak.set_defaults(handler=_backup)
    from desktop.cli.db_backups import register_backups

    register_backups(inner, common)
    cpy = inner.add_parser("copy", parents=[common],
                           help="copy the store to a team store or a file (counted and checksummed)")
    cpy.add_argument("--to", required=True, metavar="URL_OR_FILE",
                     help="postgresql://coach@host/callmark, or a store file")
    cpy.add_argument("--from", dest="source", metavar="URL_OR_FILE",
                     help="the store to copy (default: the one --store or the data folder names)")
    cpy.add_argument("--merge", action="store_true",
                     help="into a store that already holds a library: add what is missing, by the records' ids")
    cpy.add_argument("--json", action="store_true")
    cpy.set_defaults(handler=_copy)


def _bar(label: str):
    """A bar on stderr (only on a terminal) for a check or backup of a big store, and its update function."""
    from desktop.transcription.progress import ProgressBar

    bar = ProgressBar(label=label)

    def update(done: int, total: int, what: str = "") -> None:
        bar.update(done / total if total else 1.0)

    return bar, update


def _check(args, ctx) -> int:
    bar, update = _bar("checking the store")
    try:
        report = maintenance.check(ctx.store, progress=update, full=args.full)
    finally:
        bar.finish()
    if args.json:
        print_json(report.to_json())
    else:
        print(f"store: {report.path}")
        print(f"schema: {report.schema} (current {report.head})")
        print(f"integrity: {', '.join(report.integrity)}")
        print(f"references: {'ok' if not report.foreign_key_problems else len(report.foreign_key_problems)}")
        print(f"search index: {report.search_index}")
        for problem in report.problems:
            print(f"problem: {problem}")
    return 0 if report.ok else 1


def _backup(args, ctx) -> int:
    target = Path(args.output) if args.output else None
    bar, update = _bar("backing up")
    try:
        written = maintenance.backup(ctx.store, target, paths.backups_dir(ctx.home), progress=update)
    finally:
        bar.finish()
    print(written)
    return 0


def _copy(args, ctx) -> int:
    from desktop.services.store_copy import copy_store
    from desktop.store_choice import open_chosen

    source = open_chosen(args.source, ctx.home) if args.source else ctx.store
    try:
        target = open_chosen(args.to, ctx.home)
        try:
            report = copy_store(source, target, merge=args.merge)
        finally:
            target.close()
    finally:
        if source is not ctx.store:
            source.close()
    if args.json:
        print_json(report.to_json())
    else:
        print(f"copied {report.source} -> {report.target}: {report.added} rows added, counts and checksums verified")
        for table in report.tables:
            if table.source:
                print(f"  {table.table}: {table.source} in the source, {table.added} added, "
                      f"{table.already_there} already there")
    return 0
