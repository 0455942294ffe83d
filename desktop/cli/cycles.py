"""`callmark cycles list|add|show|focus|sessions|close|missed|done|observe|review`."""

from __future__ import annotations

from desktop.cli import print_json, print_row, print_rows
from desktop.errors import CallmarkError
from desktop.services import coaching_sessions, cycles, observations
from desktop.services.cycles import parse_date

_MODELS = ["grow", "clear", "oskar"]


def register(sub, common) -> None:
    parser = sub.add_parser("cycles", parents=[common], help="90-day coaching cycles, sessions and reviews")
    inner = parser.add_subparsers(dest="cycles_command", metavar="ACTION", required=True)

    lst = inner.add_parser("list", parents=[common], help="list cycles with their phase today")
    lst.add_argument("--manager", metavar="NAME")
    lst.add_argument("--as-of", metavar="DATE", help="the phase on this date (default: today)")
    lst.add_argument("--json", action="store_true")
    lst.set_defaults(handler=_list)

    add = inner.add_parser("add", parents=[common], help="start a cycle; weekly sessions are planned")
    add.add_argument("--manager", required=True, metavar="NAME")
    add.add_argument("--start", required=True, metavar="YYYY-MM-DD")
    add.add_argument("--model", choices=_MODELS, default="grow", help="conversation model (default grow)")
    add.add_argument("--focus", metavar="TEXT", help="the focus behavior, if already chosen")
    add.add_argument("--coach", metavar="NAME", help="default: the local coach")
    add.add_argument("--weekday", type=int, choices=range(7), metavar="0-6",
                     help="sessions on this weekday (0 = Monday); default: every 7 days from day 31")
    add.add_argument("--cadence-days", type=int, default=7, metavar="N")
    add.add_argument("--json", action="store_true")
    add.set_defaults(handler=_add)

    show = inner.add_parser("show", parents=[common], help="one cycle: phase, what it asks, sessions")
    show.add_argument("cycle", type=int, metavar="CYCLE_ID")
    show.add_argument("--as-of", metavar="DATE")
    show.add_argument("--json", action="store_true")
    show.set_defaults(handler=_show)

    focus = inner.add_parser("focus", parents=[common],
                             help="choose the focus behavior (a change from day 31 needs --reason)")
    focus.add_argument("cycle", type=int, metavar="CYCLE_ID")
    focus.add_argument("behavior")
    focus.add_argument("--reason")
    focus.add_argument("--on", metavar="DATE", help="default: today")
    focus.add_argument("--pattern", metavar="LABEL",
                       help="tie the focus item's indicator to this detector (adoption is then proposed from "
                            "later calls: `callmark observations proposed`)")
    focus.add_argument("--indicator", metavar="TEXT", help="with --pattern: the indicator (default: proposed)")
    focus.set_defaults(handler=_focus)

    attach = inner.add_parser("attach", parents=[common], help="work on a coaching item in this cycle")
    attach.add_argument("cycle", type=int, metavar="CYCLE_ID")
    attach.add_argument("item", type=int, metavar="ITEM_ID")
    attach.set_defaults(handler=_attach)

    base = inner.add_parser("baseline", parents=[common],
                            help="each pattern across the calls of the cycle's baseline (or its coaching weeks)")
    base.add_argument("cycle", type=int)
    base.add_argument("--window", choices=("baseline", "coaching"), default="baseline",
                      help="days 1-15 (default), or the coaching weeks, days 31-75, to compare")
    base.add_argument("--json", action="store_true")
    base.set_defaults(handler=_baseline)
    ses = inner.add_parser("sessions", parents=[common], help="a cycle's sessions")
    ses.add_argument("cycle", type=int, metavar="CYCLE_ID")
    ses.add_argument("--json", action="store_true")
    ses.set_defaults(handler=_sessions)

    close = inner.add_parser("close", parents=[common],
                             help="close a session as held: one action, one owner, one evidence place")
    close.add_argument("session", type=int, metavar="SESSION_ID")
    close.add_argument("--action", default="", help="the one practice action")
    close.add_argument("--owner", default="", help="who does it")
    close.add_argument("--evidence-place", default="", help="where you'll look for evidence")
    close.add_argument("--reason", help="why the session closes without them")
    close.add_argument("--held-on", metavar="DATE", help="default: today (a session counts on the day it was held)")
    close.add_argument("--score", type=int, metavar="0-10", help="OSKAR scale score")
    close.add_argument("--item", type=int, metavar="ITEM_ID")
    close.add_argument("--moment", type=int, metavar="MOMENT_ID", help="the moment brought to the session")
    close.add_argument("--example", help="an example kept from the conversation")
    close.add_argument("--json", action="store_true")
    close.set_defaults(handler=_close)

    missed = inner.add_parser("missed", parents=[common], help="the session did not happen")
    missed.add_argument("session", type=int, metavar="SESSION_ID")
    missed.add_argument("--reason")
    missed.set_defaults(handler=_missed)

    done = inner.add_parser("done", parents=[common], help="was the session's practice action done?")
    done.add_argument("session", type=int, metavar="SESSION_ID")
    done.add_argument("answer", choices=["yes", "no"])
    done.set_defaults(handler=_done)

    obs = inner.add_parser("observe", parents=[common],
                           help="was the item's behavior seen in later evidence?")
    obs.add_argument("item", type=int, metavar="ITEM_ID")
    obs.add_argument("--source", choices=["call", "pipeline_review", "role_play"], default="call")
    obs.add_argument("--seen", choices=["yes", "no", "partial"],
                     help="leave out to add one still to check")
    obs.add_argument("--on", metavar="DATE", help="default: today")
    obs.add_argument("--evidence", default="")
    obs.add_argument("--call", type=int, metavar="CALL_ID")
    obs.add_argument("--moment", type=int, metavar="MOMENT_ID")
    obs.add_argument("--customer-evidence", action="store_true",
                     help="the pipeline review used what the customer said or CRM evidence")
    obs.add_argument("--next-two", action="store_true", help="check both of the next two recordings")
    obs.add_argument("--json", action="store_true")
    obs.set_defaults(handler=_observe)

    rev = inner.add_parser("review", parents=[common],
                           help="propose continue / adapt / replace for an item; --decide records it")
    rev.add_argument("item", type=int, metavar="ITEM_ID")
    rev.add_argument("--decide", choices=["continue", "adapt", "replace"])
    rev.add_argument("--rationale", default="")
    rev.add_argument("--on", metavar="DATE")
    rev.add_argument("--json", action="store_true")
    rev.set_defaults(handler=_review)


def _list(args, ctx) -> int:
    rows = cycles.list_cycles(ctx.store, args.manager, parse_date(args.as_of, "--as-of"))
    return print_rows(args, rows, lambda r: f"{r.id:>4}  {r.manager:<20} {r.start_date}  {r.conversation_model.upper():<5}  "
              f"day {r.now.day:>3}  {r.now.label:<26} {r.focus_behavior or '(no focus yet)'}")


def _add(args, ctx) -> int:
    row = cycles.add_cycle(ctx.store, args.manager, args.start, coach=args.coach, model=args.model,
                           focus=args.focus, weekday=args.weekday, cadence_days=args.cadence_days)
    return print_row(args, row)


def _show(args, ctx) -> int:
    row = cycles.get_cycle(ctx.store, args.cycle, parse_date(args.as_of, "--as-of"))
    rows = coaching_sessions.list_sessions(ctx.store, args.cycle)
    if args.json:
        print_json({**row.to_json(), "session_list": [s.to_json() for s in rows],
                    "focus_changes": [c.to_json() for c in cycles.focus_changes(ctx.store, args.cycle)]})
        return 0
    print(f"{row.title} to {row.end_date} ({row.conversation_model.upper()})")
    print(f"Day {row.now.day}: {row.now.label}")
    print(f"  {row.now.asks}")
    print(f"Focus: {row.focus_behavior or '(not chosen yet)'}")
    for s in rows:
        print(f"  {s.id:>4}  #{s.number:<2} {s.planned_date}  {s.status:<8} {s.practice_action}")
    return 0


def _focus(args, ctx) -> int:
    if args.pattern:
        from desktop.core.adoption import proposed_focus
        from desktop.services import patterns
        from desktop.services.adoption import set_focus_from_pattern

        indicator = args.indicator
        if indicator is None:
            indicator = proposed_focus(args.pattern, patterns.follows(ctx.store))[1]
        on = parse_date(args.on, "--on")
        set_focus_from_pattern(ctx.store, args.cycle, args.pattern, args.behavior, indicator, on=on,
                               reason=args.reason)
        print(cycles.get_cycle(ctx.store, args.cycle).focus_behavior)
        return 0
    if args.indicator is not None:
        raise CallmarkError("--indicator goes with --pattern (the detector it is read from)")
    row = cycles.set_focus(ctx.store, args.cycle, args.behavior, on=parse_date(args.on, "--on"),
                           reason=args.reason)
    print(row.focus_behavior)
    return 0


def _attach(args, ctx) -> int:
    cycles.attach_item(ctx.store, args.cycle, args.item)
    return 0


def _sessions(args, ctx) -> int:
    rows = coaching_sessions.list_sessions(ctx.store, args.cycle)
    return print_rows(args, rows, lambda s: f"{s.id:>4}  #{s.number:<2} {s.planned_date}  {s.status:<8} {s.practice_action}")


def _close(args, ctx) -> int:
    row = coaching_sessions.close_held(
        ctx.store, args.session, practice_action=args.action, action_owner=args.owner,
        evidence_place=args.evidence_place, reason=args.reason, held_on=args.held_on, oskar_score=args.score,
        item_id=args.item, moment_id=args.moment, example=args.example)
    if args.json:
        print_json(row.to_json())
    return 0


def _missed(args, ctx) -> int:
    coaching_sessions.mark_missed(ctx.store, args.session, args.reason)
    return 0


def _done(args, ctx) -> int:
    coaching_sessions.set_action_done(ctx.store, args.session, args.answer == "yes")
    return 0


def _observe(args, ctx) -> int:
    if args.next_two:
        if args.seen:
            raise CallmarkError("--next-two adds two observations still to check; leave out --seen")
        rows = observations.check_next_two_recordings(ctx.store, args.item, parse_date(args.on, "--on"))
    else:
        rows = [observations.record(
            ctx.store, source=args.source, observed_on=args.on, seen=args.seen, item_id=args.item,
            evidence=args.evidence, call_id=args.call, moment_id=args.moment,
            uses_customer_evidence=True if args.customer_evidence else
            (False if args.source == "pipeline_review" else None))]
    if args.json:
        print_json([r.to_json() for r in rows])
    else:
        for r in rows:
            print(r.id)
    return 0


def _review(args, ctx) -> int:
    on = parse_date(args.on, "--on")
    if args.decide:
        row = observations.record_review(ctx.store, args.item, args.decide, args.rationale, on)
        if args.json:
            print_json(row.to_json())
        else:
            print(f"{row.decision}: {row.rationale}")
        return 0
    proposal = observations.propose_review(ctx.store, args.item, on)
    if args.json:
        print_json(proposal.to_dict())
    else:
        print(f"{proposal.decision or 'wait'}: {proposal.reason}")
    return 0


def _baseline(args, ctx) -> int:
    from desktop.services.coaching_queue import baseline

    rows = baseline(ctx.store, args.cycle, window=args.window)
    return print_rows(args, rows, lambda p: f"{p.pattern:<22} {p.calls:>3} calls {p.count:>4} times  "
                                            f"{', '.join(sorted(p.reps)) or '-'}")
