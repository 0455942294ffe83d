"""`callmark calls import DIR [--transcribe] [--dry-run] [--json]`: a folder of recordings at once."""

from __future__ import annotations

import sys

from desktop.cli import print_json


def add_import_command(inner, common) -> None:
    """Called by desktop.cli.calls: `import` is an action of `calls`, not a command of its own."""
    imp = inner.add_parser("import", parents=[common],
                           help="add every recording in a folder and its subfolders (Zoom, Teams, dialer)")
    imp.add_argument("folder", metavar="DIR")
    imp.add_argument("--transcribe", action="store_true",
                     help="queue the added calls without a transcript for Whisper, and transcribe them now")
    imp.add_argument("--dry-run", action="store_true", help="say what would be added; write nothing")
    imp.add_argument("--rep", metavar="NAME", help="the rep on every call added")
    imp.add_argument("--manager", metavar="NAME", help="the manager on every call added")
    imp.add_argument("--json", action="store_true")
    imp.set_defaults(handler=_import)


def _import(args, ctx) -> int:
    from desktop.services.folder_import import FolderImport, ImportProgress, check_folder
    from desktop.transcription.progress import ProgressBar

    check_folder(args.folder)  # before the store is opened: a wrong path writes nothing
    run = FolderImport(ctx.store, args.folder, dry_run=args.dry_run, rep=args.rep, manager=args.manager)
    bar = ProgressBar(label="importing")
    try:
        for event in run.events():
            if isinstance(event, ImportProgress):
                bar.update(event.fraction, None)
    except KeyboardInterrupt:
        run.cancel()
        bar.finish("import interrupted: the calls added so far are kept whole")
        raise
    summary = run.summary
    bar.finish(f"{len(summary.entries)} files: {summary.counts()}")
    transcribed = []
    if args.transcribe and not args.dry_run:
        transcribed = _transcribe_added(ctx, [e.call_id for e in summary.added if e.transcript is None],
                                        quiet=args.json)
    if args.json:
        out = summary.to_json()
        if args.transcribe:
            out["transcribed"] = transcribed
        print_json(out)
    else:
        _print_summary(summary)
    for e in summary.failed:
        print(f"callmark: {e.path}: {e.reason}", file=sys.stderr)
    return 1 if summary.failed else 0


def _print_summary(summary) -> None:
    for title, entries in (("added" if not summary.dry_run else "would add", summary.added),
                           ("skipped", summary.skipped), ("failed", summary.failed)):
        if not entries:
            continue
        print(f"{title} ({len(entries)}):")
        for e in entries:
            what = f"call {e.call_id}: " if e.call_id and e.outcome == "added" else ""
            extra = []
            if e.outcome == "added":
                extra.append(e.title or "")
                if e.recorded_at:
                    extra.append(e.recorded_at[:16].replace("T", " "))
                if e.source:
                    extra.append(e.source)
                if e.transcript:
                    extra.append(f"transcript {e.lines} lines")
            reason = f" — {e.reason}" if e.reason else ""
            print(f"  {what}{e.path}" + (f" ({', '.join(x for x in extra if x)})" if extra else "") + reason)
    print(summary.counts())


def _transcribe_added(ctx, call_ids: list[int], *, quiet: bool) -> list[dict]:
    """Queue the new calls (in the store: a crash or Ctrl+C loses nothing) and work through the queue."""
    from desktop.cli.transcription import run_with_bars
    from desktop.services import transcription_queue as queue

    queue.enqueue(ctx.store, call_ids)
    return [o.to_json() for o in run_with_bars(ctx.store, quiet=quiet)]
