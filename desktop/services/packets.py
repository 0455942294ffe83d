"""The manager's session packet from the store: one call, or the next session of a cycle.

Gathers every item of one coach on the call (or in the cycle) with every moment
each item cites, the conversation model's questions, the specificity findings
still open, and a short audio clip per moment. Redaction is on by default:
quotes and notes lose emails, phone and card numbers, and the clips are muted
over the same words (word times where the transcript has them, the whole line
where it does not: when unsure, silence more).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from sqlalchemy import select
from sqlalchemy.orm import Session

from db.models import Call, CoachingItem, CoachingSession, Cycle, Moment, ParkedObservation, Person, Segment, Transcript
from db.store import Store
from desktop.core.conversation import guide
from desktop.core.enums import BehaviorChange, ConversationModel, MomentKind, PracticeKind, SessionStatus
from desktop.errors import CallmarkError, NotFound
from desktop.exchange.packet import PacketData, PacketFinding, PacketItem, PacketMoment, PacketQuestion, render_packet
from desktop.exchange.redact import Redaction, merge_spans, mute_spans, redact
from desktop.exchange.safe_write import atomic_write_text
from desktop.services import items as item_service
from desktop.services.people import coach_named

DEFAULT_MODEL = ConversationModel.GROW


@dataclass
class PacketBuild:
    """A packet ready to render, with what the coach should see before it leaves."""
    data: PacketData
    redactions: list[tuple[str, Redaction]] = field(default_factory=list)  # (where, what)
    muted_ms: dict[str, list[tuple[int, int]]] = field(default_factory=dict)  # moment uid -> spans
    left_out: list[str] = field(default_factory=list)  # items not ready for a manager
    clip_problems: list[str] = field(default_factory=list)

    def html(self) -> str:
        return render_packet(self.data)

    def preview_html(self) -> str:
        """The packet without its audio (a preview widget cannot play it; the bytes are large)."""
        return re.sub(r"<audio\b[^>]*></audio>", "", self.html())


def _coach(session: Session, name: str | None, cycle: Cycle | None) -> Person:
    if name is None and cycle is not None and cycle.coach_id is not None:
        return session.get(Person, cycle.coach_id)
    return coach_named(session, name)


def _next_session_date(session: Session, cycle: Cycle, today: date) -> date:
    planned = session.scalar(select(CoachingSession.planned_date).where(
        CoachingSession.cycle_id == cycle.id, CoachingSession.status == SessionStatus.PLANNED,
        CoachingSession.planned_date >= today).order_by(CoachingSession.planned_date).limit(1))
    return planned or today


class _Scrubber:
    def __init__(self, on: bool) -> None:
        self.on = on
        self.found: list[tuple[str, Redaction]] = []

    def text(self, value: str | None, where: str) -> tuple[str | None, list[Redaction]]:
        if not self.on or not value:
            return value, []
        result = redact(value)
        self.found.extend((where, r) for r in result.redactions)
        return result.text, result.redactions


def _mute_for(session: Session, moment: Moment, lo: int, hi: int, quote_hit: bool) -> list[tuple[int, int]]:
    """Spans of the clip [lo, hi] where the recording says what the text hides."""
    transcript_id = session.scalar(select(Transcript.id).where(
        Transcript.call_id == moment.call_id, Transcript.is_current.is_(True)).order_by(Transcript.id.desc()))
    spans: list[tuple[int, int]] = []
    if transcript_id is not None:
        lines = session.scalars(select(Segment).where(Segment.transcript_id == transcript_id,
                                                      Segment.end_ms > lo, Segment.start_ms < hi))
        for line in lines:
            found = redact(line.text).redactions
            if not found:
                continue
            words = [(int(w["start_ms"]), int(w["end_ms"]), str(w["text"])) for w in line.words or ()
                     if isinstance(w, dict) and {"start_ms", "end_ms", "text"} <= set(w)]
            spans += mute_spans(line.text, words, found) if words else [(line.start_ms, line.end_ms)]
    if quote_hit and not spans:
        spans.append((moment.start_ms, moment.end_ms))  # the quote hides something the lines do not show
    return merge_spans(spans)


def build_packet(store: Store, call_id: int | None = None, *, coach: str | None = None,
                 cycle_id: int | None = None, clips: bool = True, redact_pii: bool = True,
                 today: date | None = None, context_ms: int = 3000) -> PacketBuild:
    """Everything the manager's packet holds, for one call or the next session of a cycle."""
    if call_id is None and cycle_id is None:
        raise CallmarkError("a packet is for a call or for a cycle: name one")
    today = today or date.today()
    scrub = _Scrubber(redact_pii)
    with store.read() as session:
        call = session.get(Call, call_id) if call_id is not None else None
        if call_id is not None and call is None:
            raise NotFound(f"call {call_id}: no such call in this library")
        cycle = session.get(Cycle, cycle_id) if cycle_id is not None else None
        if cycle_id is not None and cycle is None:
            raise NotFound(f"cycle {cycle_id}: no such cycle")
        who = _coach(session, coach, cycle)
        chosen = _chosen_items(session, who, call, cycle)
        manager = _manager(session, call, cycle, chosen)
        if cycle is None and manager is not None:
            cycle = session.scalar(select(Cycle).where(Cycle.manager_id == manager.id)
                                   .order_by(Cycle.start_date.desc()).limit(1))
        model = cycle.conversation_model if cycle is not None else DEFAULT_MODEL
        build = PacketBuild(data=None)  # type: ignore[arg-type] - filled below
        packet_items: list[PacketItem] = []
        cited: list[Moment] = []
        for item in chosen:
            if not (item.behavior_text or "").strip() or item.next_evidence_due is None:
                build.left_out.append(f"item {item.id}: needs a behavior and a due date for the next evidence")
                continue
            moments = sorted(item.moments, key=lambda m: (m.start_ms, m.id))
            cited += [m for m in moments if m not in cited]
            packet_items.append(PacketItem(
                moment_ids=[m.uid for m in moments], consequence=item.consequence or "",
                behavior_change=BehaviorChange(item.behavior_change), behavior=item.behavior_text,
                practice_kind=PracticeKind(item.practice_kind), practice_task=item.practice_task or "",
                owner_does=item.owner_does or "", owner_reviews=item.owner_reviews or "",
                next_evidence=item.next_evidence or "", due=item.next_evidence_due,
                cadence=item.cadence or None, indicator=item.indicator or None,
                findings=[PacketFinding.from_finding(f) for f in _findings(store, item.id)]))
        parked = _parked_moments(session, who, call, cited)
        packet_moments = [_moment(session, m, scrub, build, clips, context_ms) for m in cited + parked]
        title = call.title if call is not None else (
            f"{manager.name if manager else 'Manager'}: next session of the cycle from {cycle.start_date}")
        build.data = PacketData(
            call_title=title, coach=who.name, manager=manager.name if manager else "the manager",
            session_date=_next_session_date(session, cycle, today) if cycle is not None else today,
            moments=packet_moments, items=packet_items,
            questions=[PacketQuestion(stage.title, prompt) for stage in guide(model).stages
                       for prompt in stage.prompts],
            conversation_model=guide(model).name,
            recorded_on=call.recorded_at.date() if call is not None and call.recorded_at else None,
            redaction_count=len(scrub.found), redacted=redact_pii)
        build.redactions = scrub.found
    return build


def _findings(store: Store, item_id: int):
    return item_service.findings(item_service.get_item(store, item_id))


def _chosen_items(session: Session, who: Person, call: Call | None, cycle: Cycle | None) -> list[CoachingItem]:
    query = select(CoachingItem).where(CoachingItem.coach_id == who.id)
    if call is not None:
        query = query.where(CoachingItem.id.in_(select(Moment.item_id).where(Moment.call_id == call.id)))
    if cycle is not None:
        from desktop.services.cycles import cycle_items

        ids = [i.id for i in cycle_items(session, cycle)]
        query = query.where(CoachingItem.id.in_(ids))
    return list(session.scalars(query.order_by(CoachingItem.id)))


def _manager(session: Session, call: Call | None, cycle: Cycle | None, chosen: list[CoachingItem]) -> Person | None:
    if cycle is not None:
        return session.get(Person, cycle.manager_id)
    if call is not None and call.manager is not None:
        return call.manager
    return next((i.manager for i in chosen if i.manager is not None), None)


def _parked_moments(session: Session, who: Person, call: Call | None, cited: list[Moment]) -> list[Moment]:
    """Moments of this call the coach parked for a later cycle: listed apart, not coached now."""
    if call is None:
        return []
    parked = session.scalars(select(Moment).join(ParkedObservation, ParkedObservation.moment_id == Moment.id)
                             .where(Moment.call_id == call.id, ParkedObservation.coach_id == who.id)
                             .order_by(Moment.start_ms, Moment.id)).unique().all()
    return [m for m in parked if m not in cited]


def _moment(session: Session, moment: Moment, scrub: _Scrubber, build: PacketBuild, clips: bool,
            context_ms: int) -> PacketMoment:
    from desktop.core.timefmt import format_ms

    at = format_ms(moment.start_ms)
    quote, quote_hits = scrub.text(moment.quote or "", f"moment at {at}, quote")
    note, note_hits = scrub.text(moment.note, f"moment at {at}, note")
    clip, mime = None, "audio/ogg"
    if clips:
        clip, mime = _clip(session, moment, build, context_ms, scrub.on, bool(quote_hits or note_hits))
    return PacketMoment(id=moment.uid, start_ms=moment.start_ms, end_ms=moment.end_ms, quote=quote or "",
                        speaker=moment.speaker or None, kind=MomentKind(moment.kind), note=note or None,
                        clip=clip, clip_mime=mime)


def _clip(session: Session, moment: Moment, build: PacketBuild, context_ms: int, redacting: bool,
          quote_hit: bool) -> tuple[bytes | None, str]:
    from desktop.media.clips import CLIP_MIME_TYPE, ClipError, clip_bounds, cut_clip

    call = moment.call
    if not call.media_path or not Path(call.media_path).is_file():
        build.clip_problems.append(f"no clip for the moment at {moment.start_ms} ms: the recording of "
                                   f"call {call.id} is not on this machine (add it to relink)")
        return None, CLIP_MIME_TYPE
    lo, hi = clip_bounds(moment.start_ms, moment.end_ms, context_ms, call.duration_ms)
    mute = _mute_for(session, moment, lo, hi, quote_hit) if redacting else []
    build.muted_ms[moment.uid] = mute
    try:
        return cut_clip(call.media_path, moment.start_ms, moment.end_ms, context_ms=context_ms, mute=mute,
                        duration_ms=call.duration_ms), CLIP_MIME_TYPE
    except ClipError as exc:
        build.clip_problems.append(str(exc))
        return None, CLIP_MIME_TYPE


def write_html(build: PacketBuild, path: Path | str) -> Path:
    """Write the packet's HTML atomically (ExportError on failure)."""
    return atomic_write_text(path, build.html())
