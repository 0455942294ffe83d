"""Waveform peaks off the GUI thread: decode once per recording, then the cache answers."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, Signal

from desktop import paths
from desktop.ui.tasks import current_task, run_task


class WaveformLoader(QObject):
    """Emits ``loaded(sha256, peaks)``; a newer request makes older results stale."""

    loaded = Signal(str, object)
    progress = Signal(str, int, int)
    failed = Signal(str, str)

    def __init__(self, home: Path, parent=None):
        super().__init__(parent)
        self.cache = paths.cache_dir(home, "waveforms")
        self._job = None  # the task decoding the open call's recording (desktop.ui.tasks)
        self._done: list = []  # every task started, to wait for at close
        self._memo: dict[str, object] = {}  # this session's peaks, for instant switching
        self._held: tuple[str | Path | None, str] | None = None
        self._hold = False

    def hold(self) -> None:
        """Keep requests until ``release`` (the window's first paint comes first: the reading thread
        would share the interpreter with it)."""
        self._hold = True

    def release(self) -> None:
        self._hold = False
        if self._held is not None:
            held, self._held = self._held, None
            self.request(*held)

    def request(self, media: str | Path | None, sha256: str) -> None:
        if self._job is not None:
            self._job.cancel()  # its result would be stale: nobody is told
            self._job = None
        if sha256 in self._memo:
            self.loaded.emit(sha256, self._memo[sha256])
            return
        if self._hold:
            self._held = (media, sha256)
            return
        if not media or not Path(media).exists():
            self.failed.emit(sha256, "no waveform: the recording is not on this computer")
            return
        media, cache = Path(media), self.cache

        def decode():  # on the task's thread: no widgets, only the Qt-free decoder
            from desktop.media.waveform import load_or_compute

            task = current_task()
            return load_or_compute(media, sha256, cache, progress=lambda done, total: task.report((done, total)))

        self._job = run_task(decode, lambda peaks: self._on_done(sha256, peaks), receiver=self,
                             on_error=lambda exc: self._on_failed(sha256, exc),
                             on_progress=lambda p: self.progress.emit(sha256, *p), name="callmark-waveform")
        self._done = [t for t in self._done if t.running] + [self._job]

    @property
    def busy(self) -> bool:
        """A read or decode is running for the open call."""
        return self._job is not None

    def _on_failed(self, sha256: str, exc: BaseException) -> None:
        self._job = None  # any failure only costs the picture; say why
        self.failed.emit(sha256, str(exc))

    def _on_done(self, sha256: str, peaks) -> None:
        self._job = None
        self._memo[sha256] = peaks
        if len(self._memo) > 4:
            self._memo.pop(next(iter(self._memo)))
        self.loaded.emit(sha256, peaks)

    def wait(self, ms: int = 5000) -> bool:
        return all(task.wait(ms / 1000) for task in self._done)
