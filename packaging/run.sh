#!/usr/bin/env bash
# Open Callmark (on the demo call when the library is empty). Sets itself up first.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$ROOT/packaging/bootstrap.sh"
exec "$ROOT/.venv/bin/callmark" "$@"
