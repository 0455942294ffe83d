"""Suggestions in the workspace: read off the GUI thread, shown on the waveform's lane and in the list,
stepped through, accepted and dismissed with a key (each an undoable edit through the history).

The detection pass runs in the services when a transcript is made, imported or edited; here it runs,
off the GUI thread, when a call is opened (the cache answers for an unchanged transcript) and once over
the library after start-up, and again whenever the history says a transcript changed.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from desktop.core.timefmt import format_ms
from desktop.services.changes import MOMENTS, SUGGESTIONS, TRANSCRIPT
from desktop.ui.actions import ActionId
from desktop.ui.tasks import run_task
from desktop.ui.widgets.waveform import Mark

LEAD_IN_MS = 1000  # play from a second before the suggestion, to hear what led to it


class SuggestionsController(QObject):
    message = Signal(str)
    loaded = Signal(int)  # call id, once its suggestions are shown

    def __init__(self, window, parent: QObject | None = None):
        super().__init__(parent or window)
        self.window = window
        self.store = window.store
        self.view = window.view
        self.model = window.view.suggestions.model
        self.call_id: int | None = None
        self._task = None
        self._library_task = None
        self._waiting_for_warmup = False
        self._closed = False
        self._tasks: list = []  # every read started, so that closing waits for each of them
        panel = window.view.suggestions
        panel.suggestion_activated.connect(self.play)
        window.history.changed.connect(self.on_store_changed)
        window.workspace.call_opened.connect(lambda call: self.load(call.id))

    def action_slots(self) -> dict:
        return {ActionId.NEXT_SUGGESTION: lambda: self.step(1), ActionId.PREVIOUS_SUGGESTION: lambda: self.step(-1),
                ActionId.ACCEPT_SUGGESTION: lambda: self.decide("accepted"),
                ActionId.DISMISS_SUGGESTION: lambda: self.decide("dismissed")}

    # --- reading ------------------------------------------------------------------------------

    def load(self, call_id: int | None) -> None:
        """Read the call's suggestions off the GUI thread (the pass runs there if the cache is stale)."""
        self.call_id = call_id
        if self._task is not None:
            self._task.cancel()
        if self._closed:
            return
        if call_id is None:
            self._show(None, [], None, [], None)
            return
        warmup = getattr(self.window, "warmup", None)
        if warmup is not None and not warmup.finished:
            # Not before the first paint: the services and SQLAlchemy come in with the warm-up, and a
            # thread importing them would share the interpreter with the paint.
            if not self._waiting_for_warmup:
                self._waiting_for_warmup = True
                self.window.when_warm(self._load_once_warm)
            return
        store = self.store

        def read():
            from desktop.services import suggestions

            return (suggestions.suggestions(store, call_id), suggestions.why_none(store, call_id),
                    suggestions.label_precision(store), suggestions.call_figures(store, call_id))

        self._task = self._start(read, lambda got: self._show(call_id, *got), receiver=self,
                              on_error=lambda exc: self.message.emit(f"Suggestions: {exc}"),
                              name="callmark-suggestions")

    def _load_once_warm(self) -> None:
        self._waiting_for_warmup = False
        self.load(self.call_id)

    def _show(self, call_id, rows, why, tallies, figures) -> None:
        if call_id != self.call_id:
            return  # an older read, for a call since left
        self.view.call_info.set_figures(figure_rows(figures) if figures is not None else None)
        panel = self.view.suggestions
        kept = panel.selected()
        self.model.set_suggestions(rows)
        panel.show_reason(why if not rows else None)
        panel.show_record(tallies)
        if kept is not None:
            panel.select(kept.finding.id)
        self.view.waveform.set_suggestions(
            Mark(s.finding.start_ms, s.finding.end_ms, s.finding.family, s.verdict is None)
            for s in rows if s.verdict != "dismissed")
        if call_id is not None:
            self.loaded.emit(call_id)

    def on_store_changed(self, change) -> None:
        if self.call_id is not None and change.call_id == self.call_id and \
                change.touches(SUGGESTIONS, TRANSCRIPT, MOMENTS):
            self.load(self.call_id)

    def shutdown(self, seconds: float = 10) -> None:
        """The window is closing: nothing more is read, and what is being read ends before the store
        closes (a read still running on a closed connection would bring the process down)."""
        self._closed = True
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            task.wait(seconds)
        self._tasks = []

    def _start(self, *args, **kwargs):
        task = run_task(*args, **kwargs)
        self._tasks = [t for t in self._tasks if t.running] + [task]
        return task

    def run_over_library(self) -> None:
        """Once after start-up: the pass over every transcript not yet read (unchanged ones cost nothing)."""
        if self._closed:
            return
        store = self.store

        def every_call():
            from desktop.services import suggestions
            from desktop.services.library_pass import paced

            return (yield from paced(suggestions.refresh_library(store)))

        def progress(step) -> None:
            if step.ran:
                self.window.show_message(f"Reading transcripts for moments worth coaching… {step.done} of {step.total}")

        def done(ran: int) -> None:
            if ran:
                self.window.show_message(f"Suggestions ready on {ran} call{'s' if ran != 1 else ''}.")
                if self.call_id is not None:
                    self.load(self.call_id)

        self._library_task = self._start(every_call, done, receiver=self, on_progress=progress,
                                      on_error=lambda exc: self.message.emit(f"Suggestions: {exc}"),
                                      name="callmark-suggestions-library")

    # --- stepping, accepting, dismissing -------------------------------------------------------------

    def current(self):
        return self.view.suggestions.selected()

    def step(self, direction: int) -> None:
        """The next (or previous) suggestion still to review after the playhead, played from just before."""
        rows = [s for s in self.model.all() if s.verdict is None and
                (self.view.suggestions.model.row_of(s.finding.id) is not None)]
        if not rows:
            self.message.emit("No suggestion left to review on this call.")
            return
        picked = self.current()
        at = next((i for i, s in enumerate(rows) if picked is not None and s.finding.id == picked.finding.id), None)
        if at is not None:
            # from the one picked, in the list's order: a line with two suggestions (a pain and a metric) has both
            target = rows[(at + direction) % len(rows)]
        else:
            here = self.window.playback.position_ms()
            if direction > 0:
                target = next((s for s in rows if s.finding.start_ms > here), rows[0])
            else:
                target = next((s for s in reversed(rows) if s.finding.start_ms < here), rows[-1])
        self.view.suggestions.select(target.finding.id)
        self.play(target.finding)
        f = target.finding
        self.message.emit(f"{f.label.replace('_', ' ')} at {format_ms(f.start_ms)}: {f.reason}")

    def play(self, finding) -> None:
        self.window.workspace.seek(max(0, finding.start_ms - LEAD_IN_MS))
        self.window.playback.play()

    def decide(self, verdict: str) -> None:
        picked = self.current()
        if picked is None or self.call_id is None:
            self.message.emit("Pick a suggestion first (Alt+↓ goes to the next one).")
            return
        from desktop.services import suggestions

        call_id, fid = self.call_id, picked.finding.id
        made = self.window.history.run(lambda: suggestions.decide(self.store, call_id, [fid], verdict))
        if made is None:
            return
        if verdict == "accepted" and made.ids:
            self.window.workspace.select_moment(made.ids[0])  # Ctrl+I then starts an item from it
            self.message.emit(f"Accepted: a {picked.finding.kind.replace('_', ' ')} moment at "
                              f"{format_ms(picked.finding.start_ms)} — Ctrl+I starts an item from it")
        elif verdict == "dismissed":
            self.message.emit(f"Dismissed the {picked.finding.label.replace('_', ' ')} suggestion (Ctrl+Z undoes)")


FIGURE_NAMES = (("rep_talk_share", "Rep talk share"), ("longest_rep_monologue_ms", "Longest rep monologue"),
                ("longest_customer_story_ms", "Longest customer story"), ("rep_questions_open", "Open questions"),
                ("rep_questions_closed", "Closed questions"), ("rep_questions_leading", "Leading questions"),
                ("customer_questions", "Customer questions"), ("patience_ms", "Patience"),
                ("interactivity_per_min", "Speaker changes / min"))


def figure_rows(figures) -> list[tuple[str, str, str]]:
    """The Call tab's rows: a figure the roles can't give is "—", with the reason, never a guess."""
    out = []
    for key, name in FIGURE_NAMES:
        value = figures.values.get(key)
        why = figures.reasons.get(key, "")
        if value is None:
            text = "—"
        elif key == "rep_talk_share":
            text = f"{value:.0%}"
        elif key.endswith("_ms"):
            text = f"{value / 1000:.1f} s"
        elif isinstance(value, float):
            text = f"{value:.1f}"
        else:
            text = str(value)
        out.append((name, text, why))
    return out


def suggestions_controller(window) -> SuggestionsController:
    """The window's one controller (made with the window; the registry's owner of the suggestion keys)."""
    existing = getattr(window, "suggestions", None)
    if isinstance(existing, SuggestionsController):
        return existing
    window.suggestions = SuggestionsController(window)
    return window.suggestions
