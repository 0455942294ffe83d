"""`callmark transcript import|export|speakers|rename-speaker|set-rep|versions|restore`."""

from __future__ import annotations

import sys

from desktop.cli import print_json


def register(sub, common) -> None:
    parser = sub.add_parser("transcript", parents=[common], help="import, export and tidy a call's transcript")
    verbs = parser.add_subparsers(dest="transcript_command", metavar="ACTION", required=True)

    imp = verbs.add_parser("import", parents=[common], help="import a Zoom/Teams WebVTT, SRT or JSON transcript")
    imp.add_argument("call", help="call id or exact title")
    imp.add_argument("file", help="FILE.vtt, FILE.srt or FILE.json")
    imp.add_argument("--keep-readable", action="store_true",
                     help="import the cues that can be read and list the others (default: refuse the file)")
    imp.add_argument("--json", action="store_true")
    imp.set_defaults(handler=_import)

    exp = verbs.add_parser("export", parents=[common], help="write the call's transcript as txt, srt, vtt or json")
    exp.add_argument("call", help="call id or exact title")
    exp.add_argument("--format", choices=("txt", "srt", "vtt", "json"),
                     help="default: from -o's suffix, else txt")
    exp.add_argument("-o", "--output", metavar="FILE", help="write here (atomically) instead of printing")
    exp.set_defaults(handler=_export)

    spk = verbs.add_parser("speakers", parents=[common], help="list the call's speakers")
    spk.add_argument("call")
    spk.add_argument("--json", action="store_true")
    spk.set_defaults(handler=_speakers)

    ren = verbs.add_parser("rename-speaker", parents=[common], help="name a speaker once for the whole call")
    ren.add_argument("call")
    ren.add_argument("speaker", help="the speaker's label or current name")
    ren.add_argument("name")
    ren.set_defaults(handler=_rename)

    rep = verbs.add_parser("set-rep", parents=[common], help="mark which speaker is the rep")
    rep.add_argument("call")
    rep.add_argument("speaker")
    rep.set_defaults(handler=_set_rep)

    ver = verbs.add_parser("versions", parents=[common], help="list the transcript's versions")
    ver.add_argument("call")
    ver.add_argument("--json", action="store_true")
    ver.set_defaults(handler=_versions)

    res = verbs.add_parser("restore", parents=[common], help="make an earlier version current again")
    res.add_argument("call")
    res.add_argument("version", type=int, help="version id from `callmark transcript versions`")
    res.set_defaults(handler=_restore)


def _call_id(ctx, ref: str) -> int:
    from desktop.services.calls import resolve_call

    return resolve_call(ctx.store, ref).id


def _import(args, ctx) -> int:
    from desktop.services.transcript_io import import_transcript

    summary = import_transcript(ctx.store, _call_id(ctx, args.call), args.file, keep_readable=args.keep_readable)
    if args.json:
        print_json(summary.to_json())
        return 0
    for line in summary.skipped:
        print(f"callmark: skipped {line}", file=sys.stderr)
    who = f"; speakers: {', '.join(summary.speakers)}" if summary.speakers else ""
    print(f"call {summary.call_id}: imported {summary.imported} of {summary.cue_count} cues from "
          f"{summary.source_file}{who}")
    return 0


def _export(args, ctx) -> int:
    from desktop.services.transcript_io import export_to_file, format_for_path, render_export

    call_id = _call_id(ctx, args.call)
    fmt = args.format or (format_for_path(args.output) if args.output else None) or "txt"
    if args.output:
        path = export_to_file(ctx.store, call_id, fmt, args.output)
        print(f"wrote {path}", file=sys.stderr)
    else:
        sys.stdout.write(render_export(ctx.store, call_id, fmt))
    return 0


def _speakers(args, ctx) -> int:
    from desktop.services.transcripts import speakers

    found = speakers(ctx.store, _call_id(ctx, args.call))
    if args.json:
        print_json(found)
        return 0
    for s in found:
        role = f" ({s['role']})" if s["role"] else ""
        label = f"  [{s['label']}]" if s["label"] != s["name"] else ""
        print(f"{s['name']}{role}{label}")
    return 0


def _rename(args, ctx) -> int:
    from desktop.services.transcripts import rename_speaker

    rename_speaker(ctx.store, _call_id(ctx, args.call), args.speaker, args.name)
    return 0


def _set_rep(args, ctx) -> int:
    from desktop.services.transcripts import set_rep_speaker, speakers

    call_id = _call_id(ctx, args.call)
    if not any(args.speaker in (s["label"], s["name"]) for s in speakers(ctx.store, call_id)):
        from desktop.errors import NotFound

        raise NotFound(f"call {call_id}: no speaker {args.speaker!r}")
    set_rep_speaker(ctx.store, call_id, args.speaker)
    return 0


def _versions(args, ctx) -> int:
    from desktop.services.transcripts import versions

    found = versions(ctx.store, _call_id(ctx, args.call))
    if args.json:
        print_json([{"id": i, "origin": o, "current": c} for i, o, c in found])
        return 0
    for i, origin, current in found:
        print(f"{i:>5}  {origin:<8}{'  current' if current else ''}")
    return 0


def _restore(args, ctx) -> int:
    from desktop.services.transcripts import restore_version

    restore_version(ctx.store, _call_id(ctx, args.call), args.version)
    return 0
