#!/usr/bin/env bash
# The SQL statements written with sqlx's macros (`sqlx::query!`, `query_as!`, `query_scalar!`,
# `query_file*!`) are checked against the schema when they compile: online against a database
# migrated from migrations/, or offline against their descriptions committed in .sqlx/. Every
# build uses .sqlx/ (.cargo/config.toml sets SQLX_OFFLINE=true), so `make run` on a fresh clone
# needs no database to compile. This script makes those descriptions from the statements and the
# migrations:
#
#   scripts/sqlx-data.sh           writes .sqlx/ again (after adding or changing a statement or a
#                                  migration; commit the result)
#   scripts/sqlx-data.sh --check   fails when .sqlx/ is not what the statements and migrations
#                                  give (a stale or missing description, or one no statement uses);
#                                  `make test-rust` runs it before the tests
#
# It migrates a fresh database of its own, touches the sources that hold checked statements (so
# their macros run again) and builds the test targets online with the descriptions written to a
# temporary folder. The tests then reuse that build.
set -euo pipefail

root=$(git rev-parse --show-toplevel)
cd "$root"
mode=${1:-write}
case "$mode" in write | --check) ;; *) echo "usage: $0 [--check]" >&2; exit 2 ;; esac

server=${SQLX_DATA_SERVER:-postgres://postgres@127.0.0.1:5432}
db="spreekkamer_sqlx_data_$$"
out=$(mktemp -d)
cleanup() {
  psql "$server/postgres" -qc "drop database if exists $db with (force)" >/dev/null 2>&1 || true
  rm -rf "$out"
}
trap cleanup EXIT

psql "$server/postgres" -qc "create database $db"
for migration in migrations/*.sql; do
  # one transaction per file, as the api applies them
  psql "$server/$db" -q -1 -v ON_ERROR_STOP=1 -f "$migration" >/dev/null
done

grep -rlE --include='*.rs' 'sqlx::query(_as|_scalar|_file|_file_as|_file_scalar)?!' \
  api domain integrations jobs scheduler worker | xargs --no-run-if-empty touch
SQLX_OFFLINE=false SQLX_OFFLINE_DIR="$out" DATABASE_URL="$server/$db" cargo test --workspace --no-run --quiet

if [ "$mode" = --check ]; then
  if ! diff -r "$out" .sqlx >/dev/null 2>&1; then
    echo "The compile-time query descriptions in .sqlx/ are stale:"
    diff -rq "$out" .sqlx | sed "s|$out|(the statements)|" || true
    echo "Write them again with scripts/sqlx-data.sh (or make sqlx-data) and commit .sqlx/."
    exit 1
  fi
  echo "The query descriptions in .sqlx/ match the statements ($(ls .sqlx | wc -l) statements)."
else
  rm -rf .sqlx
  mkdir .sqlx
  cp "$out"/query-*.json .sqlx/ 2>/dev/null || true
  echo "Wrote $(ls .sqlx | wc -l) query descriptions to .sqlx/."
fi
