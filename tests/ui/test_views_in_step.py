"""Views stay in step with the store whichever path changed it: a record imported from the File menu,
a cycle made and a focus set in the Coaching window."""

from __future__ import annotations

from desktop.services import calls, cycles, records
from desktop.services.changes import CYCLES, change
from desktop.exchange.record import write_record
from desktop.ui.exchange.dialogs import import_record
from tests.services.test_calibration_service import coach_record


def test_a_record_imported_from_the_file_menu_shows_in_the_calibration_tab(qtbot, window, store, demo_call,
                                                                          tmp_path):
    records.set_whoami(store, "Alex Coach")
    window.open_call(demo_call)
    tab = window.panel("Calibration")
    assert "No other coach's marks" in tab.summary.text()
    call = calls.get_call(store, demo_call)
    path = tmp_path / "dana.callmark.json"
    write_record(path, coach_record("Dana Coach", call.media_sha256, call.duration_ms,
                                    [(11_000, 13_000, "question"), (40_000, 42_000, "missed_intervention"),
                                     (70_000, 71_000, "answer")]))
    import_record(window, str(path))
    assert "Dana Coach marked this call too" in tab.summary.text()  # no call switch needed
    assert tab.compare_button.isEnabled()
    tab.import_record(path)  # the same record again, from the tab: said as it is
    assert "already in (3 moments, nothing new)" in tab.message.text()


def test_a_cycle_made_and_a_focus_set_in_the_coaching_window_show_in_the_tab(qtbot, window, store, demo_call):
    from desktop.ui.coaching import open_coaching

    window.open_call(demo_call)
    tab = window.panel("Coaching")
    assert "no coaching cycle yet" in tab.summary.text()
    coaching = open_coaching(store, "Morgan Manager", window, notify=window.history.tell)
    qtbot.addWidget(coaching)
    row = cycles.add_cycle(store, "Morgan Manager", "2026-11-01")
    coaching.notify(change("New cycle", CYCLES, ids=[row.id]))  # as the window's New cycle… does
    assert "Morgan Manager" in tab.summary.text() and "day" in tab.summary.text()
    coaching.reload_managers(row.manager)
    assert coaching.change_focus("Ask the rep which date the customer agreed for the next step.")
    assert coaching.focus_saved.text().startswith("✓ Saved")
    assert "Ask the rep which date" in tab.summary.text()


def test_the_coaching_window_plans_and_moves_sessions(qtbot, window, store, demo_call):
    from datetime import date

    from desktop.ui.coaching import open_coaching

    row = cycles.add_cycle(store, "Morgan Manager", "2026-11-01")
    coaching = open_coaching(store, "Morgan Manager", window, notify=window.history.tell)
    qtbot.addWidget(coaching)
    planned = coaching.sessions_table.rowCount()
    assert coaching.plan_session(date(2026, 11, 5))  # before day 31: the coach may coach earlier
    assert coaching.sessions_table.rowCount() == planned + 1
    assert coaching.sessions_table.item(0, 1).text() == "Thu 05 Nov"
    first = coaching.session_rows[0].id
    assert coaching.move_session(first, date(2026, 11, 6))
    assert coaching.sessions_table.item(0, 1).text() == "Fri 06 Nov"
    assert not coaching.move_session(first, date(2027, 6, 1))  # outside the cycle: refused, said
    assert "outside the cycle" in coaching.status.text()
    assert row.id == coaching.cycle.id


def test_the_session_guide_plays_the_moment_it_cites(qtbot, window, store, demo_call):
    from desktop.services import coaching_sessions, moments
    from desktop.ui.coaching.session_dialog import SessionGuideDialog

    cycle = cycles.add_cycle(store, "Morgan Manager", "2026-11-01")
    cited = moments.add_moment(store, demo_call, 125_551, kind="missed_intervention")
    first, second = coaching_sessions.list_sessions(store, cycle.id)[:2]
    coaching_sessions.close_held(store, first.id, practice_action="Role-play the deferral",
                                 action_owner="Morgan Manager", evidence_place="next two calls", moment_id=cited.id)
    dialog = SessionGuideDialog(store, second.id, window, play=window.play_moment)
    qtbot.addWidget(dialog)
    assert dialog.play_button.isVisibleTo(dialog)
    dialog.play_button.click()
    assert window.workspace.call.id == demo_call
    qtbot.waitUntil(lambda: abs(window.playback.position_ms() - 125_551) < 2000, timeout=5000)
    assert window.view.moments.selected_id() == cited.id
