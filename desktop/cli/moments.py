"""`callmark moments add|list|suggest|accept|dismiss`."""

from __future__ import annotations

from desktop.cli import print_json
from desktop.core.enums import MomentKind
from desktop.core.timefmt import format_ms, parse_time
from desktop.services import calls, moments


def register(sub, common) -> None:
    parser = sub.add_parser("moments", parents=[common], help="moments marked on a call")
    inner = parser.add_subparsers(dest="moments_command", metavar="ACTION", required=True)
    add = inner.add_parser("add", parents=[common], help="mark a moment")
    add.add_argument("call", help="call id (or exact title)")
    add.add_argument("--at", required=True, metavar="TIME", help="start, e.g. 00:39.876")
    add.add_argument("--end", metavar="TIME", help=f"end (default: {moments.DEFAULT_SPAN_MS // 1000} s later)")
    add.add_argument("--kind", default=MomentKind.OTHER.value, choices=[k.value for k in MomentKind])
    add.add_argument("--note")
    add.add_argument("--json", action="store_true")
    add.set_defaults(handler=_add)
    lst = inner.add_parser("list", parents=[common], help="list a call's moments")
    lst.add_argument("call")
    lst.add_argument("--json", action="store_true")
    lst.set_defaults(handler=_list)
    from desktop.cli.suggest import register_suggestions

    register_suggestions(inner, common)


def _time(text: str, flag: str) -> int:
    try:
        return parse_time(text)
    except ValueError as exc:
        from desktop.errors import CallmarkError

        raise CallmarkError(f"{flag} {text!r}: {exc}") from exc


def _add(args, ctx) -> int:
    start = _time(args.at, "--at")
    end = _time(args.end, "--end") if args.end else None
    call = calls.resolve_call(ctx.store, args.call)
    row = moments.add_moment(ctx.store, call.id, start, end, kind=args.kind, note=args.note)
    if args.json:
        print_json(row.to_record())
    else:
        print(row.id)
    return 0


def _list(args, ctx) -> int:
    call = calls.resolve_call(ctx.store, args.call)
    rows = moments.list_moments(ctx.store, call.id)
    if args.json:
        print_json([r.to_record() for r in rows])
        return 0
    for r in rows:
        print(f"{format_ms(r.start_ms)}–{format_ms(r.end_ms)}  {r.kind:<20} {r.speaker or '':<16} {r.quote}")
    return 0
