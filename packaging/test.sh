#!/usr/bin/env bash
# Run the whole test suite headless (Qt offscreen, libvlc with dummy outputs). Sets itself up first.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$ROOT/packaging/bootstrap.sh"
cd "$ROOT"
export QT_QPA_PLATFORM=offscreen
exec "$ROOT/.venv/bin/python" -m pytest "$@"
