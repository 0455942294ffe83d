"""`callmark packet`: the manager's session packet (HTML, and a PDF for printing)."""

from __future__ import annotations

import sys

from desktop.cli import print_json
from desktop.errors import CallmarkError


def register(sub, common) -> None:
    parser = sub.add_parser("packet", parents=[common],
                            help="the manager's session packet: moments, one behavior, practice, questions")
    parser.add_argument("call", nargs="?", help="call id (or exact title); optional with --cycle")
    parser.add_argument("--coach", metavar="NAME", help="whose items (default: you, the local coach)")
    parser.add_argument("--cycle", type=int, metavar="ID", help="the next session of this cycle")
    parser.add_argument("-o", "--output", required=True, metavar="FILE.html")
    parser.add_argument("--pdf", metavar="FILE.pdf", help="also write a PDF for printing")
    parser.add_argument("--no-clips", action="store_true", help="leave the audio clips out")
    parser.add_argument("--no-redact", action="store_true",
                        help="keep emails, phone and card numbers (the packet may then hold personal data)")
    parser.add_argument("--json", action="store_true", help="print what was written and every redaction")
    parser.set_defaults(handler=_packet)


def _packet(args, ctx) -> int:
    from desktop.services import calls, packets  # lazy: every start loads every command
    if args.call is None and args.cycle is None:
        raise CallmarkError("packet: name a call, or a cycle with --cycle ID")
    call_id = calls.resolve_call(ctx.store, args.call).id if args.call is not None else None
    build = packets.build_packet(ctx.store, call_id, coach=args.coach, cycle_id=args.cycle,
                                 clips=not args.no_clips, redact_pii=not args.no_redact)
    if not build.data.items:
        raise CallmarkError("packet: no coaching item of this coach is ready for the manager "
                            + (f"({'; '.join(build.left_out)})" if build.left_out else "on this call"))
    html = build.html()
    pdf = None
    if args.pdf:
        from desktop.ui.exchange.pdf import pdf_bytes

        pdf = pdf_bytes(html, f"Coaching session: {build.data.call_title}")  # made before anything is written
    packets.write_html(build, args.output)
    if pdf is not None:
        from desktop.exchange.safe_write import atomic_write_bytes

        atomic_write_bytes(args.pdf, pdf)
    for note in build.left_out + build.clip_problems:
        print(f"callmark: {note}", file=sys.stderr)
    if args.json:
        print_json({"html": args.output, "pdf": args.pdf, "items": len(build.data.items),
                    "moments": len(build.data.moments),
                    "clips": sum(1 for m in build.data.moments if m.clip),
                    "redacted": build.data.redacted,
                    "redactions": [{"where": where, "kind": r.kind.value, "original": r.original}
                                   for where, r in build.redactions],
                    "muted_ms": build.muted_ms, "left_out": build.left_out})
    else:
        print(args.output + (f"\n{args.pdf}" if args.pdf else ""))
    return 0
