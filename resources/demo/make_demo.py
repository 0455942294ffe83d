"""Generate the demo call: a discovery call between Riley (rep) and Casey (customer).

Run from the repository root:

    .venv/bin/python resources/demo/make_demo.py

Each line is spoken by espeak-ng, resampled and trimmed by sox, then laid on
its speaker's channel (rep left, customer right, as a dialer records it) and
encoded to Ogg Opus with PyAV. The line timings written next to the audio are
the true ones: they come from the sample counts of the pieces actually laid
down, so a test can compare a transcript against them.

Deterministic: espeak-ng and sox (dither off) give the same samples on every
run, and the pauses are fixed, so the timings never change; the Opus bytes may.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
import wave
from dataclasses import dataclass
from pathlib import Path

import av
import numpy as np

HERE = Path(__file__).resolve().parent
AUDIO_NAME = "acme-discovery.ogg"
SCRIPT_NAME = "acme-discovery.script.json"

SAMPLE_RATE = 24_000
LEAD_IN_MS = 500
TAIL_MS = 800
OPUS_BITRATE = 32_000  # see encode_opus: the least that keeps the channels apart

# Two clearly different voices: an American male rep, a British female customer.
VOICES = {
    "Riley": {"voice": "en-us+m3", "pitch": 42, "speed": 160, "channel": 0},
    "Casey": {"voice": "en-gb+f3", "pitch": 60, "speed": 150, "channel": 1},
}

PARTICIPANTS = [
    {"name": "Riley", "role": "rep", "company": "Northwind Analytics", "channel": "left"},
    {"name": "Casey", "role": "customer", "company": "Acme Logistics", "channel": "right"},
]


@dataclass(frozen=True)
class Line:
    speaker: str
    text: str
    pause_ms: int = 450  # silence before this line: the gap at the turn
    note: str = ""       # what a coach would see here (kept in the script, not spoken)


DIALOGUE: list[Line] = [
    Line("Riley", "Hi Casey, this is Riley from Northwind Analytics. Thanks for making time today.", 0),
    Line("Casey", "Hi Riley. No problem. I have about twenty minutes, so let's make it count.", 500),
    Line("Riley", "Twenty minutes it is. How has your week been? Is it busy season at Acme?", 400,
         "rapport"),
    Line("Casey", "Very busy. Peak shipping started early this year, and the warehouse team is stretched thin.", 450),
    Line("Riley", "I can imagine. To use your time well, could you walk me through how you report "
                  "on delivery performance today?", 500, "good open discovery question"),
    Line("Casey", "Sure. Every Monday, two analysts pull data from our routing system and the warehouse "
                  "system into spreadsheets. It takes them most of the day, and the numbers are already "
                  "a week old when the managers see them.", 600),
    Line("Riley", "What happens when the numbers are a week old?", 450,
         "good question: asks for the impact"),
    Line("Casey", "We miss problems. Last quarter one carrier was late on almost twelve percent of our "
                  "deliveries for a whole month before anyone noticed. We lost one of our bigger retail "
                  "customers over it.", 700),
    Line("Riley", "That sounds painful. So you'd like real time dashboards, right?", 450,
         "weak: leading, closed question"),
    Line("Casey", "I suppose so, yes.", 600),
    Line("Riley", "Great. Our platform connects to most routing systems and gives you live dashboards, "
                  "alerts, and carrier scorecards out of the box.", 400, "pitches before finishing discovery"),
    Line("Casey", "Okay. How much does something like that cost?", 700, "price question"),
    Line("Riley", "It depends on the number of users, but most teams your size land between twenty and "
                  "forty thousand dollars a year.", 500),
    Line("Casey", "Hmm. That's more than I expected. Anything over twenty five thousand has to be approved "
                  "by our finance director, Dana Brooks. She signs off on all new software.", 800,
         "economic buyer named"),
    Line("Riley", "Understood. We have very flexible packages, so I'm sure we can find something that works. "
                  "Do you use any other reporting tools today?", 450,
         "missed: doesn't follow up on the budget owner"),
    Line("Casey", "We tried a free dashboard tool last year, but nobody kept it up to date.", 550),
    Line("Riley", "Got it. And who else would use the dashboards, besides your analysts?", 450),
    Line("Casey", "The regional operations managers. Probably six or seven people.", 500),
    Line("Riley", "Perfect. Would you like to see a demo next week?", 450, "weak: closed question"),
    Line("Casey", "Maybe. Honestly, we are swamped right now. Just send me some information and I'll take a look.",
         900, "customer defers: the method's example"),
    Line("Riley", "Sure, I'll send that over today.", 500,
         "accepts information as the next step; no date, no criteria, no buyer"),
    Line("Casey", "Great. Thanks, Riley.", 450),
    Line("Riley", "Thanks, Casey. Talk soon.", 400),
]


class DemoBuildError(RuntimeError):
    """A tool the generator needs is missing or failed."""


def _run(cmd: list[str]) -> None:
    result = subprocess.run(cmd, capture_output=True, text=True)
    if result.returncode != 0:
        raise DemoBuildError(f"{cmd[0]} failed: {result.stderr.strip()}")


def speak(line: Line, workdir: Path, index: int) -> np.ndarray:
    """One line as int16 mono samples at SAMPLE_RATE, leading and trailing silence trimmed."""
    voice = VOICES[line.speaker]
    raw = workdir / f"{index:02d}-raw.wav"
    clean = workdir / f"{index:02d}.wav"
    _run(["espeak-ng", "-v", voice["voice"], "-p", str(voice["pitch"]), "-s", str(voice["speed"]),
          "-w", str(raw), line.text])
    # -D: no dither, so the samples (and so the timings) are the same every run.
    # silence/reverse/silence trims both ends, so start_ms is where speech begins.
    _run(["sox", "-D", str(raw), "-r", str(SAMPLE_RATE), "-c", "1", "-b", "16", "-e", "signed-integer",
          str(clean), "silence", "1", "0.01", "0.3%", "reverse", "silence", "1", "0.01", "0.3%", "reverse",
          "rate", "-v", str(SAMPLE_RATE), "norm", "-3"])
    with wave.open(str(clean), "rb") as wav:
        if wav.getframerate() != SAMPLE_RATE or wav.getsampwidth() != 2:
            raise DemoBuildError(f"{clean}: unexpected format from sox")
        return np.frombuffer(wav.readframes(wav.getnframes()), dtype=np.int16)


def _ms(samples: int) -> int:
    return round(samples * 1000 / SAMPLE_RATE)


def build(workdir: Path) -> tuple[np.ndarray, list[dict]]:
    """Lay every line on its channel; return stereo int16 (n, 2) and the true timings."""
    pieces: list[tuple[int, int, np.ndarray]] = []  # (channel, start sample, samples)
    cursor = LEAD_IN_MS * SAMPLE_RATE // 1000
    lines = []
    for index, line in enumerate(DIALOGUE):
        cursor += line.pause_ms * SAMPLE_RATE // 1000
        samples = speak(line, workdir, index)
        channel = VOICES[line.speaker]["channel"]
        pieces.append((channel, cursor, samples))
        entry = {"index": index, "speaker": line.speaker,
                 "role": "rep" if channel == 0 else "customer",
                 "channel": "left" if channel == 0 else "right",
                 "start_ms": _ms(cursor), "end_ms": _ms(cursor + len(samples)), "text": line.text}
        if line.note:
            entry["coach_note"] = line.note
        lines.append(entry)
        cursor += len(samples)
    total = cursor + TAIL_MS * SAMPLE_RATE // 1000
    stereo = np.zeros((total, 2), dtype=np.int16)
    for channel, start, samples in pieces:
        stereo[start:start + len(samples), channel] = samples
    return stereo, lines


def encode_opus(stereo: np.ndarray, path: Path) -> None:
    """Ogg Opus via PyAV's bundled libopus (sox here cannot write Opus)."""
    with av.open(str(path), "w", format="ogg") as container:
        # Plain stereo (mapping family 0) so every player reads it. Below ~32 kbit/s
        # libopus falls back to intensity stereo and bleeds each party into the
        # other channel (~20 dB); at 32 kbit/s the channels stay ~60 dB apart.
        stream = container.add_stream("libopus", rate=SAMPLE_RATE, layout="stereo",
                                      options={"application": "voip"})
        stream.bit_rate = OPUS_BITRATE
        container.metadata["title"] = "Acme Logistics discovery call (demo)"
        fifo = av.AudioFifo()
        frame = av.AudioFrame.from_ndarray(np.ascontiguousarray(stereo.reshape(1, -1)), format="s16",
                                           layout="stereo")
        frame.sample_rate = SAMPLE_RATE
        frame.pts = 0
        fifo.write(frame)
        size = stream.codec_context.frame_size or 480
        while fifo.samples >= size:
            for packet in stream.encode(fifo.read(size)):
                container.mux(packet)
        rest = fifo.read()
        if rest is not None:
            for packet in stream.encode(rest):
                container.mux(packet)
        for packet in stream.encode(None):
            container.mux(packet)


def main(out_dir: Path = HERE) -> int:
    for tool in ("espeak-ng", "sox"):
        if shutil.which(tool) is None:
            print(f"make_demo: {tool} is not installed (apt-get install {tool})", file=sys.stderr)
            return 1
    with tempfile.TemporaryDirectory(prefix="callmark-demo-") as tmp:
        stereo, lines = build(Path(tmp))
    duration_ms = _ms(len(stereo))
    encode_opus(stereo, out_dir / AUDIO_NAME)
    script = {
        "title": "Acme Logistics discovery call (demo)",
        "audio": AUDIO_NAME,
        "source": "dialer",
        "duration_ms": duration_ms,
        "sample_rate": SAMPLE_RATE,
        "channels": {"left": "Riley", "right": "Casey"},
        "participants": PARTICIPANTS,
        "lines": lines,
    }
    (out_dir / SCRIPT_NAME).write_text(json.dumps(script, indent=2, ensure_ascii=False) + "\n",
                                       encoding="utf-8")
    size = (out_dir / AUDIO_NAME).stat().st_size
    print(f"{AUDIO_NAME}: {duration_ms / 1000:.1f} s, {len(lines)} lines, {size / 1024:.0f} KiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
