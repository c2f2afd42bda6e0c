#!/usr/bin/env bash
# Template search at 100,000 templates: p50/p99 of the /template page's queries (a page of 5 and
# the count). Needs the local PostgreSQL; creates and drops a database of its own.
# Usage: bench/templates/run.sh   Env: N=100000, DATABASE_URL
set -euo pipefail
cd "$(dirname "$0")/../.."
export DATABASE_URL="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
cargo run --quiet --release -p domain --example templates_bench
