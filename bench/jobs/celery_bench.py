"""Celery side of the job-queue benchmark (see run.sh).

Env: REDIS_URL (required), N (20000), CONC (100), SAMPLES (300).

This file is both the Celery app (the worker runs `-A celery_bench`) and the bench driver
(`python celery_bench.py`).

Phase a: publish N no-op tasks, then start a worker subprocess (threads pool, concurrency CONC)
         and time from the worker's `worker_init` signal (app imported, before it connects;
         the counterpart of `new Worker()` in bullmq.mjs) until the N-th task has run.
Phase b: with the worker idle, publish SAMPLES tasks 20 ms apart, each carrying its enqueue
         time; the task pushes now - enqueue time (ms) to a Redis list at its start.

Completion detection: each task does one INCR on a counter key, which costs Celery one extra
Redis round trip per task that BullMQ (which counts its own 'completed' events) does not pay.
The task that takes the counter to N stores the time, so the driver only polls one key.
Results are not stored (task_ignore_result). Prints one JSON line on stdout; logs go to stderr.
"""

import json
import math
import os
import signal
import subprocess
import sys
import time

import celery
import redis
from celery import Celery, signals

REDIS_URL = os.environ.get("REDIS_URL", "")
N = int(os.environ.get("N") or 20000)
CONC = int(os.environ.get("CONC") or 100)
SAMPLES = int(os.environ.get("SAMPLES") or 300)
GAP_S = 0.020

K_COUNT = "bench:count"  # INCR by every task
K_DONE_AT = "bench:done_at"  # time.time() when the counter reached N
K_INIT_AT = "bench:worker_init_at"  # time.time() at the worker's worker_init signal
K_LAT = "bench:latency_ms"  # enqueue-to-start latencies of phase b

if not REDIS_URL:
    sys.exit("celery_bench.py: set REDIS_URL (e.g. redis://127.0.0.1:6390/0)")

app = Celery("celery_bench", broker=REDIS_URL)
app.conf.update(
    task_ignore_result=True,
    broker_connection_retry_on_startup=True,
)
r = redis.Redis.from_url(REDIS_URL)


@signals.worker_init.connect
def _on_worker_init(**_):
    r.set(K_INIT_AT, repr(time.time()))


@app.task(name="noop")
def noop(payload):
    started = time.time()
    if "t" in payload:
        r.rpush(K_LAT, (started - payload["t"]) * 1000.0)
    if r.incr(K_COUNT) == N:
        r.set(K_DONE_AT, repr(time.time()))


def log(*a):
    print("[celery]", *a, file=sys.stderr, flush=True)


def percentile(sorted_xs, p):
    """Nearest-rank percentile (same definition as bullmq.mjs)."""
    return sorted_xs[max(0, math.ceil(p / 100 * len(sorted_xs)) - 1)]


def wait_for(cond, worker, what, timeout=120.0, interval=0.005):
    """Poll cond() until truthy; fail if the worker dies or the timeout passes."""
    deadline = time.monotonic() + timeout
    while True:
        v = cond()
        if v:
            return v
        if worker.poll() is not None:
            raise RuntimeError(f"celery worker exited ({worker.returncode}) while waiting for {what}")
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out waiting for {what}")
        time.sleep(interval)


def main():
    # Turn SIGTERM (e.g. from `timeout`) into SystemExit so the worker subprocess is stopped.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    r.flushdb()

    # --- a. throughput ------------------------------------------------------------------
    # Celery has no bulk publish. delay() in a loop, group().apply_async() and apply_async on
    # one shared producer measured within noise of each other; the last skips re-acquiring a
    # producer per task, so it is used here.
    log(f"enqueue {N} tasks")
    t0 = time.perf_counter()
    with app.producer_or_acquire() as producer:
        for i in range(N):
            noop.apply_async(({"i": i},), producer=producer)
    enqueue_s = time.perf_counter() - t0
    log(f"enqueued in {enqueue_s:.3f} s")

    cmd = [
        sys.executable, "-m", "celery", "-A", "celery_bench", "worker",
        "-P", "threads", "-c", str(CONC),
        "--without-gossip", "--without-mingle", "--without-heartbeat", "-l", "WARNING",
    ]
    here = os.path.dirname(os.path.abspath(__file__))
    t_spawn = time.time()
    worker = subprocess.Popen(cmd, cwd=here, stdout=sys.stderr, stderr=sys.stderr)
    try:
        done_at = float(wait_for(lambda: r.get(K_DONE_AT), worker, "drain"))
        init_at = float(r.get(K_INIT_AT))
        drain_s = done_at - init_at
        log(f"drained {N} in {drain_s:.3f} s from worker_init "
            f"({done_at - t_spawn:.3f} s from spawn, {init_at - t_spawn:.3f} s of interpreter start and imports)")

        # --- b. idle enqueue-to-start latency ----------------------------------------------
        # One ping task to confirm the worker is live, then a short pause so it is truly idle.
        noop.delay({"i": -1})
        wait_for(lambda: int(r.get(K_COUNT) or 0) >= N + 1, worker, "ping")
        time.sleep(0.5)

        log(f"latency: {SAMPLES} tasks, {int(GAP_S * 1000)} ms apart")
        t_lat = time.perf_counter()
        with app.producer_or_acquire() as producer:
            for i in range(SAMPLES):
                wait = t_lat + i * GAP_S - time.perf_counter()
                if wait > 0:
                    time.sleep(wait)
                noop.apply_async(({"i": i, "t": time.time()},), producer=producer)
        wait_for(lambda: r.llen(K_LAT) >= SAMPLES, worker, "latency samples", timeout=30)
        lat = sorted(float(x) for x in r.lrange(K_LAT, 0, -1))
    finally:
        worker.terminate()  # SIGTERM: warm shutdown
        try:
            worker.wait(timeout=15)
        except subprocess.TimeoutExpired:
            worker.kill()
            worker.wait()

    print(json.dumps({
        "system": "celery",
        "version": celery.__version__,
        "n": N,
        "concurrency": CONC,
        "enqueue_per_s": round(N / enqueue_s, 1),
        "drain_per_s": round(N / drain_s, 1),
        "latency_p50_ms": round(percentile(lat, 50), 3),
        "latency_p99_ms": round(percentile(lat, 99), 3),
        "samples": SAMPLES,
    }, separators=(",", ":")), flush=True)


if __name__ == "__main__":
    main()
