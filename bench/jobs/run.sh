#!/usr/bin/env bash
# Job-queue benchmark: our Rust job system (when its bench binary exists) vs BullMQ and Celery,
# on one private redis-server started here, and vs graphile-worker, whose jobs are rows in
# PostgreSQL as ours are (a database of its own on DATABASE_URL's server). Each system prints one
# JSON line; the lines go to bench/jobs/results.jsonl and a Markdown table (median run per
# system) goes to stdout.
#
# Usage: bench/jobs/run.sh
# Env:   N=40000 CONC=100 SAMPLES=300 REPEAT=3 BENCH_TIMEOUT=600 (seconds per run)
#        DATABASE_URL (a server where jobs_bench and graphile.mjs may create and drop databases;
#        default postgres://postgres@127.0.0.1:5432/postgres)
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
export N="${N:-40000}" CONC="${CONC:-100}" SAMPLES="${SAMPLES:-300}"
export DATABASE_URL="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
REPEAT="${REPEAT:-3}"
BENCH_TIMEOUT="${BENCH_TIMEOUT:-600}"
RESULTS="$HERE/results.jsonl"

log() { echo "[run] $*" >&2; }

# --- private redis-server on a free port ---------------------------------------------------
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
rdir=$(mktemp -d)
redis-server --port "$port" --bind 127.0.0.1 --save "" --appendonly no --daemonize no \
  --dir "$rdir" >"$rdir/redis.log" 2>&1 &
redis_pid=$!
cleanup() {
  kill "$redis_pid" 2>/dev/null || true
  wait "$redis_pid" 2>/dev/null || true
  rm -rf "$rdir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
for _ in $(seq 1 100); do
  [ "$(redis-cli -p "$port" ping 2>/dev/null)" = PONG ] && break
  sleep 0.1
done
if [ "$(redis-cli -p "$port" ping 2>/dev/null)" != PONG ]; then
  log "redis-server did not answer PING"; cat "$rdir/redis.log" >&2; exit 1
fi
export REDIS_URL="redis://127.0.0.1:$port/0"
log "redis-server on port $port"

# --- dependencies --------------------------------------------------------------------------
cd "$HERE"
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  log "npm install"
  npm install --no-audit --no-fund >&2
fi
if [ ! -f .venv/.installed ] || [ requirements.txt -nt .venv/.installed ]; then
  log "python venv"
  python3 -m venv .venv
  .venv/bin/pip install -q -r requirements.txt >&2
  touch .venv/.installed
fi

# Our Rust bench: build it only once its source exists.
OURS="$ROOT/target/release/examples/jobs_bench"
log "cargo build jobs_bench (release)"
(cd "$ROOT" && cargo build --release -p worker --example jobs_bench) >&2

# --- runs ----------------------------------------------------------------------------------
# Runs one system; appends its JSON line to results.jsonl. A failing system is reported and
# skipped so the others still run.
run_one() {
  local name=$1; shift
  redis-cli -p "$port" flushall >/dev/null
  log "$name: run $round/$REPEAT (N=$N CONC=$CONC SAMPLES=$SAMPLES)"
  local out line rc=0
  out=$(timeout "$BENCH_TIMEOUT" "$@") || rc=$?
  if [ "$rc" -ne 0 ]; then
    log "$name: FAILED (exit status $rc)"; return 0
  fi
  line=$(printf '%s\n' "$out" | tail -n 1)
  if ! python3 -c 'import json,sys; assert "system" in json.loads(sys.argv[1])' "$line" 2>/dev/null; then
    log "$name: no JSON result line in: $out"; return 0
  fi
  log "$name: $line"
  printf '%s\n' "$line" >>"$RESULTS"
}

: >"$RESULTS"
# Rounds are interleaved (ours, bullmq, celery, graphile-worker, then again) so slow drift hits
# all alike.
for round in $(seq 1 "$REPEAT"); do
  if [ -x "$OURS" ]; then run_one spreekkamer "$OURS"; fi
  run_one bullmq node "$HERE/bullmq.mjs"
  run_one celery "$HERE/.venv/bin/python" "$HERE/celery_bench.py"
  run_one graphile-worker node "$HERE/graphile.mjs"
done

# --- report --------------------------------------------------------------------------------
cpu_model=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//' || true)
mem_gib=$(awk '/MemTotal/ {printf "%.1f", $2 / 1048576}' /proc/meminfo)
echo "## Job-queue benchmark"
echo
echo "- machine: $(nproc) CPUs, ${cpu_model:-unknown CPU}, ${mem_gib} GiB RAM; load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "- redis-server $(redis-server --version | grep -o 'v=[^ ]*' | cut -d= -f2), $(psql "$DATABASE_URL" -Atc 'show server_version' 2>/dev/null | sed 's/^/PostgreSQL /;s/ (.*//'), node $(node --version), $("$HERE/.venv/bin/python" --version)"
echo "- N=$N jobs, concurrency $CONC, $SAMPLES latency samples, median of $REPEAT run(s) per system by drain/s"
echo
python3 - "$RESULTS" <<'EOF'
import json, sys

runs = {}
for line in open(sys.argv[1]):
    if line.strip():
        d = json.loads(line)
        runs.setdefault(d["system"], []).append(d)
# Median run by drain/s (lower middle for an even count).
med = {s: sorted(rs, key=lambda d: d["drain_per_s"])[(len(rs) - 1) // 2] for s, rs in runs.items()}
base = med.get("bullmq", {}).get("drain_per_s")
base_p99 = med.get("bullmq", {}).get("latency_p99_ms")

print("| system | version | N | concurrency | enqueue/s | drain/s | p50 ms | p99 ms | drain vs BullMQ | p99 vs BullMQ |")
print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
for s, d in med.items():
    ratio = f"{d['drain_per_s'] / base:.2f}x" if base else "n/a"
    p99_ratio = f"{d['latency_p99_ms'] / base_p99:.2f}x" if base_p99 else "n/a"
    print(f"| {s} | {d['version']} | {d['n']} | {d['concurrency']} | {d['enqueue_per_s']:.0f} "
          f"| {d['drain_per_s']:.0f} | {d['latency_p50_ms']:.2f} | {d['latency_p99_ms']:.2f} | {ratio} | {p99_ratio} |")
print()
print("CPU per job in the drain, microseconds (the system's own process, redis-server, every PostgreSQL process):")
print()
print("| system | process | redis-server | PostgreSQL | total |")
print("|---|---:|---:|---:|---:|")
for s, d in med.items():
    c = d.get("cpu_us_per_job")
    if c:
        print(f"| {s} | {c['process']:.0f} | {c['redis']:.0f} | {c['postgres']:.0f} | {c['process'] + c['redis'] + c['postgres']:.0f} |")
print()
print("Every round (drain/s, p99 ms):")
for s, rs in runs.items():
    print(f"- {s}: " + ", ".join(f"{d['drain_per_s']:.0f} / {d['latency_p99_ms']:.2f}" for d in rs))
EOF
