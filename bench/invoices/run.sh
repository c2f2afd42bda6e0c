#!/usr/bin/env bash
# Invoices per second: N paid payments through the `create_invoice` job with the local
# bookkeeping (contact, gapless number, document and PDF kept), by one worker on a database of its
# own, beside the PDF rendered alone in the same run. One JSON line per run and concurrency goes to
# bench/invoices/results.jsonl, and is printed.
#
# Usage: bench/invoices/run.sh [N=1000]
# Env:   CONCURRENCY="4 16" (worker concurrencies to run; 4 is the kind's own)  LABEL=
#        REDIS_URL=redis://127.0.0.1:6379  DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"

n="${1:-1000}"
target="${CARGO_TARGET_DIR:-target}"
export REDIS_URL="${REDIS_URL:-redis://127.0.0.1:6379}"
export DATABASE_URL="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}"

cargo build --release --quiet -p worker --example invoice_bench

for conc in ${CONCURRENCY:-4 16}; do
  line=$(N="$n" CONC="$conc" "$target/release/examples/invoice_bench")
  line=$(python3 -c 'import json,sys; d=json.loads(sys.argv[1]); d["label"]=sys.argv[2]; d["cpus"]=int(sys.argv[3]); print(json.dumps(d))' \
    "$line" "${LABEL:-}" "$(nproc)")
  echo "$line"
  echo "$line" >>bench/invoices/results.jsonl
done
