"""Transcript ▸ Pause transcription: the store's queue held and let go from the window."""

from __future__ import annotations

from desktop.ui.actions import ActionId


def install_queue_actions(controller) -> None:
    window = controller.window
    queue = controller.queue
    action = window.registry[ActionId.PAUSE_TRANSCRIPTION]
    action.setCheckable(True)
    action.setChecked(queue.paused)

    def on_toggled(checked: bool) -> None:
        if checked == queue.paused:
            return
        if checked:
            queue.pause()
            window.show_message("Transcription paused; the queue waits (the call being transcribed starts "
                                "again on resume).")
        else:
            queue.resume()
            window.show_message("Transcription resumed.")

    action.toggled.connect(on_toggled)
    queue.paused_changed.connect(action.setChecked)  # also when paused from `callmark transcription pause`
    menu = controller._menu("Transcript")  # noqa: SLF001 - the controller's own menu lookup
    if menu is not None:
        entries = menu.actions()
        after = controller.actions.get("transcribe_all")
        at = entries.index(after) + 1 if after in entries and entries.index(after) + 1 < len(entries) else None
        menu.insertAction(entries[at], action) if at is not None else menu.addAction(action)
