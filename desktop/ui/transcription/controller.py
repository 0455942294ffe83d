"""Wires transcription into the main window: its commands, the queue, the bar, streaming, edits.

Made once per window by `install_transcription(window)`, the owner of the
Transcript menu's commands in the action registry: the first of them given
makes it (the menus themselves are built with the window).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QFileDialog, QMessageBox

from desktop.core.words import file_name
from desktop.errors import CallmarkError
from desktop.services import calls as call_service
from desktop.services import transcript_io
from desktop.services import transcription as service
from desktop.services import transcripts as transcript_service
from desktop.services.changes import TRANSCRIPT, change
from desktop.ui.actions import ActionId
from desktop.ui.transcription.queue import TranscriptionQueue, describe
from desktop.ui.transcription.widgets import TranscriptionBar

TRANSCRIPT_FILTER = "Transcripts (*.vtt *.srt *.json);;All files (*)"
EXPORT_FILTERS = {"txt": "Text with times and speakers (*.txt)", "srt": "SubRip subtitles (*.srt)",
                  "vtt": "WebVTT with speakers (*.vtt)", "json": "JSON segments (*.json)"}

class TranscriptionController(QObject):
    def __init__(self, window, *, cpu_threads: int = 0, parallel: int | None = None):
        super().__init__(window)
        self.window = window
        self.store = window.store
        self.queue = TranscriptionQueue(self.store, self, cpu_threads=cpu_threads, parallel=parallel)
        self.bar = TranscriptionBar()
        transcript = window.view.transcript
        box = transcript.parentWidget().layout()
        box.insertWidget(box.indexOf(transcript), self.bar)
        self._wire()
        window.installEventFilter(self)
        self.refresh_bar()

    # --- building ----------------------------------------------------------------------------

    def action_slots(self) -> dict:
        """The window's commands this controller answers (bound by the action registry)."""
        return {ActionId.TRANSCRIBE: self.transcribe_open_call, ActionId.TRANSCRIBE_ALL: self.transcribe_all,
                ActionId.CANCEL_TRANSCRIPTION: self.cancel_open_call, ActionId.SEARCH_LIBRARY: self.open_search,
                ActionId.EDIT_LINE: self.edit_line, ActionId.SPEAKERS: self.edit_speakers,
                ActionId.TRANSCRIPT_VERSIONS: self.show_versions, ActionId.IMPORT_TRANSCRIPT: self.choose_import,
                ActionId.EXPORT_TRANSCRIPT: self.choose_export, ActionId.TRANSCRIPTION_SETTINGS: self.edit_settings,
                ActionId.PAUSE_TRANSCRIPTION: self.toggle_pause}

    def toggle_pause(self) -> None:
        from desktop.ui.transcription.queue_actions import toggle_pause

        toggle_pause(self)

    def _wire(self) -> None:
        q, w = self.queue, self.window
        q.changed.connect(self.on_queue_changed)
        q.call_started.connect(self.on_call_started)
        q.segment_decoded.connect(self.on_segment_decoded)
        q.call_saved.connect(self.on_call_saved)
        q.call_cancelled.connect(self.on_call_cancelled)
        q.call_failed.connect(self.on_call_failed)
        self.bar.transcribe_requested.connect(self.transcribe_open_call)
        self.bar.import_requested.connect(self.choose_import)
        self.bar.cancel_requested.connect(self.cancel_open_call)
        w.workspace.call_opened.connect(self.on_call_opened)
        w.view.transcript.doubleClicked.connect(lambda index: self.edit_line(index.row()))
        w.history.changed.connect(self.on_store_changed)

    def on_store_changed(self, change) -> None:
        if change.touches(TRANSCRIPT) and change.call_id is not None:
            self.reload_transcript(change.call_id)  # an edit, its undo or redo: whichever path made it

    def _tell(self, label: str, call_id: int) -> None:
        """A transcript made, imported, renamed or restored here: every view hears (and this one reloads)."""
        self.window.history.tell(change(label, TRANSCRIPT, call_id=call_id))

    def eventFilter(self, watched, event) -> bool:  # noqa: N802
        if watched is self.window and event.type() == QEvent.Type.Close:
            self.queue.shutdown()  # the child is killed; an unfinished transcript is not kept
        return False

    # --- the open call ----------------------------------------------------------------------------

    @property
    def call(self):
        return self.window.workspace.call

    def _is_open(self, call_id: int) -> bool:
        return self.call is not None and self.call.id == call_id

    def refresh_bar(self) -> None:
        call = self.call
        if call is None:
            self.bar.show_nothing()
            return
        entry = self.queue.entry(call.id)
        if entry is not None:
            self.bar.show_progress(describe(entry, call.duration_ms), entry.fraction if entry.running else None)
        elif self.window.transcript_model.rowCount() == 0:
            keys = self.window.registry[ActionId.TRANSCRIBE].shortcut()
            self.bar.show_offer(keys.toString(QKeySequence.SequenceFormat.NativeText))
        else:
            self.bar.show_nothing()

    def on_call_opened(self, call) -> None:
        entry = self.queue.entry(call.id)
        if entry is not None and entry.running:
            # Show what has been decoded so far; the rest streams in.
            self.window.transcript_model.set_segments(list(entry.segments))
            self.window.view.show_transcript(bool(entry.segments))
        if entry is not None:
            self._show_status(call.id)
        self.refresh_bar()

    def reload_transcript(self, call_id: int) -> None:
        """Show the stored transcript again (after an edit, a rename, a restore, a finished run)."""
        if not self._is_open(call_id):
            return
        view = self.window.view.transcript
        scroll = view.verticalScrollBar().value()
        row = view.currentIndex().row()
        current = transcript_service.current_transcript(self.store, call_id)
        rows = current.segments if current else []
        self.window.transcript_model.set_segments(rows)
        view.delegate.reset_speakers(rows)
        self.window.view.show_transcript(bool(rows))
        view.verticalScrollBar().setValue(scroll)
        if 0 <= row < len(rows):
            view.setCurrentIndex(self.window.transcript_model.index(row))
        self._refresh_call(call_id)
        self.refresh_bar()

    def _refresh_call(self, call_id: int) -> None:
        row = call_service.get_call(self.store, call_id)
        if self.window.library_model.row_of(call_id) is not None:
            self.window.library_model.update_call(row)
        if self._is_open(call_id):
            self.window.workspace.call = row
            self.window.workspace.call_updated.emit(row)

    # --- queue events -----------------------------------------------------------------------------

    def _show_status(self, call_id: int) -> None:
        """The library's transcript column: `queued` or `42% · 0:12 left` while the call is in the queue."""
        model = self.window.library_model
        entry = self.queue.entry(call_id)
        at = model.row_of(call_id)
        if at is None:
            return
        if entry is None:
            row = call_service.get_call(self.store, call_id)
            if self.queue.failed_reason(call_id) is not None:
                row = replace(row, transcript_status="failed")  # the reason is in `callmark transcription queue`
            model.update_call(row)
        else:
            model.update_call(replace(model.call_at(at), transcript_status=entry.status_text()))

    def on_queue_changed(self, call_id: int) -> None:
        self._show_status(call_id)
        if self._is_open(call_id):
            self.refresh_bar()

    def on_call_started(self, call_id: int) -> None:
        if self._is_open(call_id):
            self.window.transcript_model.set_segments([])
            self.window.view.transcript.delegate.reset_speakers()
        self.refresh_bar()

    def on_segment_decoded(self, call_id: int, row) -> None:
        if self._is_open(call_id):
            model = self.window.transcript_model
            model.append_segments([row])
            if model.rowCount() == 1:
                self.window.view.show_transcript(True)

    def on_call_saved(self, call_id: int, _transcript_id: int) -> None:
        self._tell("Transcribe", call_id)
        self._show_status(call_id)
        title = call_service.get_call(self.store, call_id).title
        self.window.show_message(f"Transcribed {title}.")

    def on_call_cancelled(self, call_id: int) -> None:
        self.reload_transcript(call_id)
        self._show_status(call_id)
        self.window.show_message("Transcription cancelled; nothing was kept.")

    def on_call_failed(self, call_id: int, message: str) -> None:
        self.reload_transcript(call_id)
        self._show_status(call_id)
        self.window.show_message(message, error=True)

    # --- commands ---------------------------------------------------------------------------------

    def transcribe(self, call_ids) -> int:
        return self.queue.add_many(call_ids)

    def transcribe_open_call(self) -> None:
        if self.call is None:
            self.window.show_message("Open a call to transcribe it.")
            return
        # Ahead of a folder's calls waiting in the queue: the coach is looking at this one.
        if not self.queue.add(self.call.id, priority=1):
            self.window.show_message("This call is already being transcribed.")

    def transcribe_all(self) -> None:
        waiting = [c.id for c in call_service.list_calls(self.store)
                   if c.transcript_status == "none" and c.media_path and Path(c.media_path).is_file()]
        added = self.transcribe(waiting)
        self.window.show_message(f"{added} calls queued for transcription." if added
                                 else "Every call already has a transcript.")

    def cancel_open_call(self) -> None:
        if self.call is not None:
            self.queue.cancel(self.call.id)

    def open_search(self):
        from desktop.ui.transcription.search_dialog import LibrarySearchDialog

        dialog = LibrarySearchDialog(self.store, self.window)
        dialog.result_chosen.connect(self.open_result)
        dialog.setModal(False)
        dialog.show()
        dialog.field.setFocus()
        return dialog

    def open_result(self, call_id: int, start_ms: int) -> None:
        """Open the call of a search result and play from its line."""
        if not self._is_open(call_id):
            self.window.open_call(call_id)
        if not self._is_open(call_id):
            return
        self.window.workspace.seek(start_ms)
        self.window.view.transcript.set_follow(True)
        self.window.playback.play()

    def edit_line(self, row: int | None = None) -> None:
        from desktop.ui.transcription.dialogs import LineEditDialog

        model, view = self.window.transcript_model, self.window.view.transcript
        if self.call is None or model.rowCount() == 0 or self.queue.entry(self.call.id) is not None:
            return
        if row is None or row < 0:
            row = view.currentIndex().row() if view.currentIndex().isValid() else model.current_row
        if not 0 <= row < model.rowCount():
            return
        seg = model.segment(row)
        names = [s["name"] for s in transcript_service.speakers(self.store, self.call.id)]
        dialog = LineEditDialog(seg.text, seg.speaker, names, self.window)
        rect = view.visualRect(model.index(row))
        dialog.move(view.viewport().mapToGlobal(rect.topLeft()))
        self.last_dialog = dialog  # tests answer it
        if dialog.exec():
            self.apply_line_edit(row, *dialog.values())

    def apply_line_edit(self, row: int, text: str, speaker: str | None) -> None:
        seg = self.window.transcript_model.segment(row)
        labels = {s["name"]: s["label"] for s in transcript_service.speakers(self.store, self.call.id)}
        before = (seg.text, labels.get(seg.speaker, seg.speaker))
        after = (text or seg.text, labels.get(speaker, speaker) if speaker else before[1])
        if after == before:
            return
        call_id, start_ms = self.call.id, seg.start_ms
        text_now = after[0] if after[0] != before[0] else None
        speaker_now = after[1] if after[1] != before[1] else None
        self.window.history.run(lambda: transcript_service.edit_line(self.store, call_id, start_ms, text=text_now,
                                                                    speaker=speaker_now))

    def edit_speakers(self) -> None:
        from desktop.ui.transcription.dialogs import SpeakersDialog

        if self.call is None:
            return
        call_id = self.call.id
        SpeakersDialog(transcript_service.speakers(self.store, call_id),
                       lambda label, name: self.rename_speaker(call_id, label, name),
                       lambda label: self.set_rep(call_id, label), self.window).exec()

    def rename_speaker(self, call_id: int, label: str, name: str) -> list[dict]:
        transcript_service.rename_speaker(self.store, call_id, label, name)
        self._tell("Rename speaker", call_id)
        return transcript_service.speakers(self.store, call_id)

    def set_rep(self, call_id: int, label: str) -> list[dict]:
        transcript_service.set_rep_speaker(self.store, call_id, label)
        self._tell("Set the rep", call_id)  # the roles changed: the suggestions follow
        return transcript_service.speakers(self.store, call_id)

    def show_versions(self) -> None:
        from desktop.ui.transcription.dialogs import VersionsDialog

        if self.call is None:
            return
        dialog = VersionsDialog(transcript_service.versions(self.store, self.call.id), self.window)
        if dialog.exec() and dialog.chosen() is not None:
            self.restore_version(dialog.chosen())

    def restore_version(self, transcript_id: int) -> None:
        transcript_service.restore_version(self.store, self.call.id, transcript_id)
        self.window.undo_stack.clear()  # line edits refer to the version that was current
        self._tell("Restore version", self.call.id)

    def choose_import(self) -> None:
        if self.call is None:
            self.window.show_message("Open a call to import its transcript.")
            return
        path, _ = QFileDialog.getOpenFileName(self.window, "Import a transcript", "", TRANSCRIPT_FILTER)
        if path:
            self.import_file(path, ask=True)

    def import_file(self, path: str | Path, *, keep_readable: bool = False, ask: bool = False):
        try:
            summary = transcript_io.import_transcript(self.store, self.call.id, path, keep_readable=keep_readable)
        except transcript_io.TranscriptImportError as exc:
            if ask and exc.problems and QMessageBox.question(
                    self.window, "Import transcript", f"{exc}\n\nImport the cues that could be read?") \
                    == QMessageBox.StandardButton.Yes:
                return self.import_file(path, keep_readable=True)
            self.window.show_message(str(exc).splitlines()[0], error=True)
            return None
        except (CallmarkError, OSError) as exc:  # TranscriptFileError, a file that can't be read
            self.window.show_message(str(exc), error=True)
            return None
        self._tell("Import transcript", self.call.id)
        message = f"Imported {summary.imported} of {summary.cue_count} cues from {Path(path).name}."
        if summary.skipped:
            # What the reader skipped is named, so the coach can trust the count.
            first = summary.skipped[0].split(", line ", 1)[-1]
            more = f" (and {len(summary.skipped) - 1} more)" if len(summary.skipped) > 1 else ""
            message += f" Skipped line {first}{more}."
        self.window.show_message(message)
        return summary

    def choose_export(self) -> None:
        if self.call is None:
            return
        filters = ";;".join(EXPORT_FILTERS.values())
        path, chosen = QFileDialog.getSaveFileName(self.window, "Export the transcript",
                                                   file_name(self.call.title, self.call.recorded_at, ".vtt"),
                                                   filters)
        if path:
            fmt = transcript_io.format_for_path(path) or next(
                (k for k, v in EXPORT_FILTERS.items() if v == chosen), "txt")
            self.export_file(path, fmt)

    def export_file(self, path: str | Path, fmt: str) -> Path | None:
        try:
            written = transcript_io.export_to_file(self.store, self.call.id, fmt, path)
        except (CallmarkError, OSError) as exc:  # ExportError, no transcript: one line
            self.window.show_message(str(exc), error=True)
            return None
        self.window.show_message(f"Wrote {written}.")
        return written

    def edit_settings(self) -> None:
        from desktop.ui.transcription.dialogs import TranscriptionSettingsDialog

        dialog = TranscriptionSettingsDialog(service.load_preferences(self.store), self.window)
        if dialog.exec():
            service.save_preferences(self.store, dialog.preferences())
