"""Trackers in the real window: the library's columns and filter, Edit ▸ Trackers…, and one tracker's lines."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from desktop.services import calls, trackers
from desktop.ui.actions import ActionId
from desktop.ui.models.library_model import COLUMNS
from tests.conftest import make_tone


@pytest.fixture
def library(store, demo_call, tmp_path):
    quiet, _ = calls.add_call(store, make_tone(tmp_path / "quiet.wav"), title="No transcript yet")
    return demo_call, quiet.id


def _counted(qtbot, window):
    ctl = window.trackers
    qtbot.waitUntil(lambda: ctl._shown and not ctl.counting and not trackers.pending(window.store), timeout=20000)
    return ctl


def _column(window, name: str) -> int:
    return window.library_model.columns.index(name)


def _shown_ids(window) -> list[int]:
    model = window.library_model
    return [model.call_at(r).id for r in range(model.rowCount())]


def test_each_tracker_is_a_sortable_library_column_the_filter_understands(qtbot, library, window):
    demo, quiet = library
    _counted(qtbot, window)
    model = window.library_model
    deferral = _column(window, "Deferral")
    assert deferral >= len(COLUMNS) and {"Deferral accepted", "Budget owner"} <= set(model.columns)
    row = model.row_of(demo)
    assert model.index(row, deferral).data() == "1"
    assert model.index(model.row_of(quiet), deferral).data() == "0"
    window.library.table.sortByColumn(deferral, Qt.SortOrder.DescendingOrder)
    assert _shown_ids(window)[0] == demo
    window.library.table.sortByColumn(deferral, Qt.SortOrder.AscendingOrder)
    assert _shown_ids(window)[0] == quiet
    # "calls where the customer deferred and the rep accepted"
    window.library.filter.setText("deferral>0 deferral_accepted>0")
    assert _shown_ids(window) == [demo]
    window.library.filter.setText("deferral=0")
    assert _shown_ids(window) == [quiet]
    window.library.filter.setText("acme budget_owner>=1")
    assert _shown_ids(window) == [demo]
    window.library.filter.setText("nosuchtracker>0")  # not a tracker: a plain word, found nowhere
    assert _shown_ids(window) == []


def test_the_dialog_adds_edits_and_removes_a_tracker_with_undo(qtbot, library, window):
    demo, _quiet = library
    ctl = _counted(qtbot, window)
    window.registry.trigger(ActionId.TRACKERS)
    dialog = ctl.dialog
    qtbot.waitExposed(dialog)
    assert dialog.list.count() == len(trackers.list_trackers(window.store))
    dialog.new_button.click()
    dialog.name.setText("Reporting pain")
    dialog.side.setCurrentIndex(dialog.side.findData("either"))
    dialog.phrases.setPlainText("spreadsheet*\nweek old")
    dialog.exclusions.setPlainText("not a week old")
    dialog.save_button.click()
    assert "Saved Reporting pain" in dialog.status.text()
    _counted(qtbot, window)
    column = _column(window, "Reporting pain")
    model = window.library_model
    qtbot.waitUntil(lambda: model.index(model.row_of(demo), column).data() == "2", timeout=5000)
    assert "Reporting pain — either · 1 calls, 2 lines" in [dialog.list.item(i).text()
                                                                for i in range(dialog.list.count())]
    dialog.side.setCurrentIndex(dialog.side.findData("rep"))
    dialog.save_button.click()
    _counted(qtbot, window)
    qtbot.waitUntil(lambda: model.index(model.row_of(demo), _column(window, "Reporting pain")).data() == "1",
                    timeout=5000)  # the rep says "week old" once
    window.registry.trigger(ActionId.UNDO)  # either side again
    _counted(qtbot, window)
    qtbot.waitUntil(lambda: model.index(model.row_of(demo), _column(window, "Reporting pain")).data() == "2",
                    timeout=5000)
    dialog.remove_button.click()
    assert "Reporting pain" not in model.columns
    window.registry.trigger(ActionId.UNDO)
    _counted(qtbot, window)
    assert "Reporting pain" in model.columns


def test_a_bad_phrase_is_refused_in_the_dialog_and_nothing_saved(qtbot, library, window):
    ctl = _counted(qtbot, window)
    dialog = ctl.open_dialog()
    dialog.new_button.click()
    dialog.name.setText("Odd")
    dialog.phrases.setPlainText("bu*dget")
    assert dialog.save_button.click() is None and "alone or at the end of a word" in dialog.status.text()
    assert "Odd" not in [t.name for t in trackers.list_trackers(window.store)]


def test_one_trackers_lines_open_the_call_a_second_before(qtbot, library, window):
    demo, quiet = library
    ctl = _counted(qtbot, window)
    window.open_call(quiet)
    dialog = ctl.open_hits("Deferral")
    qtbot.waitExposed(dialog)
    assert dialog.model.rowCount() == 1 and dialog.summary.text() == "1 line on 1 call"
    assert dialog.model.index(0, 0).data() == "Acme discovery" and dialog.model.index(0, 3).data() == "customer"
    assert "send me some information" in dialog.model.index(0, 4).data().lower()
    dialog.play_selected()
    assert window.workspace.call.id == demo
    qtbot.waitUntil(lambda: abs(window.playback.position_ms() - (125551 - 1000)) < 1500, timeout=10000)
    assert window.playback.position_ms() >= 125551 - 1000 - 50, "from a second before the line, not after it"


def test_a_line_edited_in_the_window_recounts_that_calls_columns(qtbot, library, window):
    from desktop.services import transcripts

    demo, _quiet = library
    _counted(qtbot, window)
    model = window.library_model
    deferral = _column(window, "Deferral")
    window.library.filter.setText("deferral>0")
    assert _shown_ids(window) == [demo]
    window.history.run(lambda: transcripts.edit_line(window.store, demo, 125551, text="Sounds good, Thursday at ten."))
    assert _shown_ids(window) == [], "the call no longer passes deferral>0"
    window.library.filter.setText("")
    assert model.index(model.row_of(demo), deferral).data() == "0"
    window.registry.trigger(ActionId.UNDO)
    assert model.index(model.row_of(demo), deferral).data() == "1"
