"""The coaching queue and the baseline table through the real store, the real importer and the real pass."""

from __future__ import annotations

import json

import pytest

from desktop.services import calls, coaching_queue, cycles, suggestions, transcript_io
from tests.conftest import make_tone
from tests.services.demo_script import write_script_vtt


@pytest.fixture
def library(store, demo_media, tmp_path):
    """Morgan's two reps: the demo call (Riley, 2 Nov: in the baseline), a copy of it by Sam (20 Nov: a
    coaching week), and another manager's call that must never show."""
    cycle = cycles.add_cycle(store, "Morgan Manager", "2026-11-01")
    riley, _ = calls.add_call(store, demo_media, title="Acme discovery", rep="Riley Rep", manager="Morgan Manager",
                              recorded_at="2026-11-02T10:00:00Z")
    sam, _ = calls.add_call(store, make_tone(tmp_path / "sam.wav", seconds=150), title="Globex discovery",
                            rep="Sam Seller", manager="Morgan Manager", recorded_at="2026-12-05T10:00:00Z")
    other, _ = calls.add_call(store, make_tone(tmp_path / "other.wav", seconds=150), title="Initech",
                              rep="Pat Rep", manager="Other Manager", recorded_at="2026-11-03T10:00:00Z")
    for call, speaker_name in ((riley, None), (sam, "Sam"), (other, "Pat")):
        vtt = write_script_vtt(tmp_path / f"{call.id}.vtt")
        if speaker_name:  # the script's rep ("Riley") speaks as this call's rep
            vtt.write_text(vtt.read_text(encoding="utf-8").replace("Riley:", f"{speaker_name}:"), encoding="utf-8")
        transcript_io.import_transcript(store, call.id, vtt)
    return cycle, riley.id, sam.id, other.id


def test_the_queue_ranks_focus_then_weight_then_the_newest_call_and_verdicts_take_entries_off(store, library):
    cycle, riley, sam, other = library
    entries = coaching_queue.queue(store, "Morgan Manager")
    assert entries and {e.call for e in entries} == {riley, sam}  # never another manager's call
    found = {s.finding.id for c in (riley, sam) for s in suggestions.suggestions(store, c)}
    assert {e.finding_id for e in entries} == found  # every suggestion still to review
    # No focus yet: heavier labels first; for the same label, the newer call (Sam's, 5 Dec) first.
    weights = [coaching_queue.LABEL_WEIGHTS[e.label] for e in entries]
    assert weights == sorted(weights, reverse=True)
    both = {e.label for e in entries if e.call == sam} & {e.label for e in entries if e.call == riley}
    assert both
    for label in both:
        assert next(e for e in entries if e.label == label).call == sam, label
    # A focus on the deferral puts its labels first, whatever their weight.
    cycles.set_focus(store, cycle.id, "When the customer asks for information, ask what they will review "
                                      "and who else needs to be involved.", on=cycles.parse_date("2026-11-20"))
    focused = coaching_queue.queue(store, "Morgan Manager")
    leading = [e.label for e in focused if e.focus]
    assert leading and set(leading) <= {"deferral", "deferral_accepted"}
    assert all(e.focus for e in focused[:len(leading)])
    # Reviewing a suggestion takes it off the queue.
    top = focused[0]
    suggestions.dismiss(store, top.call, [top.finding_id])
    assert top.finding_id not in {e.finding_id for e in coaching_queue.queue(store, "Morgan Manager")
                                  if e.call == top.call}


def test_the_baseline_counts_each_pattern_on_the_calls_in_its_window(store, library):
    cycle, riley, sam, _other = library
    table = {p.pattern: p for p in coaching_queue.baseline(store, cycle.id)}
    riley_labels = {s.finding.label for s in suggestions.suggestions(store, riley)}
    from desktop.services import trackers

    riley_trackers = {row.name for row in trackers.list_trackers(store)
                      if trackers.tracker_hits(store, row.name, [riley])}
    assert riley_trackers  # the shipped trackers find the demo call's deferral, at least
    assert set(table) == riley_labels | riley_trackers  # only Riley's call is dated in days 1-15
    deferral = table["deferral"]
    assert deferral.calls == 1 and deferral.reps == {"Riley Rep"}
    assert deferral.count == sum(1 for s in suggestions.suggestions(store, riley) if s.finding.label == "deferral")
    assert deferral.examples[0]["call"] == riley
    coaching = {p.pattern: p for p in coaching_queue.baseline(store, cycle.id, window="coaching")}
    assert coaching and all(p.reps == {"Sam Seller"} for p in coaching.values())  # Sam's call: day 35


def test_the_commands_print_the_queue_and_the_baseline(store, library, isolated_home):
    from tests.conftest import run_cli

    cycle, riley, _sam, _other = library
    store.close()
    out = json.loads(run_cli("--home", str(isolated_home), "queue", "--manager", "Morgan Manager", "--json",
                             check=True).stdout)
    assert out and set(out[0]) >= {"call", "start_ms", "label", "reason", "rep"}
    table = json.loads(run_cli("--home", str(isolated_home), "cycles", "baseline", str(cycle.id), "--json",
                               check=True).stdout)
    assert table and set(table[0]) >= {"pattern", "calls", "count", "examples"}
    assert all(e["call"] == riley for row in table for e in row["examples"])
