"""`callmark packet` through the real command."""

from __future__ import annotations

import json
from html.parser import HTMLParser

import pytest

from db.store import open_store
from desktop import paths
from tests.conftest import run_cli
from tests.services.packet_setup import hostile_lines, make_samples


@pytest.fixture
def demo_home(tmp_path):
    home = tmp_path / "home"
    store = open_store(paths.store_path(paths.data_home(home)))
    try:
        ids = make_samples.demo_library(store, hostile_lines())
    finally:
        store.close()
    return home, ids


@pytest.mark.slow
def test_packet_html_and_pdf(demo_home, tmp_path):
    home, ids = demo_home
    html, pdf = tmp_path / "packet.html", tmp_path / "packet.pdf"
    result = run_cli("packet", str(ids["call"]), "-o", str(html), "--pdf", str(pdf), "--json", home=home,
                     check=True)
    report = json.loads(result.stdout)
    assert report["items"] == 1 and report["clips"] == 3 and report["redacted"]
    assert {r["kind"] for r in report["redactions"]} == {"email", "phone"}
    text = html.read_text("utf-8")
    found: list[str] = []

    class Tags(HTMLParser):
        def handle_starttag(self, tag, attrs):
            found.append(tag)

    Tags().feed(text)
    assert "script" not in found and found.count("audio") == 3
    assert pdf.read_bytes().startswith(b"%PDF")


def test_packet_refusals_write_nothing(demo_home, tmp_path):
    home, ids = demo_home
    out = tmp_path / "x.html"
    nobody = run_cli("packet", str(ids["call"]), "--coach", "Nobody", "-o", str(out), home=home)
    assert nobody.returncode == 1 and "no coach of that name" in nobody.stderr and not out.exists()
    neither = run_cli("packet", "-o", str(out), home=home)
    assert neither.returncode == 1 and "name a call" in neither.stderr and not out.exists()
    missing = run_cli("packet", str(ids["call"]), "--no-clips", "-o", str(tmp_path / "no" / "x.html"), home=home)
    assert missing.returncode == 1 and "the folder does not exist" in missing.stderr
