"""Calibration through the store: blind review, refusing another recording, compare, agree, export."""

from __future__ import annotations

import hashlib
import uuid
from datetime import date, datetime, timezone

import pytest

from desktop.core.enums import BehaviorChange, ItemStatus, MomentKind, PracticeKind
from desktop.exchange.record import (Behavior, Call, CoachingItem, Manager, Media, Moment, NextEvidence, Owner,
                                     Person, Practice, ReviewRule, build_record, write_record)
from desktop.services import calibration as cal
from desktop.services import items, moments, records
from tests.services.items_setup import demo_call
from tests.store_dump import dump

pytestmark = pytest.mark.both_stores  # the services on SQLite and on a team store

WHEN = datetime(2026, 12, 1, 9, 0, tzinfo=timezone.utc)


def uid(coach: str, n: int, what: str = "moment") -> str:
    return str(uuid.uuid5(uuid.NAMESPACE_URL, f"callmark-test/{coach}/{what}/{n}"))


def coach_record(coach: str, sha256: str, duration_ms: int, marks: list[tuple], *, title: str = "Demo call",
                 filename: str = "acme-discovery.ogg"):
    """A record by `coach`: marks are (start_ms, end_ms, kind[, behavior change, behavior text])."""
    moment_parts, item_parts = [], []
    for n, mark in enumerate(marks):
        start, end, kind = mark[:3]
        moment_parts.append(Moment(id=uid(coach, n), start_ms=start, end_ms=end, kind=MomentKind(kind),
                                   speaker="Casey Customer", quote=f"line at {start} ms", created_at=WHEN))
        if len(mark) > 3:
            change, text = mark[3], mark[4]
            item_parts.append(CoachingItem(
                id=uid(coach, n, "item"), moment_ids=[uid(coach, n)],
                consequence=f"{coach} says: the rep does not know who signs.",
                behavior=Behavior(change=BehaviorChange(change), text=text),
                practice=Practice(kind=PracticeKind.ROLE_PLAY, task="Role-play the moment three times."),
                owner=Owner(does="Morgan Manager", reviews=coach), cadence="Weekly 1:1",
                indicator="The question appears in the next two calls.",
                next_evidence=NextEvidence(description="Next two discovery calls", due=date(2026, 12, 14)),
                review_rule=ReviewRule(text="Continue when it appears in both calls."), status=ItemStatus.OPEN))
    return build_record(exported_by=Person(name=coach), exported_at=WHEN,
                        call=Call(title=title, media=Media(sha256=sha256, duration_ms=duration_ms,
                                                           filename=filename),
                                  manager=Manager(name="Morgan Manager")),
                        moments=moment_parts, items=item_parts)


@pytest.fixture
def call(store):
    records.set_whoami(store, "Alex Coach")
    return demo_call(store)


def sha_of(store, call_id) -> tuple[str, int]:
    from desktop.services import calls

    row = calls.get_call(store, call_id)
    return row.media_sha256, row.duration_ms


def their_file(store, call, tmp_path, marks, coach="Dana Coach"):
    sha, duration = sha_of(store, call.id)
    path = tmp_path / f"{coach.split()[0].lower()}.callmark.json"
    write_record(path, coach_record(coach, sha, duration, marks))
    return path


def test_blind_review_hides_their_moments_until_asked(store, call, tmp_path):
    mine = moments.add_moment(store, call.id, 10_000, 14_000, kind="question")
    path = their_file(store, call, tmp_path, [(11_000, 15_000, "question"), (60_000, 62_000, "answer")])
    result = cal.import_theirs(store, call.id, path)
    assert result.hidden_for_blind_review and result.moments_added == 2
    # Blind: the workspace's list shows only my mark.
    assert [m.id for m in moments.list_moments(store, call.id)] == [mine.id]
    assert cal.other_coaches(store, call.id) == ["Dana Coach"]
    # Comparing is the explicit step that shows theirs.
    shown = cal.reveal(store, call.id, "Dana Coach")
    assert [(m.start_ms, m.kind) for m in shown] == [(11_000, "question"), (60_000, "answer")]
    view = cal.compare(store, call.id, "Dana Coach")
    assert view.result.matched == 1 and view.result.moment_agreement == pytest.approx(2 / 3)
    # Still hidden from the ordinary list after comparing: comparing shows, it does not adopt.
    assert [m.id for m in moments.list_moments(store, call.id)] == [mine.id]


def test_a_record_for_another_recording_is_refused_and_nothing_is_written(store, call, tmp_path):
    other_sha = hashlib.sha256(b"another recording").hexdigest()
    path = tmp_path / "other.callmark.json"
    write_record(path, coach_record("Dana Coach", other_sha, 60_000, [(1000, 2000, "question")],
                                    title="Renewal - Globex"))
    before = dump(store)
    with pytest.raises(cal.WrongRecording) as caught:
        cal.import_theirs(store, call.id, path)
    message = str(caught.value)
    sha, _ = sha_of(store, call.id)
    assert "Renewal - Globex" in message and other_sha[:12] in message
    assert call.title in message and sha[:12] in message and str(path) in message
    assert dump(store) == before


def test_compare_is_kept_and_reopens_as_compared(store, call, tmp_path):
    m1 = moments.add_moment(store, call.id, 10_000, 14_000, kind="question")
    items.create_item(store, [m1.id], behavior_change="start", behavior_text="Ask who signs.")
    moments.add_moment(store, call.id, 40_000, 42_000, kind="answer")
    path = their_file(store, call, tmp_path, [(13_000, 16_000, "question", "start", "Ask who else signs."),
                                              (47_000, 48_000, "answer"), (90_000, 91_000, "other")])
    cal.import_theirs(store, call.id, path)
    view = cal.compare(store, call.id, "Dana Coach")
    figures = view.figures()
    # 13 s vs 10 s: 3 s apart, pair; 47 s vs 40 s: 7 s apart, no overlap, not a pair at 5 s.
    assert figures["matched"] == 1 and figures["mine"] == 2 and figures["theirs"] == 3
    assert figures["moment_agreement"] == pytest.approx(2 / 5)
    assert figures["behavior_change_agreement"] == 1.0 and figures["mean_start_offset_ms"] == 3000
    assert [r.key.split(":")[0] for r in view.rows] == ["pair", "mine", "theirs", "theirs"]
    assert view.rows[0].play_span == (10_000, 16_000)
    # Editing my mark afterwards does not change what was compared.
    moments.update_moment(store, m1.id, start_ms=0, end_ms=500)
    again = cal.open_calibration(store, view.id)
    assert again.figures() == figures
    # Comparing again before agreeing refreshes the same calibration.
    assert cal.compare(store, call.id, "Dana Coach", tolerance_ms=8000).id == view.id
    assert len(cal.list_calibrations(store, call.id)) == 1


def test_agreeing_makes_calibrated_items_that_export_in_the_record(store, call, tmp_path):
    m1 = moments.add_moment(store, call.id, 10_000, 14_000, kind="question")
    own = items.create_item(store, [m1.id], behavior_change="start", behavior_text="Ask who signs.")
    path = their_file(store, call, tmp_path, [
        (12_000, 16_000, "question", "start", "Ask who else signs the order form."),
        (60_000, 63_000, "missed_intervention", "adjust", "Confirm the next step with a date."),
        (90_000, 91_000, "other")])
    cal.import_theirs(store, call.id, path)
    view = cal.compare(store, call.id, "Dana Coach")
    pair, only_a, only_b = view.rows
    with pytest.raises(cal.CalibrationProblem, match="undecided"):
        cal.agree(store, view.id, {pair.key: "theirs"})
    with pytest.raises(cal.CalibrationProblem, match="only one coach"):
        cal.agree(store, view.id, {only_a.key: "mine"})
    cal.set_decision(store, view.id, only_b.key, "drop")  # kept as the coaches go
    assert cal.open_calibration(store, view.id).decisions[only_b.key] == {"choice": "drop"}
    done = cal.agree(store, view.id, {pair.key: "merged", only_a.key: "theirs"})
    assert len(done.item_ids) == 2 and done.dropped == 1

    agreed = [items.get_item(store, i) for i in done.item_ids]
    # Merged: my own moment widens to the union; my wording stays where I wrote one.
    assert agreed[0].id == own.id and agreed[0].behavior_text == "Ask who signs."
    assert (agreed[0].moments[0].start_ms, agreed[0].moments[0].end_ms) == (10_000, 16_000)
    assert agreed[0].consequence.startswith("Dana Coach says")  # the gap I left, filled from theirs
    # Theirs: copied into my own moment and item, visible in my ordinary list.
    assert agreed[1].behavior_text == "Confirm the next step with a date." and agreed[1].coach == "Alex Coach"
    assert 60_000 in [m.start_ms for m in moments.list_moments(store, call.id)]

    reopened = cal.open_calibration(store, view.id)
    assert reopened.agreed_by == "Alex Coach" and reopened.agreed_at
    with pytest.raises(cal.CalibrationProblem, match="already agreed"):
        cal.agree(store, view.id, {})

    from db.models import CoachingItem as ItemModel
    with store.read() as session:
        assert {i.calibration_id for i in session.query(ItemModel).filter(ItemModel.id.in_(done.item_ids))} \
            == {view.id}

    # My item lacked owner/cadence/...: fill them, then both agreed items travel in my record.
    items.update_item(store, own.id, practice_task="Role-play it.", cadence="Weekly", indicator="Seen in calls",
                      next_evidence="Next call", next_evidence_due="2026-12-20", review_rule_text="Continue if seen.")
    exported = records.export_record(store, call.id).record
    texts = sorted(i.behavior.text for i in exported.items)
    assert texts == ["Ask who signs.", "Confirm the next step with a date."]
    assert {m.start_ms for m in exported.moments} >= {10_000, 60_000}


def test_word_diff_marks_only_what_differs():
    left, right = cal.word_diff("Ask who signs the form", "Ask who else signs the order form")
    assert [t for t, d in left if d] == []
    assert [t for t, d in right if d] == ["else", "order"]
