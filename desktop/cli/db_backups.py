"""`callmark db backups|restore|recover`: the automatic backups, listed and put back; a damaged store salvaged."""

from __future__ import annotations

from datetime import datetime

from desktop import paths
from desktop.cli import action, print_json


def register_backups(inner, common) -> None:
    action(inner, "backups", common, _backups, "list the backups, newest first")
    res = action(inner, "restore", common, _restore,
                 "put a backup in the store's place (the current store is backed up first)")
    res.add_argument("backup", metavar="BACKUP", help="a backup's file name (from `db backups`) or path")
    rec = action(inner, "recover", common, _recover,
                 "salvage what can be read from a damaged store into a fresh one (SQLite's .recover)")
    rec.add_argument("damaged", metavar="DAMAGED", nargs="?",
                     help="the damaged file (default: the newest callmark.sqlite3.damaged-*, or the store if damaged)")
    rec.add_argument("-o", "--output", metavar="FILE",
                     help="where the salvaged store goes (default: the store's place, when it is empty)")


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


def _recover(args, ctx) -> int:
    from pathlib import Path

    from db.store import open_store, quick_check
    from desktop.errors import CallmarkError
    from desktop.services import damage

    store_path = paths.store_path(ctx.home)
    folder = paths.backups_dir(ctx.home)
    if args.damaged:
        source = Path(args.damaged).expanduser()
    else:
        if store_path.exists() and store_path.stat().st_size and quick_check(store_path) != ["ok"]:
            damage.set_aside(store_path, folder, "; ".join(quick_check(store_path)[:3]))
        found = damage.damaged_files(ctx.home)
        if not found:
            raise CallmarkError(f"{ctx.home}: no damaged store to recover (name one: `callmark db recover FILE`)")
        source = found[0]
    if args.output:
        target = Path(args.output).expanduser()
    elif store_path.exists() and store_path.stat().st_size:
        raise CallmarkError(f"{store_path}: a store is in its place; recover beside it with --output FILE")
    else:
        store_path.unlink(missing_ok=True)
        target = store_path
    report = damage.recover(source, target)
    if target == store_path:
        open_store(store_path, folder).close()  # brought up to the current schema if it was older
    if args.json:
        print_json(report.to_json())
    else:
        kept = ", ".join(f"{n} {t}" for t, n in sorted(report.kept.items()) if n)
        print(f"recovered {source.name} into {target}: {kept or 'no rows'}")
        if report.dropped:
            print("left out (what they pointed at was lost): "
                  + ", ".join(f"{n} {t}" for t, n in sorted(report.dropped.items())))
    return 0
