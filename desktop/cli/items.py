"""`callmark items list|check|add|show|park|parked|promote`."""

from __future__ import annotations

from desktop.cli import print_json, print_row, print_rows
from desktop.core.enums import Severity
from desktop.core.specificity import check_behavior, passes
from desktop.core.timefmt import format_ms
from desktop.errors import CallmarkError
from desktop.services import calls, items, parking

_MARK = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "info"}


def register(sub, common) -> None:
    parser = sub.add_parser("items", parents=[common], help="coaching items: one behavior per item")
    inner = parser.add_subparsers(dest="items_command", metavar="ACTION", required=True)

    lst = inner.add_parser("list", parents=[common], help="list coaching items")
    lst.add_argument("--manager", metavar="NAME", help="only this manager's items")
    lst.add_argument("--status", choices=["open", "done", "dropped"])
    lst.add_argument("--json", action="store_true", help="print the record's item shape")
    lst.set_defaults(handler=_list)

    chk = inner.add_parser("check", parents=[common],
                           help="run the specificity check on an item, or on a behavior text")
    chk.add_argument("target", metavar="ITEM_OR_TEXT",
                     help="an item number or id (checks the whole item), otherwise a behavior text")
    chk.add_argument("--json", action="store_true", help="print [{component, severity, message}]")
    chk.set_defaults(handler=_check)

    add = inner.add_parser("add", parents=[common], help="start an item from moments of a call")
    add.add_argument("call", help="call id (or exact title)")
    add.add_argument("--moment", dest="moments", type=int, action="append", required=True, metavar="ID",
                     help="a moment of that call (repeat for several)")
    add.add_argument("--behavior", help="the one behavior")
    add.add_argument("--change", choices=["start", "stop", "adjust"])
    add.add_argument("--manager", metavar="NAME", help="default: the call's manager")
    add.add_argument("--json", action="store_true")
    add.set_defaults(handler=_add)

    show = inner.add_parser("show", parents=[common], help="show one item and its findings")
    show.add_argument("item", help="item number or id")
    show.add_argument("--json", action="store_true")
    show.set_defaults(handler=_show)

    prk = inner.add_parser("park", parents=[common], help="park a moment or a note on a manager for later")
    prk.add_argument("--moment", type=int, metavar="ID")
    prk.add_argument("--note", default="")
    prk.add_argument("--manager", metavar="NAME", help="default: the moment's call manager")
    prk.add_argument("--json", action="store_true")
    prk.set_defaults(handler=_park)

    parked = inner.add_parser("parked", parents=[common], help="list parked observations")
    parked.add_argument("--manager", metavar="NAME")
    parked.add_argument("--json", action="store_true")
    parked.set_defaults(handler=_parked)

    pro = inner.add_parser("promote", parents=[common], help="turn a parked observation into an item")
    pro.add_argument("parked", type=int, metavar="PARKED_ID")
    pro.add_argument("--json", action="store_true")
    pro.set_defaults(handler=_promote)


def _list(args, ctx) -> int:
    rows = items.list_items(ctx.store, args.manager, status=args.status)
    if args.json:
        print_json([r.to_json() for r in rows])
        return 0
    if not rows:
        print("No coaching items yet.")
    for r in rows:
        print(f"{r.id:>4}  {r.status:<7} {r.manager or '-':<18} {r.title}")
    return 0


def _print_findings(found, as_json: bool) -> None:
    if as_json:
        print_json([{"component": f.component, "severity": str(f.severity), "message": f.message}
                    for f in found])
        return
    if passes(found):
        print("Specific enough to coach." if not found else "Specific enough to coach; advice:")
    for f in found:
        print(f"{_MARK[f.severity]:<8} {f.component}: {f.message}")
        if f.suggestion:
            print(f"         → {f.suggestion}")


def _check(args, ctx) -> int:
    target = args.target.strip()
    if items.looks_like_item_ref(target):
        found = items.findings(items.resolve_item(ctx.store, target))
    else:
        found = check_behavior(target)
    _print_findings(found, args.json)
    return 0 if passes(found) else 1


def _add(args, ctx) -> int:
    call = calls.resolve_call(ctx.store, args.call)
    from desktop.services import moments

    for moment_id in args.moments:
        if moments.get_moment(ctx.store, moment_id).call_id != call.id:
            raise CallmarkError(f"moment {moment_id}: not a moment of call {call.id} ({call.title})")
    fields = {}
    if args.behavior is not None:
        fields["behavior_text"] = args.behavior
    if args.change:
        fields["behavior_change"] = args.change
    row = items.create_item(ctx.store, args.moments, manager=args.manager, **fields)
    return print_row(args, row)


def _show(args, ctx) -> int:
    row = items.resolve_item(ctx.store, args.item)
    if args.json:
        print_json(row.to_json())
        return 0
    print(f"Item {row.id} for {row.manager or '-'} ({row.status})")
    for m in row.moments:
        print(f"  moment  {m.call_title}  {format_ms(m.start_ms)}  {m.speaker or ''}: “{m.quote}”")
    for e in row.evidence:
        print(f"  {e.kind:<7} {e.on_date or 'no date'}  {e.text}")
    print(f"  consequence    {row.consequence}")
    print(f"  behavior       {row.behavior_change}: {row.behavior_text}")
    print(f"  practice       {row.practice_kind}: {row.practice_task}")
    print(f"  owner          {row.owner_does} does, {row.owner_reviews} reviews")
    print(f"  cadence        {row.cadence}")
    print(f"  indicator      {row.indicator}")
    print(f"  next evidence  {row.next_evidence} (by {row.next_evidence_due or 'no date'})")
    print(f"  review rule    {row.review_rule_text}")
    if row.qualification_gap:
        print(f"  gap            {row.qualification_gap}")
    _print_findings(items.findings(row), False)
    return 0


def _park(args, ctx) -> int:
    row = parking.park(ctx.store, moment_id=args.moment, note=args.note, manager=args.manager)
    return print_row(args, row)


def _parked(args, ctx) -> int:
    rows = parking.list_parked(ctx.store, args.manager)
    return print_rows(args, rows, lambda r: f"{r.id:>4}  {r.manager or '-':<18} {r.label}")


def _promote(args, ctx) -> int:
    row = parking.promote(ctx.store, args.parked)
    return print_row(args, row)
