"""`callmark team init|add-coach|share|compare`: a team store's coaches and their shared marks."""

from __future__ import annotations

import sys

from desktop.cli import action, print_row
from desktop.core.calibration import DEFAULT_TOLERANCE_MS


def register(sub, common) -> None:
    parser = sub.add_parser("team", parents=[common], help="a team store on PostgreSQL: coaches, sharing, calibration")
    inner = parser.add_subparsers(dest="team_command", metavar="ACTION", required=True)
    init = action(inner, "init", common, _init, "create the team store: schema, grants, policies")
    init.add_argument("url", metavar="URL", help="postgresql://owner@host/database (the store's owner)")
    add = action(inner, "add-coach", common, _add_coach, "make a coach's database role (run as the owner)")
    add.add_argument("name", metavar="NAME", help="the coach's role: lower-case letters, digits, _")
    add.add_argument("--manager", action="store_true", help="a manager: reads only what coaches shared")
    add.add_argument("--password-stdin", action="store_true", help="read the role's password from stdin")
    share = action(inner, "share", common, _share, "share your moments and items on a call")
    share.add_argument("call", help="call id (or exact title)")
    cmp = action(inner, "compare", common, _compare, "calibrate with another coach's shared marks")
    cmp.add_argument("call", help="call id (or exact title)")
    cmp.add_argument("coach", metavar="COACH", help="the other coach's role")
    cmp.add_argument("--tolerance-ms", type=int, default=DEFAULT_TOLERANCE_MS, metavar="MS")


def _init(args, ctx) -> int:
    from desktop.services import team

    info = team.init_team(args.url)
    return print_row(args, info, lambda i: f"team store ready: {i.store} (schema {i.schema}, owner {i.role})")


def _add_coach(args, ctx) -> int:
    from desktop.services import team

    password = sys.stdin.readline().rstrip("\n") if args.password_stdin else None
    name = team.add_coach(ctx.store, args.name, manager=args.manager, password=password)
    kind = "manager" if args.manager else "coach"
    return print_row(args, {"role": name, "kind": kind}, lambda _: f"{kind} {name} can log in to {ctx.store.path}")


def _shared_call(args, ctx, doing: str):
    """The call named, on a team store (sharing and calibrating need one)."""
    from desktop.services import calls, team

    team.require_team(ctx.store, doing)
    return calls.resolve_call(ctx.store, args.call)


def _share(args, ctx) -> int:
    from desktop.services import team

    call = _shared_call(args, ctx, "sharing marks")
    shared = team.share_call(ctx.store, call.id)
    return print_row(args, shared, lambda s: f"call {call.id}: shared {s.moments} moments and {s.items} items")


def _compare(args, ctx) -> int:
    from desktop.services import team
    from desktop.services.calibration_report import describe

    call = _shared_call(args, ctx, "calibrating on shared marks")
    view = team.compare_shared(ctx.store, call.id, args.coach, tolerance_ms=args.tolerance_ms)
    return print_row(args, view.figures(), lambda _: describe(view))
