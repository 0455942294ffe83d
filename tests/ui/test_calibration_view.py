"""The side-by-side calibration window offscreen: lanes painted, choices kept, a pair plays both spans;
and the inspector tab keeps review blind until the coach compares."""

from __future__ import annotations

import hashlib

import pytest
from PySide6.QtGui import QColor

from desktop.exchange.record import write_record
from desktop.services import calibration as cal
from desktop.services import items, moments
from desktop.ui.calibration.screenshot import build_demo
from desktop.ui.calibration.timeline import LABEL_PX, MINE_COLOUR, THEIRS_COLOUR


@pytest.fixture
def demo(tmp_path):
    folder = tmp_path / "calibration-home"
    folder.mkdir()
    store, calibration_id = build_demo(folder)
    yield store, calibration_id, folder
    store.close()


def near(colour: QColor, hex_colour: str, tolerance: int = 64) -> bool:  # spans are a little translucent
    want = QColor(hex_colour)
    return all(abs(a - b) <= tolerance for a, b in ((colour.red(), want.red()), (colour.green(), want.green()),
                                                     (colour.blue(), want.blue())))


def test_side_by_side_renders_two_lanes_over_the_waveform(qtbot, demo, tmp_path):
    from desktop.ui.calibration.window import CalibrationWindow

    store, calibration_id, folder = demo
    played = []
    window = CalibrationWindow(store, calibration_id, home=folder, play_span=lambda s, e: played.append((s, e)))
    qtbot.addWidget(window)
    window.resize(1400, 860)
    window.show()
    qtbot.waitUntil(lambda: window.view.timeline._peaks is not None, timeout=30000)
    timeline = window.view.timeline
    png = tmp_path / "calibration.png"
    assert window.grab().save(str(png)) and png.stat().st_size > 10_000
    image = timeline.grab().toImage()
    mine_lane, theirs_lane = timeline.lanes()
    rows = window.controller.calibration.rows
    pair = next(r for r in rows if r.mine and r.theirs and r.mine.item and r.theirs.item)
    lone_theirs = next(r for r in rows if r.theirs and not r.mine)
    # Each coach's spans sit in their own lane, in their own colour.
    for moment, lane, colour in ((pair.mine, mine_lane, MINE_COLOUR), (pair.theirs, theirs_lane, THEIRS_COLOUR)):
        x = int(timeline._x((moment.start_ms + moment.end_ms) / 2))
        assert near(image.pixelColor(x, int(lane.center().y())), colour)
    # Nothing of theirs is painted in my lane where only they marked.
    x = int(timeline._x((lone_theirs.theirs.start_ms + lone_theirs.theirs.end_ms) / 2))
    assert not near(image.pixelColor(x, int(mine_lane.center().y())), MINE_COLOUR)
    assert near(image.pixelColor(x, int(theirs_lane.center().y())), THEIRS_COLOUR)
    # The waveform between the lanes is drawn (some dark columns in the middle band).
    middle = int((mine_lane.bottom() + theirs_lane.top()) / 2)
    dark = sum(1 for x in range(LABEL_PX, timeline.width() - 10) if image.pixelColor(x, middle).lightness() < 200)
    assert dark > 100

    # Selecting a pair shows both items, the differing words highlighted; play plays the union.
    index = rows.index(pair)
    window.controller.select_row(index)
    assert "#ffe58a" in window.view.mine_column.toHtml() and "#ffe58a" in window.view.theirs_column.toHtml()
    window.view.play_button.click()
    assert played == [(min(pair.mine.start_ms, pair.theirs.start_ms), max(pair.mine.end_ms, pair.theirs.end_ms))]

    # A choice is kept in the store as it is made; then agreeing saves calibrated items.
    window.view.choice_buttons["theirs"].click()
    assert cal.open_calibration(store, calibration_id).decisions[pair.key] == {"choice": "theirs"}
    for i, row in enumerate(rows):
        if row.key not in window.controller.calibration.decisions:
            window.controller.select_row(i)
            window.view.choice_buttons["drop"].click()
    window.view.agree_button.click()
    assert "Agreed by Alex Coach" in window.view.status.text()
    assert not window.view.agree_button.isEnabled()
    agreed = [i for i in items.list_items(store) if i.behavior_text.startswith("Stop offering the solution before "
                                                                               "asking")]
    assert agreed and agreed[0].coach == "Alex Coach"


def test_inspector_tab_keeps_review_blind_until_compare(qtbot, store, demo_call, tmp_path):
    from desktop.services import calls, records
    from desktop.ui.calibration import CalibrationPanel, _windows
    from desktop.ui.panels import WorkspaceContext
    from tests.services.test_calibration_service import coach_record

    records.set_whoami(store, "Alex Coach")
    moments.add_moment(store, demo_call, 10_000, 12_000, kind="question")
    context = WorkspaceContext(store, tmp_path)
    panel = CalibrationPanel(context)
    qtbot.addWidget(panel)
    context.set_call(demo_call)
    assert not panel.compare_button.isEnabled()

    # Another recording: refused, named, nothing imported.
    wrong = tmp_path / "wrong.callmark.json"
    write_record(wrong, coach_record("Dana Coach", hashlib.sha256(b"x").hexdigest(), 60_000,
                                     [(1000, 2000, "question")], title="Renewal - Globex"))
    panel.import_record(wrong)
    assert "Renewal - Globex" in panel.message.text() and not panel.compare_button.isEnabled()

    call = calls.get_call(store, demo_call)
    right = tmp_path / "dana.callmark.json"
    write_record(right, coach_record("Dana Coach", call.media_sha256, call.duration_ms,
                                     [(11_000, 13_000, "question"), (70_000, 71_000, "answer")]))
    panel.import_record(right)
    assert "hidden until you compare" in panel.message.text()
    assert "Dana Coach" in panel.summary.text() and "hidden" in panel.summary.text()
    assert "0:11" not in panel.summary.text() and len(moments.list_moments(store, demo_call)) == 1
    assert panel.compare_button.isEnabled()
    assert [a.text() for a in panel.compare_menu.actions()] == ["Dana Coach"]

    window = panel.compare("Dana Coach")
    qtbot.addWidget(window)
    assert window.controller.calibration.result.matched == 1
    assert window.view.timeline._rows and len(window.view.timeline._rows) == 2
    window.close()
    _windows.clear()


def test_each_coachs_note_shows_and_merged_is_written_before_it_is_kept(qtbot, demo, tmp_path):
    from desktop.ui.calibration.window import CalibrationWindow

    import dataclasses

    from desktop.ui.calibration.view import item_html

    store, calibration_id, folder = demo
    window = CalibrationWindow(store, calibration_id, home=folder)
    qtbot.addWidget(window)
    window.show()
    rows = window.controller.calibration.rows
    pair = next(r for r in rows if r.mine and r.theirs and r.mine.item and r.theirs.item)
    window.controller.select_row(rows.index(pair))
    # What each coach noted on the moment stands in their column, beside their item.
    noted = dataclasses.replace(pair.theirs, note="accepted the brush-off, no date asked")
    assert "accepted the brush-off, no date asked" in item_html(noted, pair.mine, "Dana Coach", "#000")
    before = cal.open_calibration(store, calibration_id).decisions.get(pair.key)
    window.view.choice_buttons["merged"].click()
    dialog = window.controller.last_dialog
    assert dialog.isVisible()
    assert dialog.edits["behavior_text"].toPlainText() == pair.mine.item["behavior_text"]  # mine where I wrote
    assert cal.open_calibration(store, calibration_id).decisions.get(pair.key) == before  # kept only once saved
    dialog.edits["behavior_text"].setPlainText("Ask the rep what the customer will review before the demo.")
    dialog.accept()
    kept = cal.open_calibration(store, calibration_id).decisions[pair.key]
    assert kept["choice"] == "merged"
    assert kept["fields"]["behavior_text"] == "Ask the rep what the customer will review before the demo."
    for i, row in enumerate(rows):
        if row.key not in window.controller.calibration.decisions:
            window.controller.select_row(i)
            window.view.choice_buttons["drop"].click()
    window.view.agree_button.click()
    assert any(i.behavior_text == "Ask the rep what the customer will review before the demo."
               for i in items.list_items(store))
    window.close()
