"""`callmark transcribe CALL_OR_FILE...`: local Whisper, a progress bar on stderr, saved only when complete."""

from __future__ import annotations

import sys

from desktop.cli import print_json
from desktop.core.words import plural


def register(sub, common) -> None:
    parser = sub.add_parser(
        "transcribe", parents=[common],
        help="transcribe calls on this machine with Whisper (a recording not in the library is added)")
    parser.add_argument("calls", nargs="+", metavar="CALL_OR_FILE",
                        help="a call id, an exact title, or a recording file")
    parser.add_argument("--model", metavar="NAME_OR_PATH",
                        help="a model folder, or a model name (downloaded only with --allow-network "
                             "or network allowed in settings); default: the settings, else the bundled tiny.en")
    parser.add_argument("--language", metavar="CODE", help="e.g. en; default: the settings, else detected")
    parser.add_argument("--allow-network", action="store_true", default=None,
                        help="allow downloading the model named by --model for this run")
    parser.add_argument("--channels", metavar="LEFT,RIGHT",
                        help="speaker names for a stereo recording's channels (default: the call's rep, Customer)")
    parser.add_argument("--threads", type=int, default=0, help="CPU threads for Whisper (0: automatic)")
    parser.add_argument("--json", action="store_true", help="print the segments as JSON")
    parser.set_defaults(handler=_transcribe)


def _channel_names(text: str | None) -> tuple[str, str] | None:
    from desktop.errors import CallmarkError

    if not text:
        return None
    names = tuple(n.strip() for n in text.split(","))
    if len(names) != 2 or not all(names):
        raise CallmarkError(f"--channels {text!r}: give two names, left then right (e.g. Riley,Customer)")
    return names  # type: ignore[return-value]


def _transcribe(args, ctx) -> int:
    from desktop.services import transcription as service
    from desktop.transcription.progress import ProgressBar
    from desktop.transcription.runner import Cancelled, Failed, Progress

    names = _channel_names(args.channels)
    # Every input is found (or added) and the model resolved before the first child starts.
    plans = []
    for ref in args.calls:
        call_id, added = service.call_for_input(ctx.store, ref)
        plan = service.plan_for_call(ctx.store, call_id, model=args.model, language=args.language,
                                     allow_network=args.allow_network, cpu_threads=args.threads,
                                     channel_names=names)
        if added and not args.json:
            print(f"added {plan.media_path.name} to the library as call {call_id}", file=sys.stderr)
        plans.append(plan)

    failures = 0
    results = []
    for plan in plans:
        run = service.CallTranscription(ctx.store, plan)
        bar = ProgressBar(label=_label(plan.title))
        try:
            for event in run.events():
                if isinstance(event, Progress):
                    bar.update(event.fraction, event.eta_s)
                elif isinstance(event, (Failed, Cancelled)):
                    break
        except KeyboardInterrupt:
            run.cancel()
            bar.finish(f"{_label(plan.title)} cancelled; nothing was saved")
            raise
        if run.transcript is None:
            bar.finish()
            print(f"callmark: {run.error or f'{plan.media_path}: transcription cancelled'}", file=sys.stderr)
            failures += 1
            continue
        elapsed = run.job.result.elapsed_s if run.job.result else 0.0
        bar.finish(f"{_label(plan.title)} {plural(len(run.transcript.segments), 'line')} in {elapsed:.1f} s "
                   f"({plan.model.label})")
        results.append((plan, run.transcript))
        if not args.json:
            print(f"call {plan.call_id}: {plural(len(run.transcript.segments), 'line')} transcribed with "
                  f"{plan.model.label}" + (f", language {run.transcript.language}" if run.transcript.language else ""))
    if args.json:
        shaped = [{"call_id": p.call_id, "model": t.model, "language": t.language,
                   "segments": [s.to_record() for s in t.segments]} for p, t in results]
        print_json(shaped[0] if len(args.calls) == 1 and shaped else shaped)
    return 1 if failures else 0


def _label(title: str) -> str:
    return title if len(title) <= 28 else title[:27] + "…"
