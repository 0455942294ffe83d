"""`callmark observations proposed|confirm`: adoption read from the team's later calls."""

from __future__ import annotations

from desktop.cli import print_json, print_rows
from desktop.core.timefmt import format_ms
from desktop.services import adoption
from desktop.services.cycles import parse_date


def register(sub, common) -> None:
    parser = sub.add_parser("observations", parents=[common],
                            help="observations proposed from later calls, for the coach to confirm")
    inner = parser.add_subparsers(dest="observations_command", metavar="ACTION", required=True)

    prop = inner.add_parser("proposed", parents=[common],
                            help="each later call's proposed observation (seen / not seen / partly, with the moment)")
    prop.add_argument("--cycle", type=int, required=True, metavar="ID")
    prop.add_argument("--item", type=int, metavar="ID", help="only this coaching item")
    prop.add_argument("--as-of", metavar="DATE", help="calls up to this date (default: today)")
    prop.add_argument("--json", action="store_true")
    prop.set_defaults(handler=_proposed)

    conf = inner.add_parser("confirm", parents=[common],
                            help="keep a proposal as an observation (--seen corrects it)")
    conf.add_argument("--cycle", type=int, required=True, metavar="ID")
    conf.add_argument("--item", type=int, required=True, metavar="ID")
    conf.add_argument("--call", type=int, required=True, metavar="ID")
    conf.add_argument("--seen", choices=("yes", "no", "partly"), help="what you heard (default: as proposed)")
    conf.add_argument("--as-of", metavar="DATE")
    conf.add_argument("--json", action="store_true")
    conf.set_defaults(handler=_confirm)


def _line(p: adoption.ProposedObservation) -> str:
    at = format_ms(p.start_ms) if p.start_ms is not None else "-"
    fills = f"  (fills observation {p.fills})" if p.fills is not None else ""
    return (f"item {p.item_id}  call {p.call:>5}  {p.recorded_on or '-'}  {p.seen_label:<9} {at:>9}  "
            f"{p.rep or '-':<16} {p.evidence}{fills}")


def _proposed(args, ctx) -> int:
    rows = adoption.proposed(ctx.store, args.cycle, parse_date(args.as_of, "--as-of"), args.item)
    return print_rows(args, rows, _line)


def _confirm(args, ctx) -> int:
    made = adoption.confirm(ctx.store, args.cycle, args.item, args.call, args.seen,
                            parse_date(args.as_of, "--as-of"))
    seen = made.label.split(": ")[-1]
    if args.json:
        print_json({"observation": made.ids[0], "call": args.call, "item": args.item, "seen": seen})
    else:
        print(f"observation {made.ids[0]}: {seen} on call {args.call}")
    return 0
