#!/usr/bin/env bash
# Installs what is missing: Node >= 22 and pnpm (from npm), then the workspace dependencies.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=toolchain.sh
source "$ROOT/scripts/toolchain.sh"
cd "$ROOT"
stamp="node_modules/.plenum-install-stamp"
want="$(sha256sum pnpm-lock.yaml | cut -c1-16)-$(node -v)"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  echo "[setup] installing dependencies with pnpm $(pnpm -v) on Node $(node -v)" >&2
  CI=true pnpm install --frozen-lockfile >&2
  echo "$want" > "$stamp"
fi
