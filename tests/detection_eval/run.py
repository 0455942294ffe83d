"""Measure the moment finder on a labelled set (format: /work/evaldata/detection-format.md).

Each call is NAME.vtt (a Zoom-style WebVTT, cue ids 1, 2, 3...) and NAME.truth.json
({"rep": "Name", "labels": {"3": ["rep_question_open"], ...}}). Every call goes through the
app's own path, into a temporary store: a call is added (a tiny silent recording stands in for
the media), the VTT imported with the app's importer, the rep set as `callmark transcript
set-rep` sets it, and the suggestions read as the app reads them.

Scoring: a finding of label L is correct when its time overlaps a line labelled L; a labelled
(line, L) is found when some finding of L overlaps it.
"""

from __future__ import annotations

import json
import re
import tempfile
import wave
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from desktop.core.detect import GROUP_A, GROUP_B, LABELS

GOALS = {"A": (0.85, 0.85), "B": (0.75, 0.70)}
_TIMING = re.compile(r"(\d+):(\d\d):(\d\d)[.,](\d{3})\s*-->\s*(\d+):(\d\d):(\d\d)[.,](\d{3})")


class LabelledSetError(Exception):
    """A labelled set that cannot be read; the message names the file."""


@dataclass
class Tally:
    findings: int = 0  # findings of this label
    correct: int = 0  # of them, overlapping a line labelled so
    truth: int = 0  # labelled (line, label) pairs
    found: int = 0  # of them, overlapped by a finding of that label

    def add(self, other: Tally) -> None:
        self.findings += other.findings
        self.correct += other.correct
        self.truth += other.truth
        self.found += other.found

    @property
    def precision(self) -> float | None:
        return self.correct / self.findings if self.findings else None

    @property
    def recall(self) -> float | None:
        return self.found / self.truth if self.truth else None

    def to_json(self) -> dict:
        return {"findings": self.findings, "correct": self.correct, "truth": self.truth, "found": self.found,
                "precision": self.precision, "recall": self.recall}


@dataclass
class CallResult:
    name: str
    tallies: dict[str, Tally]
    misses: list[tuple[str, int, str]] = field(default_factory=list)  # (label, cue, text)
    false_alarms: list[tuple[str, int, str]] = field(default_factory=list)  # (label, cue or 0, quote)


def read_cues(path: Path) -> dict[int, tuple[int, int, str]]:
    """Cue id -> (start_ms, end_ms, text) as the file states them."""
    blocks = re.split(r"\n\s*\n", path.read_text(encoding="utf-8-sig").replace("\r\n", "\n"))
    cues = {}
    for block in blocks:
        rows = [r for r in block.strip().split("\n") if r.strip()]
        if len(rows) >= 2 and rows[0].strip().isdigit() and (m := _TIMING.search(rows[1])):
            h1, m1, s1, f1, h2, m2, s2, f2 = map(int, m.groups())
            cues[int(rows[0])] = ((h1 * 3600 + m1 * 60 + s1) * 1000 + f1, (h2 * 3600 + m2 * 60 + s2) * 1000 + f2,
                                  " ".join(rows[2:]))
    return cues


def _silent_wav(path: Path, salt: int) -> Path:
    """A 0.1 s recording, different for every call (the library knows a call by its media's hash)."""
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(8000)
        frames = bytearray(1600)
        frames[0:4] = salt.to_bytes(4, "little")
        out.writeframes(bytes(frames))
    return path


def calls_in(folder: Path) -> list[tuple[str, Path, Path]]:
    pairs = []
    for vtt in sorted(folder.glob("*.vtt")):
        truth = vtt.with_name(vtt.stem + ".truth.json")
        if not truth.exists():
            raise LabelledSetError(f"{truth}: missing (every NAME.vtt needs its NAME.truth.json)")
        pairs.append((vtt.stem, vtt, truth))
    if not pairs:
        raise LabelledSetError(f"{folder}: no NAME.vtt files")
    return pairs


def score_call(store, name: str, vtt: Path, truth_path: Path, media: Path) -> CallResult:
    from desktop.services import calls, suggestions, transcript_io, transcripts

    truth = json.loads(truth_path.read_text(encoding="utf-8"))
    unknown = {lab for labs in truth["labels"].values() for lab in labs} - set(LABELS)
    if unknown:
        raise LabelledSetError(f"{truth_path}: unknown label(s) {', '.join(sorted(unknown))}")
    cues = read_cues(vtt)
    call, _ = calls.add_call(store, media, title=name)
    transcript_io.import_transcript(store, call.id, vtt)
    transcripts.set_rep_speaker(store, call.id, truth["rep"])
    findings = [(f.label, f.start_ms, f.end_ms, f.quote) for f in
                (s.finding for s in suggestions.suggestions(store, call.id))]
    return _score(name, cues, truth, findings)


def _score(name: str, cues: dict[int, tuple[int, int, str]], truth: dict,
           findings: list[tuple[str, int, int, str]]) -> CallResult:
    """findings: (label, start_ms, end_ms, quote), scored against the truth's labelled lines."""
    labelled = {(int(cue), lab) for cue, labs in truth["labels"].items() for lab in labs}
    tallies = {lab: Tally() for lab in LABELS}
    result = CallResult(name, tallies)

    def overlapping(start: int, end: int) -> list[int]:
        return [cid for cid, (s, e, _t) in cues.items() if start < e and end > s]

    hit: set[tuple[int, str]] = set()
    for label, start_ms, end_ms, quote in findings:
        t = tallies[label]
        t.findings += 1
        under = overlapping(start_ms, end_ms)
        good = [cid for cid in under if (cid, label) in labelled]
        if good:
            t.correct += 1
            hit.update((cid, label) for cid in good)
        else:
            result.false_alarms.append((label, under[0] if under else 0, quote))
    for cid, lab in sorted(labelled):
        tallies[lab].truth += 1
        if (cid, lab) in hit:
            tallies[lab].found += 1
        else:
            result.misses.append((lab, cid, cues.get(cid, (0, 0, "?"))[2]))
    return result


def agreement(folder: Path, other: Path) -> list[CallResult]:
    """A second coach's labels of the same calls, scored as if they were the finder's findings: how far
    two careful people agree is the most a finder can be asked to agree with either."""
    results = []
    for name, vtt, truth_path in calls_in(folder):
        second = other / truth_path.name
        if not second.exists():
            raise LabelledSetError(f"{second}: missing (the second coach's labels of {name})")
        cues = read_cues(vtt)
        truth = json.loads(truth_path.read_text(encoding="utf-8"))
        theirs = json.loads(second.read_text(encoding="utf-8"))
        findings = [(lab, *cues[int(cue)][:2], cues[int(cue)][2]) for cue, labs in theirs["labels"].items()
                    for lab in labs if int(cue) in cues]
        results.append(_score(name, cues, truth, findings))
    return results


def evaluate(folder: Path) -> list[CallResult]:
    from db.store import open_store

    pairs = calls_in(folder)
    with tempfile.TemporaryDirectory(prefix="callmark-eval-") as tmp:
        store = open_store(Path(tmp) / "callmark.sqlite3")
        try:
            return [score_call(store, name, vtt, truth, _silent_wav(Path(tmp) / f"{i}.wav", i))
                    for i, (name, vtt, truth) in enumerate(pairs, start=1)]
        finally:
            store.close()


def summary(results: Iterable[CallResult]) -> dict:
    results = list(results)
    labels = {lab: Tally() for lab in LABELS}
    for r in results:
        for lab, t in r.tallies.items():
            labels[lab].add(t)
    groups = {}
    for group, members in (("A", GROUP_A), ("B", GROUP_B)):
        total = Tally()
        for lab in members:
            total.add(labels[lab])
        groups[group] = total
    return {"calls": len(results), "labels": labels, "groups": groups}


def report(results: list[CallResult], *, errors: bool = False) -> str:
    s = summary(results)
    out = [f"{s['calls']} calls", "",
           f"{'label':<22} {'truth':>5} {'found':>5} {'findings':>8} {'correct':>7} {'precision':>9} {'recall':>6}"]

    def row(name: str, t: Tally) -> str:
        p = "—" if t.precision is None else f"{t.precision:.2f}"
        r = "—" if t.recall is None else f"{t.recall:.2f}"
        return f"{name:<22} {t.truth:>5} {t.found:>5} {t.findings:>8} {t.correct:>7} {p:>9} {r:>6}"

    out += [row(lab, t) for lab, t in s["labels"].items()]
    out.append("")
    for group, t in s["groups"].items():
        goal_p, goal_r = GOALS[group]
        met = (t.precision or 0) >= goal_p and (t.recall or 0) >= goal_r
        out.append(row(f"group {group}", t) + f"   goal P>={goal_p} R>={goal_r}: {'met' if met else 'not met'}")
    if errors:
        for r in results:
            if r.misses or r.false_alarms:
                out.append(f"\n{r.name}")
                out += [f"  missed      {lab:<21} cue {cid}: {text}" for lab, cid, text in r.misses]
                out += [f"  false alarm {lab:<21} cue {cid}: {text}" for lab, cid, text in r.false_alarms]
    return "\n".join(out)


def to_json(results: list[CallResult]) -> dict:
    s = summary(results)
    return {"calls": s["calls"], "labels": {k: v.to_json() for k, v in s["labels"].items()},
            "groups": {k: v.to_json() for k, v in s["groups"].items()},
            "false_alarms": dict(Counter(lab for r in results for lab, _c, _q in r.false_alarms))}
