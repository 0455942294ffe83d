"""UI state in QSettings: the keys are an enum (DESIGN.md house style 7).

QSettings holds only how the window looks and behaves for this coach on this
machine (geometry, splitters, last open call, shortcut overrides, playback
preferences). Everything a coach writes lives in the store.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from PySide6.QtCore import QSettings

from desktop.playback.clock import DEFAULT_REACTION_DELAY_MS
from desktop.playback.player import DEFAULT_AUTO_REWIND_MS, DEFAULT_SKIP_MS


class SettingsKey(StrEnum):
    GEOMETRY = "window/geometry"
    WINDOW_STATE = "window/state"
    MAIN_SPLITTER = "window/main_splitter"
    WORK_SPLITTER = "window/work_splitter"
    SIDE_SPLITTER = "window/side_splitter"
    LIBRARY_VISIBLE = "window/library_visible"
    LAST_CALL = "workspace/last_call"
    SKIP_MS = "playback/skip_ms"
    REACTION_DELAY_MS = "playback/reaction_delay_ms"
    AUTO_REWIND_MS = "playback/auto_rewind_ms"
    SHORTCUTS = "shortcuts"  # group: one entry per overridden ActionId
    POSITIONS = "positions"  # group: last playhead position per call id


def qsettings() -> QSettings:
    return QSettings()


def read_int(key: SettingsKey, default: int) -> int:
    return read_int_key(key.value, default)


def read_int_key(key: str, default: int) -> int:
    value = qsettings().value(key, default)
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


@dataclass
class PlaybackPreferences:
    """How playback and marking behave; the preferences dialog edits these."""

    skip_ms: int = DEFAULT_SKIP_MS
    reaction_delay_ms: int = DEFAULT_REACTION_DELAY_MS
    auto_rewind_ms: int = DEFAULT_AUTO_REWIND_MS

    @classmethod
    def load(cls) -> PlaybackPreferences:
        return cls(
            skip_ms=max(100, read_int(SettingsKey.SKIP_MS, DEFAULT_SKIP_MS)),
            reaction_delay_ms=max(0, read_int(SettingsKey.REACTION_DELAY_MS, DEFAULT_REACTION_DELAY_MS)),
            auto_rewind_ms=max(0, read_int(SettingsKey.AUTO_REWIND_MS, DEFAULT_AUTO_REWIND_MS)),
        )

    def save(self) -> None:
        s = qsettings()
        s.setValue(SettingsKey.SKIP_MS.value, int(self.skip_ms))
        s.setValue(SettingsKey.REACTION_DELAY_MS.value, int(self.reaction_delay_ms))
        s.setValue(SettingsKey.AUTO_REWIND_MS.value, int(self.auto_rewind_ms))
