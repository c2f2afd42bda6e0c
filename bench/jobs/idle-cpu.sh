#!/usr/bin/env bash
# CPU of an idle worker process (every kind's queue, nothing to do) and of its private
# redis-server, over SECONDS after a settling pause: what polling costs while nothing happens.
# Variables of the environment that start with APP_ (APP_WORKER_POLL_INTERVAL=50ms, say) reach
# the worker.
#
# Usage: bench/jobs/idle-cpu.sh [SECONDS=60]
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"

seconds="${1:-60}"
cargo build --release --quiet -p worker --bin worker

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
db="spreekkamer_bench_idle_$$"
rdir=$(mktemp -d)
redis-server --port "$port" --bind 127.0.0.1 --save "" --appendonly no --dir "$rdir" >/dev/null 2>&1 &
redis_pid=$!
worker_pid=""
cleanup() {
  [ -n "$worker_pid" ] && kill "$worker_pid" 2>/dev/null && wait "$worker_pid" 2>/dev/null
  kill "$redis_pid" 2>/dev/null; wait "$redis_pid" 2>/dev/null
  psql -h 127.0.0.1 -U postgres -qc "drop database if exists $db with (force)" >/dev/null
  rm -rf "$rdir"
}
trap cleanup EXIT

psql -h 127.0.0.1 -U postgres -qc "create database $db" >/dev/null
for f in migrations/*.sql; do psql -h 127.0.0.1 -U postgres -d "$db" -q -v ON_ERROR_STOP=1 -f "$f" >/dev/null; done

APP_DATABASE_URL="postgres://postgres@127.0.0.1:5432/$db" APP_REDIS_URL="redis://127.0.0.1:$port" \
  APP_WORKER_HTTP_ADDR=off APP_LOG=error ./target/release/worker &
worker_pid=$!
sleep 10

# user + system CPU ticks of a process
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
hz=$(getconf CLK_TCK)
w0=$(ticks "$worker_pid") r0=$(ticks "$redis_pid")
sleep "$seconds"
w1=$(ticks "$worker_pid") r1=$(ticks "$redis_pid")
python3 - "$hz" "$seconds" "$w0" "$w1" "$r0" "$r1" <<'EOF'
import sys
hz, s, w0, w1, r0, r1 = (float(x) for x in sys.argv[1:])
print(f"idle over {s:.0f} s: worker {100 * (w1 - w0) / hz / s:.2f} % of a core, "
      f"redis-server {100 * (r1 - r0) / hz / s:.2f} % of a core")
EOF
