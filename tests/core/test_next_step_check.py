"""The "customer-confirmed next step with a date, recorded after the call" check,
on a scripted timeline of CRM imports around a call on 2026-11-20."""

from __future__ import annotations

from datetime import date, datetime, timezone

from desktop.core.next_step_check import (NextStepCheck, NextStepValue,
                                          check_next_step_recorded, recorded_share)

CALL = date(2026, 11, 20)
BEFORE = NextStepValue(date(2026, 11, 18), "Send information", None)


def check(*history: NextStepValue, call=CALL) -> NextStepCheck:
    return check_next_step_recorded(call, list(history))


def test_timeline_from_no_change_to_confirmed():
    # Import on the 18th, call on the 20th, then an import per day as the rep updates Salesforce.
    same = NextStepValue(date(2026, 11, 21), "Send information", None)
    undated = NextStepValue(date(2026, 11, 22), "Finance review", None)
    dated = NextStepValue(date(2026, 11, 25), "Finance review", date(2026, 12, 2))

    result = check(BEFORE, same)
    assert not result.recorded and result.conclusive
    assert "has not changed since before the call" in result.reason

    result = check(BEFORE, same, undated)
    assert not result.recorded and result.value == undated
    assert "has no date the customer confirmed" in result.reason

    result = check(dated, undated, BEFORE, same)  # order of the history doesn't matter
    assert result.recorded and result.value == dated
    assert result.reason == ("the next step changed after the call: 'Finance review' dated "
                             "2026-12-02 as of 2026-11-25 (before: 'Send information' with "
                             "no date)")


def test_a_new_date_on_the_same_next_step_counts():
    before = NextStepValue(date(2026, 11, 10), "Finance review", date(2026, 11, 15))
    after = NextStepValue(date(2026, 11, 21), "Finance review", date(2026, 12, 2))
    assert check(before, after).recorded


def test_a_dated_next_step_unchanged_since_before_the_call_does_not_count():
    before = NextStepValue(date(2026, 11, 10), "Finance review", date(2026, 12, 2))
    after = NextStepValue(date(2026, 11, 24), "  finance REVIEW ", date(2026, 12, 2))
    result = check(before, after)
    assert not result.recorded and "still 'Finance review' dated 2026-12-02" in result.reason


def test_an_import_the_same_day_counts_as_before_unless_times_say_otherwise():
    same_day = NextStepValue(date(2026, 11, 20), "Finance review", date(2026, 12, 2))
    assert not check(BEFORE, same_day).conclusive  # nothing after the call yet
    call_at = datetime(2026, 11, 20, 10, 0, tzinfo=timezone.utc)
    later = NextStepValue(datetime(2026, 11, 20, 17, 0, tzinfo=timezone.utc),
                          "Finance review", date(2026, 12, 2))
    assert check(BEFORE, later, call=call_at).recorded


def test_inconclusive_without_an_import_on_both_sides():
    result = check(BEFORE)
    assert not result.recorded and not result.conclusive
    assert result.reason.startswith("no CRM import after the call on 2026-11-20 yet")

    only_after = NextStepValue(date(2026, 11, 25), "Finance review", date(2026, 12, 2))
    result = check(only_after)
    assert not result.conclusive and "no CRM import from before the call" in result.reason

    assert not check().conclusive


def test_a_cleared_next_step_is_not_recorded():
    cleared = NextStepValue(date(2026, 11, 21), None, date(2026, 12, 2))
    assert not check(BEFORE, cleared).recorded


def test_recorded_share_leaves_inconclusive_calls_out():
    yes = NextStepCheck(True, "changed")
    no = NextStepCheck(False, "unchanged")
    unknown = NextStepCheck(False, "no import yet", conclusive=False)
    assert recorded_share([yes, no, unknown, unknown]) == 0.5
    assert recorded_share([unknown]) is None
