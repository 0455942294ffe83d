"""Plain transcript data: segments and words, in the record format's shape.

Times are integer milliseconds from the start of the recording
(record-format.md). These are the values the store, the CLI and the GUI pass
around; nothing here knows about Whisper, files or Qt.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


def _ms(value: Any, key: str) -> int:
    # bool is an int subclass; a True start time is a caller's mistake.
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{key} must be a number of milliseconds, got {value!r}")
    return int(round(value))


@dataclass(slots=True)
class Word:
    """One word with its own timing, as Whisper's word timestamps give it."""

    start_ms: int
    end_ms: int
    text: str
    probability: float | None = None

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"start_ms": self.start_ms, "end_ms": self.end_ms, "text": self.text}
        if self.probability is not None:
            data["probability"] = self.probability
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Word:
        prob = data.get("probability")
        return cls(
            start_ms=_ms(data["start_ms"], "start_ms"),
            end_ms=_ms(data["end_ms"], "end_ms"),
            text=str(data["text"]),
            probability=None if prob is None else float(prob),
        )


@dataclass(slots=True)
class Segment:
    """One line of a transcript: who said what, when."""

    start_ms: int
    end_ms: int
    speaker: str | None
    text: str
    words: list[Word] | None = None

    def to_dict(self) -> dict[str, Any]:
        """The record format's segment: start_ms, end_ms, speaker, text (+ words where known)."""
        data: dict[str, Any] = {
            "start_ms": self.start_ms,
            "end_ms": self.end_ms,
            "speaker": self.speaker,
            "text": self.text,
        }
        if self.words is not None:
            data["words"] = [w.to_dict() for w in self.words]
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Segment:
        unknown = set(data) - {"start_ms", "end_ms", "speaker", "text", "words"}
        if unknown:
            raise ValueError(f"unknown segment keys: {', '.join(sorted(unknown))}")
        words = data.get("words")
        speaker = data.get("speaker")
        return cls(
            start_ms=_ms(data["start_ms"], "start_ms"),
            end_ms=_ms(data["end_ms"], "end_ms"),
            speaker=None if speaker is None else str(speaker),
            text=str(data["text"]),
            words=None if words is None else [Word.from_dict(w) for w in words],
        )


def segments_to_json_obj(segments: list[Segment]) -> dict[str, Any]:
    """`{"segments": [...]}`, the JSON shape the CLI prints and exports."""
    return {"segments": [s.to_dict() for s in segments]}


def segments_from_json_obj(obj: Any) -> list[Segment]:
    """Accept either a bare list of segments or `{"segments": [...]}`."""
    if isinstance(obj, dict):
        obj = obj.get("segments")
    if not isinstance(obj, list):
        raise ValueError('expected a list of segments or {"segments": [...]}')
    return [Segment.from_dict(item) for item in obj]
