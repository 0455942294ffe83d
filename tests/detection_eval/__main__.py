"""`python -m tests.detection_eval DIR [--json] [--errors] [--against DIR2]`: precision and recall of the moment
finder per label; with --against, of a second coach's labels of the same calls (DIR2) instead."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from tests.detection_eval.run import LabelledSetError, agreement, evaluate, report, to_json


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.detection_eval",
                                     description="Measure the moment finder on a folder of labelled calls.")
    parser.add_argument("folder", type=Path, help="NAME.vtt + NAME.truth.json pairs")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--errors", action="store_true", help="also list each miss and false alarm")
    parser.add_argument("--against", type=Path, metavar="DIR2",
                        help="score a second coach's NAME.truth.json files for the same calls, not the finder")
    args = parser.parse_args(argv)
    try:
        results = agreement(args.folder, args.against) if args.against else evaluate(args.folder)
    except (LabelledSetError, OSError, ValueError, KeyError) as exc:
        print(f"detection_eval: {exc}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(to_json(results), indent=2))
    else:
        print(report(results, errors=args.errors))
    return 0


if __name__ == "__main__":
    sys.exit(main())
