"""How well the specificity check agrees with a coach's labels on a set of behaviors.

    python -m tests.specificity_eval FILE [--json]
    python -m tests.specificity_eval --cases [--json]   (the labelled cases in tests/core/specificity_cases.py)

FILE is a JSON list of {"text": ..., "label": "specific" | "vague"}. A behavior
counts as judged vague when the check gives it an error; the figures are also
given with warnings counted as vague. "specific_flagged_error" is the share of
behaviors labelled specific that the check flags with an error (the goal: at
most 5 %).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from desktop.core.enums import Severity
from desktop.core.specificity import check_behavior

LABELS = ("specific", "vague")


def load(path: Path) -> list[dict]:
    try:
        rows = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise SystemExit(f"specificity_eval: {path}: cannot read a JSON list ({exc})") from None
    if not isinstance(rows, list) or not rows:
        raise SystemExit(f"specificity_eval: {path}: expected a non-empty JSON list")
    for n, row in enumerate(rows):
        if not isinstance(row, dict) or not isinstance(row.get("text"), str) or row.get("label") not in LABELS:
            raise SystemExit(f"specificity_eval: {path}: item {n}: needs \"text\" and \"label\" "
                             "(specific or vague)")
    return rows


def evaluate(rows: list[dict]) -> dict:
    judged = []
    for row in rows:
        findings = check_behavior(row["text"])
        errors = [f.message for f in findings if f.severity == Severity.ERROR]
        warnings = [f.message for f in findings if f.severity == Severity.WARNING]
        judged.append({"text": row["text"], "label": row["label"], "errors": errors, "warnings": warnings})
    n = len(judged)
    specific = [j for j in judged if j["label"] == "specific"]

    def agree(vague_if) -> list[dict]:
        return [j for j in judged if (j["label"] == "vague") != vague_if(j)]

    by_error = agree(lambda j: bool(j["errors"]))
    by_warning = agree(lambda j: bool(j["errors"] or j["warnings"]))
    flagged = [j for j in specific if j["errors"]]
    return {
        "behaviors": n, "specific": len(specific), "vague": n - len(specific),
        "agreement": round(1 - len(by_error) / n, 4),
        "agreement_with_warnings": round(1 - len(by_warning) / n, 4),
        "specific_flagged_error": round(len(flagged) / len(specific), 4) if specific else None,
        "disagreements": [{"text": j["text"], "label": j["label"],
                           "check": "error" if j["errors"] else ("warning" if j["warnings"] else "passes"),
                           "why": (j["errors"] or j["warnings"] or [""])[0]} for j in by_error],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.specificity_eval", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("file", nargs="?", type=Path, help="JSON list of {text, label}")
    parser.add_argument("--cases", action="store_true", help="use tests/core/specificity_cases.py")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    if args.cases:
        from tests.core.specificity_cases import CASES
        rows = [{"text": t, "label": "specific" if label else "vague"} for t, label in CASES]
    elif args.file:
        rows = load(args.file)
    else:
        parser.error("give a FILE or --cases")
    result = evaluate(rows)
    if args.json:
        print(json.dumps(result, indent=2, ensure_ascii=False))
        return 0
    print(f"{result['behaviors']} behaviors ({result['specific']} specific, {result['vague']} vague)")
    print(f"agreement (error = vague):              {result['agreement']:.3f}")
    print(f"agreement (error or warning = vague):   {result['agreement_with_warnings']:.3f}")
    if result["specific_flagged_error"] is not None:
        print(f"specific behaviors flagged with an error: {result['specific_flagged_error']:.1%}")
    for d in result["disagreements"]:
        print(f"  labelled {d['label']}, check: {d['check']}: {d['text']}  [{d['why']}]")
    return 0


if __name__ == "__main__":
    sys.exit(main())
