"""Make the side-by-side screenshot on the demo call: you (Alex) and a second coach (Dana) marked it.

    xvfb-run -a -s "-screen 0 1440x900x24" .venv/bin/python -m desktop.ui.calibration.screenshot OUT.png

Dana's marks arrive as a real portable record (built with build_record, written, imported), as they
would from another coach's machine.
"""

from __future__ import annotations

import sys
import tempfile
import uuid
from datetime import date, datetime, timezone
from pathlib import Path

DANA = [  # start, end, kind, (change, behavior, consequence, practice)
    (43926, 46283, "question", None),
    (59243, 65598, "missed_intervention",
     ("stop", "Stop offering the solution before asking what the stale numbers cost the business.",
      "The rep doesn't know what the late deliveries cost Acme, so the price has nothing to stand against.",
      "Role-play the 'week-old numbers' answer: ask for the cost before naming any feature.")),
    (86185, 97260, "answer", None),
    (125551, 132183, "missed_intervention",
     ("start", "When a customer asks for information, ask what they will review and who else needs to be involved.",
      "The rep doesn't know who approves spend over twenty-five thousand or what they will review.",
      "Role-play the 'send me some information' moment three times with the manager.")),
]
MINE = [
    (46983, 58793, "answer", None),
    (59243, 63398, "missed_intervention",
     ("stop", "Stop offering the solution before the customer has named what the problem costs.",
      "Nobody knows what the late deliveries cost, so the price has nothing to stand against.",
      "Role-play the pain question before any feature.")),
    (97710, 106228, "missed_intervention",
     ("adjust", "Ask who approves spend over the threshold before moving on from price.",
      "The approver for spend over twenty-five thousand is unknown.",
      "Call review of the pricing exchange with the manager.")),
    (128000, 134763, "next_step",
     ("start", "When a customer asks for information, ask what they will review and by when.",
      "The rep doesn't know what the customer will review or when.",
      "Role-play the 'send me some information' moment twice.")),
]


def _dana_record(sha: str, duration: int):
    from desktop.core.enums import BehaviorChange, ItemStatus, MomentKind, PracticeKind
    from desktop.exchange.record import (Behavior, Call, CoachingItem, Manager, Media, Moment, NextEvidence,
                                         Owner, Person, Practice, ReviewRule, build_record)

    when = datetime(2026, 11, 30, 9, 0, tzinfo=timezone.utc)
    moments, items = [], []
    for n, (start, end, kind, item) in enumerate(DANA):
        mid = str(uuid.uuid5(uuid.NAMESPACE_URL, f"callmark-demo/dana/{n}"))
        moments.append(Moment(id=mid, start_ms=start, end_ms=end, kind=MomentKind(kind), quote="", created_at=when))
        if item:
            change, behavior, consequence, practice = item
            items.append(CoachingItem(
                id=str(uuid.uuid5(uuid.NAMESPACE_URL, f"callmark-demo/dana/item/{n}")), moment_ids=[mid],
                consequence=consequence, behavior=Behavior(change=BehaviorChange(change), text=behavior),
                practice=Practice(kind=PracticeKind.ROLE_PLAY, task=practice),
                owner=Owner(does="Morgan Manager", reviews="Dana Coach"), cadence="Weekly 1:1",
                indicator="Seen in the next two discovery calls.",
                next_evidence=NextEvidence(description="Next two discovery calls", due=date(2026, 12, 14)),
                review_rule=ReviewRule(text="Continue when seen in both calls."), status=ItemStatus.OPEN))
    return build_record(exported_by=Person(name="Dana Coach"), exported_at=when,
                        call=Call(title="Discovery - Acme Logistics (demo)", manager=Manager(name="Morgan Manager"),
                                  media=Media(sha256=sha, duration_ms=duration, filename="acme-discovery.ogg")),
                        moments=moments, items=items)


def build_demo(home: Path) -> tuple[object, int]:
    """A store with the demo call, Alex's marks and items, and Dana's record imported; compared."""
    from db.store import open_store
    from desktop import paths
    from desktop.app import first_run_demo
    from desktop.exchange.record import write_record
    from desktop.services import calibration as cal
    from desktop.services import calls, items, moments, records

    store = open_store(paths.store_path(home), paths.backups_dir(home))
    call_id = first_run_demo(store)
    records.set_whoami(store, "Alex Coach")
    for start, end, kind, item in MINE:
        row = moments.add_moment(store, call_id, start, end, kind=kind)
        if item:
            change, behavior, consequence, practice = item
            items.create_item(store, [row.id], behavior_change=change, behavior_text=behavior,
                              consequence=consequence, practice_task=practice)
    call = calls.get_call(store, call_id)
    record = home / "dana.callmark.json"
    write_record(record, _dana_record(call.media_sha256, call.duration_ms))
    cal.import_theirs(store, call_id, record)
    view = cal.compare(store, call_id, "Dana Coach")
    for row in view.rows[:3]:
        cal.set_decision(store, view.id, row.key, "merged" if row.mine and row.theirs else
                         ("mine" if row.mine else "theirs"))
    return store, view.id


def main(argv: list[str]) -> int:
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from desktop.ui.calibration.window import CalibrationWindow

    out = Path(argv[0] if argv else "calibration.png")
    app = QApplication.instance() or QApplication(sys.argv[:1])
    with tempfile.TemporaryDirectory() as folder:
        store, calibration_id = build_demo(Path(folder))
        window = CalibrationWindow(store, calibration_id, home=Path(folder))
        window.resize(1400, 860)
        window.show()
        pair = next(i for i, r in enumerate(window.controller.calibration.rows)
                    if r.mine and r.theirs and r.mine.item and r.theirs.item and r.start_ms > 100_000)
        window.controller.select_row(pair)
        window.view.timeline.set_position(window.controller.calibration.rows[pair].start_ms)
        window.waveforms.wait(20000)

        def shoot() -> None:
            window.grab().save(str(out))
            app.quit()

        QTimer.singleShot(1500, shoot)
        app.exec()
        window.close()
        store.close()
    print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
