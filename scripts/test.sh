#!/usr/bin/env bash
# `npm test`: every test. Brings Node/pnpm and dependencies, a throwaway PostgreSQL (unless DATABASE_URL
# is given) and Debian's Chromium for the browser tests, then lint, typecheck, unit, integration and
# end-to-end tests.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
source scripts/setup.sh
source scripts/postgres.sh

# Debian packages the tests need, installed in one apt run when missing
need=()
if [ -z "${DATABASE_URL:-}" ] && [ -z "$(pg_bin_dir)" ]; then need+=(postgresql); fi
# psql restores an exported embedded database in db-export.test.ts, also against a given DATABASE_URL
if [ -n "${DATABASE_URL:-}" ] && [ -z "$(pg_bin_dir)" ] && ! command -v psql >/dev/null; then need+=(postgresql-client); fi
if [ ! -x /usr/bin/chromium ]; then need+=(chromium); fi
if [ ${#need[@]} -gt 0 ]; then
  echo "[test] installing Debian packages: ${need[*]}" >&2
  SUDO=""; [ "$(id -u)" != "0" ] && SUDO="sudo"
  $SUDO apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >&2
fi

if [ -n "${DATABASE_URL:-}" ]; then
  export TEST_DATABASE_URL="$DATABASE_URL"
  unset DATABASE_URL
else
  pg_test_start
  trap pg_test_stop EXIT
fi

echo "[test] lint" >&2
pnpm exec biome check .
echo "[test] doc links: every docs/<file>.md heading a comment or a document names exists" >&2
node scripts/check-doc-links.mjs
echo "[test] import rules: no cycles, layers one way (.dependency-cruiser.cjs)" >&2
pnpm run -s deps
echo "[test] typecheck, unit and integration tests (PGlite + PostgreSQL)" >&2
pnpm exec turbo run typecheck test --concurrency=1 --output-logs=new-only
echo "[test] end-to-end (Chromium)" >&2
pnpm exec turbo run test:e2e --concurrency=1 --output-logs=new-only
