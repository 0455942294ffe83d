"""Transcript ▸ Pause transcription: the store's queue held and let go from the window."""

from __future__ import annotations

from desktop.ui.actions import ActionId


def install_queue_actions(controller) -> None:
    """Keep the checkable action in step with the queue (paused here, or by `callmark transcription pause`);
    the action itself is the controller's (its ``toggle_pause``), in the window's one menu table."""
    action = controller.window.registry[ActionId.PAUSE_TRANSCRIPTION]
    action.setCheckable(True)
    action.setChecked(controller.queue.paused)
    controller.queue.paused_changed.connect(action.setChecked)


def toggle_pause(controller) -> None:
    window, queue = controller.window, controller.queue
    checked = window.registry[ActionId.PAUSE_TRANSCRIPTION].isChecked()
    if checked == queue.paused:
        return
    if checked:
        queue.pause()
        window.show_message("Transcription paused; the queue waits (the call being transcribed starts "
                            "again on resume).")
    else:
        queue.resume()
        window.show_message("Transcription resumed.")
