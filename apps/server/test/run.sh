#!/usr/bin/env bash
# Integration tests over real HTTP, on PGlite and (when TEST_DATABASE_URL is set) real PostgreSQL.
set -euo pipefail
cd "$(dirname "$0")/.."
exec vitest run "$@"
