"""`callmark queue --manager NAME`: the moments worth bringing into the manager's next session."""

from __future__ import annotations

from desktop.cli import print_rows
from desktop.core.timefmt import format_ms
from desktop.services import coaching_queue


def register(sub, common) -> None:
    parser = sub.add_parser("queue", parents=[common],
                            help="a manager's coaching queue: suggestions to review on their reps' calls, ranked")
    parser.add_argument("--manager", required=True)
    parser.add_argument("--focus", help="the behavior to put first (default: the current cycle's focus)")
    parser.add_argument("--limit", type=int, default=50, help="how many to show (default 50; 0: all)")
    parser.add_argument("--json", action="store_true")
    parser.set_defaults(handler=_queue)


def _queue(args, ctx) -> int:
    rows = coaching_queue.queue(ctx.store, args.manager, focus=args.focus, limit=args.limit or None)
    return print_rows(args, rows, lambda e: f"{e.call:>5}  {format_ms(e.start_ms)}  {'*' if e.focus else ' '} "
                                            f"{e.label:<22} {e.rep or '-':<16} {e.reason}")
