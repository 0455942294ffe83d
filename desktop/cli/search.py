"""`callmark search QUERY`."""

from __future__ import annotations

from desktop.cli import print_json
from desktop.core.timefmt import format_ms
from desktop.services import search as search_service


def register(sub, common) -> None:
    parser = sub.add_parser("search", parents=[common], help="search every transcript in the library")
    parser.add_argument("query")
    parser.add_argument("--limit", type=int, default=200)
    parser.add_argument("--json", action="store_true")
    parser.set_defaults(handler=_search)


def _search(args, ctx) -> int:
    hits = search_service.search(ctx.store, args.query, limit=args.limit)
    if args.json:
        print_json([h.to_json() for h in hits])
        return 0
    for h in hits:
        line = h.marked.replace(search_service.MARK_START, "[").replace(search_service.MARK_END, "]")
        print(f"{h.call_id:>5}  {format_ms(h.start_ms)}  {h.speaker or '':<14} {line}")
    return 0
