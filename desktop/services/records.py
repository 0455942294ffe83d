"""The portable coaching record in and out of the store.

Export: one coach's moments and items on one call (and, when asked, the call's
transcript) as a `CoachingRecord`. Import: a checked record (`load_record`
already checked schema, version, checksum, ids, references and times against
the record's own duration) is checked again against this library, then written
in one transaction; any problem raises RecordError and nothing changes.

The call is matched by its media's SHA-256. A record for a call the library
does not have creates the call without media; `calls add` of the same file
later relinks it. Rows travel under their uids, so importing the same record
twice adds nothing. Another coach's moments come in `imported` (hidden from
blind review until the coach compares).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from sqlalchemy import select
from sqlalchemy.orm import Session

from db.models import Call, CoachingItem, Moment, Opportunity, Person, Segment, Speaker, Transcript
from db.store import Store
from desktop.core.enums import BehaviorChange, CallSource, ItemStatus, MomentKind, PracticeKind, Role, TranscriptOrigin
from desktop.errors import CallmarkError
from desktop.exchange import record as rec
from desktop.exchange.redact import Redaction, redact
from desktop.services.lookup import one
from desktop.services.people import coach_named, local_coach, person, set_local_coach

PLACEHOLDER_COACH = "Me"  # local_coach_person's name until the coach says who they are
_ROLE_ORDER = {Role.REP: 0, Role.CUSTOMER: 1, Role.MANAGER: 2, Role.OTHER: 3}
UNKNOWN_LANGUAGE = "und"  # BCP 47 "undetermined", for a transcript stored without a language


# --- who is exporting -------------------------------------------------------------------


def whoami(store: Store) -> tuple[str, str | None] | None:
    """The local coach (name, email), or None before the coach has said."""
    with store.read() as session:
        return local_coach(session)


def set_whoami(store: Store, name: str, email: str | None = None) -> tuple[str, str | None]:
    """Set the local coach once; moments and items marked before under the placeholder become theirs."""
    name = (name or "").strip()
    email = (email or "").strip() or None
    if not name:
        raise CallmarkError("local coach: give a name (it goes on every record you export)")
    if email is not None:
        try:
            rec.Person(name=name, email=email)
        except ValueError:
            raise CallmarkError(f"local coach: {email!r} is not an email address") from None
    with store.write() as session:
        before = local_coach(session)
        coach = set_local_coach(session, name, email)
        if email and coach.email != email:
            coach.email = email
        if before is None or before[0] != name:
            old_name = before[0] if before else PLACEHOLDER_COACH
            old = session.scalar(select(Person).where(Person.name == old_name, Person.role == Role.COACH))
            if old is not None and old.id != coach.id:
                for model in (Moment, CoachingItem):
                    for row in session.scalars(select(model).where(model.coach_id == old.id,
                                                                   model.imported.is_(False))):
                        row.coach_id = coach.id
    return name, email


# --- export -----------------------------------------------------------------------------


@dataclass
class ExportResult:
    record: rec.CoachingRecord
    redactions: list[tuple[str, Redaction]] = field(default_factory=list)  # (where, what)
    left_out: list[str] = field(default_factory=list)  # items not complete enough to travel


def _coach(session: Session, name: str | None) -> Person:
    return coach_named(session, name)


def _utc(value: datetime | None) -> datetime | None:
    return None if value is None else value.replace(tzinfo=timezone.utc)


def _naive(value: datetime | None) -> datetime | None:
    return None if value is None else value.astimezone(timezone.utc).replace(tzinfo=None)


def _participants(session: Session, call: Call) -> list[rec.Participant] | None:
    people: dict[tuple[str, Role], None] = {}
    for speaker in session.scalars(select(Speaker).where(Speaker.call_id == call.id)):
        if speaker.role in _ROLE_ORDER and speaker.name.strip():
            people[(speaker.name.strip(), speaker.role)] = None
    if call.rep is not None and not any(n == call.rep.name for n, _ in people):
        people[(call.rep.name, Role.REP)] = None
    ordered = sorted(people, key=lambda p: (_ROLE_ORDER[p[1]], p[0]))
    return [rec.Participant(name=n, role=r) for n, r in ordered] or None


def _call_part(session: Session, call: Call) -> rec.Call:
    opportunity = None
    opp = call.opportunity
    if opp is not None and (opp.name or "").strip():
        opportunity = rec.Opportunity(crm=opp.crm, id=opp.external_id, name=opp.name,
                                      next_step=opp.next_step or "", next_step_date=opp.next_step_date)
    filename = call.media_filename or (Path(call.media_path).name if call.media_path else "recording")
    return rec.Call(
        title=call.title, media=rec.Media(sha256=call.media_sha256, duration_ms=call.duration_ms,
                                          filename=filename),
        recorded_at=_utc(call.recorded_at), source=call.source,
        participants=_participants(session, call),
        manager=rec.Manager(name=call.manager.name) if call.manager else None,
        opportunity=opportunity)


def _missing(item: CoachingItem) -> list[str]:
    needed = {"consequence": item.consequence, "behavior": item.behavior_text,
              "practice task": item.practice_task, "owner who does it": item.owner_does,
              "owner who reviews it": item.owner_reviews, "cadence": item.cadence,
              "indicator": item.indicator, "next evidence": item.next_evidence,
              "review rule": item.review_rule_text}
    missing = [name for name, value in needed.items() if not (value or "").strip()]
    if item.next_evidence_due is None:
        missing.append("due date")
    return missing


def _item_part(item: CoachingItem, moment_uids: list[str]) -> rec.CoachingItem:
    after = None
    if None not in (item.continue_seen_in, item.continue_of_reviewed, item.continue_weeks_in_a_row):
        after = rec.ContinueAfter(seen_in=item.continue_seen_in, of_reviewed=item.continue_of_reviewed,
                                  weeks_in_a_row=item.continue_weeks_in_a_row)
    return rec.CoachingItem(
        id=item.uid, moment_ids=moment_uids, consequence=item.consequence,
        behavior=rec.Behavior(change=item.behavior_change, text=item.behavior_text),
        practice=rec.Practice(kind=item.practice_kind, task=item.practice_task),
        owner=rec.Owner(does=item.owner_does, reviews=item.owner_reviews),
        cadence=item.cadence, indicator=item.indicator,
        next_evidence=rec.NextEvidence(description=item.next_evidence, due=item.next_evidence_due),
        review_rule=rec.ReviewRule(text=item.review_rule_text, continue_after=after),
        qualification_gap=item.qualification_gap or None, status=item.status)


class _Redactor:
    def __init__(self, on: bool) -> None:
        self.on = on
        self.found: list[tuple[str, Redaction]] = []

    def __call__(self, text: str | None, where: str) -> str | None:
        if not self.on or not text:
            return text
        result = redact(text)
        self.found.extend((where, r) for r in result.redactions)
        return result.text


def export_record(store: Store, call_id: int, *, coach: str | None = None, with_transcript: bool = False,
                  redact_pii: bool = False, exported_at: datetime | None = None) -> ExportResult:
    """One coach's moments and items on one call as a record (the local coach by default)."""
    scrub = _Redactor(redact_pii)
    with store.read() as session:
        call = one(session, Call, call_id)
        who = _coach(session, coach)
        moments = session.scalars(select(Moment).where(Moment.call_id == call.id, Moment.coach_id == who.id)
                                  .order_by(Moment.start_ms, Moment.id)).all()
        by_id = {m.id: m for m in moments}
        items = session.scalars(select(CoachingItem).where(
            CoachingItem.coach_id == who.id,
            CoachingItem.id.in_(select(Moment.item_id).where(Moment.call_id == call.id)))
            .order_by(CoachingItem.id)).all()
        item_parts, left_out = [], []
        for item in items:
            cited = [m for m in sorted(item.moments, key=lambda m: (m.start_ms, m.id)) if m.id in by_id]
            missing = _missing(item)
            if missing or not cited:
                why = ", ".join(missing) if missing else "no moment of this coach on this call"
                left_out.append(f"item {item.id} ({(item.behavior_text or '').strip()[:50] or 'no behavior'}): "
                                f"missing {why}" if missing else f"item {item.id}: {why}")
                continue
            item_parts.append(_item_part(item, [m.uid for m in cited]))
        moment_parts = [
            rec.Moment(id=m.uid, start_ms=m.start_ms, end_ms=m.end_ms, kind=m.kind,
                       speaker=m.speaker if m.speaker else None,
                       quote=scrub(m.quote or "", f"moment at {m.start_ms} ms, quote"),
                       note=scrub(m.note, f"moment at {m.start_ms} ms, note") if m.note is not None else None,
                       created_at=_utc(m.created_at))
            for m in moments]
        transcript = _transcript_part(session, call, scrub) if with_transcript else None
        exporter = rec.Person(name=who.name, email=who.email or None)
        record = rec.build_record(exported_by=exporter, call=_call_part(session, call), moments=moment_parts,
                                  items=item_parts, transcript=transcript, exported_at=exported_at)
    return ExportResult(record, scrub.found, left_out)


def _transcript_part(session: Session, call: Call, scrub: _Redactor) -> rec.Transcript | None:
    current = session.scalar(select(Transcript).where(Transcript.call_id == call.id,
                                                      Transcript.is_current.is_(True))
                             .order_by(Transcript.id.desc()).limit(1))
    if current is None:
        raise CallmarkError(f"call {call.id}: has no transcript to export (leave out --with-transcript)")
    names = dict(session.execute(select(Speaker.label, Speaker.name).where(Speaker.call_id == call.id)).all())
    segments = [
        # Whisper's last line may overrun the probed length by a few ms; the record may not.
        rec.Segment(start_ms=min(s.start_ms, call.duration_ms), end_ms=min(s.end_ms, call.duration_ms),
                    speaker=names.get(s.speaker, s.speaker) or "",
                    text=scrub(s.text, f"transcript at {s.start_ms} ms") or "")
        for s in current.segments]
    return rec.Transcript(origin=current.origin, model=current.model or "",
                          language=current.language or UNKNOWN_LANGUAGE, segments=segments)


def save_record(result: ExportResult, path: Path | str) -> Path:
    """Write an exported record atomically (ExportError on failure, nothing half-written)."""
    return rec.write_record(path, result.record)


# --- import -----------------------------------------------------------------------------


@dataclass
class ImportResult:
    path: str
    call_id: int
    call_title: str
    call_created: bool
    coach: str
    hidden_for_blind_review: bool
    moments_added: int = 0
    moments_updated: int = 0
    moments_unchanged: int = 0
    items_added: int = 0
    items_updated: int = 0
    items_unchanged: int = 0
    transcript: str = "none"  # "added", "kept" (the library's own stays), "none"

    def to_json(self) -> dict:
        return asdict(self)


def import_record(store: Store, path: Path | str) -> ImportResult:
    """Check a record file completely, then write it in one transaction (RecordError: nothing changed)."""
    record = rec.load_record(path)
    return import_loaded(store, record, path)


def import_loaded(store: Store, record: rec.CoachingRecord, path: Path | str) -> ImportResult:
    with store.write() as session:
        _cross_check(session, record, path)
        result = _write(session, record, str(path))
    if result.transcript == "added":
        from desktop.services.transcripts import suggestions_changed

        suggestions_changed(store, result.call_id)
    return result


def _cross_check(session: Session, record: rec.CoachingRecord, path: Path | str) -> None:
    """What only the library can tell: the call's real length and who owns the ids already."""
    problems: list[tuple[str, str]] = []
    call = session.scalar(select(Call).where(Call.media_sha256 == record.call.media.sha256))
    if call is not None:
        limit = call.duration_ms
        spans = [(f"$.moments[{i}]", m.start_ms, m.end_ms) for i, m in enumerate(record.moments)]
        if record.transcript is not None:
            spans += [(f"$.transcript.segments[{i}]", s.start_ms, s.end_ms)
                      for i, s in enumerate(record.transcript.segments)]
        for where, start, end in spans:
            if end > limit:
                problems.append((f"{where}.end_ms", f"{end} ms is past the end of the recording in this "
                                                    f"library (call {call.id}, {limit} ms)"))
    for index, moment in enumerate(record.moments):
        found = session.scalar(select(Moment).where(Moment.uid == moment.id))
        if found is not None and (call is None or found.call_id != call.id):
            problems.append((f"$.moments[{index}].id", f"moment {moment.id} is already in this library "
                                                       f"on another call (call {found.call_id})"))
    claimed: dict[str, str] = {}
    for index, item in enumerate(record.items):
        found = session.scalar(select(CoachingItem).where(CoachingItem.uid == item.id))
        if found is not None and found.coach is not None and found.coach.name != record.exported_by.name:
            problems.append((f"$.items[{index}].id", f"item {item.id} is already in this library as "
                                                     f"{found.coach.name}'s item"))
        for ref_index, ref in enumerate(item.moment_ids):
            where = f"$.items[{index}].moment_ids[{ref_index}]"
            if ref in claimed:
                problems.append((where, f"moment {ref} already feeds the item at {claimed[ref]}; "
                                        f"a moment feeds one item"))
            claimed.setdefault(ref, f"$.items[{index}]")
    if problems:
        json_path, message = problems[0]
        raise rec.RecordError(path, json_path, message, problems[1:])


def _write(session: Session, record: rec.CoachingRecord, path: str) -> ImportResult:
    mine = local_coach(session)
    foreign = mine is None or mine[0] != record.exported_by.name
    coach = person(session, record.exported_by.name, Role.COACH, record.exported_by.email)
    call, created = _find_or_make_call(session, record.call)
    result = ImportResult(path=path, call_id=call.id, call_title=call.title, call_created=created,
                          coach=coach.name, hidden_for_blind_review=foreign)
    if record.transcript is not None:
        result.transcript = _import_transcript(session, call, record.transcript)
    moments: dict[str, Moment] = {}
    for part in record.moments:
        moments[part.id] = _import_moment(session, call, coach, part, foreign, result)
    manager = call.manager
    for part in record.items:
        _import_item(session, coach, manager, part, [moments[m] for m in part.moment_ids], foreign, result)
    session.flush()
    return result


def _find_or_make_call(session: Session, part: rec.Call) -> tuple[Call, bool]:
    call = session.scalar(select(Call).where(Call.media_sha256 == part.media.sha256))
    created = call is None
    if call is None:
        call = Call(title=part.title, media_path=None, media_sha256=part.media.sha256,
                    media_filename=part.media.filename, duration_ms=part.media.duration_ms,
                    recorded_at=_naive(part.recorded_at), source=CallSource(part.source) if part.source else None)
        session.add(call)
        session.flush()
    # Fill what the library does not know yet; never overwrite what the coach set here
    # (a call added here keeps its own title).
    if call.recorded_at is None and part.recorded_at is not None:
        call.recorded_at = _naive(part.recorded_at)
    if call.source is None and part.source:
        call.source = CallSource(part.source)
    if call.manager is None and part.manager is not None:
        call.manager = person(session, part.manager.name, Role.MANAGER)
    reps = [p.name for p in part.participants or () if p.role == Role.REP]
    if call.rep is None and reps:
        call.rep = person(session, reps[0], Role.REP)
    if call.opportunity is None and part.opportunity is not None:
        call.opportunity = _opportunity(session, part.opportunity)
    for participant in part.participants or ():  # the customer's name, who the rep is
        role = Role(participant.role)
        if role == Role.REP and call.rep is not None and call.rep.name != participant.name:
            continue  # the coach named another rep here; the record does not overrule that
        _speaker(session, call, participant.name, role)
    session.flush()
    return call, created


def _opportunity(session: Session, part: rec.Opportunity) -> Opportunity:
    found = session.scalar(select(Opportunity).where(Opportunity.crm == part.crm,
                                                     Opportunity.external_id == part.id))
    if found is None:
        found = Opportunity(crm=part.crm, external_id=part.id, name=part.name, next_step=part.next_step,
                            next_step_date=part.next_step_date)
        session.add(found)
        session.flush()
    return found


def _speaker(session: Session, call: Call, name: str, role: Role | None) -> Speaker:
    found = session.scalar(select(Speaker).where(Speaker.call_id == call.id,
                                                 (Speaker.label == name) | (Speaker.name == name)))
    if found is None:
        found = Speaker(call_id=call.id, label=name, name=name, role=role)
        session.add(found)
        session.flush()
    elif found.role is None and role is not None:
        found.role = role
    return found


def _import_transcript(session: Session, call: Call, part: rec.Transcript) -> str:
    if session.scalar(select(Transcript.id).where(Transcript.call_id == call.id).limit(1)) is not None:
        return "kept"  # the library's own transcript stays; its versions are the coach's
    transcript = Transcript(call_id=call.id, origin=TranscriptOrigin(part.origin), model=part.model or None,
                            language=None if part.language == UNKNOWN_LANGUAGE else part.language,
                            source_file=None, is_current=True)
    session.add(transcript)
    session.flush()
    session.add_all(Segment(transcript_id=transcript.id, start_ms=s.start_ms, end_ms=s.end_ms,
                            speaker=s.speaker or None, text=s.text) for s in part.segments)
    for label in sorted({s.speaker for s in part.segments if s.speaker}):
        _speaker(session, call, label, None)
    return "added"


def _import_moment(session: Session, call: Call, coach: Person, part: rec.Moment, foreign: bool,
                   result: ImportResult) -> Moment:
    values = {"start_ms": part.start_ms, "end_ms": part.end_ms, "kind": MomentKind(part.kind),
              "speaker": part.speaker, "quote": part.quote, "note": part.note,
              "created_at": _naive(part.created_at)}
    found = session.scalar(select(Moment).where(Moment.uid == part.id))
    if found is None:
        found = Moment(uid=part.id, call_id=call.id, coach=coach, imported=foreign, **values)
        session.add(found)
        session.flush()
        result.moments_added += 1
    elif found.imported and _changed(found, values):
        for key, value in values.items():
            setattr(found, key, value)
        result.moments_updated += 1
    else:
        result.moments_unchanged += 1  # the same record again, or the coach's own moment: theirs stays
    return found


def _changed(row, values: dict) -> bool:
    return any(getattr(row, key) != value for key, value in values.items())


def _item_values(part: rec.CoachingItem) -> dict:
    after = part.review_rule.continue_after
    return {
        "consequence": part.consequence, "behavior_change": BehaviorChange(part.behavior.change),
        "behavior_text": part.behavior.text, "practice_kind": PracticeKind(part.practice.kind),
        "practice_task": part.practice.task, "owner_does": part.owner.does,
        "owner_reviews": part.owner.reviews, "cadence": part.cadence, "indicator": part.indicator,
        "next_evidence": part.next_evidence.description, "next_evidence_due": part.next_evidence.due,
        "review_rule_text": part.review_rule.text,
        "continue_seen_in": after.seen_in if after else None,
        "continue_of_reviewed": after.of_reviewed if after else None,
        "continue_weeks_in_a_row": after.weeks_in_a_row if after else None,
        "qualification_gap": part.qualification_gap, "status": ItemStatus(part.status),
    }


def _import_item(session: Session, coach: Person, manager: Person | None, part: rec.CoachingItem,
                 cited: list[Moment], foreign: bool, result: ImportResult) -> None:
    values = _item_values(part)
    found = session.scalar(select(CoachingItem).where(CoachingItem.uid == part.id))
    if found is None:
        found = CoachingItem(uid=part.id, coach=coach, manager=manager, imported=foreign, **values)
        session.add(found)
        session.flush()
        result.items_added += 1
    elif found.imported and _changed(found, values):
        for key, value in values.items():
            setattr(found, key, value)
        result.items_updated += 1
    else:
        result.items_unchanged += 1
        if not found.imported:
            return  # the coach's own item: leave its moments as they are
    for moment in cited:
        if moment.item_id is None or (moment.imported and moment.item_id != found.id):
            moment.item_id = found.id
