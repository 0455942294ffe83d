"""Callmark: replay sales calls beside their transcript and coach one behavior at a time."""

DISTRIBUTION = "callmark"


def __getattr__(name: str) -> str:
    # The one version number is the package's (pyproject.toml), read from its installed metadata,
    # and only when asked: importlib.metadata costs a start-up that never shows it.
    if name == "__version__":
        from importlib.metadata import version

        globals()["__version__"] = value = version(DISTRIBUTION)
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
