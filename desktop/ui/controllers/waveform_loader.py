"""Waveform peaks off the GUI thread: decode once per recording, then the cache answers."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal

from desktop import paths


class _Signals(QObject):
    progress = Signal(str, int, int)  # sha256, ms done, ms total
    done = Signal(str, object)  # sha256, Peaks
    failed = Signal(str, str)  # sha256, message


class _PeaksJob(QRunnable):
    def __init__(self, media: Path, sha256: str, cache: Path, signals: _Signals):
        super().__init__()
        self.media, self.sha256, self.cache, self.signals = media, sha256, cache, signals
        self.cancelled = False

    def run(self) -> None:  # the pool's thread: no widgets here, only signals
        from desktop.media.waveform import load_or_compute

        def progress(done: int, total: int) -> None:
            if self.cancelled:
                raise _Cancelled
            self._emit(self.signals.progress, self.sha256, done, total)

        try:
            peaks = load_or_compute(self.media, self.sha256, self.cache, progress=progress)
        except _Cancelled:
            return
        except Exception as exc:  # noqa: BLE001 - any failure only costs the picture; say why
            self._emit(self.signals.failed, self.sha256, str(exc))
            return
        self._emit(self.signals.done, self.sha256, peaks)

    def _emit(self, signal, *args) -> None:
        """Emit unless the window that asked has gone (closed mid-decode): nothing may escape run()."""
        try:
            signal.emit(*args)
        except RuntimeError:
            self.cancelled = True
            if signal is self.signals.progress:
                raise _Cancelled from None


class _Cancelled(Exception):
    pass


class WaveformLoader(QObject):
    """Emits ``loaded(sha256, peaks)``; a newer request makes older results stale."""

    loaded = Signal(str, object)
    progress = Signal(str, int, int)
    failed = Signal(str, str)

    def __init__(self, home: Path, parent=None):
        super().__init__(parent)
        self.cache = paths.cache_dir(home, "waveforms")
        self.pool = QThreadPool(self)
        self.pool.setMaxThreadCount(1)
        self._signals = _Signals(self)
        self._signals.done.connect(self._on_done)
        self._signals.progress.connect(self.progress)
        self._signals.failed.connect(self.failed)
        self._signals.failed.connect(self._settle)
        self._job: _PeaksJob | None = None
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
            self._job.cancelled = True
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
        self._job = _PeaksJob(Path(media), sha256, self.cache, self._signals)
        self._job.setAutoDelete(False)
        self.pool.start(self._job)

    @property
    def busy(self) -> bool:
        """A read or decode is running for the open call."""
        return self._job is not None

    def _settle(self, *_args) -> None:
        self._job = None

    def _on_done(self, sha256: str, peaks) -> None:
        self._settle()
        self._memo[sha256] = peaks
        if len(self._memo) > 4:
            self._memo.pop(next(iter(self._memo)))
        self.loaded.emit(sha256, peaks)

    def wait(self, ms: int = 5000) -> bool:
        return self.pool.waitForDone(ms)
