#!/usr/bin/env bash
# Payment webhooks at once: PAYMENTS paid payments in the local checkout, their webhooks posted all
# at once to one api process (`api serve`), synced by one worker process (`worker`). Reports the
# webhook's answer times and the time until every payment is PAID and its subscription active.
# One JSON line per run goes to bench/payments/results.jsonl, a summary to stdout.
#
# Usage: bench/payments/run.sh [PAYMENTS=1000]
# Env:   DELIVERIES=1 (times each webhook is posted)  LABEL=
#        REDIS_URL=redis://127.0.0.1:6379  PGHOST=127.0.0.1 PGUSER=postgres
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"

payments="${1:-1000}"
target="${CARGO_TARGET_DIR:-target}"
export PGHOST="${PGHOST:-127.0.0.1}" PGUSER="${PGUSER:-postgres}"
redis_url="${REDIS_URL:-redis://127.0.0.1:6379}"

log() { echo "[payments-bench] $*" >&2; }

cargo build --release --quiet -p api --bin api --example webhook_bench
cargo build --release --quiet -p worker --bin worker

ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }
api_port=$(free_port)
worker_port=$(free_port)
db="spreekkamer_bench_payments_$$"
namespace="bench_payments_$$"
work=$(mktemp -d)
api_pid=""
worker_pid=""

cleanup() {
  status=$?
  for pid in $api_pid $worker_pid; do kill "$pid" 2>/dev/null || true; done
  for pid in $api_pid $worker_pid; do wait "$pid" 2>/dev/null || true; done
  psql -qc "drop database if exists $db with (force)" >/dev/null 2>&1 || true
  redis-cli -u "$redis_url" --scan --pattern "$namespace:*" 2>/dev/null | xargs -r -n 500 redis-cli -u "$redis_url" del >/dev/null 2>&1 || true
  if [ "$status" -ne 0 ]; then
    for p in api worker; do
      [ -s "$work/$p.log" ] && { log "the $p's last log lines:"; tail -n 30 "$work/$p.log" >&2; }
    done
  fi
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

psql -qc "create database $db" >/dev/null

export APP_ENV=development \
  APP_PUBLIC_URL="http://127.0.0.1:$api_port" \
  APP_DATABASE_URL="postgres://$PGUSER@$PGHOST:5432/$db" \
  APP_REDIS_URL="$redis_url" \
  APP_JOBS_NAMESPACE="$namespace" \
  APP_WEB_DIST="$work/no-spa" \
  APP_LOG=warn
# Mollie posts from a handful of addresses; the per-address limit would refuse a burst from one.
export APP_RATE_LIMITS=off

"$target/release/api" migrate >"$work/migrate.log" 2>&1
APP_HTTP_ADDR="127.0.0.1:$api_port" "$target/release/api" serve >"$work/api.log" 2>&1 &
api_pid=$!
APP_WORKER_HTTP_ADDR="127.0.0.1:$worker_port" "$target/release/worker" >"$work/worker.log" 2>&1 &
worker_pid=$!

for _ in $(seq 1 300); do
  curl -fsS "http://127.0.0.1:$api_port/readyz" >/dev/null 2>&1 && break
  kill -0 "$api_pid" 2>/dev/null || { log "the api exited"; exit 1; }
  sleep 0.2
done
curl -fsS "http://127.0.0.1:$api_port/readyz" >/dev/null
kill -0 "$worker_pid" 2>/dev/null || { log "the worker exited"; exit 1; }

"$target/release/examples/webhook_bench" --url "http://127.0.0.1:$api_port" \
  --payments "$payments" --deliveries "${DELIVERIES:-1}" --label "${LABEL:-}" \
  --results bench/payments/results.jsonl

for p in api worker; do
  warnings=$(grep -c -E ' (WARN|ERROR) ' "$work/$p.log" || true)
  log "$p log: $warnings warning/error lines"
  if [ "$warnings" -gt 0 ]; then grep -E ' (WARN|ERROR) ' "$work/$p.log" | sed -E 's/^[^ ]+ //' | sort | uniq -c | sort -rn | head -n 10 >&2; fi
done
