"""The session packet: one self-contained HTML file that escapes everything and loads nothing."""

from __future__ import annotations

import base64
import io
import re
from datetime import date
from html.parser import HTMLParser
from pathlib import Path

import av
import numpy as np
import pytest

from desktop.core.enums import BehaviorChange, MomentKind, PracticeKind, Severity
from desktop.exchange.packet import (CONTENT_SECURITY_POLICY, TEMPLATE_DIR, PacketData, PacketFinding,
                                     PacketItem, PacketMoment, PacketQuestion, clock, render_packet,
                                     write_packet)
from desktop.exchange.redact import redact
from desktop.media.clips import CLIP_MIME_TYPE, cut_clip

HOSTILE = ['<script>alert(1)</script>', '"onerror=alert(1) x="', "</style><script>alert(2)</script>",
           "<img src=x onerror=alert(3)>", "javascript:alert(4)", "{{ 7*7 }}", "';alert(5)//"]


class _Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_startendtag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data):
        self.text.append(data)


def _parse(html: str) -> _Collector:
    collector = _Collector()
    collector.feed(html)
    collector.close()
    return collector


@pytest.fixture(scope="module")
def clip(tmp_path_factory) -> bytes:
    path = tmp_path_factory.mktemp("packet") / "tone.wav"
    rate = 16000
    tone = (0.4 * np.sin(2 * np.pi * 330 * np.arange(rate * 6) / rate) * 32767).astype(np.int16)
    with av.open(str(path), "w", format="wav") as out:
        stream = out.add_stream("pcm_s16le", rate=rate, layout="mono")
        frame = av.AudioFrame.from_ndarray(tone.reshape(1, -1), format="s16", layout="mono")
        frame.sample_rate = rate
        for packet in stream.encode(frame):
            out.mux(packet)
        for packet in stream.encode(None):
            out.mux(packet)
    return cut_clip(path, 2000, 3000, context_ms=1000)


def _packet(clip: bytes | None, text: str = "Just send me some information.") -> PacketData:
    moments = [
        PacketMoment(id="m1", start_ms=39876, end_ms=44610, quote=text, speaker=f"Casey {text}",
                     kind=MomentKind.MISSED_INTERVENTION, note=f"note {text}", clip=clip, clip_mime=CLIP_MIME_TYPE),
        PacketMoment(id="m2", start_ms=3723000, end_ms=3725000, quote=f"parked {text}", clip=None),
    ]
    item = PacketItem(
        moment_ids=["m1"], consequence=f"consequence {text}", behavior_change=BehaviorChange.START,
        behavior=f"Ask what they will review {text}", practice_kind=PracticeKind.ROLE_PLAY,
        practice_task=f"Role-play it {text}", owner_does=f"Morgan {text}", owner_reviews="Dana Coach",
        next_evidence=f"Next two recordings {text}", due=date(2026, 12, 14), cadence=f"Weekly {text}",
        indicator=f"indicator {text}",
        findings=[PacketFinding("behavior", f"was vague {text}", Severity.ERROR, resolved=True),
                  PacketFinding("owner", f"no reviewer {text}", Severity.WARNING, suggestion=f"name one {text}")])
    return PacketData(call_title=f"Discovery {text}", coach=f"Dana {text}", manager=f"Morgan {text}",
                      session_date=date(2026, 12, 3), moments=moments, items=[item],
                      questions=[PacketQuestion("Goal", f"What do you want {text}?"),
                                 PacketQuestion("Goal", "What would good look like?"),
                                 PacketQuestion(f"Reality {text}", "What happened?")],
                      conversation_model="GROW", recorded_on=date(2026, 11, 20), redaction_count=2)


def test_hostile_text_is_escaped_everywhere_and_nothing_can_run(clip: bytes):
    for text in HOSTILE:
        html = render_packet(_packet(clip, text))
        parsed = _parse(html)
        tags = [tag for tag, _ in parsed.tags]
        assert "script" not in tags and "img" not in tags, text
        for tag, attrs in parsed.tags:
            assert not any(name.lower().startswith("on") for name in attrs), (tag, attrs)
            for name in ("src", "href", "action", "formaction", "data"):
                value = attrs.get(name)
                assert value is None or value.startswith("data:audio/"), (tag, name, value)
        assert html.count("<style>") == 1 and html.count("</style>") == 1
        assert "<script" not in html.lower()
        assert "http:" not in html and "https:" not in html
        # The text itself survives, escaped, for the manager to read.
        assert any(text in chunk for chunk in parsed.text), text


def test_user_text_is_never_evaluated_as_a_template():
    html = render_packet(_packet(None, "{{ 7*7 }} {% if true %}x{% endif %}"))
    assert "{{ 7*7 }} {% if true %}x{% endif %}" in html
    assert "49" not in html


def test_only_expected_elements_and_the_csp_meta(clip: bytes):
    html = render_packet(_packet(clip))
    parsed = _parse(html)
    allowed = {"html", "head", "meta", "title", "style", "body", "header", "p", "h1", "h2", "dl", "dt",
               "dd", "strong", "blockquote", "audio", "section", "article", "span", "div", "ul", "li",
               "ol", "footer"}
    assert {tag for tag, _ in parsed.tags} <= allowed
    csp = [attrs for tag, attrs in parsed.tags if tag == "meta" and attrs.get("http-equiv") == "Content-Security-Policy"]
    assert csp == [{"http-equiv": "Content-Security-Policy", "content": CONTENT_SECURITY_POLICY}]
    assert CONTENT_SECURITY_POLICY == ("default-src 'none'; style-src 'unsafe-inline'; media-src data:; "
                                       "img-src data:")
    assert "@import" not in html and "url(" not in html


def test_template_never_marks_text_safe():
    for template in TEMPLATE_DIR.glob("*.j2"):
        source = template.read_text(encoding="utf-8")
        assert not re.search(r"\|\s*safe\b", source), template
        assert "autoescape false" not in source.lower()
        assert "http:" not in source.replace("http-equiv", "") and "https:" not in source


def test_embedded_clip_decodes_back(clip: bytes):
    html = render_packet(_packet(clip))
    sources = [attrs["src"] for tag, attrs in _parse(html).tags if tag == "audio"]
    assert len(sources) == 1
    prefix = f"data:{CLIP_MIME_TYPE};base64,"
    assert sources[0].startswith(prefix)
    data = base64.b64decode(sources[0][len(prefix):])
    assert data == clip
    with av.open(io.BytesIO(data)) as container:
        stream = container.streams.audio[0]
        samples = sum(frame.samples for frame in container.decode(stream))
        assert abs(samples / stream.rate - 3.0) < 0.05


def test_packet_reads_like_the_method(clip: bytes):
    html = render_packet(_packet(clip))
    text = " ".join(" ".join(_parse(html).text).split())
    for words in ("Coaching session packet", "Thursday, 3 December 2026", "0:39–0:44",
                  "Missed intervention", "Still unknown", "One behavior", "Role play",
                  "Morgan Just send me some information. does it; Dana Coach reviews it",
                  "by Monday, 14 December 2026", "Questions for the session (GROW)",
                  "Made specific before this session", "Still to make specific",
                  "Other moments from this call", "1:02:03–1:02:05", "(2 replaced)"):
        assert words in text, words


def test_packet_without_clips_or_questions(tmp_path: Path):
    data = _packet(None)
    data = PacketData(**{**data.__dict__, "questions": [], "redacted": False})
    path = write_packet(tmp_path / "packet.html", data)
    html = path.read_text(encoding="utf-8")
    assert "<audio" not in html and "Questions for the session" not in html
    assert "may contain customers' personal details" in html


def test_redacted_quote_shows_placeholders():
    quote = redact("Call me on 415-555-0111 or mail casey@acme.com").text
    html = render_packet(_packet(None, quote))
    assert "Call me on [phone] or mail [email]" in html
    assert "415-555" not in html and "acme.com" not in html


def test_clock():
    assert clock(39876) == "0:39"
    assert clock(3723500) == "1:02:03"


def _in_chromium(path: Path) -> dict:
    import json
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "tests.exchange.browser_check", str(path)],
                          capture_output=True, text=True, timeout=120, cwd=Path(__file__).parents[2])
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.slow
def test_hostile_packet_runs_nothing_in_a_real_browser(tmp_path: Path, clip: bytes):
    # The check can see a script run: an unescaped page raises its alerts.
    unsafe = tmp_path / "unsafe.html"
    unsafe.write_text("<html><body><script>alert(1)</script><img src=x onerror=alert(2)></body></html>")
    control = _in_chromium(unsafe)
    assert sorted(control["alerts"]) == ["1", "2"]
    packet = tmp_path / "packet.html"
    write_packet(packet, _packet(clip, " ".join(HOSTILE)))
    seen = _in_chromium(packet)
    assert seen["alerts"] == []
    assert seen["scripts"] == 0 and seen["handlers"] == 0
    assert seen["audio"] == 1
    assert all(url.startswith(("data:", "file:")) for url in seen["requests"]), seen["requests"]


def test_findings_come_straight_from_the_specificity_check():
    from desktop.core.specificity import check_behavior

    findings = check_behavior("Improve pipeline discipline")
    assert findings
    packet_findings = [PacketFinding.from_finding(f, resolved=True) for f in findings]
    assert packet_findings[0].message == findings[0].message
    assert packet_findings[0].severity == findings[0].severity and packet_findings[0].resolved


def test_a_heading_never_ends_a_pdf_page_apart_from_its_text(qapp):
    from PySide6.QtCore import QSizeF
    from PySide6.QtGui import QTextDocument

    from desktop.ui.exchange.pdf import keep_headings_with_text

    def pages(n: int):
        doc = QTextDocument()
        doc.setPageSize(QSizeF(400, 600))
        doc.setHtml("".join(f"<p>Paragraph {i} of the coaching packet.</p>" for i in range(n))
                    + "<h2>2. Start: ask what they will review</h2><p>The consequence, the practice.</p>")
        return doc

    def apart(doc) -> bool:
        layout, page = doc.documentLayout(), doc.pageSize().height()
        block = doc.begin()
        while block.isValid():
            if block.blockFormat().headingLevel():
                return int(layout.blockBoundingRect(block).top() // page) != \
                    int(layout.blockBoundingRect(block.next()).top() // page)
            block = block.next()
        raise AssertionError("no heading")

    split = next(n for n in range(5, 80) if apart(pages(n)))  # a heading left at the foot of a page
    doc = pages(split)
    assert keep_headings_with_text(doc) == 1
    assert not apart(doc)
