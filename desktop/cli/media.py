"""`callmark media folders list|add|remove` and `callmark media find CALL`: this machine's media folders.

The folders are this machine's (kept in its data folder, never in a team
store); `media find` looks in them for a call's recording by SHA-256 and this
machine remembers where it is. A file picked by hand is `calls relink CALL FILE`.
"""

from __future__ import annotations

from desktop.cli import action, print_json


def register(sub, common) -> None:
    parser = sub.add_parser("media", parents=[common], help="where recordings are on this machine")
    inner = parser.add_subparsers(dest="media_command", metavar="ACTION", required=True)

    folders = inner.add_parser("folders", parents=[common], help="this machine's media folders")
    what = folders.add_subparsers(dest="folders_command", metavar="ACTION", required=True)
    action(what, "list", common, _list, "list them")
    action(what, "add", common, _add, "add a folder where recordings live").add_argument("folder")
    action(what, "remove", common, _remove, "stop looking in a folder").add_argument("folder")
    find = action(inner, "find", common, _find, "find a call's recording in this machine's media folders (by SHA-256)")
    find.add_argument("call", help="call id (or exact title)")

def _machine(ctx):
    from desktop.services.this_machine import ThisMachine

    return ThisMachine(ctx.home)  # no store needed: the folders are this machine's


def _print_folders(args, machine, folders) -> int:
    if args.json:
        print_json({"machine": machine.name, "media_folders": [str(f) for f in folders]})
    else:
        for folder in folders:
            print(folder)
    return 0


def _list(args, ctx) -> int:
    machine = _machine(ctx)
    return _print_folders(args, machine, machine.media_folders())


def _add(args, ctx) -> int:
    machine = _machine(ctx)
    return _print_folders(args, machine, machine.add_media_folder(args.folder))


def _remove(args, ctx) -> int:
    machine = _machine(ctx)
    return _print_folders(args, machine, machine.remove_media_folder(args.folder))


def _find(args, ctx) -> int:
    from desktop.errors import CallmarkError
    from desktop.services.calls import resolve_call
    from desktop.services.media_index import find_in_media_folders
    from desktop.services.relink import recording_missing
    from desktop.services.this_machine import machine_of, where_it_was

    call = resolve_call(ctx.store, args.call)
    row = call if not recording_missing(call) else find_in_media_folders(ctx.store, call.id)
    if row is None:
        folders = machine_of(ctx.store).media_folders()
        where = ", ".join(str(f) for f in folders) if folders else "none set (`callmark media folders add DIR`)"
        raise CallmarkError(f"call {call.id} “{call.title}”: its recording is in none of this machine's media "
                            f"folders ({where}); {where_it_was(call)}")
    if args.json:
        print_json(row.to_json())
    else:
        print(row.media_path)
    return 0

