"""The Opportunity panel: the linked opportunity's stage and next step, its history around the
call, and whether a customer-confirmed next step with a date was recorded after the call."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView, QFileDialog, QFormLayout, QFrame, QHBoxLayout, QHeaderView, QLabel,
    QPushButton, QScrollArea, QStackedWidget, QTableView, QVBoxLayout, QWidget,
)

from desktop.core import opportunity
from desktop.errors import CallmarkError
from desktop.services import crm as crm_service
from desktop.services import crm_evidence
from desktop.services.changes import CRM
from desktop.ui.crm.history_model import HistoryModel
from desktop.ui.style import label_look, table_look, theme

VERDICTS = {  # (recorded, conclusive) -> (badge, its colour in the palette's theme: desktop.ui.style)
    (True, True): ("Next step recorded after the call", "ok"),
    (False, True): ("No dated next step recorded after the call", "warning"),
    (False, False): ("Can't tell yet", "muted"),
}


def _value(text: str | None) -> str:
    return text if text else "—"


class CrmPanelView(QWidget):
    """Lays out the panel; `CrmPanel` fills and wires it."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("crmPanel")
        self.heading = label_look(QLabel("Opportunity"), "panelTitle")
        self.stack = QStackedWidget()

        self.empty = label_look(QLabel("Open a call to see its opportunity."), "emptyHint")
        self.empty.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.empty.setWordWrap(True)

        self.unlinked = QWidget()
        ul = QVBoxLayout(self.unlinked)
        ul.setContentsMargins(0, 0, 0, 0)
        self.unlinked_text = QLabel()
        self.unlinked_text.setWordWrap(True)
        self.suggestion_box = QVBoxLayout()
        self.link_button_unlinked = QPushButton("Link…")
        ul.addWidget(self.unlinked_text)
        ul.addLayout(self.suggestion_box)
        ul.addWidget(self.link_button_unlinked, 0, Qt.AlignmentFlag.AlignLeft)
        ul.addStretch(1)

        self.linked = QWidget()
        ll = QVBoxLayout(self.linked)
        ll.setContentsMargins(0, 0, 0, 0)
        ll.setSpacing(6)
        self.name = QLabel()
        self.name.setObjectName("opportunityName")
        self.name.setWordWrap(True)
        self.name.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.where = QLabel()
        self.where.setObjectName("fieldCaption")
        self.where.setWordWrap(True)
        self.where.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        self.stage = QLabel()
        self.next_step = QLabel()
        self.next_step.setWordWrap(True)
        self.next_step.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.next_step_date = QLabel()
        self.close_date = QLabel()
        self.last_seen = QLabel()
        for name in ("stage", "next_step", "next_step_date", "close_date"):
            form.addRow(opportunity.LABELS[name], getattr(self, name))  # the declared fields' words
        form.addRow("Last import", self.last_seen)
        self.verdict = QLabel()
        self.verdict.setObjectName("nextStepVerdict")
        self.reason = QLabel()
        self.reason.setObjectName("nextStepReason")
        self.reason.setWordWrap(True)
        self.reason.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        check = QFrame()
        check.setObjectName("nextStepCheck")
        check.setFrameShape(QFrame.Shape.StyledPanel)
        cl = QVBoxLayout(check)
        cl.setContentsMargins(8, 6, 8, 6)
        cl.addWidget(self.verdict)
        cl.addWidget(self.reason)
        history_title = QLabel("Next-step history")
        history_title.setObjectName("stepTitle")
        self.history = QTableView()
        table_look(self.history)
        self.history.setObjectName("nextStepHistory")
        self.history.verticalHeader().hide()
        self.history.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.history.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.history.setWordWrap(False)
        self.history.setAlternatingRowColors(False)
        self.history.setMinimumHeight(110)
        self.cite_button = QPushButton("Cite next step as evidence")
        self.cite_button.setToolTip("Add the next step, as of the latest import, as evidence "
                                    "in the coaching item being edited")
        self.link_button = QPushButton("Link…")
        self.unlink_button = QPushButton("Unlink")
        # Two rows, so the panel (and with it the inspector) can be as narrow as its widest button:
        # the coach gives the width to the transcript and the moments.
        buttons = QVBoxLayout()
        buttons.addWidget(self.cite_button, 0, Qt.AlignmentFlag.AlignLeft)
        links = QHBoxLayout()
        links.addWidget(self.link_button)
        links.addWidget(self.unlink_button)
        links.addStretch(1)
        buttons.addLayout(links)
        ll.addWidget(self.name)
        ll.addWidget(self.where)
        ll.addLayout(form)
        ll.addWidget(check)
        ll.addWidget(history_title)
        ll.addWidget(self.history, 1)
        ll.addLayout(buttons)

        for page in (self.empty, self.unlinked, self.linked):
            self.stack.addWidget(page)
        self.message = QLabel()
        self.message.setObjectName("editorMessage")
        self.message.setWordWrap(True)
        self.message.hide()
        self.import_button = QPushButton("Import CRM export…")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        # The tab already says "Opportunity"; the heading is for the empty and unlinked pages.
        layout.addWidget(self.heading)
        layout.addWidget(self.stack, 1)
        layout.addWidget(self.message)
        layout.addWidget(self.import_button, 0, Qt.AlignmentFlag.AlignLeft)


class CrmPanel(QWidget):
    """The panel and its wiring: follows the open call, links, imports, cites."""

    opportunity_changed = Signal(object)  # CallOpportunity or None, after each refresh

    def __init__(self, store, context=None, parent=None):
        super().__init__(parent)
        self.store = store
        self.context = context
        self.call_id: int | None = None
        self.shown: crm_service.CallOpportunity | None = None
        self._current_item: Callable[[], int | None] | None = None
        self.view = CrmPanelView()
        self.history_model = HistoryModel(self)
        self.view.history.setModel(self.history_model)
        header = self.view.history.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        # Scrolls rather than holding the whole inspector (and so the window) taller than a small screen.
        scroll = QScrollArea()
        scroll.setAccessibleName("Opportunity")
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setWidget(self.view)
        layout.addWidget(scroll)
        v = self.view
        v.link_button.clicked.connect(self.open_link_dialog)
        v.link_button_unlinked.clicked.connect(self.open_link_dialog)
        v.unlink_button.clicked.connect(self.unlink)
        v.cite_button.clicked.connect(lambda: self.cite_for_current_item("next_step"))
        v.import_button.clicked.connect(self.choose_and_import)
        if context is not None:
            context.call_changed.connect(self.on_call_changed)
            if hasattr(context, "store_changed"):
                context.store_changed.connect(self.on_store_changed)
            self.on_call_changed(context.call_id)
        else:
            self.refresh()

    # --- following the call ---------------------------------------------------------------

    def on_call_changed(self, call_id) -> None:
        self.call_id = call_id
        self.show_message("")
        self.refresh()

    def on_store_changed(self, change) -> None:
        # A link, an import or their undo, from this panel or any other path: show the CRM as it is now.
        if change.touches(CRM):
            self.refresh()

    def refresh(self) -> None:
        v = self.view
        if self.call_id is None:
            self.shown = None
            v.heading.show()
            v.stack.setCurrentWidget(v.empty)
            self.opportunity_changed.emit(None)
            return
        try:
            self.shown = crm_service.opportunity_for_call(self.store, self.call_id)
        except CallmarkError as exc:
            self.shown = None
            v.empty.setText(str(exc))
            v.stack.setCurrentWidget(v.empty)
            return
        if self.shown is None:
            self._show_unlinked()
        else:
            self._show_linked(self.shown)
        v.heading.setVisible(self.shown is None)
        self.opportunity_changed.emit(self.shown)

    def _show_unlinked(self) -> None:
        v = self.view
        while v.suggestion_box.count():
            widget = v.suggestion_box.takeAt(0).widget()
            if widget is not None:
                widget.deleteLater()
        found = crm_service.suggest_links(self.store, self.call_id)[:3]
        any_opportunity = bool(found) or bool(crm_service.list_opportunities(self.store))
        if not any_opportunity:
            text = ("No CRM opportunities yet. Import a Salesforce or HubSpot export "
                    "(File ▸ Import CRM export…), then link this call.")
        elif found:
            text = "This call is not linked to an opportunity. Suggested from the call title:"
        else:
            text = "This call is not linked to an opportunity."
        v.unlinked_text.setText(text)
        for s in found:
            o = s.opportunity
            button = QPushButton(f"Link to {o.name} ({o.account or o.external_id})")
            button.setToolTip(s.reason)
            button.setObjectName("suggestionButton")
            button.clicked.connect(lambda _=False, ext=o.external_id: self.link(ext))
            v.suggestion_box.addWidget(button)
        v.link_button_unlinked.setVisible(any_opportunity)
        v.stack.setCurrentWidget(v.unlinked)

    def _show_linked(self, shown: crm_service.CallOpportunity) -> None:
        v, o, check = self.view, shown.opportunity, shown.check
        v.name.setText(f"<b>{o.name or o.external_id}</b>")
        v.where.setText(" · ".join(x for x in (o.crm_label, o.external_id, o.account, o.owner) if x))
        v.stage.setText(_value(o.stage))
        v.next_step.setText(_value(o.next_step))
        v.next_step_date.setText(o.next_step_date.isoformat() if o.next_step_date else "—")
        v.close_date.setText(o.close_date.isoformat() if o.close_date else "—")
        v.last_seen.setText(f"{o.last_seen:%Y-%m-%d %H:%M} UTC")
        badge, tone = VERDICTS[(check.recorded, check.conclusive)]
        look = theme()
        colour = look.muted_text if tone == "muted" else look.severity[tone]
        v.verdict.setText(f"<b style='color:{colour}'>{badge}</b>")
        v.reason.setText(check.reason[:1].upper() + check.reason[1:] + ".")
        self.history_model.set_history(shown.history, shown.call_at)
        v.cite_button.setEnabled(bool(o.next_step))
        v.stack.setCurrentWidget(v.linked)

    def show_message(self, text: str, error: bool = False) -> None:
        self.view.message.setText(text)
        self.view.message.setStyleSheet(f"color: {theme().severity['error']};" if error else "")
        self.view.message.setVisible(bool(text))

    # --- linking ------------------------------------------------------------------------------

    def link(self, opportunity_ref: str) -> bool:
        if self.call_id is None:
            return False
        call_id = self.call_id
        try:
            made = self._run(lambda: crm_service.link(self.store, call_id, opportunity_ref))
        except CallmarkError as exc:
            self.show_message(str(exc), error=True)
            return False
        self.show_message(f"Linked to {made.row.name}.")
        self.refresh()
        return True

    def unlink(self) -> None:
        if self.call_id is not None:
            call_id = self.call_id
            self._run(lambda: crm_service.link(self.store, call_id, None))
            self.show_message("The call is no longer linked to an opportunity.")
            self.refresh()

    def _run(self, op):
        """A coach edit through the window's history (undo, one change signal) when there is one."""
        history = getattr(self.context, "history", None)
        return history.run(op, raise_refusal=True) if history is not None else op()

    def open_link_dialog(self) -> None:
        from desktop.ui.crm.link_dialog import LinkDialog

        if self.call_id is None:
            return
        dialog = LinkDialog(self.store, self.call_id, self, run=self._run)
        if dialog.exec() and dialog.linked is not None:
            self.show_message(f"Linked to {dialog.linked.name}.")
            self.refresh()

    # --- importing ---------------------------------------------------------------------------

    def choose_and_import(self) -> None:
        from desktop.ui.crm.import_dialog import CSV_FILTER

        path, _ = QFileDialog.getOpenFileName(self, "Import a CRM export", "", CSV_FILTER)
        if path:
            self.import_export(path)

    def import_export(self, path: str) -> crm_service.ImportResult | None:
        from desktop.ui.crm.import_dialog import ImportDialog

        dialog = ImportDialog(self.store, path, self.window(), run=self._run)
        if dialog.exec() and dialog.result is not None:
            s = dialog.result.plan.summary()
            self.show_message(f"Imported: {s['created']} created, {s['updated']} updated, "
                              f"{s['unchanged']} unchanged.")
            self.refresh()
            return dialog.result
        return None

    # --- citing a CRM field in the coaching item being edited ----------------------------------

    def set_current_item_provider(self, provider: Callable[[], int | None] | None) -> None:
        """Tell the panel how to find the item being edited (default: the item editor panel)."""
        self._current_item = provider

    def current_item_id(self) -> int | None:
        if self._current_item is not None:
            return self._current_item()
        editor = self._item_editor()
        item = getattr(getattr(editor, "controller", None), "item", None)
        return getattr(item, "id", None)

    def _item_editor(self):
        try:
            from desktop.ui.item_editor import ItemEditor
        except ImportError:
            return None
        host = self.context.parent() if self.context is not None else None
        if not isinstance(host, QWidget):
            host = self.window()
        found = host.findChildren(ItemEditor)
        return found[0] if found else None

    def cite_for_current_item(self, field: str = "next_step") -> int | None:
        """Cite the linked opportunity's field in the item being edited; the evidence id."""
        if self.shown is None:
            return None
        item_id = self.current_item_id()
        if item_id is None:
            self.show_message("Open or start a coaching item first (Coaching item tab), "
                              "then cite the next step as its evidence.", error=True)
            return None
        return self.cite(item_id, field)

    def cite(self, item_id: int, field: str = "next_step"):
        """Cite the field in the item (one coach edit: Ctrl+Z takes it back); the item as it is now."""
        editor = self._item_editor()
        if editor is not None:
            editor.flush()  # what the coach typed lands before the item is reloaded
        opportunity_id = self.shown.opportunity.id
        try:
            made = self._run(lambda: crm_evidence.cite(self.store, item_id, opportunity_id, field))
        except CallmarkError as exc:
            self.show_message(str(exc), error=True)
            return None
        # The editor shows the item again from the change signal (or here, with no window to tell it).
        if getattr(self.context, "history", None) is None and editor is not None:
            editor.controller.on_store_changed(made)
        self.show_message(f"Cited the {crm_service.CITABLE_FIELDS[field].lower()} as evidence "
                          f"in item {item_id}.")
        return made.row
