"""Wires the workspace: opens a call into the models and widgets, follows playback, finds, jumps."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, Signal

from desktop.core.timefmt import format_ms
from desktop.services import rows
from desktop.services.rows import CallRow
from desktop.ui.controllers.marking import MarkingController
from desktop.ui.controllers.playback import PlaybackController
from desktop.ui.controllers.waveform_loader import WaveformLoader
from desktop.ui.models.library_model import short_duration
from desktop.ui.models.moments_model import MomentsModel
from desktop.ui.models.transcript_model import TranscriptModel
from desktop.ui.panels import WorkspaceContext
from desktop.ui.settings import PlaybackPreferences, SettingsKey, qsettings, read_int_key
from desktop.ui.views.workspace_view import WorkspaceView


def _file_line(call: CallRow) -> str:
    """Where the recording is on this computer, or where it was added when it is not here."""
    from desktop.services.relink import recording_missing
    from desktop.services.this_machine import where_it_was

    return f"not on this computer ({where_it_was(call)})" if recording_missing(call) else call.media_path


class WorkspaceController(QObject):
    call_opened = Signal(object)  # CallRow
    call_updated = Signal(object)  # CallRow (e.g. its moment count changed)
    message = Signal(str)

    def __init__(self, store, view: WorkspaceView, playback: PlaybackController, marking: MarkingController,
                 transcript: TranscriptModel, moments: MomentsModel, waveforms: WaveformLoader,
                 context: WorkspaceContext, prefs: PlaybackPreferences, parent=None):
        super().__init__(parent)
        self.store = store
        self.view = view
        self.playback = playback
        self.marking = marking
        self.transcript = transcript
        self.moments = moments
        self.waveforms = waveforms
        self.context = context
        self.prefs = prefs
        self.call: CallRow | None = None
        self._matches: list[int] = []
        self._match_at = -1
        context.set_seek(self.seek, playback.play)
        view.transcript.setModel(transcript)
        self._wire()

    def _wire(self) -> None:
        v, pb = self.view, self.playback
        pb.position_changed.connect(self.on_playback_position)
        pb.state_changed.connect(lambda s: v.player_bar.set_playing(s == "playing"))
        pb.rate_changed.connect(v.player_bar.set_rate)
        pb.loop_changed.connect(v.player_bar.set_looping)
        pb.length_changed.connect(self.on_playback_length)
        pb.error.connect(self.on_playback_error)
        v.waveform.seek_requested.connect(self.seek)
        v.waveform.moment_clicked.connect(self.select_moment)
        v.waveform.span_edited.connect(self.marking.set_span)
        v.transcript.seek_requested.connect(self.seek)
        v.transcript.selectionModel().currentChanged.connect(lambda current, _prev: self.show_line(current))
        self.transcript.modelReset.connect(lambda: v.show_line_detail(None))
        v.find_bar.query_changed.connect(self.on_find_query)
        v.find_bar.next_requested.connect(lambda: self.find_step(1))
        v.find_bar.previous_requested.connect(lambda: self.find_step(-1))
        v.find_bar.closed.connect(self.on_find_closed)
        v.moments.moment_activated.connect(self.jump_to_moment)
        v.moments.selection_changed.connect(self.on_moment_selection)
        v.moments.note_edited.connect(lambda mid, text: self.marking.edit(mid, "note", text))
        self.moments.edit_requested.connect(self.marking.edit)
        self.marking.select_requested.connect(self.select_moment)
        self.marking.message.connect(self.message)
        for signal in (self.marking.moment_changed, self.marking.moment_removed):
            signal.connect(self.on_moments_changed)
        self.waveforms.loaded.connect(self.on_peaks)
        self.call_updated.connect(self._on_call_updated)
        self.waveforms.progress.connect(self.on_peaks_progress)
        self.waveforms.failed.connect(self.on_peaks_failed)

    # --- opening a call ---------------------------------------------------------------------

    def open_call(self, call_id: int) -> CallRow:
        """Show a call: transcript, moments, waveform, player. Raises NotFound for an unknown id."""
        call = rows.get_call(self.store, call_id)
        self.flush()
        self.remember_position()
        transcript = rows.current_transcript(self.store, call_id)
        marked = rows.list_moments(self.store, call_id)
        self.call = call
        self.view.show_error(None)
        self.transcript.set_segments(transcript.segments if transcript else [])
        self.view.transcript.delegate.reset_speakers(transcript.segments if transcript else ())
        self.view.show_transcript(bool(transcript and transcript.segments))
        self.view.transcript.set_follow(True)
        self.moments.set_moments(marked)
        self.marking.set_call(call.id, call.duration_ms)
        self._show_heading(call)
        wf = self.view.waveform
        wf.set_peaks(None)
        wf.set_duration(call.duration_ms)
        wf.set_moments(marked)
        wf.set_status("Drawing the waveform…")
        self.view.player_bar.set_duration(call.duration_ms)
        self.view.video.setVisible(call.has_video)
        if self.view.find_bar.isVisible():
            self.on_find_query(self.view.find_bar.field.text())
        resume = read_int_key(f"{SettingsKey.POSITIONS.value}/{call.id}", 0)
        if not 0 < resume < (call.duration_ms or resume + 1):
            resume = 0  # else back where the coach left this call
        self.on_playback_position(resume)
        # VLC opens the file and the panels follow once the workspace is painted: both would only
        # hold up the first paint of a long call. Any command that needs them first finishes them.
        self.playback.load_later(call.media_path, resume,
                                 self.view.video.native_id() if call.has_video else None)
        self.waveforms.request(call.media_path, call.media_sha256)
        self.context.set_call(call.id, defer=True)
        self.call_opened.emit(call)
        return call

    def show_line(self, index) -> None:
        """The picked line in full under the transcript, when its row shows only the start of it."""
        if not index.isValid():
            self.view.show_line_detail(None)
            return
        seg = self.transcript.segment(index.row())
        delegate = self.view.transcript.delegate
        box = delegate.text_rect(self.view.transcript.visualRect(index))
        layout = delegate.layout_text(seg.text, self.view.transcript.font(), box)
        last = layout.lineAt(layout.lineCount() - 1) if layout.lineCount() else None
        cut = last is not None and last.textStart() + last.textLength() < len(seg.text)
        who = f"{seg.speaker}: " if seg.speaker else ""
        self.view.show_line_detail(f"{format_ms(seg.start_ms)}  {who}{seg.text}" if cut else None)

    def _on_call_updated(self, call: CallRow) -> None:
        if self.call is not None and call.id == self.call.id:
            self._show_heading(call)  # e.g. its transcript arrived: the Call tab says so

    def _show_heading(self, call: CallRow) -> None:
        self.view.heading.setText(call.title)
        parts = [p for p in (call.rep and f"Rep {call.rep}", call.manager and f"Manager {call.manager}",
                             (call.recorded_at or "")[:16].replace("T", " "), short_duration(call.duration_ms),
                             "video" if call.has_video else "audio") if p]
        self.view.details.setText("  ·  ".join(parts))
        rows = [("Title", call.title), ("Rep", call.rep or "—"), ("Manager", call.manager or "—"),
                ("Recorded", (call.recorded_at or "—").replace("T", " ")),
                ("Length", format_ms(call.duration_ms)), ("Source", call.source or "—"),
                ("Channels", str(call.channels or "—")), ("Transcript", call.transcript_status),
                ("File", _file_line(call))]
        self.view.call_info.set_rows([(k, str(val)) for k, val in rows])

    def remember_position(self) -> None:
        """Where the coach was in this call (UI state), to come back there next time."""
        if self.call is not None and self.playback.has_media:
            qsettings().setValue(f"{SettingsKey.POSITIONS.value}/{self.call.id}", self.playback.position_ms())

    def flush(self) -> None:
        """Write any edit in progress (note being typed, cell being edited)."""
        self.view.moments.flush()

    # --- playback -----------------------------------------------------------------------------

    def seek(self, ms: int) -> None:
        if self.call is None:
            return
        self.playback.seek(int(ms))

    def on_playback_position(self, ms: int) -> None:
        self.view.player_bar.set_position(ms)
        self.view.waveform.set_position(ms)
        if self.transcript.set_position(ms):
            self.view.transcript.on_current_line_changed()

    def on_playback_length(self, ms: int) -> None:
        if self.call is not None and not self.call.duration_ms:
            self.view.waveform.set_duration(ms)
            self.view.player_bar.set_duration(ms)

    def on_playback_error(self, message: str) -> None:
        self.view.show_error(f"⚠ {message}  The transcript and your moments still work.")
        self.message.emit(message)

    def apply_preferences(self, prefs: PlaybackPreferences) -> None:
        self.prefs = prefs
        self.playback.set_auto_rewind(prefs.auto_rewind_ms)
        self.view.player_bar.set_preferences(prefs.skip_ms, prefs.reaction_delay_ms)

    # --- waveform -------------------------------------------------------------------------------

    def on_peaks(self, sha256: str, peaks) -> None:
        if self.call is not None and sha256 == self.call.media_sha256:
            self.view.waveform.set_peaks(peaks)

    def on_peaks_progress(self, sha256: str, done: int, total: int) -> None:
        if self.call is not None and sha256 == self.call.media_sha256 and total:
            self.view.waveform.set_status(f"Drawing the waveform… {100 * done // total}%")

    def on_peaks_failed(self, sha256: str, message: str) -> None:
        if self.call is not None and sha256 == self.call.media_sha256:
            self.view.waveform.set_status(message)

    # --- moments ----------------------------------------------------------------------------------

    def select_moment(self, moment_id: int | None) -> None:
        self.view.moments.select(moment_id)

    def on_moment_selection(self, moment_id: int | None) -> None:
        self.marking.on_selection(moment_id)
        self.view.waveform.select_moment(moment_id)
        self.context.select_moment(moment_id)

    def on_moments_changed(self, _moment_id: int) -> None:
        self.view.waveform.set_moments(self.moments.moments())
        self.context.flush_call()  # panels hear of the call before they hear of its moments
        self.context.moments_changed.emit()
        if self.call is not None:
            self.call = rows.get_call(self.store, self.call.id)
            self.call_updated.emit(self.call)

    def jump_to_moment(self, moment_id: int) -> None:
        moment = self.moments.get(moment_id)
        if moment is not None:
            self.seek(moment.start_ms)
            self.select_moment(moment_id)
            self.view.transcript.set_follow(True)

    def step_moment(self, direction: int) -> None:
        pos = self.playback.position_ms()
        moment = self.moments.after(pos) if direction > 0 else self.moments.before(pos)
        if moment is None:
            self.message.emit("No moment after the playhead." if direction > 0 else "No moment before the playhead.")
            return
        self.jump_to_moment(moment.id)

    def toggle_loop(self) -> None:
        target = self.marking.selected_id or self.marking.open_moment_id
        moment = self.moments.get(target) if target is not None else None
        if moment is None:
            if self.playback.player.loop is not None:
                self.playback.toggle_loop(*self.playback.player.loop)
            else:
                self.message.emit("Select a moment to loop.")
            return
        looping = self.playback.toggle_loop(moment.start_ms, moment.end_ms)
        self.message.emit(f"Looping {format_ms(moment.start_ms)}–{format_ms(moment.end_ms)}" if looping
                          else "Loop off")

    # --- find ---------------------------------------------------------------------------------------

    def open_find(self) -> None:
        self.view.find_bar.open_bar()

    def on_find_query(self, text: str) -> None:
        self.view.transcript.delegate.query = text.strip()
        self._matches = self.transcript.find(text)
        self._match_at = -1
        self.view.transcript.viewport().update()
        if self._matches:
            self.find_step(1)
        else:
            self.view.find_bar.set_count(0, 0)

    def find_step(self, direction: int) -> None:
        if not self._matches:
            if not self.view.find_bar.isVisible():
                self.open_find()
            return
        self._match_at = (self._match_at + direction) % len(self._matches)
        row = self._matches[self._match_at]
        self.view.transcript.set_follow(False)
        self.view.transcript.scroll_to_row(row)
        self.view.find_bar.set_count(self._match_at + 1, len(self._matches))

    def on_find_closed(self) -> None:
        self.on_find_query("")
        self.view.transcript.setFocus()

    def media_path(self) -> Path | None:
        return Path(self.call.media_path) if self.call and self.call.media_path else None
