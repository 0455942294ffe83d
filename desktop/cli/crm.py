"""`callmark crm import|link|unlink|suggest|show`: CRM evidence beside the call."""

from __future__ import annotations

from desktop.cli import print_json
from desktop.core.enums import Crm
from desktop.exchange.crm_plan import date_order_lines, preview_lines
from desktop.services import calls
from desktop.services import crm as crm_service


def register(sub, common) -> None:
    parser = sub.add_parser("crm", parents=[common],
                            help="Salesforce and HubSpot opportunity exports beside the call")
    inner = parser.add_subparsers(dest="crm_command", metavar="ACTION", required=True)

    imp = inner.add_parser("import", parents=[common], help="import an opportunity export (CSV)")
    imp.add_argument("file", metavar="FILE")
    imp.add_argument("--crm", choices=[Crm.SALESFORCE.value, Crm.HUBSPOT.value],
                     help="read the headers as this CRM's (default: detect)")
    imp.add_argument("--dry-run", action="store_true", help="show what would change; write nothing")
    imp.add_argument("--json", action="store_true",
                     help='print {"crm", "created", "updated", "unchanged", "errors"} '
                          '(and "dates" when the day/month order decides a close date)')
    imp.add_argument("--next-step-date-column", metavar="HEADER",
                     help="the export's column holding the next step's date (remembered)")
    imp.add_argument("--dates", choices=("month-first", "day-first"),
                     help="order of slashed dates such as 03/04/2026 (default: detect, else month-first)")
    imp.add_argument("--time-zone", metavar="ZONE",
                     help="zone of times written without an offset, e.g. Europe/Amsterdam "
                          "(default: this machine's)")
    imp.set_defaults(handler=_import)

    link = inner.add_parser("link", parents=[common], help="link a call to an opportunity")
    link.add_argument("call", help="call id (or exact title)")
    link.add_argument("opportunity", metavar="OPPORTUNITY_ID", help="the CRM's opportunity id")
    link.add_argument("--json", action="store_true")
    link.set_defaults(handler=_link)

    unlink = inner.add_parser("unlink", parents=[common], help="remove a call's opportunity link")
    unlink.add_argument("call")
    unlink.set_defaults(handler=_unlink)

    suggest = inner.add_parser("suggest", parents=[common],
                               help="opportunities whose account or name is in the call title")
    suggest.add_argument("call")
    suggest.add_argument("--json", action="store_true")
    suggest.set_defaults(handler=_suggest)

    show = inner.add_parser("show", parents=[common],
                            help="a call's opportunity, its next-step history and the check")
    show.add_argument("call")
    show.add_argument("--json", action="store_true")
    show.set_defaults(handler=_show)


def _import(args, ctx) -> int:
    columns = None
    if args.next_step_date_column:
        columns = {**crm_service.remembered_columns(ctx.store),
                   "next_step_date": args.next_step_date_column}
    day_first = None if args.dates is None else args.dates == "day-first"
    zone = crm_service.parse_time_zone(args.time_zone)
    if args.dry_run:
        plan = crm_service.preview_import(ctx.store, args.file, args.crm, columns, day_first,
                                          time_zone=zone)
    else:
        plan = crm_service.apply_import(ctx.store, args.file, args.crm, columns, day_first,
                                        time_zone=zone).plan
        if args.next_step_date_column:
            crm_service.remember_columns(ctx.store, {"next_step_date": args.next_step_date_column})
    if args.json:
        print_json(plan.summary())
        return 1 if plan.errors else 0
    for line in preview_lines(plan):
        print(line)
    flip = "--dates " + ("month-first" if plan.day_first else "day-first")
    for line in date_order_lines(plan, flip=f"with {flip}"):
        print(line)
    for warning in plan.warnings:
        print(f"note: {warning}")
    for error in plan.errors:
        print(f"error: {error}")
    s = plan.summary()
    print(f"{crm_service.CRM_LABELS[Crm(s['crm'])]} export: {s['created']} created, "
          f"{s['updated']} updated, {s['unchanged']} unchanged, {s['errors']} errors"
          + (" (dry run: nothing written)" if args.dry_run else ""))
    if not args.dry_run and not plan.writes_anything:
        print("no opportunity changed")
    return 1 if plan.errors else 0


def _link(args, ctx) -> int:
    call = calls.resolve_call(ctx.store, args.call)
    opp = crm_service.link_call(ctx.store, call.id, args.opportunity)
    if args.json:
        print_json({"call_id": call.id, "opportunity": opp.to_json()})
    else:
        print(f"call {call.id} ({call.title}) -> {opp.crm_label} opportunity "
              f"{opp.external_id} ({opp.name})")
    return 0


def _unlink(args, ctx) -> int:
    call = calls.resolve_call(ctx.store, args.call)
    crm_service.unlink_call(ctx.store, call.id)
    print(f"call {call.id} ({call.title}) is no longer linked to an opportunity")
    return 0


def _suggest(args, ctx) -> int:
    call = calls.resolve_call(ctx.store, args.call)
    found = crm_service.suggest_links(ctx.store, call.id)
    if args.json:
        print_json([{"opportunity": s.opportunity.to_json(), "score": s.score, "reason": s.reason}
                    for s in found])
        return 0
    if not found:
        print(f"no opportunity's name or account appears in {call.title!r}")
    for s in found:
        o = s.opportunity
        print(f"{o.external_id}  {o.name}  ({o.account or 'no account'}, {o.stage or 'no stage'})"
              f"  - {s.reason}")
    return 0


def _show(args, ctx) -> int:
    call = calls.resolve_call(ctx.store, args.call)
    found = crm_service.opportunity_for_call(ctx.store, call.id)
    if args.json:
        print_json(None if found is None else found.to_json())
        return 0
    if found is None:
        print(f"call {call.id} ({call.title}) is not linked to an opportunity; "
              f"link one with: callmark crm link {call.id} OPPORTUNITY_ID")
        return 0
    o = found.opportunity
    print(f"{o.crm_label} opportunity {o.external_id}: {o.name}")
    print(f"  account: {o.account or '-'}   stage: {o.stage or '-'}   owner: {o.owner or '-'}")
    when = f" (by {o.next_step_date.isoformat()})" if o.next_step_date else ""
    print(f"  next step: {o.next_step or '-'}{when}")
    print(f"  last seen in an import: {o.last_seen:%Y-%m-%d %H:%M} UTC")
    print("history:")
    call_shown = False
    for h in found.history:
        if h.after_call and not call_shown and found.call_at:
            print(f"  --- call on {found.call_at:%Y-%m-%d %H:%M} UTC ---")
            call_shown = True
        date_text = f" (by {h.next_step_date.isoformat()})" if h.next_step_date else ""
        print(f"  {h.as_of:%Y-%m-%d}  {h.stage or '-'}: {h.next_step or '-'}{date_text}")
    if found.call_at and not call_shown:
        print(f"  --- call on {found.call_at:%Y-%m-%d %H:%M} UTC ---")
    check = found.check
    verdict = "recorded" if check.recorded else ("not recorded" if check.conclusive else "can't tell yet")
    print(f"next step after the call: {verdict}: {check.reason}")
    return 0
