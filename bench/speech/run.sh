#!/usr/bin/env bash
# Live consult load: SESSIONS live sessions streaming audio at real-time rate into one `api all`
# process whose speech engine is a fast double, and the summary overhead beside them and on an
# idle api. One JSON line per run goes to bench/speech/results.jsonl, a summary to stdout.
#
# Usage: bench/speech/run.sh [SESSIONS=1000] [SECONDS=120]
# Env:   RAMP=10 (seconds to open the sockets over)  SUMMARIES=100  SUMMARY_CONCURRENCY=4
#        SUMMARY_TIMEOUT=20 (seconds; a summary past it counts as failed)  LABEL=  PERF= (seconds of
#        `perf record -g` on the api during the steady state, written to bench/speech/perf.data)
#        REDIS_URL=redis://127.0.0.1:6379  PGHOST=127.0.0.1 PGUSER=postgres
#        MAX_SESSIONS=0 (the api's APP_SPEECH_MAX_SESSIONS: 0, no limit, measures the process
#        itself; set it to see the sockets past the limit refused and waiting)
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"

sessions="${1:-1000}"
seconds="${2:-120}"
ramp="${RAMP:-10}"
summaries="${SUMMARIES:-100}"
target="${CARGO_TARGET_DIR:-target}"
export PGHOST="${PGHOST:-127.0.0.1}" PGUSER="${PGUSER:-postgres}"
redis_url="${REDIS_URL:-redis://127.0.0.1:6379}"

log() { echo "[speech-bench] $*" >&2; }

cargo build --release --quiet -p api --bin api --example speech_bench

# Every socket costs a descriptor in the api and one in the client.
want=65536
hard=$(ulimit -Hn)
if [ "$hard" != unlimited ] && [ "$hard" -lt "$want" ]; then want=$hard; fi
ulimit -n "$want"
log "open files limit $(ulimit -n)"

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }
api_port=$(free_port)
double_port=$(free_port)
db="spreekkamer_bench_speech_$$"
namespace="bench_speech_$$"
work=$(mktemp -d)
api_pid=""
double_pid=""

cleanup() {
  status=$?
  for pid in $api_pid $double_pid; do kill "$pid" 2>/dev/null || true; done
  for pid in $api_pid $double_pid; do wait "$pid" 2>/dev/null || true; done
  psql -qc "drop database if exists $db with (force)" >/dev/null 2>&1 || true
  redis-cli -u "$redis_url" --scan --pattern "$namespace:*" 2>/dev/null | xargs -r -n 500 redis-cli -u "$redis_url" del >/dev/null 2>&1 || true
  if [ "$status" -ne 0 ] && [ -s "$work/api.log" ]; then
    log "the api's last log lines:"; tail -n 30 "$work/api.log" >&2
  fi
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

psql -qc "create database $db" >/dev/null

"$target/release/examples/speech_bench" double --addr "127.0.0.1:$double_port" >"$work/double.log" 2>&1 &
double_pid=$!

# one user asks for every summary: the per-user limits are off, as for any load test
APP_ENV=development \
APP_RATE_LIMITS=off \
APP_HTTP_ADDR="127.0.0.1:$api_port" \
APP_PUBLIC_URL="http://127.0.0.1:$api_port" \
APP_DATABASE_URL="postgres://$PGUSER@$PGHOST:5432/$db" \
APP_REDIS_URL="$redis_url" \
APP_JOBS_NAMESPACE="$namespace" \
APP_WEB_DIST="$work/no-spa" \
APP_SPEECH_URL="http://127.0.0.1:$double_port" \
APP_SPEECH_INTERIM=2 \
APP_SPEECH_MAX_SESSIONS="${MAX_SESSIONS:-0}" \
APP_LOG=warn \
  "$target/release/api" all >"$work/api.log" 2>&1 &
api_pid=$!

for _ in $(seq 1 300); do
  curl -fsS "http://127.0.0.1:$api_port/readyz" >/dev/null 2>&1 && break
  kill -0 "$api_pid" 2>/dev/null || { log "the api exited"; exit 1; }
  sleep 0.2
done
curl -fsS "http://127.0.0.1:$api_port/readyz" >/dev/null

if [ -n "${PERF:-}" ]; then
  # after the ramp and a few seconds of steady state
  ( sleep $(( ${ramp%.*} + 20 )); perf record -g -p "$api_pid" -o bench/speech/perf.data -- sleep "$PERF" >/dev/null 2>&1 ) &
fi

"$target/release/examples/speech_bench" run \
  --url "http://127.0.0.1:$api_port" --api-pid "$api_pid" \
  --double "http://127.0.0.1:$double_port" --double-pid "$double_pid" \
  --sessions "$sessions" --seconds "$seconds" --ramp "$ramp" --summaries "$summaries" \
  --summary-concurrency "${SUMMARY_CONCURRENCY:-4}" --summary-timeout "${SUMMARY_TIMEOUT:-20}" \
  --label "${LABEL:-}" --results bench/speech/results.jsonl || client_status=$?

# the api's side, whatever the client made of it (its log without colour codes)
sed -E 's/\x1b\[[0-9;]*m//g' "$work/api.log" >"$work/api.plain.log"
errors=$(grep -c ' ERROR ' "$work/api.plain.log" || true)
warnings=$(grep -c ' WARN ' "$work/api.plain.log" || true)
pool_timeouts=$(grep -c 'pool timed out' "$work/api.plain.log" || true)
log "api log: $errors ERROR lines, $warnings WARN lines, $pool_timeouts pool timeouts"
if [ $((errors + warnings)) -gt 0 ]; then grep -E ' (WARN|ERROR) ' "$work/api.plain.log" | sed -E 's/^[^ ]+ //; s/session\.id=[^ }]*//; s/user\.id=[^ }]*//' | sort | uniq -c | sort -rn | head -n 10 >&2; fi
exit "${client_status:-0}"
