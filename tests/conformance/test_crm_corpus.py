"""Every real Salesforce and HubSpot export of the CRM corpus reads correctly, with honest verdicts.

Expected values come from the corpus's own checker (`check.py` beside the
files: Python's csv module and date parsers of its own, nothing of Callmark's);
each export goes through the real import into a real store.
"""

from __future__ import annotations

import importlib.util

import pytest

from desktop.exchange.crm_csv import CrmImportError
from desktop.services import calls
from desktop.services import crm as crm_service
from tests.conformance.corpus import corpus_dir, require

FOLDER = corpus_dir("crm")


def _checker():
    spec = importlib.util.spec_from_file_location("crm_corpus_check", FOLDER / "check.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


CHECK = _checker() if FOLDER else None
SPECS = {s["file"]: s for s in CHECK.FILES} if CHECK else {}


def stored(store) -> dict[str, dict]:
    found = {}
    for o in crm_service.list_opportunities(store):
        found[o.external_id] = {f: getattr(o, f) for f in CHECK.FIELDS}
    return found


def as_text(value):
    return None if value in ("", None) else (value.isoformat() if hasattr(value, "isoformat") else str(value))


@pytest.mark.parametrize("name", sorted(SPECS) or ["(corpus missing)"])
def test_real_export_reads_correctly(store, demo_media, name):
    folder = require("crm")
    spec = SPECS[name]
    path = folder / name
    if spec.get("refuse"):
        with pytest.raises(CrmImportError, match="id column") as info:
            crm_service.preview_import(store, path)
        assert "headers found" in str(info.value).lower()
        assert crm_service.list_opportunities(store) == []
        return
    expected = CHECK.expected_rows(spec)
    plan = crm_service.preview_import(store, path)
    assert (str(plan.crm), len(plan.created), len(plan.updated), plan.errors) == (
        spec["crm"], len(expected), 0, [])
    crm_service.apply_import(store, path)
    got = stored(store)
    assert set(got) == set(expected)
    for ident, exp in expected.items():
        for f in CHECK.FIELDS:
            if exp[f] is not CHECK.IGNORED:
                assert as_text(got[ident][f]) == as_text(exp[f]), f"{ident} {f}"
    # The next-step check on a call a day after the export's last modification.
    call, _ = calls.add_call(store, demo_media, title="conformance call",
                             recorded_at=CHECK.call_time(spec))
    first = next(iter(expected))
    crm_service.link_call(store, call.id, first)
    check = crm_service.next_step_check(store, call.id)
    if "next_step" not in spec["cols"]:
        assert not check.conclusive and check.reason.startswith("can't tell"), check.reason
        assert any("no Next step column" in w for w in plan.warnings)
    again = crm_service.preview_import(store, path)
    assert (len(again.created), len(again.updated)) == (0, 0)


def test_three_snapshots_of_one_pipeline_in_date_order(store):
    folder = require("crm")
    for name in CHECK.SEQUENCE:
        plan = crm_service.apply_import(store, folder / name).plan
        assert plan.errors == []
    last = CHECK.expected_rows(SPECS[CHECK.SEQUENCE[-1]])
    got = stored(store)
    assert len(got) == 100 and set(last) <= set(got)
    for ident, exp in last.items():
        assert as_text(got[ident]["stage"]) == as_text(exp["stage"])
