"""`callmark calls add|list|stats|relink`."""

from __future__ import annotations

from desktop.cli import print_json, print_row
from desktop.core.enums import CallSource
from desktop.services import calls


def register(sub, common) -> None:
    parser = sub.add_parser("calls", parents=[common], help="the library of calls")
    inner = parser.add_subparsers(dest="calls_command", metavar="ACTION", required=True)

    add = inner.add_parser("add", parents=[common], help="add a recording (the file stays where it is)")
    add.add_argument("file")
    add.add_argument("--title")
    add.add_argument("--rep", metavar="NAME")
    add.add_argument("--manager", metavar="NAME")
    add.add_argument("--recorded-at", metavar="ISO")
    add.add_argument("--source", choices=[s.value for s in CallSource])
    add.add_argument("--json", action="store_true")
    add.set_defaults(handler=_add)

    lst = inner.add_parser("list", parents=[common], help="list the calls")
    lst.add_argument("--json", action="store_true")
    lst.set_defaults(handler=_list)
    from desktop.cli.suggest import register_stats

    register_stats(inner, common)

    rel = inner.add_parser("relink", parents=[common],
                           help="point a call at its recording again, after the file moved (checked by SHA-256)")
    rel.add_argument("call", help="call id (or exact title)")
    where = rel.add_mutually_exclusive_group(required=True)
    where.add_argument("file", nargs="?", help="the recording's new place")
    where.add_argument("--search", metavar="DIR", help="search this folder (and those inside) for it")
    rel.add_argument("--json", action="store_true")
    rel.set_defaults(handler=_relink)

    from desktop.cli.calls_import import add_import_command

    add_import_command(inner, common)


def _add(args, ctx) -> int:
    calls.parse_recorded_at(args.recorded_at)
    inspected = calls.inspect_media(args.file)  # before the store is opened: a bad file writes nothing
    call, _created = calls.add_call(
        ctx.store, args.file, inspected=inspected, title=args.title, rep=args.rep, manager=args.manager,
        recorded_at=args.recorded_at, source=args.source,
    )
    return print_row(args, call)


def _list(args, ctx) -> int:
    rows = calls.list_calls(ctx.store)
    if args.json:
        print_json([r.to_json() for r in rows])
        return 0
    from desktop.core.timefmt import format_ms

    for r in rows:
        print(f"{r.id:>5}  {format_ms(r.duration_ms):>10}  {r.transcript_status:<8} "
              f"{r.moment_count:>3} moments  {r.title}")
    return 0


def _relink(args, ctx) -> int:
    from desktop.services import relink

    call = calls.resolve_call(ctx.store, args.call)
    if args.search:
        row = relink.relink_by_search(ctx.store, call.id, args.search)
    else:
        row = relink.relink(ctx.store, call.id, args.file)
    if args.json:
        print_json(row.to_json())
    else:
        print(row.media_path)
    return 0
