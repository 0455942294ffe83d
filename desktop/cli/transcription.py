"""`callmark transcription queue|add|cancel|pause|resume|clear|run`: the transcription queue in the store.

(`callmark transcribe` transcribes now; this is the queue the window works through, which outlives it.)
"""

from __future__ import annotations

import sys

from desktop.cli import print_json


def register(sub, common) -> None:
    parser = sub.add_parser("transcription", parents=[common], help="the transcription queue (kept in the store)")
    inner = parser.add_subparsers(dest="transcription_command", metavar="ACTION", required=True)

    def action(name: str, help_text: str, handler, *, calls: bool = False):
        p = inner.add_parser(name, parents=[common], help=help_text)
        if calls:
            p.add_argument("calls", nargs="+", metavar="CALL", help="a call id or exact title")
        p.add_argument("--json", action="store_true")
        p.set_defaults(handler=handler)
        return p

    action("queue", "list the queue in the order it runs", _queue)
    add = action("add", "queue calls for transcription", _add, calls=True)
    add.add_argument("--priority", type=int, default=0, help="higher goes first (default 0)")
    action("cancel", "take calls off the queue (one being transcribed is stopped)", _cancel, calls=True)
    action("pause", "stop transcribing (the call being transcribed starts again on resume)", _pause)
    action("resume", "go on transcribing", _resume)
    action("clear", "empty the queue", _clear)
    run = action("run", "transcribe the waiting calls now, one after another, a bar each", _run)
    run.add_argument("--threads", type=int, default=0, help="CPU threads for Whisper (0: automatic)")


def _state(ctx) -> dict:
    from desktop.services import transcription_queue as q

    return {"paused": q.is_paused(ctx.store), "entries": [e.to_json() for e in q.entries(ctx.store)]}


def _queue(args, ctx) -> int:
    state = _state(ctx)
    if args.json:
        print_json(state)
        return 0
    print("paused" if state["paused"] else "running" if state["entries"] else "empty")
    for e in state["entries"]:
        extra = f" — {e['error']}" if e["error"] else ""
        prio = f" priority {e['priority']}" if e["priority"] else ""
        print(f"{e['call_id']:>5}  {e['state']:<8}{prio}  {e['title']}{extra}")
    return 0


def _ids(args, ctx) -> list[int]:
    from desktop.services.calls import resolve_call

    return [resolve_call(ctx.store, ref).id for ref in args.calls]  # every one found before any write


def _add(args, ctx) -> int:
    from desktop.services import transcription_queue as q

    added = q.enqueue(ctx.store, _ids(args, ctx), priority=args.priority)
    return _done(args, ctx, f"{len(added)} calls queued")


def _cancel(args, ctx) -> int:
    from desktop.errors import NotFound
    from desktop.services import transcription_queue as q

    ids = _ids(args, ctx)
    missing = [c for c in ids if q.entry(ctx.store, c) is None]
    if missing:
        raise NotFound(f"call {missing[0]}: is not in the transcription queue")
    for call_id in ids:
        q.cancel(ctx.store, call_id)
    return _done(args, ctx, f"{len(ids)} calls taken off the queue")


def _pause(args, ctx) -> int:
    from desktop.services import transcription_queue as q

    q.set_paused(ctx.store, True)
    return _done(args, ctx, "paused: nothing is transcribed until `callmark transcription resume`")


def _resume(args, ctx) -> int:
    from desktop.services import transcription_queue as q

    q.set_paused(ctx.store, False)
    return _done(args, ctx, "resumed")


def _clear(args, ctx) -> int:
    from desktop.services import transcription_queue as q

    n = q.clear(ctx.store)
    return _done(args, ctx, f"{n} calls taken off the queue")


def _done(args, ctx, message: str) -> int:
    if args.json:
        print_json(_state(ctx))
    else:
        print(message)
    return 0


def _run(args, ctx) -> int:
    outcomes = run_with_bars(ctx.store, cpu_threads=args.threads, quiet=args.json)
    if args.json:
        print_json({"outcomes": [o.to_json() for o in outcomes], **_state(ctx)})
    return 1 if any(o.outcome == "failed" for o in outcomes) else 0


def run_with_bars(store, *, cpu_threads: int = 0, quiet: bool = False) -> list:
    """Work through the queue in this process, one bar on stderr for the calls under way (the child
    transcribes a few at once); a line per call as it ends; says why it stopped."""
    from desktop.services import transcription_queue as q
    from desktop.transcription.progress import ProgressBar
    from desktop.transcription.runner import Progress

    under_way: dict[int, tuple[float, float | None]] = {}  # call id -> (fraction, seconds left)
    bar = ProgressBar()

    def on_event(call_id, event) -> None:
        if isinstance(event, Progress):
            under_way[call_id] = (event.fraction, event.eta_s)
            draw()

    def draw() -> None:
        if not under_way:
            return
        ids = sorted(under_way)
        bar.label = ("call " if len(ids) == 1 else "calls ") + ", ".join(map(str, ids))
        etas = [eta for _f, eta in under_way.values() if eta is not None]
        bar.update(sum(f for f, _eta in under_way.values()) / len(ids), max(etas) if etas else None)

    outcomes = []
    for outcome in q.run_queue(store, cpu_threads=cpu_threads, on_event=on_event):
        under_way.pop(outcome.call_id, None)
        if outcome.outcome == "transcribed":
            bar.finish(f"call {outcome.call_id}: {outcome.lines} lines")
            if not quiet:
                print(f"call {outcome.call_id}: {outcome.lines} lines transcribed")
        else:
            bar.finish()
            print(f"callmark: {outcome.detail}", file=sys.stderr)
        outcomes.append(outcome)
        draw()
    left = [e for e in q.entries(store) if e.state != "failed"]
    if left and not quiet:
        why = "the queue is paused" if q.is_paused(store) else "another Callmark is transcribing"
        print(f"{len(left)} calls still queued ({why})", file=sys.stderr)
    return outcomes
