#!/usr/bin/env bash
# `npm start`: the whole product on embedded defaults: API server (PORT, default 4000) and web app
# (WEB_PORT, default 3000). Data under DATA_DIR (default ./.data).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
source scripts/setup.sh
export PORT="${PORT:-4000}" WEB_PORT="${WEB_PORT:-3000}"
export DATA_DIR="$(cd "$ROOT" && mkdir -p "${DATA_DIR:-./.data}" && cd "${DATA_DIR:-./.data}" && pwd)"
export API_URL="${API_URL:-http://localhost:$PORT}"
export APP_URL="${APP_URL:-http://localhost:$WEB_PORT}"
export NODE_ENV=production

echo "[start] building the web app and the API server" >&2
pnpm exec turbo run build --filter=@plenum/web --filter=@plenum/server --output-logs=errors-only >&2

pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; }
trap cleanup EXIT INT TERM

# --liftoff-only: V8 runs the embedded database's WebAssembly unoptimised, about 100 MB less memory and a
# faster start (docs/operations.md, "Memory of the embedded mode")
(cd apps/server && exec node --enable-source-maps --liftoff-only dist/main.js) & pids+=($!)
(cd apps/web && exec node node_modules/next/dist/bin/next start -p "$WEB_PORT") & pids+=($!)
echo "[start] API http://localhost:$PORT (docs /api/docs) · web app http://localhost:$WEB_PORT" >&2
wait -n
