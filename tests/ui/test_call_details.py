"""People on a call: asked when a recording is added from the window, editable from the Call tab, undoable."""

from __future__ import annotations

from desktop.services import calls
from desktop.ui.actions import ActionId
from tests.conftest import make_tone


def test_adding_a_recording_asks_who_is_on_it_with_known_names_offered(qtbot, window, store, demo_call, tmp_path):
    call_id = window.open_media_file(make_tone(tmp_path / "renewal globex.wav", seconds=3))
    dialog = window.last_dialog
    assert dialog.isVisible() and dialog.windowTitle() == "Who is on this call?"
    completer = dialog.manager.completer()
    completer.setCompletionPrefix("morg")
    assert completer.currentCompletion() == "Morgan Manager"  # the demo call's manager, offered
    dialog.rep.setText("Sam Seller")
    dialog.manager.setText("Morgan Manager")
    dialog.accept()
    row = calls.get_call(store, call_id)
    assert (row.rep, row.manager) == ("Sam Seller", "Morgan Manager")
    assert window.view.call_info.value("Manager") == "Morgan Manager"
    assert "Manager Morgan Manager" in window.view.details.text()


def test_the_call_tab_edits_title_date_and_source_and_undo_takes_it_back(qtbot, window, store, demo_call):
    window.open_call(demo_call)
    window.view.call_info.edit_button.click()
    dialog = window.last_dialog
    dialog.title.setText("Discovery - Acme (first call)")
    dialog.source.setCurrentIndex(dialog.source.findData("zoom"))
    dialog.has_date.setChecked(True)
    dialog.recorded.setDateTime(dialog.recorded.dateTime().fromString("2026-11-21T10:30", "yyyy-MM-ddTHH:mm"))
    dialog.accept()
    row = calls.get_call(store, demo_call)
    assert row.title == "Discovery - Acme (first call)" and row.source == "zoom"
    assert row.recorded_at.startswith("2026-11-21") and "10:30" in row.recorded_at.replace("T", " ")
    assert window.view.heading.text() == "Discovery - Acme (first call)"
    assert window.library_model.call_at(0).title in {"Discovery - Acme (first call)", row.title}
    window.registry[ActionId.UNDO].trigger()
    assert calls.get_call(store, demo_call).title == "Acme discovery"
    assert window.view.heading.text() == "Acme discovery"
