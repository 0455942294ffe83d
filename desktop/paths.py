"""Where Callmark keeps its files: one data folder, from platformdirs or the user's choice.

Order: an explicit ``--home DIR``, then ``CALLMARK_HOME``, then the platform's
user data folder. Everything the coach writes lives in the store inside it.

What Callmark ships (the demo call, the record's schema, the packet templates,
icons, the desktop entry) is package data, ``desktop/resources``: in the
source tree a link to the top-level ``resources/``, in a wheel or the bundle a
copy. ``resource()`` finds it with importlib.resources, wherever the package is
installed.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

APP_NAME = "Callmark"
STORE_FILENAME = "callmark.sqlite3"
ENV_HOME = "CALLMARK_HOME"
ENV_STORE = "CALLMARK_STORE"  # a team store's URL (postgresql://coach@host/callmark) or another SQLite file

# Resource paths made on first use (module __getattr__): importlib.resources costs a start-up
# that finds calls in the library and never needs one.
_RESOURCE_NAMES = {
    "RESOURCES": (),
    "DEMO_MEDIA": ("demo", "acme-discovery.ogg"),
    "DEMO_SCRIPT": ("demo", "acme-discovery.script.json"),
    "SCHEMA": ("schema", "coaching-record-1.schema.json"),
    "PACKET_TEMPLATES": ("packet",),
    "ICONS": ("icons",),
    "DESKTOP_FILES": ("desktop",),
}


def resource(*parts: str) -> Path:
    """A file or folder Callmark ships, as a real path (the player, Jinja's loader and the store open it)."""
    from importlib.resources import files

    # Callmark is installed as files (a wheel, an editable install, the bundle), never run from a
    # zip, so the package's data is on disk and os.fspath gives its path.
    return Path(os.fspath(files("desktop").joinpath("resources", *parts)))


def __getattr__(name: str) -> Path:
    if name in _RESOURCE_NAMES:
        value = resource(*_RESOURCE_NAMES[name])
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def data_home(explicit: str | os.PathLike[str] | None = None) -> Path:
    """The data folder, created with mode 0700 if it does not exist yet."""
    if explicit:
        home = Path(explicit).expanduser()
    elif os.environ.get(ENV_HOME):
        home = Path(os.environ[ENV_HOME]).expanduser()
    else:
        home = _platform_data_dir()
    home = home.resolve()
    if home.exists() and not home.is_dir():
        raise NotADirectoryError(f"{home}: the data folder is a file, not a folder")
    home.mkdir(parents=True, exist_ok=True, mode=0o700)
    try:
        os.chmod(home, 0o700)
    except PermissionError:
        pass  # a shared folder the coach does not own: still usable, just not tightened
    return home


def _platform_data_dir() -> Path:
    """The user data folder: the XDG rule on Linux (what platformdirs answers there, without
    importing it on every start), platformdirs elsewhere."""
    if sys.platform.startswith("linux"):
        base = os.environ.get("XDG_DATA_HOME", "").strip()
        return Path(base if base else "~/.local/share").expanduser() / APP_NAME
    import platformdirs

    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def store_path(home: Path) -> Path:
    return home / STORE_FILENAME


STORE_CHOICE_FILENAME = "store-choice.txt"  # the store chosen in the app's preferences (one line)


def chosen_store(explicit: str | None = None, home: Path | None = None) -> str | None:
    """The store the coach chose: ``--store``, then ``CALLMARK_STORE``, then the app's preferences
    (a line in the data folder: the choice can't live in the store it chooses). None: the data
    folder's own store file."""
    return explicit or os.environ.get(ENV_STORE) or (saved_store_choice(home) if home else None) or None


def saved_store_choice(home: Path) -> str | None:
    try:
        return (home / STORE_CHOICE_FILENAME).read_text(encoding="utf-8").strip() or None
    except FileNotFoundError:
        return None


def save_store_choice(home: Path, choice: str | None) -> None:
    """Keep (or, with None or "", forget) the store chosen in the preferences; owner-only, whole or not at all."""
    target = home / STORE_CHOICE_FILENAME
    choice = (choice or "").strip()
    if not choice:
        target.unlink(missing_ok=True)
        return
    part = target.with_name(target.name + ".part")
    fd = os.open(part, os.O_CREAT | os.O_WRONLY | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(choice + "\n")
    part.replace(target)


MACHINE_FILENAME = "this-machine.json"  # this computer's own: its media folders, where recordings are on it


def machine_file(home: Path) -> Path:
    """This computer's settings that never go into a (team) store: desktop.services.this_machine."""
    return Path(home) / MACHINE_FILENAME


def cache_dir(home: Path, name: str) -> Path:
    """A cache folder next to the store (waveform peaks, clips)."""
    folder = home / "cache" / name
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    return folder


def backups_dir(home: Path) -> Path:
    folder = home / "backups"
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    return folder
