"""`callmark db backups|restore`: the automatic backups, listed and put back."""

from __future__ import annotations

from datetime import datetime

from desktop import paths
from desktop.cli import print_json


def register_backups(inner, common) -> None:
    lst = inner.add_parser("backups", parents=[common], help="list the backups, newest first")
    lst.add_argument("--json", action="store_true")
    lst.set_defaults(handler=_backups)
    res = inner.add_parser("restore", parents=[common],
                           help="put a backup in the store's place (the current store is backed up first)")
    res.add_argument("backup", metavar="BACKUP", help="a backup's file name (from `db backups`) or path")
    res.add_argument("--json", action="store_true")
    res.set_defaults(handler=_restore)


def _backups(args, ctx) -> int:
    from desktop.services import backups

    now = datetime.now()
    found = backups.list_backups(paths.backups_dir(ctx.home))
    if args.json:
        print_json([dict(b.to_json(), age_seconds=int(b.age(now).total_seconds()),
                         holds=backups.counts(b.path)) for b in found])
        return 0
    if not found:
        print("no backups yet")
    for b in found:
        held = ", ".join(f"{n} {k}" for k, n in backups.counts(b.path).items())
        kind = "automatic" if b.automatic else "kept"
        print(f"{b.made_at:%Y-%m-%d %H:%M}  {backups.describe_age(b.age(now)):>16}  {kind:<9}  "
              f"{b.size // 1024:>7} KB  {held}  {b.path.name}")
    return 0


def _restore(args, ctx) -> int:
    from db.store import open_store
    from desktop.services import backups

    folder = paths.backups_dir(ctx.home)
    chosen = backups.resolve_backup(folder, args.backup)
    store_path = paths.store_path(ctx.home)
    before = backups.restore(store_path, chosen, folder)
    open_store(store_path, folder).close()  # an older backup is brought up to the current schema
    if args.json:
        print_json({"restored": str(chosen), "previous_store_saved_as": str(before.path) if before else None,
                    "holds": backups.counts(store_path)})
    else:
        print(f"restored {chosen.name}" + (f"; the store it replaced is kept as {before.path.name}" if before else ""))
    return 0
