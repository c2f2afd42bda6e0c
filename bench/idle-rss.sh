#!/usr/bin/env bash
# The api's resident memory at idle: a release build on the embedded defaults, its own database,
# a few requests (readiness, the SPA, a signed-in call), then a pause, then VmRSS and VmHWM.
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"

cargo build --release --quiet -p api
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
db="spreekkamer_bench_rss_$$"
APP_ENV=development APP_HTTP_ADDR="127.0.0.1:$port" APP_PUBLIC_URL="http://127.0.0.1:$port" \
  APP_DATABASE_URL="postgres://postgres@127.0.0.1:5432/$db" APP_LOG=warn \
  ./target/release/api serve &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; psql -h 127.0.0.1 -U postgres -qc "drop database if exists $db with (force)" >/dev/null' EXIT

until curl -fsS "http://127.0.0.1:$port/readyz" >/dev/null 2>&1; do sleep 0.2; done
token=$(curl -fsS -d grant_type=password -d username=huisarts@example.nl -d password=x -d client_id=spreekkamer-web \
  "http://127.0.0.1:$port/oidc/token" | python3 -c 'import sys,json; print(json.load(sys.stdin)["access_token"])')
for _ in $(seq 1 20); do
  curl -fsS "http://127.0.0.1:$port/readyz" >/dev/null
  curl -fsS "http://127.0.0.1:$port/" >/dev/null || true
  curl -fsS -H "Authorization: Bearer $token" "http://127.0.0.1:$port/api/user/me" >/dev/null
done
sleep 5
grep -E 'VmRSS|VmHWM' "/proc/$pid/status"
