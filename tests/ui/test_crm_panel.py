"""The Opportunity panel and the import preview, offscreen over a real store."""

from __future__ import annotations

from pathlib import Path

import desktop.ui.crm  # noqa: F401 - registers the panel, as desktop.app does
from desktop.services import calls, items
from desktop.services import crm as crm_service
from desktop.ui.crm import CrmPanel
from desktop.ui.crm.import_dialog import ImportDialog
from desktop.ui.panels import WorkspaceContext
from tests.services.test_crm_service import ACME_15, add_call, at, dump, export, sf_row, write


def timeline(store, tmp_path):
    """A call on Nov 20; imports on Nov 18 (no date) and Nov 23 (a dated next step)."""
    call = add_call(store, tmp_path)
    crm_service.apply_import(store, export(tmp_path, "nov18.csv", sf_row("Send information"),
                                           modified="2026-11-18T10:00Z"),
                             now=at("2026-11-18T10:00"))
    crm_service.apply_import(store, export(tmp_path, "nov23.csv",
                                           sf_row("Finance review", "12/02/2026", "Evaluation"),
                                           modified="2026-11-23T10:00Z"),
                             now=at("2026-11-23T10:00"))
    return call


def panel_for(qtbot, store, home, call_id):
    context = WorkspaceContext(store, Path(home))
    panel = CrmPanel(store, context)
    qtbot.addWidget(panel)
    panel.resize(420, 640)
    panel.show()
    context.set_call(call_id)
    return panel, context


def test_linked_call_shows_stage_next_step_history_and_the_check(qtbot, store, tmp_path):
    call = timeline(store, tmp_path)
    crm_service.link_call(store, call.id, ACME_15)
    panel, context = panel_for(qtbot, store, tmp_path, call.id)
    v = panel.view
    assert v.stack.currentWidget() is v.linked
    assert "Acme Logistics - Platform" in v.name.text()
    assert (v.stage.text(), v.next_step.text(), v.next_step_date.text()) == (
        "Evaluation", "Finance review", "2026-12-02")
    assert "Next step recorded after the call" in v.verdict.text()
    assert "changed after the call" in v.reason.text()
    model = panel.history_model
    assert model.rowCount() == 3 and model.is_call_row(1)
    assert [model.index(r, 2).data() for r in range(3)] == [
        "Send information", "15:00 UTC", "Finance review"]
    assert not panel.grab().isNull()
    context.set_call(None)
    assert v.stack.currentWidget() is v.empty


def test_unlinked_call_offers_suggestions_and_links_with_one_click(qtbot, store, tmp_path):
    call = timeline(store, tmp_path)
    panel, _ = panel_for(qtbot, store, tmp_path, call.id)
    v = panel.view
    assert v.stack.currentWidget() is v.unlinked
    [button] = [v.suggestion_box.itemAt(i).widget() for i in range(v.suggestion_box.count())]
    assert button.text() == "Link to Acme Logistics - Platform (Acme Logistics)"
    button.click()
    assert v.stack.currentWidget() is v.linked
    assert calls.get_call(store, call.id).opportunity_id is not None
    assert not panel.link("0065g00000Nope1")
    assert "0065g00000Nope1" in v.message.text()
    panel.unlink()
    assert v.stack.currentWidget() is v.unlinked


def test_cite_the_next_step_in_the_item_being_edited(qtbot, store, tmp_path):
    call = timeline(store, tmp_path)
    crm_service.link_call(store, call.id, ACME_15)
    item = items.create_item(store, manager="Morgan Manager")
    panel, _ = panel_for(qtbot, store, tmp_path, call.id)
    assert panel.cite_for_current_item() is None  # no item editor here, no provider
    assert "Open or start a coaching item" in panel.view.message.text()
    panel.set_current_item_provider(lambda: item.id)
    panel.view.cite_button.click()
    [evidence] = items.get_item(store, item.id).evidence
    assert (evidence.kind, evidence.field, evidence.on_date.isoformat()) == (
        "crm", "next_step", "2026-11-23")


def test_import_preview_writes_nothing_until_import(qtbot, store, tmp_path):
    text = ("Opportunity ID,Opportunity Name,Next Step,Decision Call Date\n"
            "0065g00000XyZ1A,Acme,Finance review,2026-12-02\n")
    path = write(tmp_path, "custom.csv", text)
    before = dump(store)
    dialog = ImportDialog(store, path)
    qtbot.addWidget(dialog)
    with qtbot.waitSignal(dialog.preview_ready, timeout=10000) as ready:
        dialog.date_column.setText("Decision Call Date")
        dialog.preview()
    plan = ready.args[0]
    assert plan.created[0].next_step_date.isoformat() == "2026-12-02"
    assert "1 to create" in dialog.summary.text()
    assert "create 0065g00000XyZ1AAAV 'Acme'" in dialog.changes.toPlainText()
    assert dialog.import_button.isEnabled()
    assert dump(store) == before
    dialog.import_button.click()
    assert dialog.result is not None and dialog.result.plan.summary()["created"] == 1
    assert crm_service.remembered_columns(store) == {"next_step_date": "Decision Call Date"}


def test_ambiguous_dates_are_shown_as_read_and_flipped_before_anything_is_written(qtbot, store, tmp_path):
    text = ("Opportunity ID,Opportunity Name,Close Date,Last Modified Date\n"
            "0065g00000XyZ1A,Acme,03/04/2026,2026-03-01 09:30\n")
    path = write(tmp_path, "ambiguous.csv", text)
    before = dump(store)
    dialog = ImportDialog(store, path)
    qtbot.addWidget(dialog)
    qtbot.waitUntil(lambda: dialog.plan is not None, timeout=10000)
    assert "dates read as month/day" in dialog.date_order.text()
    assert "close date 03/04/2026 -> 4 March 2026" in dialog.date_order.text()
    assert dialog.flip_dates.isVisibleTo(dialog) and dialog.flip_dates.text() == "Read as day/month"
    with qtbot.waitSignal(dialog.preview_ready, timeout=10000) as ready:
        dialog.flip_dates.click()
    assert ready.args[0].created[0].close_date.isoformat() == "2026-04-03"
    assert "close date 03/04/2026 -> 3 April 2026" in dialog.date_order.text()
    with qtbot.waitSignal(dialog.preview_ready, timeout=10000):
        dialog.time_zone.setCurrentIndex(dialog.time_zone.findData("Asia/Tokyo"))
    assert "read as Asia/Tokyo" in dialog.changes.toPlainText()
    assert dump(store) == before
    dialog.import_button.click()
    with store.read() as session:
        from db.models import Opportunity
        opp = session.query(Opportunity).one()
        assert opp.close_date.isoformat() == "2026-04-03"
        assert opp.history[0].as_of.isoformat() == "2026-03-01T00:30:00"  # 09:30 in Tokyo, in UTC


def test_a_refused_export_shows_the_line_and_cannot_be_imported(qtbot, store, tmp_path):
    path = write(tmp_path, "dup.csv", "Opportunity ID,Stage\n006A,x\n006A,y\n")
    before = dump(store)
    dialog = ImportDialog(store, path)
    qtbot.addWidget(dialog)
    qtbot.waitUntil(lambda: dialog.error.isVisibleTo(dialog), timeout=10000)
    assert "on line 2 and line 3" in dialog.error.text()
    assert not dialog.import_button.isEnabled()
    assert dump(store) == before


def test_in_the_window_the_panel_is_a_tab_and_file_has_the_import(qtbot, window, store):
    tabs = window.view.inspector
    assert "Opportunity" in [tabs.tabToolTip(i) for i in range(tabs.count())]
    qtbot.waitUntil(lambda: any(a.text() == "Import CRM export…"
                                for m in window.menuBar().actions() if m.menu()
                                for a in m.menu().actions()), timeout=5000)
