#!/usr/bin/env bash
# Proves that `make run` on a clean clone of the committed tree brings the product up:
# /readyz answers 200, the SPA is served, and the worker and the scheduler run in the same
# process. Uses its own port, database and queue names.
set -euo pipefail

root=$(git rev-parse --show-toplevel)
work=$(mktemp -d)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
db="spreekkamer_makerun_$$"
log="$work/make-run.log"
pid=""

cleanup() {
  if [ -n "$pid" ]; then
    kill -TERM -- "-$pid" 2>/dev/null || true
    for _ in $(seq 1 20); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
    kill -KILL -- "-$pid" 2>/dev/null || true
  fi
  psql -h 127.0.0.1 -U postgres -qc "drop database if exists $db with (force)" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

git clone --quiet --no-hardlinks "$root" "$work/clone"
echo "make run on a clean clone (port $port) ..."
# The clone builds into the checkout's target folder so the check does not compile everything twice.
(
  cd "$work/clone"
  export CARGO_TARGET_DIR="$root/target"
  export APP_HTTP_ADDR="127.0.0.1:$port" APP_PUBLIC_URL="http://127.0.0.1:$port"
  export APP_DATABASE_URL="postgres://postgres@127.0.0.1:5432/$db" APP_JOBS_NAMESPACE="make-run-$port"
  exec setsid make run >"$log" 2>&1
) &
pid=$!

deadline=$((SECONDS + 900))
until curl -fsS "http://127.0.0.1:$port/readyz" >/dev/null 2>&1; do
  if ! kill -0 "$pid" 2>/dev/null || [ $SECONDS -ge $deadline ]; then
    echo "make run did not become ready; its output:"
    tail -n 60 "$log"
    echo "make-run: 0 passed, 1 failed"
    exit 1
  fi
  sleep 2
done
# Each answer is read whole before it is searched: `curl | grep -q` fails under pipefail when grep
# stops reading early and curl cannot write the rest (curl exit 23), which a large answer makes likely.
page() { curl -fsS "http://127.0.0.1:$port$1" 2>/dev/null || true; }
grep -q '<div id="root">' <<<"$(page /)" || { echo "the SPA is not served"; echo "make-run: 0 passed, 1 failed"; exit 1; }
grep -q '"issuer"' <<<"$(page /oidc/.well-known/openid-configuration)" || { echo "the sign-in issuer does not answer"; echo "make-run: 0 passed, 1 failed"; exit 1; }
# the worker's relay and the scheduler run in the same process
for _ in $(seq 1 30); do
  grep -q '^jobs_relay_backlog' <<<"$(page /metrics)" && break
  sleep 1
done
grep -q '^jobs_relay_backlog' <<<"$(page /metrics)" || { echo "the worker does not run"; echo "make-run: 0 passed, 1 failed"; exit 1; }
[ "$(psql -h 127.0.0.1 -U postgres -d "$db" -tAc "select count(*) from schedule_ticks")" -ge 1 ] || { echo "the scheduler does not run"; echo "make-run: 0 passed, 1 failed"; exit 1; }
echo "make-run: 1 passed, 0 failed"
