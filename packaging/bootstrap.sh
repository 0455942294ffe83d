#!/usr/bin/env bash
# Set up what Callmark needs on this machine, once: the system libraries
# (libvlc and its plugins, the X/EGL/xcb/fontconfig libraries Qt loads, the
# speech and audio tools the demo and the tests use), a virtualenv at the repo
# root, and the project installed editable with its test extras.
# Idempotent and quick when nothing is missing. Sourced by run.sh and test.sh.
#   packaging/bootstrap.sh           everything: system packages, .venv, Callmark editable
#   packaging/bootstrap.sh --list    print the Debian packages it installs, and why, and stop
#   packaging/bootstrap.sh --system  only the system packages (then `pipx install .` or
#                                    `pip install callmark-*.whl` gives a working `callmark`)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"
PYTHON="${PYTHON:-python3}"

DEBIAN_PACKAGES=(
  # playback: libvlc, its codecs and outputs (dummy output for tests, xcb video in the window)
  libvlc5 vlc-plugin-base vlc-plugin-video-output
  # libvlc's plugin cache (vlc-cache-gen): without it every start scans some 300 plugins (0.2 s);
  # packaging/bundle.sh makes the bundle's own with it
  libvlc-bin
  # Qt 6 (PySide6 wheels) on X11/xcb, EGL and fontconfig
  libegl1 libgl1 libopengl0 libglib2.0-0 libfontconfig1 libfreetype6 libdbus-1-3
  libxkbcommon0 libxkbcommon-x11-0 libx11-xcb1 libxcb-cursor0 libxcb-icccm4 libxcb-image0
  libxcb-keysyms1 libxcb-randr0 libxcb-render-util0 libxcb-shape0 libxcb-xinerama0
  libxcb-xkb1 libxcb-xfixes0 libxrender1 libxi6 fonts-dejavu-core
  # Qt WebEngine (the packet test opens the packet in Chromium's engine) and Qt Multimedia
  libnss3 libnspr4 libxcomposite1 libxdamage1 libxrandr2 libxtst6 libxkbfile1 libasound2
  libdrm2 libgbm1 libxcb-dri3-0 libxshmfence1 libpulse0
  # the demo call's generator and the tests' recordings; PDF pages for the packet tests
  espeak-ng sox libsox-fmt-base poppler-utils
  # the desktop entry and the AppStream metainfo are checked with their validators; the
  # entry's types are registered with update-desktop-database (packaging/install-desktop.sh)
  desktop-file-utils appstream
  # the SQLite command-line tool: `callmark db recover` uses its .recover where the build can run it
  sqlite3
  # the team store's tests start a throw-away PostgreSQL server (initdb + pg_ctl)
  postgresql
)

say() { printf 'callmark setup: %s\n' "$*" >&2; }

missing_packages() {
  local pkg
  for pkg in "$@"; do
    if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
      printf '%s\n' "$pkg"
    fi
  done
}

install_system_packages() {
  command -v dpkg-query >/dev/null 2>&1 || { say "not a Debian-like system: install libvlc, Qt's X11/EGL libraries, espeak-ng and sox yourself"; return 0; }
  local missing
  mapfile -t missing < <(missing_packages "$@")
  [ "${#missing[@]}" -eq 0 ] && return 0
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
      sudo="sudo"
    else
      say "these system packages are missing and I can't install them (not root, no sudo): ${missing[*]}"
      say "ask an administrator to run: apt-get install ${missing[*]}"
      exit 1
    fi
  fi
  say "installing system packages: ${missing[*]}"
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
}

make_venv() {
  [ -x "$VENV/bin/python" ] && return 0
  say "creating $VENV"
  if ! "$PYTHON" -m venv "$VENV" 2>/dev/null; then
    rm -rf "$VENV"
    install_system_packages python3-venv
    "$PYTHON" -m venv "$VENV"
  fi
}

install_project() {
  local stamp="$VENV/.callmark-installed" want
  want="$(cat "$ROOT/pyproject.toml" | sha256sum | cut -d' ' -f1)"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
    return 0
  fi
  say "installing Callmark and its test tools into $VENV"
  "$VENV/bin/python" -m pip install -q --disable-pip-version-check --upgrade pip >&2
  "$VENV/bin/python" -m pip install -q --disable-pip-version-check -e "$ROOT[test]" >&2
  printf '%s' "$want" > "$stamp"
}

compile_sources() {
  # Bytecode for the app's own modules, as an installed package would have: where
  # PYTHONDONTWRITEBYTECODE is set, Python would otherwise compile them at every start
  # (about a tenth of a second). Only changed files are compiled again.
  "$VENV/bin/python" -m compileall -q "$ROOT/desktop" "$ROOT/db" >/dev/null || true
}

case "${1:-}" in
  --list)
    # The list above with its comments: what each group is for.
    sed -n '/^DEBIAN_PACKAGES=(/,/^)/p' "${BASH_SOURCE[0]}" | sed -e '1d' -e '$d' -e 's/^  //'
    exit 0 ;;
  --system)
    install_system_packages "${DEBIAN_PACKAGES[@]}"
    exit 0 ;;
  "") ;;
  *) say "unknown argument: $1 (use --list or --system, or nothing)"; exit 2 ;;
esac

install_system_packages "${DEBIAN_PACKAGES[@]}"
make_venv
install_project
compile_sources
