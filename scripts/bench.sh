#!/usr/bin/env bash
# `npm run bench`: the performance figures of docs/operations.md ("Benchmarks"), against real PostgreSQL,
# with in-run baselines.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
source scripts/setup.sh
source scripts/postgres.sh
if [ -n "${DATABASE_URL:-}" ]; then export TEST_DATABASE_URL="$DATABASE_URL"; unset DATABASE_URL; else pg_test_start; trap pg_test_stop EXIT; fi
pnpm exec turbo run bench --concurrency=1 --output-logs=full -- "$@"
