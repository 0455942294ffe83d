"""`callmark moments suggest|accept|dismiss` and `callmark calls stats`: the moment finder from the command line."""

from __future__ import annotations

from desktop.cli import print_json


def register_suggestions(inner, common) -> None:
    from desktop.core.detect import LABELS

    sug = inner.add_parser("suggest", parents=[common],
                           help="the moments worth coaching the finder suggests (writes nothing but its cache)")
    sug.add_argument("call", help="call id (or exact title)")
    sug.add_argument("--label", action="append", metavar="L", choices=LABELS,
                     help="only this label (repeat for more)")
    sug.add_argument("--json", action="store_true")
    sug.set_defaults(handler=_suggest)
    for verb, text in (("accept", "make moments of these suggestions"), ("dismiss", "dismiss these suggestions")):
        cmd = inner.add_parser(verb, parents=[common], help=text)
        cmd.add_argument("call", help="call id (or exact title)")
        cmd.add_argument("ids", nargs="+", metavar="ID", help="suggestion id from `moments suggest` (or 6+ of its first characters)")
        cmd.add_argument("--json", action="store_true")
        cmd.set_defaults(handler=_decide, verb=verb)


def register_stats(inner, common) -> None:
    stats = inner.add_parser("stats", parents=[common], help="conversation figures: talk share, monologues, questions")
    stats.add_argument("call", help="call id (or exact title)")
    stats.add_argument("--json", action="store_true")
    stats.set_defaults(handler=_stats)


def _call_id(ctx, ref: str) -> int:
    from desktop.services.calls import resolve_call

    return resolve_call(ctx.store, ref).id


def _suggest(args, ctx) -> int:
    from desktop.core.timefmt import format_ms
    from desktop.services import suggestions

    call_id = _call_id(ctx, args.call)
    found = suggestions.suggestions(ctx.store, call_id, args.label)
    if args.json:
        print_json([s.to_json() for s in found])
        return 0
    if not found:
        import sys

        why = suggestions.why_none(ctx.store, call_id)
        if why:
            print(f"callmark: call {call_id}: {why}", file=sys.stderr)
    for s in found:
        f = s.finding
        mark = {"accepted": "  [accepted]", "dismissed": "  [dismissed]"}.get(s.verdict or "", "")
        print(f"{f.id}  {format_ms(f.start_ms):>9}  {f.label:<21} {f.speaker or '':<14} {f.quote}{mark}")
        print(f"{'':>29}{f.reason}")
    return 0


def _decide(args, ctx) -> int:
    from desktop.services import suggestions

    call_id = _call_id(ctx, args.call)
    act = suggestions.accept if args.verb == "accept" else suggestions.dismiss
    change = act(ctx.store, call_id, args.ids)
    if args.json:
        print_json(change.to_json())
        return 0
    for m in change.moments:
        print(f"moment {m.id}: {m.kind} at {m.start_ms} ms, {m.quote}")
    if args.verb == "dismiss":
        for f in change.decided:
            print(f"dismissed {f.id} ({f.label})")
    for fid in change.unchanged:
        print(f"{fid}: already {change.verdict}")
    return 0


def _stats(args, ctx) -> int:
    from desktop.services import suggestions

    figures = suggestions.call_figures(ctx.store, _call_id(ctx, args.call))
    if args.json:
        print_json(figures.to_json())
        return 0
    for key, value in figures.to_json().items():
        shown = "—" if value is None else (f"{value:.3f}" if isinstance(value, float) else str(value))
        why = f"  ({figures.reasons[key]})" if value is None and key in figures.reasons else ""
        print(f"{key:<26} {shown}{why}")
    return 0
