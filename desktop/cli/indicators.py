"""`callmark indicators --manager NAME [--cycle ID] [--as-of DATE] [--json]`: one manager, six figures."""

from __future__ import annotations

from desktop.cli import print_json
from desktop.core.indicators import INDICATOR_KEYS
from desktop.services import indicators
from desktop.services.cycles import parse_date

LABELS = {
    "coaching_frequency": "Coaching frequency (sessions held / planned)",
    "action_completion": "Action completion (practice actions done / agreed)",
    "feedback_specificity": "Feedback specificity (items passing the check / items)",
    "inspection_quality": "Inspection quality (reviews using customer or CRM evidence / checked)",
    "behavior_adoption": "Behavior adoption (seen / later calls and reviews checked)",
    "evidence_capture": "Evidence capture (held sessions with a moment or example / held)",
}


def register(sub, common) -> None:
    parser = sub.add_parser("indicators", parents=[common],
                            help="the six leading indicators of one manager's cycle")
    parser.add_argument("--manager", metavar="NAME", help="the manager (their current cycle)")
    parser.add_argument("--cycle", type=int, metavar="ID", help="a given cycle")
    parser.add_argument("--as-of", metavar="DATE", help="count what is dated up to this day (default: today)")
    parser.add_argument("--weeks", action="store_true",
                        help="with --json: also the cycle, the week-by-week series and the item checklist")
    parser.add_argument("--json", action="store_true",
                        help="exactly the six keys, each {value, numerator, denominator}")
    parser.set_defaults(handler=_indicators)


def _indicators(args, ctx) -> int:
    result = indicators.report(ctx.store, args.manager, args.cycle, parse_date(args.as_of, "--as-of"))
    if args.json:
        print_json(result.to_json(full=args.weeks))
        return 0
    c = result.cycle
    print(f"{c.manager} — cycle {c.id} from {c.start_date} ({c.conversation_model.upper()}), "
          f"as of {result.as_of}: day {c.now.day}, {c.now.label}")
    for key in INDICATOR_KEYS:
        f = getattr(result.indicators, key)
        value = "—" if f.value is None else f"{f.value:.0%}"
        print(f"  {LABELS[key]:<72} {f.numerator:>3} / {f.denominator:<3} {value:>5}")
    if result.proposals_waiting:
        print(f"  ({result.proposals_waiting} observations proposed from later calls wait to be confirmed: "
              f"`callmark observations proposed --cycle {c.id}`)")
    for q in result.quality:
        print(f"Item {q.item_id}: {q.title}")
        for check in q.checks:
            mark = {True: "[x]", False: "[ ]", None: "[?]"}[check.ok]
            print(f"  {mark} {check.label}: {check.reason}")
        print(f"  Review: {q.proposal.decision or 'wait'} — {q.proposal.reason}")
    return 0
