"""Calibration as text and as the side-by-side HTML report.

The report follows the packet's safety rules: one self-contained file,
autoescaped text, a CSP that allows no remote resource, written atomically.
"""

from __future__ import annotations

from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from desktop.exchange.packet import TEMPLATE_DIR, clock
from desktop.exchange.safe_write import atomic_write_text
from desktop.services import calibration as cal

REPORT_TEMPLATE = "calibration.html.j2"
REPORT_CSP = "default-src 'none'; style-src 'unsafe-inline'"  # the packet's, less media: no clips here
ITEM_ROWS = (("consequence", "Still unknown"), ("behavior_text", "Behavior"), ("practice_task", "Practice"))


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
    env.filters["letter"] = _kind_letter
    return env


def _kind_letter(kind: str) -> str:
    from desktop.core.enums import MomentKind

    try:
        return MomentKind(kind).letter
    except ValueError:
        return MomentKind.OTHER.letter


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
