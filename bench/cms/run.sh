#!/usr/bin/env bash
# The staff CMS's tables at 10,000 users and 100,000 payments: p50/p99 of a page (rows and total)
# of Gebruikers, Betalingen and Gebruikers abonnementen, and the Statistieken queries. Needs the
# local PostgreSQL; creates and drops a database of its own.
# Usage: bench/cms/run.sh   Env: USERS=10000 PAYMENTS=100000 RUNS=200, DATABASE_URL
set -euo pipefail
cd "$(dirname "$0")/../.."
export DATABASE_URL="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
cargo run --quiet --release -p domain --example cms_bench
