"""Transcribe a call on this machine and keep the result: the store side of local Whisper.

One run: resolve the model from the coach's settings (offline unless allowed),
transcribe in a spawned child (desktop.transcription.runner), and only when the
child says it is done: split speakers by channel for a stereo recording, then
save the whole transcript in one transaction as the call's current one. A
cancelled or failed run saves nothing. The CLI iterates `CallTranscription.events()`
and draws a bar; the GUI wraps the same iterator in a worker thread.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from enum import StrEnum
from pathlib import Path

from sqlalchemy import select

from db.models import Speaker
from db.store import Store
from desktop.core.enums import Role, TranscriptOrigin
from desktop.errors import CallmarkError
from desktop.services import calls as call_service
from desktop.services import transcripts as transcript_service
from desktop.services.people import get_setting, set_setting
from desktop.transcription.models import ResolvedModel, resolve_model
from desktop.transcription.runner import (
    Cancelled,
    Completed,
    Event,
    Failed,
    TranscriptionJob,
    TranscriptionResult,
    WhisperWorker,
)
from desktop.transcription.worker import TranscriptionSettings

CUSTOMER_NAME = "Customer"
REP_NAME = "Rep"


class TranscriptionSetting(StrEnum):
    """Keys of the store-side settings (they belong with the coach's work, not the UI)."""

    MODEL = "transcription.model"  # a model folder or a model name; empty: the bundled tiny.en
    ALLOW_NETWORK = "transcription.allow_network"  # off by default: nothing is downloaded
    LANGUAGE = "transcription.language"  # empty: detected from the first seconds


class TranscriptionFailed(CallmarkError):
    """The recording could not be transcribed; the message names the file and the problem."""


@dataclass(frozen=True)
class TranscriptionPreferences:
    model: str | None = None
    allow_network: bool = False
    language: str | None = None


def load_preferences(store: Store) -> TranscriptionPreferences:
    with store.read() as session:
        model = get_setting(session, TranscriptionSetting.MODEL.value)
        network = get_setting(session, TranscriptionSetting.ALLOW_NETWORK.value, False)
        language = get_setting(session, TranscriptionSetting.LANGUAGE.value)
    return TranscriptionPreferences((model or "").strip() or None, bool(network),
                                    (language or "").strip().lower() or None)


def save_preferences(store: Store, prefs: TranscriptionPreferences) -> None:
    with store.write() as session:
        set_setting(session, TranscriptionSetting.MODEL.value, (prefs.model or "").strip() or None)
        set_setting(session, TranscriptionSetting.ALLOW_NETWORK.value, bool(prefs.allow_network))
        set_setting(session, TranscriptionSetting.LANGUAGE.value,
                    (prefs.language or "").strip().lower() or None)


@dataclass(frozen=True)
class TranscriptionPlan:
    """Everything a run needs, decided before the child starts (so bad settings fail first)."""

    call_id: int
    title: str
    media_path: Path
    duration_ms: int
    channel_names: tuple[str, str] | None  # (left, right) for a stereo recording, else None
    model: ResolvedModel
    settings: TranscriptionSettings
    allow_network: bool


def plan_for_call(store: Store, call_id: int, *, model: str | None = None, language: str | None = None,
                  allow_network: bool | None = None, cpu_threads: int = 0,
                  channel_names: tuple[str, str] | None = None) -> TranscriptionPlan:
    """Check the call's recording is here and resolve the model; raises before anything runs.

    Arguments given here override the stored settings for this run only.
    """
    call = call_service.get_call(store, call_id)
    if not call.media_path or not Path(call.media_path).is_file():
        raise TranscriptionFailed(f"{call.media_path or call.title}: the recording is not on this "
                                  "computer; relink it before transcribing")
    prefs = load_preferences(store)
    network = prefs.allow_network if allow_network is None else allow_network
    resolved = resolve_model(model if model is not None else prefs.model, allow_network=network)
    lang = (language if language is not None else prefs.language) or None
    if lang in ("auto", ""):
        lang = None
    names = None
    if call.channels == 2:
        names = channel_names or (call.rep or REP_NAME, CUSTOMER_NAME)
    return TranscriptionPlan(call.id, call.title, Path(call.media_path), call.duration_ms, names, resolved,
                             TranscriptionSettings(language=lang, cpu_threads=cpu_threads), network)


@dataclass(frozen=True)
class Saved:
    """The last event of a run that succeeded: the transcript is in the store, current."""

    transcript: transcript_service.TranscriptRow


class CallTranscription:
    """One call transcribed and saved. Iterate `events()`; `cancel()` from any thread.

    Events are the runner's (Started, SegmentDecoded, Progress, then Completed,
    Cancelled or Failed), and after Completed one more: `Saved`, or `Failed` if
    the finished transcript could not be kept (silent recording, store error).
    """

    def __init__(self, store: Store, plan: TranscriptionPlan,
                 child_setup: Callable[[], None] | None = None, worker: WhisperWorker | None = None) -> None:
        self.store = store
        self.plan = plan
        self.job = TranscriptionJob(plan.media_path, plan.model, plan.settings,
                                    allow_network=plan.allow_network, child_setup=child_setup, worker=worker)
        self.transcript: transcript_service.TranscriptRow | None = None
        self.error: str | None = None
        self._cancelled = threading.Event()

    @property
    def cancelled(self) -> bool:
        return self._cancelled.is_set()

    def cancel(self) -> None:
        """Kill the child at once; a run cancelled even after the child finished saves nothing."""
        self._cancelled.set()
        self.job.cancel()

    def events(self, keep_going: Callable[[], bool] | None = None) -> Iterator[Event | Saved]:
        """keep_going: asked every half second while the child works; False cancels (the queue's watch)."""
        def wanted() -> bool:
            if keep_going():
                return True
            self._cancelled.set()  # the job then kills the child: this run is cancelled, not failed
            return False

        try:
            for event in self.job.events(keep_going=wanted if keep_going is not None else None):
                if isinstance(event, Completed):
                    yield event
                    yield self._finish(event.result)
                    return
                if isinstance(event, Failed):
                    self.error = event.message
                yield event
        except Exception as exc:  # noqa: BLE001 - e.g. the child could not start: one line, a Failed event
            self.error = f"{self.plan.media_path}: {exc}"
            yield Failed(self.error)

    def _finish(self, result: TranscriptionResult) -> Saved | Failed | Cancelled:
        if self.cancelled:
            return Cancelled(len(result.segments))
        try:
            segments = self._speakers(result)
            if not segments:
                raise TranscriptionFailed(f"{self.plan.media_path}: no speech found (the recording is silent "
                                          "or too quiet); nothing was saved")
            if self.cancelled:
                return Cancelled(len(segments))
            self.transcript = save_whisper_transcript(self.store, self.plan, segments, result)
        except Exception as exc:  # noqa: BLE001 - the coach sees one line; nothing half-written
            self.error = str(exc)
            return Failed(self.error)
        return Saved(self.transcript)

    def _speakers(self, result: TranscriptionResult) -> list:
        if self.plan.channel_names is None or not result.segments:
            return list(result.segments)
        from desktop.transcription.channels import ChannelSplitError, assign_speakers_by_channel

        try:
            return assign_speakers_by_channel(result.segments, self.plan.media_path, self.plan.channel_names)
        except ChannelSplitError:
            return list(result.segments)  # a recording that lies about its channels: keep one voice

    def run(self, on_event: Callable[[Event | Saved], None] | None = None) -> transcript_service.TranscriptRow:
        """Block until saved. Raises TranscriptionFailed, or KeyboardInterrupt-safe cancel."""
        for event in self.events():
            if on_event is not None:
                on_event(event)
            if isinstance(event, Cancelled):
                raise TranscriptionFailed(f"{self.plan.media_path}: transcription cancelled; nothing was saved")
        if self.transcript is None:
            raise TranscriptionFailed(self.error or f"{self.plan.media_path}: transcription failed")
        return self.transcript


def save_whisper_transcript(store: Store, plan: TranscriptionPlan, segments: list,
                            result: TranscriptionResult) -> transcript_service.TranscriptRow:
    """Save as the current `whisper` version; channel speakers get their channel and role."""
    saved = transcript_service.save_transcript(store, plan.call_id, segments, origin=TranscriptOrigin.WHISPER,
                                               model=result.model, language=result.language, suggest=False)
    if plan.channel_names is not None:
        roles = {plan.channel_names[0]: (0, Role.REP), plan.channel_names[1]: (1, Role.CUSTOMER)}
        with store.write() as session:
            for spk in session.scalars(select(Speaker).where(Speaker.call_id == plan.call_id)):
                if spk.label in roles:
                    spk.channel, role = roles[spk.label]
                    if spk.role is None:
                        spk.role = role
    transcript_service.suggestions_changed(store, plan.call_id)  # with the channels' roles set
    return saved


def transcribe_call(store: Store, call_id: int, *, on_event: Callable | None = None,
                    **overrides) -> transcript_service.TranscriptRow:
    """Plan, run and save in one call (scripts and tests)."""
    return CallTranscription(store, plan_for_call(store, call_id, **overrides)).run(on_event)


def call_for_input(store: Store, ref: str) -> tuple[int, bool]:
    """A call id for a CLI argument: an id, a title, or a recording (added to the library if new).

    Returns (call_id, added). A recording that cannot be decoded raises MediaError before any write.
    """
    candidate = Path(ref).expanduser()
    if candidate.is_file():
        row, created = call_service.add_call(store, candidate)
        return row.id, created
    return call_service.resolve_call(store, ref).id, False


def with_channel_names(plan: TranscriptionPlan, names: tuple[str, str]) -> TranscriptionPlan:
    return replace(plan, channel_names=names) if plan.channel_names is not None else plan
