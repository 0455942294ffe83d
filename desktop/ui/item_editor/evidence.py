"""Evidence on the open item: cite the selected moment, a CRM field or a dated 1:1 note; remove one.

The rules stay in the services: a moment feeds one item (`items.add_moments`
refuses and says which item it feeds), a CRM field is cited through
`crm_evidence.cite` from the opportunity the open call is linked to. Each is a
coach edit (`desktop.services.evidence`) run through the editor's `run`: Ctrl+Z
takes it back, and the editor shows the item again from the change signal.
"""

from __future__ import annotations

from datetime import date

from PySide6.QtCore import QObject

from desktop.core.timefmt import format_ms
from desktop.core.words import plural
from desktop.errors import CallmarkError
from desktop.services import crm, crm_evidence, evidence, items, moments
from desktop.ui.item_editor.evidence_view import EvidenceTools
from desktop.ui.style import theme


def _esc(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _short(text: str, width: int = 48) -> str:
    text = " ".join((text or "").split())
    return text if len(text) <= width else text[: width - 1] + "…"


class EvidenceController(QObject):
    """Wires `EvidenceTools` for the editor's controller (`editor`): its item, store and messages."""

    def __init__(self, editor, tools: EvidenceTools, parent: QObject | None = None):
        super().__init__(parent)
        self.editor = editor
        self.tools = tools
        self.opportunity: crm.CallOpportunity | None = None
        tools.cite_button.clicked.connect(self.cite_selected_moment)
        tools.crm_button.clicked.connect(self.cite_crm_field)
        tools.note_button.clicked.connect(self.add_note)
        tools.note_text.returnPressed.connect(self.add_note)
        tools.remove_button.clicked.connect(self.remove_selected)
        editor.item_loaded.connect(self.on_item_loaded)
        context = editor.context
        if context is not None:
            # Connected after the editor's own slots: by now it has switched item if it had to.
            context.call_changed.connect(self.on_call_changed)
            context.moment_selected.connect(lambda _id: self.show_selected())
        self.on_call_changed(context.call_id if context is not None else None)

    @property
    def store(self):
        return self.editor.store

    def _selected_id(self) -> int | None:
        context = self.editor.context
        return int(context.moment_id) if context is not None and context.moment_id is not None else None

    # --- what is shown ---------------------------------------------------------------------------

    def on_item_loaded(self, row: items.ItemRow | None) -> None:
        t = self.tools
        t.setEnabled(row is not None)
        t.remove_pick.clear()
        if row is not None:
            for m in row.moments:
                t.remove_pick.addItem(f"{format_ms(m.start_ms)} “{_short(m.quote, 36)}”", f"moment:{m.id}")
            for e in row.evidence:
                kind = "CRM" if e.kind == "crm" else "1:1 note"
                t.remove_pick.addItem(f"{kind} {e.on_date or ''} {_short(e.text, 36)}", f"evidence:{e.id}")
        t.remove_button.setEnabled(t.remove_pick.count() > 0)
        if not t.note_date.text():
            t.note_date.set_date(date.today())
        self._fill_crm()
        self.show_selected()

    def on_call_changed(self, call_id) -> None:
        self.opportunity = None
        if call_id is not None:
            try:
                self.opportunity = crm.opportunity_for_call(self.store, int(call_id))
            except CallmarkError:
                self.opportunity = None
        self._fill_crm()
        self.show_selected()

    def _fill_crm(self) -> None:
        t = self.tools
        t.crm_field.clear()
        opp = self.opportunity.opportunity if self.opportunity is not None else None
        if opp is None:
            t.crm_field.addItem("Link this call to an opportunity to cite its CRM fields", None)
        else:
            for name, label in crm.CITABLE_FIELDS.items():
                value = getattr(opp, name)
                shown = value.isoformat() if isinstance(value, date) else (value or "(empty)")
                t.crm_field.addItem(f"{label}: {_short(shown, 40)}", name)
        t.crm_field.setEnabled(opp is not None)
        t.crm_button.setEnabled(opp is not None and self.editor.item is not None)

    def show_selected(self) -> None:
        """Say what "Cite selected moment" would cite, when that moment isn't on this item yet."""
        t = self.tools
        row = self.editor.item
        moment_id = self._selected_id()
        moment = None
        if row is not None and moment_id is not None and moment_id not in row.moment_ids:
            try:
                moment = moments.get_moment(self.store, moment_id)
            except CallmarkError:
                moment = None
        t.cite_button.setEnabled(moment is not None)
        if moment is None:
            t.selected_note.hide()
            return
        who = f" · {_esc(moment.speaker)}" if moment.speaker else ""
        feeds = (f"already feeds item {moment.item_id}" if moment.item_id is not None
                 else "feeds no item yet: cite it here, or Ctrl+I starts a new item")
        t.selected_note.setText(f"<span style='color:{theme().muted_text}'>Selected: {format_ms(moment.start_ms)}{who} "
                                f"“{_esc(_short(moment.quote, 60))}” · {feeds}</span>")
        t.selected_note.show()

    # --- commands ------------------------------------------------------------------------------

    def _run(self, op, message) -> items.ItemRow | None:
        made = self.editor.run(op)
        if made is None:
            return None
        self.editor.show_message(message(made.row))
        return made.row

    def cite_selected_moment(self) -> items.ItemRow | None:
        row, moment_id = self.editor.item, self._selected_id()
        if row is None:
            self.editor.show_message("Open an item first (pick one above, or Ctrl+I on a moment).", error=True)
            return None
        if moment_id is None:
            self.editor.show_message("Select a moment in the moments list (of this call or another) "
                                     "to cite it on this item.", error=True)
            return None
        self.editor.flush()
        return self._run(lambda: evidence.cite_moments(self.store, row.id, [moment_id]),
                         lambda updated: f"Item {row.id} now cites {plural(len(updated.moments), 'moment')}.")

    def cite_crm_field(self) -> items.ItemRow | None:
        row, field = self.editor.item, self.tools.crm_field.currentData()
        if row is None or self.opportunity is None or field is None:
            self.editor.show_message("Link this call to an opportunity (Opportunity panel) to cite a "
                                     "CRM field.", error=True)
            return None
        self.editor.flush()
        opportunity_id = self.opportunity.opportunity.id
        return self._run(lambda: crm_evidence.cite(self.store, row.id, opportunity_id, field),
                         lambda _: f"Cited the CRM {crm.CITABLE_FIELDS[field].lower()} on item {row.id}.")

    def add_note(self) -> items.ItemRow | None:
        t, row = self.tools, self.editor.item
        if row is None:
            return None
        text = t.note_text.text().strip()
        if not text:
            self.editor.show_message("Write what the 1:1 note says first.", error=True)
            t.note_text.setFocus()
            return None
        try:
            on = t.note_date.date_value()
        except ValueError:
            self.editor.show_message(f"1:1 note date {t.note_date.text()!r}: type it as 2026-12-14.",
                                     error=True)
            return None
        self.editor.flush()
        updated = self._run(lambda: evidence.add_note(self.store, row.id, text, on),
                            lambda _: f"Added the 1:1 note of {on or 'no date'} to item {row.id}.")
        if updated is not None:
            t.note_text.clear()
        return updated

    def remove_selected(self) -> items.ItemRow | None:
        row, chosen = self.editor.item, self.tools.remove_pick.currentData()
        if row is None or chosen is None:
            return None
        self.editor.flush()
        kind, ident = chosen.split(":")[0], int(chosen.split(":")[1])
        label = self.tools.remove_pick.currentText()
        remove = evidence.uncite_moment if kind == "moment" else evidence.remove
        return self._run(lambda: remove(self.store, row.id, ident),
                         lambda _: f"Removed {label} from item {row.id}.")
