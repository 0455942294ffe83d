#!/usr/bin/env bash
# Build Callmark's one-folder bundle with PyInstaller: dist/callmark/callmark, carrying Python, Qt and
# its plugins, libvlc and its plugins, faster-whisper with the Whisper tiny.en model, and the
# resources. Sets up the venv first (bootstrap.sh; PyInstaller comes with the test tools).
#   packaging/bundle.sh [--dist DIR] [--work DIR]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DIST="$ROOT/dist"
WORK="$ROOT/build/bundle"
while [ $# -gt 0 ]; do
  case "$1" in
    --dist) DIST="$2"; shift 2 ;;
    --work) WORK="$2"; shift 2 ;;
    *) echo "bundle.sh: unknown argument: $1" >&2; exit 2 ;;
  esac
done
bash "$ROOT/packaging/bootstrap.sh"
PY="$ROOT/.venv/bin/python"

# libvlc as the system has it (Debian: libvlc5, vlc-plugin-base, vlc-plugin-video-output).
libvlc="$("$PY" -c 'import ctypes.util; print(ctypes.util.find_library("vlc") or "")')"
libdir=""
for dir in /usr/lib/x86_64-linux-gnu /usr/lib/aarch64-linux-gnu /usr/lib64 /usr/lib; do
  if [ -e "$dir/libvlc.so.5" ] && [ -d "$dir/vlc/plugins" ]; then libdir="$dir"; break; fi
done
if [ -z "$libdir" ]; then
  echo "bundle.sh: libvlc.so.5 and its plugins not found (found: ${libvlc:-nothing}); run packaging/bootstrap.sh" >&2
  exit 1
fi

CALLMARK_VLC_LIBDIR="$libdir" "$PY" -m PyInstaller --noconfirm --clean --log-level WARN \
  --distpath "$DIST" --workpath "$WORK" "$ROOT/packaging/bundle/callmark.spec" >&2

# libvlc's plugin cache for the bundle's own plugins (it holds their paths, sizes and times, so it is
# made here, after the copy): without it every start of the bundle scans them all.
plugins="$DIST/callmark/_internal/vlc/plugins"
if [ -x "$libdir/vlc/vlc-cache-gen" ]; then
  "$libdir/vlc/vlc-cache-gen" "$plugins" >&2
else
  echo "bundle.sh: no vlc-cache-gen (Debian: libvlc-bin): the bundle scans libvlc's plugins at every start" >&2
fi
echo "$DIST/callmark/callmark"
