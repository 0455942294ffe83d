"""Wires the item editor to the store: load, autosave each field, check live, park and promote."""

from __future__ import annotations

import dataclasses
from functools import partial
from html import escape
from datetime import date

from PySide6.QtCore import QObject, QStringListModel, Qt, Signal
from PySide6.QtWidgets import QComboBox

from desktop.core.enums import Severity
from desktop.core.specificity import Finding
from desktop.core.timefmt import format_ms
from desktop.errors import CallmarkError
from desktop.services import items, moments, parking
from desktop.services.changes import ITEMS, PARKED
from desktop.ui.item_editor.autosave import FieldSaver
from desktop.ui.item_editor.away import UnsavedWhileAway, keep_or_raise
from desktop.ui.item_editor.evidence import EvidenceController
from desktop.ui.item_editor.fields import SEVERITY_COLOURS, StepText, summary_html, worst
from desktop.ui.style import theme
from desktop.ui.item_editor.follow_up import FollowUpController, ItemPicker
from desktop.ui.item_editor.view import ItemEditorView

# Widgets whose text is an item field of the same name.
TEXT_WIDGETS = ("consequence", "behavior_text", "practice_task", "next_evidence", "cadence", "indicator",
                "review_rule_text", "owner_does", "owner_reviews")
COMBO_FIELDS = ("behavior_change", "practice_kind", "qualification_gap", "status")
# Which findings go under which field, and which field they mark.
NOTE_FOR = {"evidence": ("evidence_note", None), "consequence": ("consequence_note", "consequence"),
            "behavior": ("behavior_note", "behavior_text"), "practice": ("practice_note", "practice_task"),
            "next_evidence": ("next_evidence_note", "next_evidence"), "owner": ("owner_note", None)}


_esc = partial(escape, quote=False)  # text shown in a rich-text label; quotes stay as written

class ItemEditorController(QObject):
    item_loaded = Signal(object)  # ItemRow or None
    findings_changed = Signal(list)  # list[Finding] for the item as typed

    def __init__(self, store, context, view: ItemEditorView, parent: QObject | None = None):
        super().__init__(parent)
        self.store = store
        self.context = context
        self.view = view
        self.item: items.ItemRow | None = None
        self.moment: moments.MomentRow | None = None
        self.findings: list[Finding] = []
        self._loading = False
        self._writing = False
        self._parked: list[parking.ParkedRow] = []
        self.parked_model = QStringListModel(self)
        view.parked_list.setModel(self.parked_model)
        self.saver = FieldSaver(self._write, parent=self)
        self.saver.failed.connect(lambda field, msg: self.show_message(msg, error=True))
        self.away = UnsavedWhileAway(store, self)  # a team store's server away: typed text saved once back
        self.away.saved.connect(self._on_saved_once_back)
        self.away.failed.connect(lambda msg: self.show_message(msg, error=True))
        self._wire()
        self.show_nothing()
        self.reload_parked()
        self.evidence = EvidenceController(self, view.evidence, self)
        self.follow_up = FollowUpController(self, view, self)
        self.follow_up.on_item_loaded(None)
        self.picker = ItemPicker(self, view, self)

    # --- wiring ---------------------------------------------------------------------------

    def _wire(self) -> None:
        v = self.view
        for name in TEXT_WIDGETS:
            widget = getattr(v, name)
            if isinstance(widget, StepText):
                widget.edited.connect(lambda text, f=name: self.on_field_edited(f, text))
                widget.left.connect(self.saver.flush)
            else:
                widget.textEdited.connect(lambda text, f=name: self.on_field_edited(f, text))
                widget.editingFinished.connect(self.saver.flush)
                widget.returnPressed.connect(widget.focusNextChild)
        for name in COMBO_FIELDS:
            combo: QComboBox = getattr(v, name)
            combo.currentIndexChanged.connect(lambda _i, f=name, c=combo: self.on_choice(f, c.currentData()))
        v.next_evidence_due.textEdited.connect(self.on_due_changed)
        v.next_evidence_due.editingFinished.connect(self.saver.flush)
        v.due_calendar.picked.connect(self.on_due_picked)
        for box in (v.seen_in, v.of_reviewed, v.weeks_in_a_row):
            box.valueChanged.connect(self.on_rule_counts_changed)
            box.editingFinished.connect(self.saver.flush)
        v.behavior_text.edited.connect(self.on_behavior_typed)
        v.moment_card.linkActivated.connect(self.on_moment_link)
        v.new_button.clicked.connect(self.new_item_from_moment)
        v.park_button.clicked.connect(self.park_moment)
        v.promote_button.clicked.connect(self.promote_selected)
        v.split_button.clicked.connect(self.split_behavior)
        v.park_note.returnPressed.connect(self.park_moment)
        if self.context is not None:
            self.context.call_changed.connect(self.on_call_changed)
            self.context.moment_selected.connect(self.on_moment_selected)
            if hasattr(self.context, "moments_changed"):
                self.context.moments_changed.connect(self.on_moments_changed)
            if hasattr(self.context, "store_changed"):
                self.context.store_changed.connect(self.on_store_changed)

    # --- what is shown ----------------------------------------------------------------------

    def show_nothing(self, hint: str = "Select a moment, then press Ctrl+I to start a coaching item "
                                        "from it, or Park it for later.") -> None:
        self._set_item(None)
        self.view.moment_card.setText(f"<i>{_esc(hint)}</i>")

    def _set_item(self, row: items.ItemRow | None) -> None:
        self.saver.bind(row.id if row is not None else None)  # what was typed before goes to its own item
        self.item = row
        v = self.view
        v.form.setEnabled(row is not None)
        self._loading = True
        try:
            for name in TEXT_WIDGETS:
                widget = getattr(v, name)
                value = getattr(row, name) if row else ""
                if isinstance(widget, StepText):
                    widget.set_text(value)
                elif widget.text() != value:
                    widget.setText(value)
            for name in COMBO_FIELDS:
                combo = getattr(v, name)
                value = (getattr(row, name) or "") if row else ""
                index = combo.findData(value)
                combo.setCurrentIndex(max(index, 0))
            v.next_evidence_due.set_date(row.next_evidence_due if row else None)
            rule = row.continue_after if row else None
            v.seen_in.setValue(rule.seen_in if rule else 0)
            v.of_reviewed.setValue(rule.of_reviewed if rule else 0)
            v.weeks_in_a_row.setValue(rule.weeks_in_a_row if rule else 0)
            v.rule_note.clear()
        finally:
            self._loading = False
        if row is not None:
            self.view.completer.set_known([b for b in items.known_behaviors(self.store)
                                           if b != row.behavior_text])
            self._show_evidence(row)
        self.recheck()
        self.item_loaded.emit(row)

    def _show_evidence(self, row: items.ItemRow) -> None:
        lines = []
        here = self.context.call_id if self.context is not None else None
        for m in row.moments:
            muted = theme().muted_text
            where = "" if m.call_id == here else f"<span style='color:{muted}'>{_esc(m.call_title)} · </span>"
            who = f" · {_esc(m.speaker)}" if m.speaker else ""
            link = f"<a href='seek:{m.call_id}:{m.start_ms}'>{format_ms(m.start_ms)}</a>"
            lines.append(f"{where}{link}{who}<br/>“{_esc(m.quote)}”")
        for e in row.evidence:
            kind = "CRM" if e.kind == "crm" else "1:1 note"
            lines.append(f"{kind} · {e.on_date or 'no date'}<br/>{_esc(e.text)}")
        self.view.moment_card.setText("<br/>".join(lines) or "<i>No evidence cited yet.</i>")

    def _show_moment_without_item(self, moment: moments.MomentRow) -> None:
        self._set_item(None)
        who = f" · {_esc(moment.speaker)}" if moment.speaker else ""
        self.view.moment_card.setText(
            f"<a href='seek:{moment.call_id}:{moment.start_ms}'>{format_ms(moment.start_ms)}</a>{who}"
            f"<br/>“{_esc(moment.quote)}”<br/><i>This moment feeds no item yet: press Ctrl+I to start one, "
            "or Park it for later.</i>")

    def show_item(self, item_id: int) -> None:
        self.saver.flush()
        self._set_item(items.get_item(self.store, item_id))

    def reload_item(self, row: items.ItemRow | None = None) -> None:
        """Show the item again after a change made outside its fields (evidence, cycle)."""
        if self.item is None and row is None:
            return
        self.saver.flush()
        self._set_item(row if row is not None else items.get_item(self.store, self.item.id))

    def show_message(self, text: str, error: bool = False) -> None:
        colour = SEVERITY_COLOURS[Severity.ERROR] if error else theme().severity["ok"]
        self.view.message.setStyleSheet(f"color: {colour}")
        self.view.message.setText(text)
        self.view.message.setVisible(bool(text))

    # --- the workspace tells us ---------------------------------------------------------------

    def on_call_changed(self, call_id) -> None:
        self.saver.flush()
        self.moment = None
        self.show_message("")
        self.reload_parked()
        # Another call of the same manager: the open item stays, ready to cite a moment from it.
        keep = None
        if self.item is not None and call_id is not None:
            try:
                if items.call_manager(self.store, int(call_id)) == self.item.manager:
                    keep = items.get_item(self.store, self.item.id)
            except CallmarkError:
                keep = None
        if keep is not None:
            self._set_item(keep)
        else:
            self.show_nothing()

    def on_moment_selected(self, moment_id) -> None:
        self.saver.flush()
        if moment_id is None:
            self.moment = None
            if self.item is None:
                self.show_nothing()
            return
        try:
            self.moment = moments.get_moment(self.store, int(moment_id))
            row = items.item_for_moment(self.store, self.moment.id)
        except CallmarkError:
            self.moment = None
            self.show_nothing()
            return
        if row is not None:
            self._set_item(row)
        elif self.item is None:
            self._show_moment_without_item(self.moment)
        # else: keep the open item; the evidence tools offer to cite the selected moment on it.

    def on_moments_changed(self) -> None:
        """A moment was edited or deleted: its quote or time on the card may have changed."""
        if self.item is not None:
            try:
                self.item = items.get_item(self.store, self.item.id)
                self._show_evidence(self.item)
            except CallmarkError:
                self.show_nothing()

    def on_moment_link(self, link: str) -> None:
        _, call_id, ms = link.split(":")
        if self.context is not None and int(call_id) == self.context.call_id:
            self.context.play_from(int(ms))  # hear the moment again while writing about it

    # --- typing and choosing -------------------------------------------------------------------

    def on_field_edited(self, field: str, text: str) -> None:
        if self._loading or self.item is None:
            return
        self.saver.change(field, text)
        self.recheck()

    def on_choice(self, field: str, value) -> None:
        if self._loading or self.item is None:
            return
        self.saver.save_now(field, value)
        self.recheck()

    def on_due_changed(self, _text: str) -> None:
        if self._loading or self.item is None:
            return
        field = self.view.next_evidence_due
        if field.is_valid():
            self.saver.change("next_evidence_due", field.date_value())
        self.recheck()  # half-typed dates are normal; recheck marks a missing or impossible one

    def on_due_picked(self, day: date) -> None:
        if self._loading or self.item is None:
            return
        self.saver.save_now("next_evidence_due", day)
        self.recheck()

    def on_rule_counts_changed(self) -> None:
        if self._loading or self.item is None:
            return
        v = self.view
        n, m, k = v.seen_in.value(), v.of_reviewed.value(), v.weeks_in_a_row.value()
        if n == m == k == 0:
            v.rule_note.clear()
            self.saver.change("continue_after", None)
        elif 0 in (n, m, k):
            v.rule_note.setText("Set all three numbers to save the rule.")
        elif n > m:
            v.rule_note.setText(f"Seen in {n} can't be more than the {m} reviewed.")
        else:
            v.rule_note.setText(f"Continue when seen in {n} of {m} reviewed recordings, "
                                f"{k} week{'s' if k != 1 else ''} in a row.")
            self.saver.change("continue_after", (n, m, k))

    def on_behavior_typed(self, text: str) -> None:
        if not self._loading and self.item is not None:
            self.view.completer.offer(text)

    def _write(self, item_id: int, field: str, value) -> None:
        shown = self.item if self.item is not None and self.item.id == item_id else None
        version = shown.version if shown is not None else None
        # Saved knowing the version the coach was editing: a save crossing another coach's is refused
        # (EditConflict), never silently overwritten.
        op = lambda: items.edit(self.store, item_id, expected_version=version, **{field: value})  # noqa: E731
        history = getattr(self.context, "history", None) if self.context is not None else None

        def save():
            if history is not None:
                # One undo step per field typed into (the pauses between words each save).
                return history.run(op, merge_key=("item", item_id, field), raise_refusal=True)
            return op()

        self._writing = True
        try:
            made = keep_or_raise(self.away, item_id, field, value, version, save)
        except items.EditConflict as conflict:
            # Both texts kept: the coach's stays in the editor, theirs is shown; the coach's next
            # save of the field is made knowing theirs, so it is kept then.
            if shown is not None:
                self.item = dataclasses.replace(self.item, version=conflict.theirs.version)
            theirs = getattr(conflict.theirs, field, "")
            raise CallmarkError(f"Not saved: someone else saved this item since you opened it. "
                                f"Theirs: “{theirs}”. Yours is kept here; edit it again to save it.") from None
        finally:
            self._writing = False
        if self.item is not None and self.item.id == item_id:
            self.item = made.row

    def run(self, op):
        """Run a coach edit through the window's history (Ctrl+Z undoes it, every view is told); its
        Change, or None with the refusal shown here."""
        history = getattr(self.context, "history", None) if self.context is not None else None
        try:
            made = history.run(op, raise_refusal=True) if history is not None else op()
        except CallmarkError as exc:
            self.show_message(str(exc), error=True)
            return None
        if history is None:
            self.on_store_changed(made)  # an editor on its own: no window to tell, it follows the change itself
        return made

    def on_store_changed(self, change) -> None:
        """An undo, a redo or another view changed the item shown (or what is parked): show it as it is now."""
        if change.touches(PARKED):
            self.reload_parked()
        if self._writing or self.item is None or not change.touches(ITEMS) or self.item.id not in change.ids:
            return
        try:
            row = items.get_item(self.store, self.item.id)
        except CallmarkError:
            self.show_nothing()
            return
        self._set_item(row)

    def _on_saved_once_back(self, row: items.ItemRow) -> None:
        if self.item is not None and self.item.id == row.id:
            self.item = dataclasses.replace(self.item, version=row.version)
        if not self.away.pending():
            self.show_message("Saved: the team store is back.")

    def flush(self) -> None:
        self.saver.flush()

    # --- the live check -----------------------------------------------------------------------

    def current(self) -> items.ItemRow | None:
        """The item as typed so far (what is on screen, saved or not)."""
        if self.item is None:
            return None
        v = self.view
        values = {name: getattr(v, name).text() for name in TEXT_WIDGETS}
        for name in COMBO_FIELDS:
            values[name] = getattr(v, name).currentData() or (None if name == "qualification_gap" else "")
        due = v.next_evidence_due
        values["next_evidence_due"] = due.date_value() if due.is_valid() else None
        return dataclasses.replace(self.item, **values)

    def recheck(self) -> None:
        row = self.current()
        found = items.findings(row) if row is not None else []
        self.findings = found
        v = self.view
        about_date = self._date_findings(row, found)
        for component, (note_name, field_name) in NOTE_FOR.items():
            mine = [f for f in found if f.component == component]
            getattr(v, note_name).show_findings(mine)
            if field_name:
                getattr(v, field_name).set_severity(worst([f for f in mine if f not in about_date]))
        self._mark_due(bool(about_date))
        multiple = any(f.component == "behavior" and "more than one behavior" in f.message for f in found)
        v.split_button.setVisible(bool(row and multiple and items.split_text(row.behavior_text)))
        self.view.summary.setText(summary_html(row, found))
        self.findings_changed.emit(found)

    def _date_findings(self, row, found: list[Finding]) -> list[Finding]:
        """The findings a date would clear: they mark the date field, not the text above it."""
        if row is None or row.next_evidence_due is not None:
            return []
        dated = items.findings(dataclasses.replace(row, next_evidence_due=date.today()))
        return [f for f in found if f.component == "next_evidence" and f not in dated]

    def _mark_due(self, missing: bool) -> None:
        field = self.view.next_evidence_due
        bad = missing or (not field.is_valid() and len(field.text().strip()) >= 8)
        field.setStyleSheet(f"QLineEdit {{ border: 2px solid {SEVERITY_COLOURS[Severity.ERROR]}; "
                            "border-radius: 3px; }" if bad else "")

    # --- commands -------------------------------------------------------------------------------

    def _selected_moment_id(self) -> int | None:
        if self.context is not None and self.context.moment_id is not None:
            return int(self.context.moment_id)
        return self.moment.id if self.moment is not None else None

    def new_item_from_moment(self) -> items.ItemRow | None:
        """Ctrl+I: start an item from the selected moment (or open the one it already feeds)."""
        self.saver.flush()
        moment_id = self._selected_moment_id()
        if moment_id is None:
            self.show_message("Select a moment first: an item starts from a moment you can return to.",
                              error=True)
            return None
        existing = items.item_for_moment(self.store, moment_id)
        if existing is not None:
            self._set_item(existing)
            self.show_message(f"This moment already feeds item {existing.id}; a moment feeds one item.")
        else:
            made = self.run(lambda: items.start(self.store, [moment_id]))  # Ctrl+Z takes the new item away
            if made is None:
                return None
            self._set_item(made.row)
            self.show_message("")
            self.reload_parked()
        self.view.consequence.setFocus(Qt.FocusReason.ShortcutFocusReason)
        return self.item

    def split_behavior(self) -> None:
        if self.item is None:
            return
        self.saver.flush()
        made = self.run(lambda: items.split(self.store, self.item.id))
        if made is None:
            return
        kept, new = made.row
        self._set_item(kept)
        self.show_message(f"One behavior per item: “{new.behavior_text}” is now item {new.id}.")

    def park_moment(self) -> None:
        self.saver.flush()
        moment_id = self._selected_moment_id()
        note = self.view.park_note.text().strip()
        if moment_id is None and not note:
            self.show_message("Select a moment to park, or write a note.", error=True)
            return
        manager = None
        if moment_id is None and self.context is not None and self.context.call_id is not None:
            manager = items.call_manager(self.store, self.context.call_id)
        made = self.run(lambda: parking.keep_for_later(self.store, moment_id=moment_id, note=note,
                                                       manager=manager))
        if made is None:
            return
        self.view.park_note.clear()
        self.show_message(f"Parked on {made.row.manager} for a later cycle.")

    def promote_selected(self) -> items.ItemRow | None:
        index = self.view.parked_list.currentIndex()
        if not index.isValid() and self._parked:
            index = self.parked_model.index(0, 0)
        if not index.isValid():
            self.show_message("Nothing parked to promote.", error=True)
            return None
        self.saver.flush()
        parked = self._parked[index.row()]
        made = self.run(lambda: parking.promote_to_item(self.store, parked.id))
        if made is None:
            return None
        row = made.row
        self._set_item(row)
        self.show_message(f"Promoted to item {row.id}.")
        self.view.consequence.setFocus(Qt.FocusReason.OtherFocusReason)
        return row

    def reload_parked(self) -> None:
        manager = None
        if self.context is not None and self.context.call_id is not None:
            try:
                manager = items.call_manager(self.store, self.context.call_id)
            except CallmarkError:
                manager = None
        self._parked = parking.list_parked(self.store, manager)
        self.parked_model.setStringList([p.label for p in self._parked])
        self.view.parked_list.setVisible(bool(self._parked))
        self.view.parked_empty.setVisible(not self._parked)
        self.view.promote_button.setEnabled(bool(self._parked))
        self.view.parked_title.setText(f"<b>Parked for later</b>"
                                       f"{' · ' + _esc(manager) if manager else ''} ({len(self._parked)})")

    def parked(self) -> list[parking.ParkedRow]:
        return list(self._parked)

