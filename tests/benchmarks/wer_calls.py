"""Recordings with known words, for word error rate: calls of the development set spoken by espeak-ng.

One recording (the demo call) is too few words to tell two ways of transcribing apart: 347 words,
where eight more errors move the rate by two points. These are eight more calls, each spoken line
by line in two voices (rep and customer) with the pauses of a real turn, 16 kHz mono, made once and
cached beside the other benchmark recordings. The reference is the calls' own text.

The words are compared as a transcript reader would: case, punctuation and fillers aside, and a
number the same whether written "twenty five thousand" or "25,000".
"""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import tempfile
from pathlib import Path

from desktop import paths
from tests.benchmarks.bench_transcribe import _cache_dir

DEV = Path(__file__).resolve().parent.parent / "detection_eval" / "dev"
CALLS = 24
VOICES = {"rep": ("en-us+m3", "42", "160"), "customer": ("en-gb+f3", "60", "150")}
PAUSE_S = 0.45


def _lines(vtt: Path) -> list[tuple[str, str]]:
    from tests.detection_eval.run import read_cues

    rep = json.loads(vtt.with_name(vtt.stem + ".truth.json").read_text())["rep"]
    out = []
    for _s, _e, text in read_cues(vtt).values():
        who, _, said = text.partition(": ")
        out.append(("rep" if who == rep else "customer", said))
    return out


def _run(*args: str) -> None:
    subprocess.run(args, check=True, capture_output=True)


def recording(vtt: Path) -> tuple[Path, str]:
    """(16 kHz mono WAV of the call spoken, its reference text); made once, cached."""
    lines = _lines(vtt)
    key = hashlib.sha256(repr((lines, VOICES, PAUSE_S)).encode()).hexdigest()[:12]
    out = _cache_dir() / f"wer-{vtt.stem}-{key}.wav"
    reference = " ".join(text for _role, text in lines)
    if out.exists():
        return out, reference
    with tempfile.TemporaryDirectory(dir=_cache_dir()) as tmp:
        silence = Path(tmp) / "pause.wav"
        _run("sox", "-n", "-r", "16000", "-c", "1", "-b", "16", str(silence), "trim", "0", str(PAUSE_S))
        parts = []
        for n, (role, text) in enumerate(lines):
            voice, pitch, speed = VOICES[role]
            raw, wav = Path(tmp) / f"{n}.raw.wav", Path(tmp) / f"{n}.wav"
            _run("espeak-ng", "-v", voice, "-p", pitch, "-s", speed, "-w", str(raw), text)
            _run("sox", "-D", str(raw), "-r", "16000", "-c", "1", "-b", "16", str(wav))
            parts += [str(wav), str(silence)]
        joined = Path(tmp) / "call.wav"
        _run("sox", *parts, str(joined))
        joined.replace(out)
    return out, reference


def recordings() -> list[tuple[Path, str]]:
    """The demo call and the spoken development calls, each with its reference text."""
    demo = " ".join(line["text"] for line in json.loads(paths.DEMO_SCRIPT.read_text())["lines"])
    return [(paths.DEMO_MEDIA, demo)] + [recording(v) for v in sorted(DEV.glob("*.vtt"))[:CALLS]]


_UNITS = {w: n for n, w in enumerate("zero one two three four five six seven eight nine ten eleven twelve thirteen "
                                     "fourteen fifteen sixteen seventeen eighteen nineteen".split())}
_TENS = {w: 10 * n for n, w in enumerate("_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()) if n > 1}
_SCALES = {"hundred": 100, "thousand": 1000, "million": 1_000_000}
_FILLERS = frozenset("um uh hmm mm mhm erm ah oh".split())


def _numbers(tokens: list[str]) -> list[str]:
    """Runs of number words as digits ("twenty five thousand" -> "25000"), digit groups joined ("40 000")."""
    out: list[str] = []
    total = current = 0
    in_number = False

    def flush() -> None:
        nonlocal total, current, in_number
        if in_number:
            out.append(str(total + current))
        total = current = 0
        in_number = False

    for tok in tokens:
        if tok in _UNITS or tok in _TENS:
            value = _UNITS.get(tok, _TENS.get(tok))
            if in_number and current % 10 == 0 and current % 100 != 0 and value < 10:
                current += value  # twenty five
            elif in_number and current and value >= 10 or in_number and current % 10 and value < 10:
                flush()
                current, in_number = value, True
            else:
                current += value
                in_number = True
        elif tok in _SCALES and in_number:
            scale = _SCALES[tok]
            if scale == 100:
                current *= 100
            else:
                total += (current or 1) * scale
                current = 0
        elif tok.isdigit():
            if out and in_number is False and out[-1].isdigit() and len(tok) == 3:
                out[-1] += tok  # 40 000
            else:
                flush()
                out.append(tok)
        else:
            flush()
            out.append(tok)
    flush()
    return out


def words(text: str) -> list[str]:
    text = text.lower().replace("-", " ").replace("%", " percent ")
    text = re.sub(r"(?<=\d),(?=\d{3})", "", text)
    tokens = [t for t in re.sub(r"[^a-z0-9' ]", " ", text).split() if t not in _FILLERS]
    return _numbers(tokens)


def errors(reference: str, hypothesis: str) -> tuple[int, int]:
    """(word errors, reference words): substitutions, deletions and insertions by edit distance."""
    ref, hyp = words(reference), words(hypothesis)
    row = list(range(len(hyp) + 1))
    for i in range(1, len(ref) + 1):
        prev, row[0] = row[0], i
        for j in range(1, len(hyp) + 1):
            cur = min(row[j] + 1, row[j - 1] + 1, prev + (ref[i - 1] != hyp[j - 1]))
            prev, row[j] = row[j], cur
    return row[len(hyp)], len(ref)


def pooled_wer(pairs: list[tuple[str, str]]) -> float:
    """All errors over all reference words, across (reference, hypothesis) pairs."""
    errs = refs = 0
    for reference, hypothesis in pairs:
        e, n = errors(reference, hypothesis)
        errs, refs = errs + e, refs + n
    return errs / max(refs, 1)
