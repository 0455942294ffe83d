"""After the item is written: look again, and work it inside the manager's cycle; pick another item.

- "Check both of the next two recordings" (the method's next evidence point)
  adds two pending observations to the item (`coaching_edits.check_next_two`, undoable);
  they are filled in the Coaching window as the recordings come in.
- "Attach to the current cycle" makes the item the one worked on in the
  manager's current 90-day cycle (`coaching_edits.attach_item`, undoable).
- The item picker lists the manager's open items, so an item is reachable
  without finding its moment first.
"""

from __future__ import annotations

from PySide6.QtCore import QObject

from desktop.errors import CallmarkError
from desktop.services import coaching_edits, cycles, items, observations
from desktop.ui.item_editor.view import ItemEditorView

__all__ = ["FollowUpController", "ItemPicker"]


def _short(text: str, width: int = 56) -> str:
    text = " ".join((text or "").split())
    return text if len(text) <= width else text[: width - 1] + "…"


class FollowUpController(QObject):
    def __init__(self, editor, view: ItemEditorView, parent: QObject | None = None):
        super().__init__(parent)
        self.editor = editor
        self.view = view
        self.cycle: cycles.CycleRow | None = None
        view.check_button.clicked.connect(self.check_next_two)
        view.cycle_button.clicked.connect(self.attach_to_cycle)
        editor.item_loaded.connect(self.on_item_loaded)

    @property
    def store(self):
        return self.editor.store

    def on_item_loaded(self, row: items.ItemRow | None) -> None:
        self._show_observations(row)
        self._show_cycle(row)

    def _show_observations(self, row: items.ItemRow | None) -> None:
        note = self.view.observations_note
        if row is None:
            note.clear()
            return
        found = observations.list_observations(self.store, item_id=row.id)
        pending = sum(o.pending for o in found)
        seen = sum(o.seen_label == "seen" for o in found)
        filled = len(found) - pending
        if not found:
            note.setText("No observations yet.")
        elif not filled:
            note.setText(f"Observations: {pending} to check (fill them in the Coaching window).")
        else:
            note.setText(f"Observations: {pending} to check · seen in {seen} of {filled} checked "
                         "(fill them in the Coaching window).")

    def _show_cycle(self, row: items.ItemRow | None) -> None:
        button, note = self.view.cycle_button, self.view.cycle_note
        self.cycle = None
        if row is not None and row.manager:
            self.cycle = cycles.current_cycle(self.store, row.manager)
        if row is None:
            button.setEnabled(False)
            note.clear()
        elif self.cycle is None:
            button.setEnabled(False)
            button.setText("Attach to the current cycle")
            note.setText(f"{row.manager or 'This manager'} has no coaching cycle yet "
                         "(start one in the Coaching window).")
        elif row.cycle_id == self.cycle.id:
            button.setEnabled(False)
            button.setText("Attached to the current cycle")
            note.setText(f"Worked on in {self.cycle.manager}'s cycle from "
                         f"{self.cycle.start_date.isoformat()} (day {self.cycle.now.day}: "
                         f"{self.cycle.now.label.lower()}).")
        else:
            button.setEnabled(True)
            button.setText(f"Attach to {self.cycle.manager}'s current cycle")
            note.setText(f"Cycle from {self.cycle.start_date.isoformat()}, day {self.cycle.now.day}: "
                         f"{self.cycle.now.label.lower()}.")

    def check_next_two(self) -> list[observations.ObservationRow]:
        row = self.editor.item
        if row is None:
            return []
        self.editor.flush()
        pending = observations.list_observations(self.store, item_id=row.id, pending=True)
        if len(pending) >= 2:
            self.editor.show_message(f"Item {row.id} already has {len(pending)} recordings to check; "
                                     "fill those first (Coaching window).")
            return []
        made = self.editor.run(lambda: coaching_edits.check_next_two(self.store, row.id))  # Ctrl+Z takes both back
        if made is None:
            return []
        added = made.row
        self._show_observations(row)
        # Short: the observations line under the button says where to fill them in.
        self.editor.show_message(f"Two recordings to check for item {row.id} "
                                 f"(observations {added[0].id} and {added[1].id}).")
        return added

    def attach_to_cycle(self) -> cycles.CycleRow | None:
        row, cycle = self.editor.item, self.cycle
        if row is None or cycle is None:
            return None
        self.editor.flush()
        made = self.editor.run(lambda: coaching_edits.attach_item(self.store, cycle.id, row.id))
        if made is None:
            return None
        attached = made.row
        self.editor.reload_item(items.get_item(self.store, row.id))
        self.editor.show_message(f"Item {row.id} is worked on in {attached.manager}'s cycle from "
                                 f"{attached.start_date.isoformat()}.")
        return attached


class ItemPicker(QObject):
    """The manager's open items in a combo at the top of the editor; choosing one opens it."""

    def __init__(self, editor, view: ItemEditorView, parent: QObject | None = None):
        super().__init__(parent)
        self.editor = editor
        self.combo = view.picker
        self.manager: str | None = None
        self._filling = False
        self.combo.activated.connect(self.on_activated)
        editor.item_loaded.connect(lambda _row: self.reload())
        editor.saver.saved.connect(self.on_saved)
        if editor.context is not None:
            editor.context.call_changed.connect(lambda _id: self.reload())
        self.reload()

    def _manager(self) -> str | None:
        row = self.editor.item
        if row is not None and row.manager:
            return row.manager
        context = self.editor.context
        if context is not None and context.call_id is not None:
            try:
                return items.call_manager(self.editor.store, context.call_id)
            except CallmarkError:
                return None
        return None

    def reload(self) -> None:
        self.manager = self._manager()
        current = self.editor.item
        rows = items.list_items(self.editor.store, self.manager, status="open") if self.manager else []
        if current is not None and current.id not in {r.id for r in rows}:
            rows.insert(0, current)  # a done or dropped item stays nameable while it is open here
        self._filling = True
        try:
            self.combo.clear()
            who = self.manager or "this manager"
            self.combo.addItem(f"{who}: {len(rows)} open item{'s' if len(rows) != 1 else ''} — pick one"
                               if rows else f"No open items for {who} yet", None)
            for r in rows:
                self.combo.addItem(f"#{r.id} {_short(r.title)}", r.id)
            index = self.combo.findData(current.id) if current is not None else 0
            self.combo.setCurrentIndex(max(index, 0))
        finally:
            self._filling = False
        self.combo.setEnabled(bool(rows))

    def on_saved(self, field: str) -> None:
        if field in ("behavior_text", "status", "manager"):
            self.reload()

    def on_activated(self, index: int) -> None:
        if self._filling:
            return
        item_id = self.combo.itemData(index)
        if item_id is None:
            return
        if self.editor.item is None or self.editor.item.id != item_id:
            self.editor.show_item(int(item_id))
            self.editor.show_message("")

    def item_ids(self) -> list[int]:
        return [self.combo.itemData(i) for i in range(1, self.combo.count())]
