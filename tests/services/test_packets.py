"""The session packet from the store: the demo call with hostile text, redaction, clips, the PDF."""

from __future__ import annotations

import io
import subprocess
from datetime import date
from html.parser import HTMLParser

import av
import pytest

from desktop.errors import CallmarkError
from desktop.services import moments, packets
from tests.services.packet_setup import HOSTILE, PII, hostile_lines, make_samples


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_startendtag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data):
        self.text.append(data)


def _parse(html: str) -> _Page:
    page = _Page()
    page.feed(html)
    page.close()
    return page


def _clip_seconds(data: bytes) -> float:
    with av.open(io.BytesIO(data)) as container:
        samples, rate = 0, 0
        for frame in container.decode(audio=0):
            samples += frame.samples
            rate = frame.sample_rate
    return samples / rate


@pytest.fixture
def hostile(store):
    ids = make_samples.demo_library(store, hostile_lines())
    return store, ids


def test_hostile_transcript_is_escaped_redacted_and_loads_nothing(hostile):
    store, ids = hostile
    build = packets.build_packet(store, ids["call"], today=date(2026, 12, 3))
    html = build.html()
    page = _parse(html)
    tags = {t for t, _ in page.tags}
    assert "script" not in tags and "b" not in tags
    assert not [a for _, attrs in page.tags for a in attrs if a.startswith("on")]
    assert "http:" not in html and "https:" not in html
    text = "".join(page.text)
    assert HOSTILE in text  # shown as text, exactly as said
    assert "casey.jones" not in html and "0142" not in html
    assert "at [email] or [phone]." in text
    assert sorted(r.kind.value for _, r in build.redactions) == ["email", "phone"]
    assert build.data.redaction_count == 2 and "2 replaced" in text


def test_clips_decode_with_context_and_redacted_line_is_muted(hostile):
    store, ids = hostile
    build = packets.build_packet(store, ids["call"])
    by_id = {m.id: m for m in build.data.moments}
    defer = moments.get_moment(store, ids["moment"])
    clip = by_id[defer.uid].clip
    assert clip and _clip_seconds(clip) == pytest.approx((defer.end_ms - defer.start_ms + 6000) / 1000, abs=0.1)
    # No word times in this transcript: the whole line with the email and phone is silenced.
    assert build.muted_ms[defer.uid] == [(defer.start_ms, defer.end_ms)]
    assert len([m for m in build.data.moments if m.clip]) == 3  # two cited, one parked


def test_without_redaction_the_packet_says_so(hostile):
    store, ids = hostile
    build = packets.build_packet(store, ids["call"], redact_pii=False, clips=False)
    text = "".join(_parse(build.html()).text)
    assert PII in text and "Not redacted" in text and build.redactions == []
    assert all(m.clip is None for m in build.data.moments)


def test_packet_holds_the_items_parts_and_the_questions(hostile):
    store, ids = hostile
    data = packets.build_packet(store, ids["call"], clips=False).data
    item = data.items[0]
    assert item.owner_does == "Morgan Manager" and item.due == date(2026, 12, 14)
    assert item.practice_task.startswith("Role-play") and item.findings == []
    assert [m.kind.value for m in data.moments] == ["missed_intervention", "next_step", "question"]
    assert data.conversation_model == "GROW" and data.questions[0].stage == "Goal"
    assert data.manager == "Morgan Manager" and data.coach == "Dana Coach"


def test_unknown_coach_is_refused(hostile):
    store, ids = hostile
    with pytest.raises(CallmarkError, match="no coach of that name"):
        packets.build_packet(store, ids["call"], coach="Nobody")


@pytest.mark.slow
def test_pdf_pages_render(hostile, tmp_path):
    from desktop.ui.exchange.pdf import write_pdf

    store, ids = hostile
    build = packets.build_packet(store, ids["call"])
    pdf = write_pdf(tmp_path / "packet.pdf", build.html())
    assert pdf.read_bytes().startswith(b"%PDF")
    subprocess.run(["pdftoppm", "-r", "40", "-png", str(pdf), str(tmp_path / "page")], check=True)
    pages = sorted(tmp_path.glob("page*.png"))
    assert len(pages) >= 1
    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    assert "When a customer asks for information" in text and "[email]" in text and "casey.jones" not in text
