"""The team store on a real PostgreSQL server: chosen by URL, the same schema, the same search results."""

from __future__ import annotations

import json
import random

from db.models import Call, Segment, Transcript
from db.server import open_server_store
from db.store import head_revision, open_store
from desktop.core.enums import TranscriptOrigin
from desktop.services import search
from tests.conftest import run_cli

VOCABULARY = (
    "budget owner Dana signs off the spend next step Tuesday café naïve Zürich résumé über "
    "follow-up e-mail don't we'll 3.5 million Q3 2027 rollout pilot decision_process champion "
    "MEDDICC SPICED pain price objection renewal Straße procurement légal sign-off ROI 40% "
    "Müller façade coöperate timeline security review send information deck"
).split()
QUERIES = [
    "budget", "budget owner", "bud", "next step", "cafe", "café", "Zurich", "zür", "resume", "uber",
    "follow", "follow up", "follow-up", "e mail", "don", "don t", "we ll", "3", "3 5", "5 million", "q3",
    "decision_process", "decision", "meddicc", "strasse", "straße", "legal", "sign off", "roi 40",
    "muller", "facade", "cooperate", "s", "security rev", "nothingmatches", "send inform", "pilot Tues",
]


def _fill(store, seed: int = 7) -> None:
    rng = random.Random(seed)
    with store.write() as s:
        for n in range(12):
            call = Call(title=f"Call {n}", media_sha256=f"{n:064x}", duration_ms=600_000, has_video=False)
            s.add(call)
            s.flush()
            for version in range(2 if n % 4 == 0 else 1):  # some calls with an earlier transcript version
                tr = Transcript(call_id=call.id, origin=TranscriptOrigin.IMPORT, is_current=version == 1 or n % 4 != 0)
                s.add(tr)
                s.flush()
                for i in range(40):
                    words = rng.choices(VOCABULARY, k=rng.randint(3, 14))
                    punct = rng.choice(["", ".", "?", "!", ",", " —"])
                    s.add(Segment(transcript_id=tr.id, start_ms=rng.randint(0, 590_000), end_ms=599_000,
                                  speaker=rng.choice(["Rep", "Customer", None]), text=" ".join(words) + punct))


def _lines(store, query: str, limit: int = 200):
    return [(h.call_title, h.start_ms, h.speaker, h.text) for h in search.search(store, query, limit=limit)]


def test_search_on_the_team_store_returns_the_lines_fts5_returns(tmp_path, pg_store_url):
    local = open_store(tmp_path / "local.sqlite3")
    team = open_server_store(pg_store_url)
    try:
        _fill(local)
        _fill(team)
        found_any = 0
        for query in QUERIES:
            for limit in (200, 7):
                expected = _lines(local, query, limit)
                assert _lines(team, query, limit) == expected, (query, limit)
                found_any += bool(expected)
        assert found_any >= len(QUERIES) * 2 - 4  # the comparison is over real hits, not empty lists
        assert _lines(team, "nothingmatches") == [] and _lines(team, "  ") == []
    finally:
        local.close()
        team.close()


def test_the_search_index_follows_edits_on_the_server(pg_store_url):
    team = open_server_store(pg_store_url)
    try:
        _fill(team, seed=3)
        with team.write() as s:
            line = s.query(Segment).order_by(Segment.id.desc()).first()
            line.text = "an entirely xylophonic sentence"
        assert [h.text for h in search.search(team, "xylophon")] == ["an entirely xylophonic sentence"]
        with team.write() as s:
            s.delete(s.get(Segment, line.id))
        assert search.search(team, "xylophon") == []
    finally:
        team.close()


def test_the_cli_works_on_a_team_store_chosen_by_flag_or_environment(pg_store_url, tmp_path, monkeypatch):
    added = run_cli("--store", pg_store_url, "calls", "add", str(tmp_path / "missing.wav"))
    assert added.returncode == 1 and "missing.wav" in added.stderr  # the usual one-line error, on the team store
    checked = run_cli("db", "check", "--json", "--store", pg_store_url, check=True)
    report = json.loads(checked.stdout)
    assert report["ok"] is True and report["schema"] == head_revision()
    assert report["path"].startswith("postgresql://callmark_admin@")
    monkeypatch.setenv("CALLMARK_STORE", pg_store_url)
    listed = run_cli("calls", "list", "--json", check=True)
    assert json.loads(listed.stdout) == []
    assert not (tmp_path / "home" / "callmark.sqlite3").exists()  # the local file was not made


def test_a_server_that_is_not_there_is_named_in_one_line(tmp_path):
    url = f"postgresql://coach@/callmark?host={tmp_path}/no-server-here"
    result = run_cli("--store", url, "calls", "list")
    assert result.returncode == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(f"callmark: postgresql://coach@{tmp_path}/no-server-here/callmark: "
                               "the team store can't be reached")


def test_a_database_of_something_else_is_left_untouched(pg_server):
    pg_server.admin_sql("CREATE DATABASE not_callmark")
    pg_server.admin_sql("CREATE TABLE invoices (id int)", database="not_callmark")
    result = run_cli("--store", pg_server.url("not_callmark"), "calls", "list")
    assert result.returncode == 1 and "holds other tables, not a Callmark store" in result.stderr
    pg_server.admin_sql("DROP DATABASE not_callmark WITH (FORCE)")
