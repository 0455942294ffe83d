#!/usr/bin/env bash
# Put Callmark in this user's desktop: the menu entry, the icon in the hicolor sizes and the
# AppStream metainfo, under the XDG data folder ($XDG_DATA_HOME, or ~/.local/share). The entry
# lists audio/* and video/* (and the usual types by name, for desktops that do not read
# wildcards), so a file manager's "Open with" offers Callmark for recordings; it does not make
# Callmark the default player. Opening a recording that way runs `callmark FILE`: it is added to
# the library and opened.
#   packaging/install-desktop.sh [--exec PATH] [--uninstall]
# --exec: the callmark command the entry runs (default: `callmark` on PATH, else this tree's
# .venv/bin/callmark); the entry names it by full path, so it works from a menu whatever the PATH.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(dirname "$HERE")"
DATA="${XDG_DATA_HOME:-}"
case "$DATA" in /*) ;; *) DATA="$HOME/.local/share" ;; esac  # unset, empty or relative: the XDG default
APPS="$DATA/applications"
ICONS="$DATA/icons/hicolor"
METAINFO="$DATA/metainfo"
ENTRY="callmark.desktop"
META="app.callmark.Callmark.metainfo.xml"
EXEC=""
UNINSTALL=0

say() { printf 'install-desktop: %s\n' "$*" >&2; }

while [ $# -gt 0 ]; do
  case "$1" in
    --exec) EXEC="${2:?--exec needs a path}"; shift 2 ;;
    --uninstall) UNINSTALL=1; shift ;;
    -h|--help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) say "unknown argument: $1"; exit 2 ;;
  esac
done

refresh() {
  # The desktop's caches: which entries open which types, and the icon theme's index.
  if command -v update-desktop-database >/dev/null 2>&1; then update-desktop-database -q "$APPS" || true; fi
  if command -v gtk-update-icon-cache >/dev/null 2>&1 && [ -f "$ICONS/index.theme" ]; then
    gtk-update-icon-cache -q -t "$ICONS" || true
  fi
}

if [ "$UNINSTALL" -eq 1 ]; then
  rm -f "$APPS/$ENTRY" "$METAINFO/$META"
  find "$ICONS" -path '*/apps/callmark.*' -delete 2>/dev/null || true
  [ -d "$APPS" ] && refresh
  say "removed Callmark's entry, icon and metainfo from $DATA"
  exit 0
fi

if [ -z "$EXEC" ]; then
  if command -v callmark >/dev/null 2>&1; then
    EXEC="$(command -v callmark)"
  elif [ -x "$ROOT/.venv/bin/callmark" ]; then
    EXEC="$ROOT/.venv/bin/callmark"
  else
    say "no callmark command found: install Callmark first (pipx install $ROOT, or packaging/bootstrap.sh), or pass --exec PATH"
    exit 1
  fi
fi
case "$EXEC" in /*) ;; *) EXEC="$(cd "$(dirname "$EXEC")" && pwd)/$(basename "$EXEC")" ;; esac
if [ ! -x "$EXEC" ]; then
  say "$EXEC: not an executable callmark command"
  exit 1
fi

# The Desktop Entry spec's Exec: a path with reserved characters is quoted, with " ` $ \ escaped by
# a backslash inside the quotes (and every backslash doubled again, as in any string value); % is %%.
quoted="$(printf '%s' "$EXEC" | sed -e 's/%/%%/g')"
if printf '%s' "$EXEC" | grep -q '[^A-Za-z0-9/._+,=@:-]'; then
  quoted="\"$(printf '%s' "$EXEC" | sed -e 's/\\/\\\\\\\\/g' -e 's/["`$]/\\\\&/g' -e 's/%/%%/g')\""
fi
tryexec="$(printf '%s' "$EXEC" | sed -e 's/\\/\\\\/g')"

mkdir -p "$APPS" "$METAINFO" "$ICONS"
# Written beside its place and renamed there: a menu never reads half an entry.
tmpdir="$(mktemp -d "$APPS/.callmark.XXXXXX")"
trap 'rm -rf "$tmpdir"' EXIT
tmp="$tmpdir/$ENTRY"
while IFS= read -r line; do
  case "$line" in
    "Exec=callmark "*) printf 'Exec=%s %s\n' "$quoted" "${line#Exec=callmark }" ;;
    "TryExec=callmark") printf 'TryExec=%s\n' "$tryexec" ;;
    *) printf '%s\n' "$line" ;;
  esac
done < "$HERE/$ENTRY" > "$tmp"
if command -v desktop-file-validate >/dev/null 2>&1 && ! desktop-file-validate "$tmp" >&2; then
  say "the entry made for $EXEC does not validate; nothing installed"
  exit 1
fi
chmod 0644 "$tmp"
mv -f "$tmp" "$APPS/$ENTRY"
cp -f "$HERE/$META" "$METAINFO/$META"
(cd "$ROOT/resources/icons/hicolor" && find . -path '*/apps/callmark.*' -type f) | while read -r icon; do
  mkdir -p "$ICONS/$(dirname "$icon")"
  cp -f "$ROOT/resources/icons/hicolor/$icon" "$ICONS/$icon"
done
refresh
say "installed $APPS/$ENTRY (runs $EXEC), the icon in $ICONS and $METAINFO/$META"
