"""Suggestions in the real window: the lane on the waveform, the list, the keys, accept and dismiss with undo."""

from __future__ import annotations

import pytest

from desktop.services import calls, moments, suggestions, transcript_io
from desktop.ui.actions import ActionId
from desktop.ui.widgets.waveform import SUGGESTION_PX
from tests.conftest import make_tone
from tests.services.demo_script import write_script_vtt


@pytest.fixture
def demo(store, demo_media, tmp_path):
    call, _ = calls.add_call(store, demo_media, title="Discovery - Acme Logistics (demo)", rep="Riley Rep",
                             manager="Morgan Manager")
    transcript_io.import_transcript(store, call.id, write_script_vtt(tmp_path / "acme.vtt"))
    return call.id


def _open(qtbot, window, call_id):
    window.open_call(call_id)
    qtbot.waitUntil(lambda: window.suggestions.model.rowCount() > 0, timeout=5000)
    return window.suggestions


def test_the_list_and_the_lane_show_the_demo_calls_suggestions(qtbot, window, store, demo):
    ctl = _open(qtbot, window, demo)
    shown = [ctl.model.suggestion(r).finding for r in range(ctl.model.rowCount())]
    deferral = next(f for f in shown if f.label == "deferral" and "send me some information" in f.quote.lower())
    assert [f.start_ms for f in shown] == sorted(f.start_ms for f in shown)  # in time order
    row = ctl.model.row_of(deferral.id)
    assert "deferral" in ctl.model.index(row, 1).data() and deferral.reason == ctl.model.index(row, 3).data()
    assert " open of " in window.view.suggestions.title.text().replace("\u00a0", " ")
    # On the waveform: a lane of marks coloured by family, along the foot of the wave.
    marks = window.view.waveform.suggestions_shown()
    assert len(marks) == len(shown) and {m.family for m in marks} >= {"questions", "stalls and next steps"}
    window.view.waveform.resize(1200, 104)
    image = window.view.waveform.grab().toImage()
    lane = window.view.waveform.suggestion_lane()
    x = int(window.view.waveform._x((deferral.start_ms + deferral.end_ms) / 2))
    colour = image.pixelColor(x, int(lane.center().y()))
    assert colour.red() > 150 and colour.green() < 80, colour.name()  # the stalls' red, not the wave's grey
    assert lane.height() == SUGGESTION_PX
    # Filtered to one family.
    family = window.view.suggestions.family
    family.setCurrentIndex(family.findData("stalls and next steps"))
    assert {ctl.model.suggestion(r).finding.family for r in range(ctl.model.rowCount())} == {"stalls and next steps"}


def test_keys_step_accept_and_dismiss_and_undo_takes_them_back(qtbot, window, store, demo):
    ctl = _open(qtbot, window, demo)
    window.registry[ActionId.NEXT_SUGGESTION].trigger()
    picked = ctl.current()
    assert picked is not None
    window.registry[ActionId.ACCEPT_SUGGESTION].trigger()
    made = [m for m in moments.list_moments(store, demo) if m.start_ms == picked.finding.start_ms]
    assert len(made) == 1 and made[0].kind == picked.finding.kind and picked.finding.reason in made[0].note
    assert window.moments_model.get(made[0].id) is not None  # in the moments list at once
    qtbot.waitUntil(lambda: next(s for s in ctl.model.all() if s.finding.id == picked.finding.id).verdict
                    == "accepted", timeout=5000)
    window.registry[ActionId.UNDO].trigger()
    assert moments.list_moments(store, demo) == [] and window.moments_model.rowCount() == 0
    qtbot.waitUntil(lambda: next(s for s in ctl.model.all() if s.finding.id == picked.finding.id).verdict
                    is None, timeout=5000)
    # Dismiss another, then see each label's record.
    window.view.suggestions.select(picked.finding.id)
    window.registry[ActionId.DISMISS_SUGGESTION].trigger()
    tallies = {t.label: (t.accepted, t.dismissed) for t in suggestions.label_precision(store)}
    assert tallies[picked.finding.label] == (0, 1)
    qtbot.waitUntil(lambda: picked.finding.label in window.view.suggestions.record.text(), timeout=5000)
    assert "1 dismissed" in window.view.suggestions.record.text()
    # Dismissed ones leave the lane.
    qtbot.waitUntil(lambda: len(window.view.waveform.suggestions_shown()) == ctl.model.rowCount() - 1,
                    timeout=5000)


def test_stepping_reaches_every_suggestion_even_two_on_one_line(qtbot, window, store, demo):
    ctl = _open(qtbot, window, demo)
    everything = [s.finding.id for s in ctl.model.all() if s.verdict is None]
    starts = [s.finding.start_ms for s in ctl.model.all()]
    assert len(set(starts)) < len(starts)  # the demo's finance director line is an objection, a buyer and a process
    seen = []
    for _ in everything:
        window.registry[ActionId.NEXT_SUGGESTION].trigger()
        seen.append(ctl.current().finding.id)
    assert seen == everything  # each once, in the list's order
    window.registry[ActionId.PREVIOUS_SUGGESTION].trigger()
    assert ctl.current().finding.id == everything[-2]


def test_a_call_without_roles_says_why_it_has_no_suggestions(qtbot, window, store, demo_media, tmp_path):
    call, _ = calls.add_call(store, demo_media, title="Nobody named")
    window.open_call(call.id)
    panel = window.view.suggestions
    qtbot.waitUntil(lambda: "none:" in panel.title.text(), timeout=5000)
    assert "no transcript" in panel.title.text()


def test_a_transcript_arriving_on_the_open_call_brings_its_suggestions(qtbot, window, store, demo_media, tmp_path):
    from desktop.ui.transcription import install_transcription

    call, _ = calls.add_call(store, demo_media, title="Discovery", rep="Riley Rep")
    window.open_call(call.id)
    qtbot.waitUntil(lambda: "no transcript" in window.view.suggestions.title.text(), timeout=5000)
    install_transcription(window).import_file(write_script_vtt(tmp_path / "acme.vtt"))
    qtbot.waitUntil(lambda: window.suggestions.model.rowCount() > 0, timeout=5000)  # no reopening needed
    assert " open of " in window.view.suggestions.title.text().replace("\u00a0", " ")


def test_the_call_tab_shows_the_conversation_figures_and_says_why_one_is_missing(qtbot, window, store, demo,
                                                                                 demo_media, tmp_path):
    from desktop.services import suggestions as service

    _open(qtbot, window, demo)
    info = window.view.call_info
    figures = service.call_figures(store, demo).values
    qtbot.waitUntil(lambda: info.figure("Rep talk share") is not None, timeout=5000)
    assert info.figure("Rep talk share") == f"{figures['rep_talk_share']:.0%}"
    assert info.figure("Open questions") == str(figures["rep_questions_open"])
    # A call whose speakers have no roles: the figures that need them say "—", with the reason.
    other, _ = calls.add_call(store, make_tone(tmp_path / "other.wav", seconds=4), title="No roles")
    transcript_io.import_transcript(store, other.id, write_script_vtt(tmp_path / "other.vtt"))
    window.open_call(other.id)
    qtbot.waitUntil(lambda: info.figure("Rep talk share") == "—", timeout=5000)
    assert info._figure_values["Rep talk share"].toolTip()  # the reason, on hover
