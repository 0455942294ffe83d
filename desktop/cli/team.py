"""`callmark team init|add-coach|share|compare`: a team store's coaches and their shared marks."""

from __future__ import annotations

import sys

from desktop.cli import print_json
from desktop.core.calibration import DEFAULT_TOLERANCE_MS


def register(sub, common) -> None:
    parser = sub.add_parser("team", parents=[common], help="a team store on PostgreSQL: coaches, sharing, calibration")
    inner = parser.add_subparsers(dest="team_command", metavar="ACTION", required=True)
    init = inner.add_parser("init", parents=[common], help="create the team store: schema, grants, policies")
    init.add_argument("url", metavar="URL", help="postgresql://owner@host/database (the store's owner)")
    init.add_argument("--json", action="store_true")
    init.set_defaults(handler=_init)
    add = inner.add_parser("add-coach", parents=[common], help="make a coach's database role (run as the owner)")
    add.add_argument("name", metavar="NAME", help="the coach's role: lower-case letters, digits, _")
    add.add_argument("--manager", action="store_true", help="a manager: reads only what coaches shared")
    add.add_argument("--password-stdin", action="store_true", help="read the role's password from stdin")
    add.add_argument("--json", action="store_true")
    add.set_defaults(handler=_add_coach)
    share = inner.add_parser("share", parents=[common], help="share your moments and items on a call")
    share.add_argument("call", help="call id (or exact title)")
    share.add_argument("--json", action="store_true")
    share.set_defaults(handler=_share)
    cmp = inner.add_parser("compare", parents=[common], help="calibrate with another coach's shared marks")
    cmp.add_argument("call", help="call id (or exact title)")
    cmp.add_argument("coach", metavar="COACH", help="the other coach's role")
    cmp.add_argument("--tolerance-ms", type=int, default=DEFAULT_TOLERANCE_MS, metavar="MS")
    cmp.add_argument("--json", action="store_true")
    cmp.set_defaults(handler=_compare)


def _init(args, ctx) -> int:
    from desktop.services import team

    info = team.init_team(args.url)
    if args.json:
        print_json(info.to_json())
    else:
        print(f"team store ready: {info.store} (schema {info.schema}, owner {info.role})")
    return 0


def _add_coach(args, ctx) -> int:
    from desktop.services import team

    password = sys.stdin.readline().rstrip("\n") if args.password_stdin else None
    name = team.add_coach(ctx.store, args.name, manager=args.manager, password=password)
    kind = "manager" if args.manager else "coach"
    if args.json:
        print_json({"role": name, "kind": kind})
    else:
        print(f"{kind} {name} can log in to {ctx.store.path}")
    return 0


def _share(args, ctx) -> int:
    from desktop.services import calls, team

    team.require_team(ctx.store, "sharing marks")
    call = calls.resolve_call(ctx.store, args.call)
    shared = team.share_call(ctx.store, call.id)
    if args.json:
        print_json(shared.to_json())
    else:
        print(f"call {call.id}: shared {shared.moments} moments and {shared.items} items")
    return 0


def _compare(args, ctx) -> int:
    from desktop.services import calls, team
    from desktop.services.calibration_report import describe

    team.require_team(ctx.store, "calibrating on shared marks")
    call = calls.resolve_call(ctx.store, args.call)
    view = team.compare_shared(ctx.store, call.id, args.coach, tolerance_ms=args.tolerance_ms)
    if args.json:
        print_json(view.figures())
    else:
        print(describe(view))
    return 0
