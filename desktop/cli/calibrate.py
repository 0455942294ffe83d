"""`callmark calibrate CALL --theirs FILE`: two coaches' marks on one call, matched, with the figures."""

from __future__ import annotations

from desktop.cli import print_json
from desktop.core.calibration import DEFAULT_TOLERANCE_MS


def register(sub, common) -> None:
    parser = sub.add_parser("calibrate", parents=[common],
                            help="compare two coaches' moments on the same call (calibration)")
    parser.add_argument("call", help="call id (or exact title)")
    parser.add_argument("--theirs", metavar="FILE", required=True, help="the other coach's record (*.callmark.json)")
    parser.add_argument("--mine", metavar="FILE",
                        help="a second record to stand for 'mine' (default: your own moments in this library)")
    parser.add_argument("--tolerance-ms", type=int, default=DEFAULT_TOLERANCE_MS, metavar="MS",
                        help=f"start times this close make a pair (default {DEFAULT_TOLERANCE_MS})")
    parser.add_argument("--json", action="store_true", help="print the figures, pairs and unmatched ids as JSON")
    parser.add_argument("--report", metavar="FILE.html", help="write the side-by-side report (self-contained HTML)")
    parser.set_defaults(handler=_calibrate)


def _calibrate(args, ctx) -> int:
    # Imported here, not at the top: every `callmark` start loads every command module.
    from desktop.exchange.record import load_record
    from desktop.services import calibration as cal
    from desktop.services import calls
    from desktop.services.calibration_report import describe, write_report
    from desktop.services.records import import_loaded, whoami

    if args.tolerance_ms < 0:
        raise cal.CalibrationProblem(f"--tolerance-ms: must be 0 or more, got {args.tolerance_ms}")
    call = calls.resolve_call(ctx.store, args.call)
    # Every file is checked before anything is written.
    theirs = load_record(args.theirs)
    cal.check_record_for_call(ctx.store, call.id, theirs, args.theirs)
    mine = None
    if args.mine:
        mine = load_record(args.mine)
        cal.check_record_for_call(ctx.store, call.id, mine, args.mine)
    me = mine.exported_by.name if mine else (whoami(ctx.store) or ("Me",))[0]
    if theirs.exported_by.name == me:
        raise cal.CalibrationProblem(f"{args.theirs}: this record is {me}'s own; calibrate against another coach")
    if mine is not None:
        import_loaded(ctx.store, mine, args.mine)
    import_loaded(ctx.store, theirs, args.theirs)
    view = cal.compare(ctx.store, call.id, theirs.exported_by.name, mine=mine.exported_by.name if mine else None,
                       tolerance_ms=args.tolerance_ms)
    if args.report:
        write_report(args.report, view)
    if args.json:
        print_json(view.figures())
    else:
        print(describe(view))
        if args.report:
            print(f"report: {args.report}")
    return 0
