"""The coaching screens offscreen over a real store: the session rule, the review, the dashboard charts."""

from __future__ import annotations

from datetime import date

from PySide6.QtGui import QImage

from desktop.core.enums import ReviewDecision, SessionStatus
from desktop.services import coaching_sessions, cycles, observations
from tests.services.test_indicators_service import AS_OF, GOOD_BEHAVIOR, scripted_cycle


def _distinct_colours(image: QImage, step: int = 7) -> int:
    seen = set()
    for y in range(0, image.height(), step):
        for x in range(0, image.width(), step):
            seen.add(image.pixel(x, y))
    return len(seen)


def _window(qtbot, store, on=AS_OF):
    from desktop.ui.coaching.cycle_view import CoachingWindow

    window = CoachingWindow(store, "Morgan Manager", on=on)
    qtbot.addWidget(window)
    window.show()
    return window


def test_dashboard_charts_render_offscreen(qtbot, store, tmp_path):
    scripted_cycle(store)
    window = _window(qtbot, store)
    window.tabs.setCurrentWidget(window.dashboard)
    dash = window.dashboard
    assert dash.cards["coaching_frequency"].value.text() == "71%"
    assert dash.cards["coaching_frequency"].ratio.text().startswith("5 of 7")
    assert dash.cards["behavior_adoption"].value.text() == "56%"
    lines = dash.trend_chart.series()
    assert [s.name() for s in lines] == ["Frequency", "Completion", "Specificity", "Quality", "Adoption", "Capture"]
    assert lines[0].count() == 8  # weeks 5–12 (first session on day 31); weeks 1–4 have no figure
    path = tmp_path / "trend.png"
    for view in (dash.trend_view, dash.week_view):
        qtbot.waitUntil(lambda v=view: v.isVisible())
        image = view.grab().toImage()
        assert image.save(str(path))
        assert QImage(str(path)).width() > 300
        assert _distinct_colours(image) > 12  # lines, bars, axes and labels: not a blank grab
    top = dash.checklist.topLevelItem(0)
    assert top.text(1).startswith("Review: continue — seen in 2 of 2")
    assert [top.child(i).text(0)[0] for i in range(top.childCount())] == ["✔"] * 5


def test_session_cant_be_closed_as_held_without_its_action(qtbot, store):
    from desktop.ui.coaching.session_dialog import SessionGuideDialog

    cycle = cycles.add_cycle(store, "Morgan Manager", date(2026, 9, 7), model="oskar")
    first = coaching_sessions.list_sessions(store, cycle.id)[0]
    dialog = SessionGuideDialog(store, first.id)
    qtbot.addWidget(dialog)
    assert [k for k in dialog.notes] == ["outcome", "scaling", "know_how", "action", "review"]
    dialog.notes["scaling"].setPlainText("Asks for the next step in about half the calls")
    dialog.score.setValue(5)
    dialog.action.setText("Role-play the next-step question twice")
    dialog.held_button.click()
    assert "one owner, one place to look for evidence" in dialog.message.text()
    assert dialog.isVisible() or dialog.result() == 0
    assert coaching_sessions.get_session(store, first.id).status == SessionStatus.PLANNED
    dialog.owner.setText("Morgan Manager")
    dialog.evidence_place.setText("the next two recordings")
    with qtbot.waitSignal(dialog.session_closed):
        dialog.held_button.click()
    held = coaching_sessions.get_session(store, first.id)
    assert (held.status, held.oskar_score, held.action_owner) == (SessionStatus.HELD, 5, "Morgan Manager")
    assert held.stage_notes["scaling"] == "Asks for the next step in about half the calls"
    # At the next session the previous action comes first: mark it done there.
    second = coaching_sessions.list_sessions(store, cycle.id)[1]
    nxt = SessionGuideDialog(store, second.id)
    qtbot.addWidget(nxt)
    nxt.previous_done.setChecked(True)
    nxt.reason.setText("Short check-in only")
    nxt.held_button.click()
    assert coaching_sessions.get_session(store, first.id).action_done is True


def test_cycle_tab_shows_phase_and_asks_a_reason_to_change_focus(qtbot, store):
    script = scripted_cycle(store)
    window = _window(qtbot, store, on=date(2026, 10, 20))
    assert "day 44: Coach weekly (days 31–75)" in window.phase_label.text()
    assert window.asks.text().startswith("Coach around the behavior every week")
    assert not window.model_box.isEnabled()  # sessions were held: one model for the cycle
    assert window.change_focus("Pause after the price", reason="") is False
    assert cycles.get_cycle(store, script.cycle_id).focus_behavior == GOOD_BEHAVIOR
    assert window.change_focus("Pause after the price", reason="The price loses every deal") is True
    assert window.focus_history.count() == 1
    window.park_edit.setText("Discount offered before the customer asked")
    window.park_button.click()
    assert window.parked.count() == 1


def test_next_two_recordings_and_the_review_dialog(qtbot, store):
    script = scripted_cycle(store, through=date(2026, 11, 6))
    window = _window(qtbot, store, on=date(2026, 11, 6))
    window.tabs.setCurrentIndex(2)
    assert window.item_box.currentData() == script.item_a
    before = window.obs_table.rowCount()
    window.next_two_button.click()
    assert window.obs_table.rowCount() == before + 2
    assert [r.seen_label for r in window.obs_rows[-2:]] == ["to check", "to check"]
    assert "continue" in window.proposal_label.text()
    dialog = window.review_dialog()
    qtbot.addWidget(dialog)
    assert dialog.buttons[ReviewDecision.CONTINUE].isChecked()
    assert dialog.baseline.count() == 2 and dialog.current.count() == 7
    dialog.buttons[ReviewDecision.ADAPT].setChecked(True)
    dialog.on_save_clicked()
    assert "say why" in dialog.message.text()
    dialog.rationale.setPlainText("Seen in calls, but only when the coach is on the line")
    dialog.on_save_clicked()
    [review] = observations.list_reviews(store, item_id=script.item_a)
    assert (review.proposed, review.decision) == (ReviewDecision.CONTINUE, ReviewDecision.ADAPT)


def test_inspector_panel_follows_the_open_calls_manager(qtbot, store, isolated_home):
    from desktop.services import calls
    from desktop.ui.coaching import CoachingPanel
    from desktop.ui.panels import WorkspaceContext, registered_panels
    from desktop import paths

    assert "Coaching" in [p.name for p in registered_panels()]
    cycles.add_cycle(store, "Morgan Manager", date.today())
    call, _ = calls.add_call(store, paths.DEMO_MEDIA, title="Acme", manager="Morgan Manager")
    context = WorkspaceContext(store, isolated_home)
    panel = CoachingPanel(context)
    qtbot.addWidget(panel)
    context.set_call(call.id)
    assert "Morgan Manager" in panel.summary.text() and "Baseline" in panel.summary.text()


def test_a_session_closed_in_its_guide_counts_for_the_focus_items_follow_through(qtbot, store):
    from desktop.services import indicators, items
    from desktop.ui.coaching.session_dialog import SessionGuideDialog

    cycle = cycles.add_cycle(store, "Morgan Manager", date(2026, 9, 7), model="grow")
    item = items.create_item(store, [], manager="Morgan Manager",
                             behavior_text="Ask the rep which date the customer agreed for the next step.")
    cycles.attach_item(store, cycle.id, item.id)
    first = coaching_sessions.list_sessions(store, cycle.id)[0]
    dialog = SessionGuideDialog(store, first.id)
    qtbot.addWidget(dialog)
    dialog.action.setText("Role-play the next-step question twice")
    dialog.owner.setText("Morgan Manager")
    dialog.evidence_place.setText("the next two recordings")
    with qtbot.waitSignal(dialog.session_closed):
        dialog.held_button.click()
    assert coaching_sessions.get_session(store, first.id).item_id == item.id  # the agreed action's item
    coaching_sessions.set_action_done(store, first.id, True)
    report = indicators.report(store, cycle_id=cycle.id, as_of=cycles.today())
    quality = next(q for q in report.quality if q.item_id == item.id)
    follow = next(c for c in quality.checks if c.to_dict()["key"] == "follow_through")
    assert "No practice action agreed yet" not in follow.to_dict()["reason"]  # the review sees the action
