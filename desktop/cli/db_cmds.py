"""`callmark db check|backup|backups|restore|recover`."""

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
    chk.set_defaults(handler=_check)
    bak = inner.add_parser("backup", parents=[common], help="online backup of the store")
    bak.add_argument("-o", "--output", metavar="FILE")
    bak.set_defaults(handler=_backup)
    from desktop.cli.db_backups import register_backups

    register_backups(inner, common)


def _check(args, ctx) -> int:
    report = maintenance.check(ctx.store)
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
    written = maintenance.backup(ctx.store, target, paths.backups_dir(ctx.home))
    print(written)
    return 0
