"""Import PySide6 the way Callmark uses it: without the ``__feature__`` import hook.

PySide6 wraps ``builtins.__import__`` to support its opt-in
``from __feature__ import snake_case, true_property``. After every import
statement the wrapper looks at the imported module and, the first time, reads
its whole source file to see whether it mentions PySide6
(``shibokensupport/feature.py``, ``_mod_uses_pyside``). Callmark uses neither
feature, and at start-up that reading, for every module imported after Qt,
was about a tenth of the time to the first paint. So the wrapper is taken out
again right after PySide6 put it in; PySide6's own import function underneath
(its lazy loading of classes) stays.
"""

from __future__ import annotations

import builtins


def import_qt() -> None:
    """Import PySide6's core and leave ``__import__`` as it was before the feature hook."""
    import PySide6.QtCore  # noqa: F401 - installs the hook on first import

    hook = getattr(builtins, "__feature_import__", None)
    underneath = getattr(builtins, "__orig_import__", None)
    if hook is not None and underneath is not None and builtins.__import__ is hook:
        builtins.__import__ = underneath


def feature_hook_active() -> bool:
    """Whether imports still pass through PySide6's ``__feature__`` hook."""
    hook = getattr(builtins, "__feature_import__", None)
    return hook is not None and builtins.__import__ is hook
