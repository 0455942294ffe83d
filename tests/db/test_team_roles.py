"""Blind review kept by the server: two real coach roles and a manager role on one team store."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import text

from db.server import Refused, open_server_store
from desktop.errors import NotFound
from desktop.services import calibration, calls, items, moments, team
from tests.conftest import make_tone, run_cli


def _as(url: str, role: str) -> str:
    return url.replace("callmark_admin@", f"{role}@", 1)


@pytest.fixture
def team_store(pg_store_url, tmp_path):
    """The owner's store with one call, and coaches sam and alex and manager morgan added."""
    owner = open_server_store(pg_store_url)
    for name in ("sam", "alex"):
        team.add_coach(owner, name)
    team.add_coach(owner, "morgan", manager=True)
    call, _ = calls.add_call(owner, make_tone(tmp_path / "call.wav", 20.0), title="Discovery - Globex")
    stores = {"owner": owner}
    for role in ("sam", "alex", "morgan"):
        stores[role] = open_server_store(_as(pg_store_url, role))
    yield stores, call.id
    for store in stores.values():
        store.close()


def _visible(store, call_id):
    return sorted((m.coach, m.start_ms) for m in moments.list_moments(store, call_id, include_imported=True))


def test_a_coach_sees_only_their_own_marks_until_they_share(team_store):
    stores, call = team_store
    sam, alex, morgan = stores["sam"], stores["alex"], stores["morgan"]
    first = moments.add_moment(sam, call, 1000, 3000, kind="question", note="sam's note")
    moments.add_moment(sam, call, 8000, 9000, kind="missed_intervention")
    item = items.create_item(sam, [first.id], behavior_text="Ask who signs off before the demo")
    moments.add_moment(alex, call, 1200, 2500, kind="question")

    assert first.coach == "sam"  # the role is the coach
    assert _visible(sam, call) == [("sam", 1000), ("sam", 8000)]
    assert _visible(alex, call) == [("alex", 1200)]
    assert _visible(morgan, call) == []
    assert items.list_items(alex) == [] and items.list_items(morgan) == []
    assert calibration.other_coaches(alex, call) == []
    with pytest.raises(NotFound):  # not even its id gives it away
        moments.get_moment(alex, first.id)

    shared = team.share_call(sam, call)
    assert (shared.moments, shared.items) == (2, 1)
    assert _visible(alex, call) == [("alex", 1200), ("sam", 1000), ("sam", 8000)]
    assert _visible(morgan, call) == [("sam", 1000), ("sam", 8000)]  # the manager: only what was shared
    assert [i.id for i in items.list_items(morgan)] == [item.id]
    assert calibration.other_coaches(alex, call) == ["sam"]
    # The workspace and the library still show each coach their own marks only.
    assert [m.coach for m in moments.list_moments(alex, call)] == ["alex"]
    assert calls.get_call(alex, call).moment_count == 1 and calls.get_call(sam, call).moment_count == 2


def test_nobody_changes_another_coachs_rows(team_store):
    stores, call = team_store
    sam, alex, morgan = stores["sam"], stores["alex"], stores["morgan"]
    mark = moments.add_moment(sam, call, 1000, 3000, kind="question", note="sam's note")
    item = items.create_item(sam, [mark.id], behavior_text="Ask who signs off before the demo")
    team.share_call(sam, call)
    with alex.write() as s:  # the server filters what alex may change: nothing of sam's
        assert s.execute(text("UPDATE moment SET note = 'alex was here'")).rowcount == 0
        assert s.execute(text("DELETE FROM coaching_item")).rowcount == 0
    with pytest.raises(Refused, match="row-level security"):
        with alex.write() as s:
            s.execute(text("INSERT INTO moment (uid, call_id, start_ms, end_ms, kind, quote, imported, created_at, "
                           "updated_at, owner_role) VALUES ('x', :c, 0, 1, 'other', '', false, now(), now(), 'sam')"),
                      {"c": call})
    with pytest.raises(Refused, match="permission denied"):
        with morgan.write() as s:
            s.execute(text("UPDATE call SET title = 'renamed'"))
    with pytest.raises(Refused, match="only the coach who made it can change it"):
        moments.update_moment(alex, mark.id, note="alex was here")
    with pytest.raises(Refused, match="only the coach who made it"):
        items.update_item(alex, item.id, behavior_text="alex's words")
    assert moments.get_moment(sam, mark.id).note == "sam's note"
    assert items.get_item(sam, item.id).behavior_text == "Ask who signs off before the demo"


def test_two_coaches_calibrate_on_their_shared_marks(team_store):
    stores, call = team_store
    sam, alex = stores["sam"], stores["alex"]
    moments.add_moment(sam, call, 1000, 3000, kind="question")
    moments.add_moment(sam, call, 8000, 9000, kind="missed_intervention")
    moments.add_moment(alex, call, 1200, 2500, kind="question")
    with pytest.raises(team.TeamError, match="share your marks first"):
        team.compare_shared(alex, call, "sam")
    team.share_call(alex, call)
    with pytest.raises(team.TeamError, match="sam has shared no marks"):
        team.compare_shared(alex, call, "sam")
    team.share_call(sam, call)
    view = team.compare_shared(alex, call, "sam")
    figures = view.figures()
    assert (figures["matched"], figures["mine"], figures["theirs"]) == (1, 1, 2)
    assert len(figures["only_theirs"]) == 1 and figures["only_mine"] == []


def test_team_commands_on_the_command_line(pg_store_url, tmp_path):
    made = run_cli("team", "init", pg_store_url, "--json", check=True)
    assert json.loads(made.stdout)["role"] == "callmark_admin"
    added = run_cli("--store", pg_store_url, "team", "add-coach", "dana", check=True)
    assert "coach dana can log in" in added.stdout
    dana = _as(pg_store_url, "dana")
    refused = run_cli("--store", dana, "team", "add-coach", "eve")
    assert refused.returncode == 1 and "only the team store's owner can add coaches" in refused.stderr
    bad = run_cli("--store", pg_store_url, "team", "add-coach", "Robert'); DROP")
    assert bad.returncode == 1 and "lower-case letters" in bad.stderr
    local = run_cli("team", "share", "1")
    assert local.returncode == 1 and "is for a team store" in local.stderr


def test_a_coach_copies_their_own_library_in_and_it_stays_theirs(pg_store_url, tmp_path):
    from db.store import open_store
    from desktop.services.store_copy import copy_store

    owner = open_server_store(pg_store_url)
    team.add_coach(owner, "sam")
    team.add_coach(owner, "alex")
    owner.close()
    local = open_store(tmp_path / "sam.sqlite3")
    call, _ = calls.add_call(local, make_tone(tmp_path / "call.wav", 12.0), title="Sam's call")
    moments.add_moment(local, call.id, 1000, 2000, kind="question", note="from my laptop")
    sam, alex = open_server_store(_as(pg_store_url, "sam")), open_server_store(_as(pg_store_url, "alex"))
    try:
        report = copy_store(local, sam)
        assert {t.table: t.added for t in report.tables}["moment"] == 1
        assert [m.note for m in moments.list_moments(sam, call.id)] == ["from my laptop"]
        assert [c.title for c in calls.list_calls(alex)] == ["Sam's call"]  # the library is the team's
        assert _visible(alex, call.id) == []  # the marks are sam's until sam shares them
        assert moments.add_moment(sam, call.id, 3000, 4000).id == 2  # new rows after the copied ids
    finally:
        local.close()
        sam.close()
        alex.close()
