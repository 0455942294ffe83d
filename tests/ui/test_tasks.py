"""The one background-work helper: results and errors come back on the GUI thread, never to a receiver
that is gone, and a generator's yields are its progress."""

from __future__ import annotations

import threading
import time

from PySide6.QtCore import QObject, QThread
from PySide6.QtWidgets import QApplication, QLabel

from desktop.errors import CallmarkError
from desktop.ui.tasks import current_task, run_task


def on_gui_thread() -> bool:
    return QThread.currentThread() is QApplication.instance().thread()


def test_the_result_reaches_the_gui_thread_and_the_work_ran_off_it(qtbot):
    seen = {}

    def work():
        seen["worker_is_gui"] = on_gui_thread()
        seen["worker"] = threading.current_thread().name
        return 41 + 1

    def then(result):
        seen["result"], seen["then_is_gui"] = result, on_gui_thread()

    task = run_task(work, then, name="callmark-test")
    qtbot.waitUntil(lambda: "result" in seen, timeout=3000)
    assert seen == {"worker_is_gui": False, "worker": "callmark-test", "result": 42, "then_is_gui": True}
    assert task.done and task.result == 42 and task.error is None


def test_an_error_is_handed_to_on_error_with_its_message(qtbot):
    errors = []

    def work():
        raise CallmarkError("calls.csv: line 3 has no date")

    run_task(work, lambda _r: errors.append("called next"), on_error=errors.append)
    qtbot.waitUntil(lambda: bool(errors), timeout=3000)
    assert [str(e) for e in errors] == ["calls.csv: line 3 has no date"]


def test_a_receiver_deleted_meanwhile_is_not_called_back(qtbot):
    label = QLabel("waiting")
    called = []
    go = threading.Event()

    def work():
        go.wait(3)
        return "late"

    task = run_task(work, lambda r: called.append(label.setText(r)), receiver=label)
    label.deleteLater()
    qtbot.waitUntil(lambda: not _valid(label), timeout=3000)
    go.set()
    assert task.wait(3)
    qtbot.wait(50)  # the delivery is queued: let it run
    assert task.done and called == []


def _valid(obj: QObject) -> bool:
    from shiboken6 import isValid

    return isValid(obj)


def test_a_generators_yields_are_progress_and_cancel_stops_it(qtbot):
    progress, results = [], []
    reached = []

    def counting():
        for i in range(1000):
            reached.append(i)
            yield i
            time.sleep(0.002)
        return "finished"

    task = run_task(counting, results.append, on_progress=progress.append)
    qtbot.waitUntil(lambda: len(progress) >= 3, timeout=3000)
    assert progress[:3] == [0, 1, 2]
    task.cancel()
    assert task.wait(3)
    stopped_at = len(reached)
    qtbot.wait(50)
    assert stopped_at < 1000 and results == []  # stopped early, and nobody was told of a result


def test_a_plain_function_reports_through_current_task(qtbot):
    progress, results = [], []

    def work():
        task = current_task()
        for done in (10, 20, 30):
            task.report(done)
        return "done"

    assert current_task() is None  # on the GUI thread there is none
    run_task(work, results.append, on_progress=progress.append)
    qtbot.waitUntil(lambda: bool(results), timeout=3000)
    assert progress == [10, 20, 30] and results == ["done"]
