"""Transcription in the GUI: Transcribe (Ctrl+T) and a queue, progress in the library and above the
transcript, segments streaming in, library search, speakers, line edits with undo, versions, import/export.

    from desktop.ui.transcription import install_transcription
    controller = install_transcription(window)   # once, after build_main_window
    controller.queue.add(call_id)
"""

from __future__ import annotations

from desktop.ui.transcription.controller import TranscriptionController

__all__ = ["TranscriptionController", "install_transcription"]


def install_transcription(window, *, cpu_threads: int = 0, parallel: int | None = None) -> TranscriptionController:
    """Add transcription to a main window (idempotent: a second call returns the same controller)."""
    existing = getattr(window, "transcription", None)
    if isinstance(existing, TranscriptionController):
        return existing
    from desktop.ui.actions import TRANSCRIPTION

    controller = TranscriptionController(window, cpu_threads=cpu_threads, parallel=parallel)
    window.transcription = controller
    from desktop.ui.transcription.queue_actions import install_queue_actions

    install_queue_actions(controller)
    window.registry.adopt(TRANSCRIPTION, controller)  # made here or by its first command: one owner
    return controller
