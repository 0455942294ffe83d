# PyInstaller runtime hook: python-vlc loads the libvlc shipped in the bundle, and libvlc its
# plugins from there (the bundle does not depend on a VLC installed on the machine).
import os
import sys

_here = sys._MEIPASS  # noqa: SLF001 (PyInstaller's own attribute)
os.environ.setdefault("PYTHON_VLC_LIB_PATH", os.path.join(_here, "libvlc.so.5"))
os.environ.setdefault("PYTHON_VLC_MODULE_PATH", os.path.join(_here, "vlc", "plugins"))
os.environ.setdefault("VLC_PLUGIN_PATH", os.path.join(_here, "vlc", "plugins"))
