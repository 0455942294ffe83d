"""One error root: every error Callmark raises for a coach or a script derives from CallmarkError."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import db
import desktop
from desktop.errors import CallmarkError

# Control flow inside one piece, never shown to anyone: a cancel, a retry with another encoding.
INTERNAL = {"TaskCancelled", "TranscriptionCancelled"}


def _modules():
    for package in (desktop, db):
        for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            if ".migrations" in info.name or info.name.endswith("__main__"):
                continue
            yield importlib.import_module(info.name)


def test_every_public_error_class_derives_from_callmark_error():
    found, outside = [], []
    for module in _modules():
        for name, cls in vars(module).items():
            if not (inspect.isclass(cls) and issubclass(cls, BaseException) and cls.__module__ == module.__name__):
                continue
            if name.startswith("_") or name in INTERNAL:
                continue
            found.append(f"{module.__name__}.{name}")
            if not issubclass(cls, CallmarkError):
                outside.append(f"{module.__name__}.{name}")
    assert len(found) > 20  # the walk saw the app's errors
    assert outside == []


def test_a_store_that_is_not_ours_is_a_callmark_error_naming_the_file(tmp_path):
    from db.store import open_store

    path = tmp_path / "notes.txt"
    path.write_text("not a store", encoding="utf-8")
    try:
        open_store(path)
    except CallmarkError as exc:
        assert str(path) in str(exc) and "not a Callmark store" in str(exc)
    else:
        raise AssertionError("a text file was opened as a store")
