"""The moment finder's whole pass over a 2-hour call of 3,000 lines.

detect_ms_2h: median wall time of the service's pass on a real store, forced to run (the cache is
cleared first): read the current transcript and the speakers' roles, fingerprint them, detect,
compute the conversation figures and write the cache. detect_core_ms_2h is the detection and the
figures alone, on lines already in memory. No baseline exists to take a ratio against, so
detect_cpu_ms_2h gives the pass's own processor time too: on a shared machine the wall time grows
with everyone else's load, the processor time much less. The lines
are real sentences (the demo script and the development set, round robin), so the rules fire as
often as on a real call. Quick: 5 runs instead of 15.
"""

from __future__ import annotations

import json
import statistics
import tempfile
import time
from pathlib import Path

from desktop import paths
from desktop.core.detect import Line, conversation_figures, detect, default_phrase_book

LINES = 3000
CALL_MS = 2 * 60 * 60 * 1000
DEV = Path(__file__).resolve().parent.parent / "detection_eval" / "dev"


def sentences() -> list[tuple[str, str]]:
    """(role, text) of every line the project has written: the demo script and the development set."""
    out = [(ln["role"], ln["text"]) for ln in json.loads(paths.DEMO_SCRIPT.read_text())["lines"]]
    from tests.detection_eval.run import read_cues

    for vtt in sorted(DEV.glob("*.vtt")):
        rep = json.loads(vtt.with_name(vtt.stem + ".truth.json").read_text())["rep"]
        for _s, _e, text in read_cues(vtt).values():
            who, _, said = text.partition(": ")
            out.append(("rep" if who == rep else "customer", said))
    return out


def two_hour_call() -> list[Line]:
    pool = sentences()
    step = CALL_MS // LINES
    return [Line(i * step, i * step + step - 300, "Riley Rep" if pool[i % len(pool)][0] == "rep" else "Casey",
                 pool[i % len(pool)][1]) for i in range(LINES)]


def _median_ms(fn, runs: int, clock=time.perf_counter, before=None) -> float:
    times = []
    for _ in range(runs):
        if before is not None:
            before()  # not timed
        started = clock()
        fn()
        times.append((clock() - started) * 1000)
    return statistics.median(times)


def run(quick: bool) -> dict[str, float]:
    from db.store import open_store
    from desktop.services import calls, suggestions, transcripts
    from desktop.transcription.segments import Segment

    runs = 5 if quick else 15
    lines = two_hour_call()
    roles = {"Riley Rep": "rep", "Casey": "customer"}
    book = default_phrase_book()
    core = _median_ms(lambda: conversation_figures(lines, roles, detect(lines, roles, book)), runs)
    with tempfile.TemporaryDirectory() as tmp:
        store = open_store(Path(tmp) / "callmark.sqlite3")
        try:
            media = Path(tmp) / "call.wav"
            from tests.detection_eval.run import _silent_wav

            call, _ = calls.add_call(store, _silent_wav(media, 1), title="two hours", rep="Riley Rep")
            transcripts.save_transcript(store, call.id, [Segment(ln.start_ms, ln.end_ms, ln.speaker, ln.text)
                                                         for ln in lines], origin="import")
            found = len(suggestions.refresh(store, call.id).findings)

            def forget():  # the cache is cleared before each run, so the pass must run
                from sqlalchemy import text

                with store.write() as session:
                    session.execute(text("DELETE FROM suggestion_cache"))

            def whole_pass():
                assert suggestions.refresh(store, call.id).ran

            whole = _median_ms(whole_pass, runs, before=forget)
            whole_cpu = _median_ms(whole_pass, runs, time.process_time, before=forget)
            unchanged = _median_ms(lambda: suggestions.refresh(store, call.id), runs)
        finally:
            store.close()
    return {"detect_ms_2h": round(whole, 1), "detect_cpu_ms_2h": round(whole_cpu, 1),
            "detect_core_ms_2h": round(core, 1),
            "detect_unchanged_ms_2h": round(unchanged, 1), "detect_findings_2h": found}
