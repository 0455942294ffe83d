"""The manager's session packet as one self-contained HTML file.

It is read offline, in any browser, by a sales manager before the next
coaching session, and it carries a customer's words: so it loads nothing from
anywhere (a Content-Security-Policy allows no remote resource), all styling is
inline, clips are embedded as data: URIs, and every piece of coach- or
transcript-supplied text goes through jinja2's autoescaping (the template
never marks user text `|safe`).

The packet is built from plain data (`PacketData`); the store and CLI fill it.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from desktop import paths
from desktop.core.enums import BehaviorChange, MomentKind, PracticeKind, Severity
from desktop.exchange.safe_write import atomic_write_text

TEMPLATE_DIR = paths.PACKET_TEMPLATES
TEMPLATE_NAME = "packet.html.j2"
CONTENT_SECURITY_POLICY = "default-src 'none'; style-src 'unsafe-inline'; media-src data:; img-src data:"


@dataclass(frozen=True)
class PacketMoment:
    id: str
    start_ms: int
    end_ms: int
    quote: str
    speaker: str | None = None
    kind: MomentKind | None = None
    note: str | None = None
    clip: bytes | None = None  # encoded audio (desktop.media.clips.cut_clip), or None
    clip_mime: str = "audio/ogg"


@dataclass(frozen=True)
class PacketFinding:
    """A specificity finding on an item (desktop.core.specificity.Finding) and whether it was resolved."""
    component: str
    message: str
    severity: Severity = Severity.WARNING
    resolved: bool = False
    suggestion: str = ""

    @classmethod
    def from_finding(cls, finding: object, resolved: bool = False) -> PacketFinding:
        """From a desktop.core.specificity.Finding (component, severity, message, suggestion)."""
        return cls(component=getattr(finding, "component"), message=getattr(finding, "message"),
                   severity=getattr(finding, "severity"), resolved=resolved,
                   suggestion=getattr(finding, "suggestion", ""))


@dataclass(frozen=True)
class PacketItem:
    moment_ids: list[str]
    consequence: str
    behavior_change: BehaviorChange
    behavior: str
    practice_kind: PracticeKind
    practice_task: str
    owner_does: str
    owner_reviews: str
    next_evidence: str
    due: date
    cadence: str | None = None
    indicator: str | None = None
    findings: list[PacketFinding] = field(default_factory=list)


@dataclass(frozen=True)
class PacketQuestion:
    stage: str  # e.g. "Goal", "Reality"
    text: str


@dataclass(frozen=True)
class PacketData:
    call_title: str
    coach: str
    manager: str
    session_date: date
    moments: list[PacketMoment]
    items: list[PacketItem]
    questions: list[PacketQuestion] = field(default_factory=list)
    conversation_model: str | None = None  # "GROW", "CLEAR" or "OSKAR"
    recorded_on: date | None = None
    redaction_count: int = 0  # personal details replaced before export
    redacted: bool = True


def clock(ms: int) -> str:
    """0:39 or 1:02:03: how a manager reads a place in a recording."""
    seconds = max(0, ms) // 1000
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def _long_date(value: date) -> str:
    return f"{value.strftime('%A')}, {value.day} {value.strftime('%B %Y')}"


def _label(value: object) -> str:
    text = str(getattr(value, "value", value)).replace("_", " ")
    return text[:1].upper() + text[1:]


def _environment() -> Environment:
    env = Environment(loader=FileSystemLoader(str(TEMPLATE_DIR)), autoescape=True,
                      undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                      keep_trailing_newline=True)
    env.filters["clock"] = clock
    env.filters["long_date"] = _long_date
    env.filters["label"] = _label
    return env


def _clip_src(moment: PacketMoment) -> str | None:
    if not moment.clip:
        return None
    mime = moment.clip_mime if moment.clip_mime in ("audio/ogg", "audio/mp4", "audio/webm") else "audio/ogg"
    return f"data:{mime};base64,{base64.b64encode(moment.clip).decode('ascii')}"


def render_packet(data: PacketData) -> str:
    """The packet as one HTML document (str)."""
    by_id = {m.id: m for m in data.moments}
    cited = {mid for item in data.items for mid in item.moment_ids}
    items = [{"item": item, "number": index,
              "moments": [by_id[mid] for mid in item.moment_ids if mid in by_id],
              "open_findings": [f for f in item.findings if not f.resolved],
              "resolved_findings": [f for f in item.findings if f.resolved]}
             for index, item in enumerate(data.items, start=1)]
    stages: list[tuple[str, list[str]]] = []
    for question in data.questions:
        if stages and stages[-1][0] == question.stage:
            stages[-1][1].append(question.text)
        else:
            stages.append((question.stage, [question.text]))
    template = _environment().get_template(TEMPLATE_NAME)
    return template.render(
        data=data, items=items, stages=stages, csp=CONTENT_SECURITY_POLICY,
        clips={m.id: _clip_src(m) for m in data.moments},
        other_moments=[m for m in data.moments if m.id not in cited])


def write_packet(path: Path | str, data: PacketData) -> Path:
    """Render and write the packet atomically (ExportError on failure)."""
    return atomic_write_text(path, render_packet(data))
