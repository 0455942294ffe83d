"""`callmark trackers list|add|edit|remove|hits`: the coach's phrase sets counted on every call."""

from __future__ import annotations

from desktop.cli import action, print_row, print_rows

SIDES = ("rep", "customer", "either")


def register(sub, common) -> None:
    parser = sub.add_parser("trackers", parents=[common], help="phrase sets counted on every call (trackers)")
    inner = parser.add_subparsers(dest="trackers_command", metavar="ACTION", required=True)

    action(inner, "list", common, _list, "every tracker with the calls and lines it found")

    add = action(inner, "add", common, _add, "a new tracker, counted over the library at once")
    add.add_argument("name")
    add.add_argument("--side", choices=SIDES, default="either", help="whose lines count (default: either)")
    _phrase_options(add, required=True)

    edit = action(inner, "edit", common, _edit, "change a tracker (phrases given replace its phrases)")
    edit.add_argument("tracker", help="its name, key or id")
    edit.add_argument("--name", help="a new name")
    edit.add_argument("--side", choices=SIDES)
    _phrase_options(edit, required=False)
    edit.add_argument("--no-exclusions", action="store_true", help="drop every exclusion")

    action(inner, "remove", common, _remove, "remove a tracker and what it found").add_argument(
        "tracker", help="its name, key or id")

    # --json prints: call, start_ms, end_ms, speaker, role, quote
    hits = action(inner, "hits", common, _hits, "one tracker's lines across the library")
    hits.add_argument("tracker", metavar="NAME", help="its name, key or id")
    hits.add_argument("--call", action="append", metavar="CALL", help="only this call (id or exact title; repeat)")

def _phrase_options(parser, *, required: bool) -> None:
    parser.add_argument("--phrase", action="append", required=required, metavar="WORDS",
                        help='words to find, matched on their forms; word* and a lone * (up to three words); '
                             'a/b for either word (repeat for more)')
    parser.add_argument("--exclude", action="append", metavar="WORDS",
                        help="a phrase that cancels a hit on the same line (repeat for more)")


def _line(row) -> str:
    due = "  (counting)" if row.pending else ""
    return (f"{row.name:<24} {row.side:<8} {row.calls:>5} calls {row.hits:>6} lines  "
            f"{'; '.join(row.phrases)}{due}")


def _list(args, ctx) -> int:
    from desktop.services import trackers

    trackers.ensure_counted(ctx.store)
    return print_rows(args, trackers.list_trackers(ctx.store), _line)


def _counted(ctx, tracker_id: int):
    from desktop.services import trackers

    trackers.ensure_counted(ctx.store)
    return next(r for r in trackers.list_trackers(ctx.store) if r.id == tracker_id)


def _add(args, ctx) -> int:
    from desktop.services import trackers

    made = trackers.add(ctx.store, args.name, args.side, args.phrase, args.exclude or ())
    return print_row(args, _counted(ctx, made.row.id), _line)


def _edit(args, ctx) -> int:
    from desktop.services import trackers

    exclusions = [] if args.no_exclusions else args.exclude
    made = trackers.edit(ctx.store, args.tracker, name=args.name, side=args.side, phrases=args.phrase,
                         exclusions=exclusions)
    return print_row(args, _counted(ctx, made.row.id), _line)


def _remove(args, ctx) -> int:
    from desktop.services import trackers

    gone = trackers.remove(ctx.store, args.tracker)
    return print_row(args, gone.row, lambda r: f"removed tracker {r.name}")


def _hits(args, ctx) -> int:
    from desktop.core.timefmt import format_ms
    from desktop.services import trackers
    from desktop.services.calls import resolve_call

    trackers.get_tracker(ctx.store, args.tracker)  # an unknown name says which there are
    trackers.ensure_counted(ctx.store)
    call_ids = [resolve_call(ctx.store, ref).id for ref in args.call] if args.call else None
    rows = trackers.tracker_hits(ctx.store, args.tracker, call_ids)
    return print_rows(args, rows, lambda h: f"{h.call_id:>6}  {format_ms(h.start_ms):>9}  "
                                          f"{(h.speaker or '') + ' (' + h.role + ')':<22} {h.quote}")
