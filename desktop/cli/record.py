"""`callmark record export|import|whoami`: the portable coaching record."""

from __future__ import annotations

import re
import sys
from pathlib import Path

from desktop.cli import print_json


def register(sub, common) -> None:
    parser = sub.add_parser("record", parents=[common],
                            help="the portable coaching record (*.callmark.json) for another coach")
    inner = parser.add_subparsers(dest="record_command", metavar="ACTION", required=True)

    exp = inner.add_parser("export", parents=[common], help="one coach's moments and items on one call")
    exp.add_argument("call", help="call id (or exact title)")
    exp.add_argument("--coach", metavar="NAME", help="whose moments and items (default: you, the local coach)")
    exp.add_argument("-o", "--output", metavar="FILE",
                     help="where to write (default: <call>.<coach>.callmark.json here; - for stdout)")
    exp.add_argument("--with-transcript", action="store_true", help="include the call's current transcript")
    exp.add_argument("--redact", action="store_true",
                     help="replace emails, phone and card numbers in quotes, notes and transcript")
    exp.add_argument("--json", action="store_true", help="print what was written and every redaction")
    exp.set_defaults(handler=_export)

    imp = inner.add_parser("import", parents=[common], help="check a record completely, then add it")
    imp.add_argument("file")
    imp.add_argument("--json", action="store_true")
    imp.set_defaults(handler=_import)

    who = inner.add_parser("whoami", parents=[common],
                           help="show or set the local coach (the name on records you export)")
    who.add_argument("--name")
    who.add_argument("--email")
    who.add_argument("--json", action="store_true")
    who.set_defaults(handler=_whoami)


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-").lower()[:60] or "call"


def _export(args, ctx) -> int:
    from desktop.services import calls, records  # lazy: every start loads every command
    call = calls.resolve_call(ctx.store, args.call)
    result = records.export_record(ctx.store, call.id, coach=args.coach, with_transcript=args.with_transcript,
                                   redact_pii=args.redact)
    for reason in result.left_out:
        print(f"callmark: left out {reason}", file=sys.stderr)
    if args.output == "-":
        from desktop.exchange.record import dump_record

        sys.stdout.buffer.write(dump_record(result.record))
        return 0
    target = Path(args.output) if args.output else Path(
        f"{_slug(call.title)}.{_slug(result.record.exported_by.name)}.callmark.json")
    records.save_record(result, target)
    if args.json:
        print_json({"path": str(target), "moments": len(result.record.moments),
                    "items": len(result.record.items), "transcript": result.record.transcript is not None,
                    "left_out": result.left_out,
                    "redactions": [{"where": where, "kind": r.kind.value, "original": r.original}
                                   for where, r in result.redactions]})
    else:
        print(target)
    return 0


def _import(args, ctx) -> int:
    from desktop.exchange.record import load_record
    from desktop.services import records  # lazy: every start loads every command

    record = load_record(args.file)  # checked before the store is opened: a bad file writes nothing
    result = records.import_loaded(ctx.store, record, args.file)
    if args.json:
        print_json(result.to_json())
        return 0
    made = "new call without media (add the recording to relink it)" if result.call_created else "call"
    print(f"{result.coach}: {result.moments_added} moments and {result.items_added} items added to "
          f"{made} {result.call_id} ({result.call_title})"
          + (f"; {result.moments_unchanged + result.items_unchanged} already here" if
             result.moments_unchanged + result.items_unchanged else "")
          + ("; hidden until you compare (blind review)" if result.hidden_for_blind_review else ""))
    return 0


def _whoami(args, ctx) -> int:
    from desktop.services import records  # lazy: every start loads every command

    if args.name or args.email:
        current = records.whoami(ctx.store)
        name = args.name or (current[0] if current else "")
        found = records.set_whoami(ctx.store, name, args.email if args.email is not None else
                                   (current[1] if current else None))
    else:
        found = records.whoami(ctx.store)
    if args.json:
        print_json({"name": found[0], "email": found[1]} if found else None)
    elif found:
        print(f"{found[0]} <{found[1]}>" if found[1] else found[0])
    else:
        print("no local coach yet: callmark record whoami --name NAME --email EMAIL")
    return 0
