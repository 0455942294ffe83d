"""`callmark calibrate CALL --theirs FILE`: two coaches' marks on one call, matched, with the figures.

Also renders the side-by-side HTML report (`--report`), with the packet's
safety rules: one self-contained file, autoescaped text, a CSP that allows no
remote resource, written atomically.
"""

from __future__ import annotations

from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from desktop.cli import print_json
from desktop.core.calibration import DEFAULT_TOLERANCE_MS
from desktop.exchange.packet import TEMPLATE_DIR, clock
from desktop.exchange.safe_write import atomic_write_text
from desktop.services import calibration as cal
from desktop.services import calls

REPORT_TEMPLATE = "calibration.html.j2"
REPORT_CSP = "default-src 'none'; style-src 'unsafe-inline'"  # the packet's, less media: no clips here
ITEM_ROWS = (("consequence", "Still unknown"), ("behavior_text", "Behavior"), ("practice_task", "Practice"))


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
    from desktop.exchange.record import load_record
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


# --- text -------------------------------------------------------------------------------


def _fig(value, fmt: str = "{:.3f}") -> str:
    return "—" if value is None else fmt.format(value)


def figure_lines(view: cal.CalibrationView) -> list[tuple[str, str]]:
    r = view.result
    return [("matched", f"{r.matched} (mine {r.mine_count}, theirs {r.theirs_count})"),
            ("moment agreement", _fig(r.moment_agreement)),
            ("kind kappa", _fig(r.kind_kappa)),
            ("behavior change agreement", _fig(r.behavior_change_agreement)),
            ("mean start offset", _fig(r.mean_start_offset_ms, "{:+.0f} ms"))]


def describe(view: cal.CalibrationView) -> str:
    r = view.result
    lines = [f"calibration {view.id}: call {view.call_id} “{view.call_title}”, {view.mine_coach} (mine) and "
             f"{view.theirs_coach} (theirs), tolerance {view.tolerance_ms} ms", ""]
    lines += [f"  {name:<27}{value}" for name, value in figure_lines(view)]
    lines += ["", f"pairs ({r.matched}):"]
    if r.pairs:
        lines.append(f"  {'mine':<37}{'theirs':<37}{'start diff':>11}  kinds")
    for p in r.pairs:
        kinds = p.mine.kind if p.mine.kind == p.theirs.kind else f"{p.mine.kind} / {p.theirs.kind}"
        lines.append(f"  {p.mine.id:<37}{p.theirs.id:<37}{p.start_diff_ms:>+8} ms  {kinds}")
    for title, moments in (("only mine", r.only_mine), ("only theirs", r.only_theirs)):
        lines += ["", f"{title} ({len(moments)}):"]
        lines += [f"  {m.id:<37}{clock(m.start_ms):>8}  {m.kind}" for m in moments]
    return "\n".join(lines)


# --- the HTML report ------------------------------------------------------------------


def _environment() -> Environment:
    env = Environment(loader=FileSystemLoader(str(TEMPLATE_DIR)), autoescape=True, undefined=StrictUndefined,
                      trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)
    env.filters["clock"] = clock
    env.filters["label"] = lambda v: str(v or "").replace("_", " ")
    return env


def _side_item(moment: cal.SideMoment | None, other: cal.SideMoment | None) -> list[dict]:
    """The item rows of one side, as runs of words marked where the other coach wrote otherwise."""
    mine_item = (moment.item if moment else None) or {}
    other_item = (other.item if other else None) or {}
    out = []
    for key, title in ITEM_ROWS:
        text, other_text = mine_item.get(key) or "", other_item.get(key) or ""
        # A moment only one coach marked has nothing to differ from: no highlight.
        runs = cal.word_diff(text, other_text)[0] if other is not None else [(text, False)] if text else []
        out.append({"title": title, "runs": runs, "empty": not text})
    if mine_item:
        out[1]["change"] = mine_item.get("behavior_change") or ""
    return out


def render_report(view: cal.CalibrationView) -> str:
    rows = []
    for number, row in enumerate(view.rows, start=1):
        status = "pair" if row.mine and row.theirs else ("only mine" if row.mine else "only theirs")
        decision = view.decisions.get(row.key, {}).get("choice")
        rows.append({"number": number, "row": row, "status": status, "decision": decision,
                     "mine_item": _side_item(row.mine, row.theirs) if row.mine else None,
                     "theirs_item": _side_item(row.theirs, row.mine) if row.theirs else None})
    duration = max(1, view.duration_ms)
    lanes = [{"left": 100 * r["row"].play_span[0] / duration,
              "mine": r["row"].mine, "theirs": r["row"].theirs, "number": r["number"]} for r in rows]
    return _environment().get_template(REPORT_TEMPLATE).render(
        view=view, rows=rows, lanes=lanes, figures=figure_lines(view), csp=REPORT_CSP,
        pct=lambda ms: f"{100 * ms / duration:.3f}")


def write_report(path: Path | str, view: cal.CalibrationView) -> Path:
    """Render and write the report atomically (ExportError on failure, nothing half-written)."""
    return atomic_write_text(path, render_report(view))
