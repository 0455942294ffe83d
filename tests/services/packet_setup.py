"""The demo library the packet tests build on: the same one resources/samples/make_samples.py uses."""

from __future__ import annotations

import importlib.util
from pathlib import Path

_PATH = Path(__file__).resolve().parents[2] / "resources" / "samples" / "make_samples.py"
_spec = importlib.util.spec_from_file_location("callmark_make_samples", _PATH)
make_samples = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(make_samples)

HOSTILE = "<script>alert(1)</script> \"onerror=alert(2) x=\" </style><b>x</b>"
PII = "casey.jones@acme-logistics.com or 415 555 0142"


def hostile_lines() -> list[dict]:
    """The demo script with markup and personal data in the customer's deferral."""
    lines = make_samples.script_lines()
    line = lines[19]
    line["text"] = f"Just send me some information at {PII}. {HOSTILE}"
    return lines
