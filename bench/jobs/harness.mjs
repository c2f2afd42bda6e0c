// What the Node sides of the job-queue benchmark share (bullmq.mjs, graphile.mjs): the settings,
// the clock, counting completed jobs, phase b (idle enqueue-to-start latency) and the result line.
import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/** An integer setting from the environment, `dflt` when unset or empty. */
export function intEnv(name, dflt) {
  const v = process.env[name];
  return v === undefined || v === '' ? dflt : parseInt(v, 10);
}

/** Wall-clock milliseconds with sub-millisecond resolution. */
export const now = () => performance.timeOrigin + performance.now();

/** Milliseconds between the jobs of phase b. */
export const GAP_MS = 20;

/** Nearest-rank percentile (same definition as celery_bench.py). */
function percentile(sorted, p) {
  const idx = Math.max(0, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[idx];
}

const round = (x, d) => Number(x.toFixed(d));

/**
 * Counts a system's completed jobs and the start latencies of phase b's jobs. The system's handler
 * calls `started(data.t)`, its completion event `completed()`; `untilCompleted(target)` resolves with
 * the time once `target` jobs have completed in all.
 */
export function tracker() {
  let completed = 0;
  let waiter = null; // { target, resolve }: resolved when `completed` reaches target
  let latencies = [];
  const untilCompleted = (target) =>
    new Promise((resolve) => {
      if (completed >= target) resolve(now());
      else waiter = { target, resolve };
    });
  return {
    untilCompleted,
    started(t) {
      if (t !== undefined) latencies.push(now() - t);
    },
    completed() {
      completed++;
      if (waiter && completed >= waiter.target) {
        const w = waiter;
        waiter = null;
        w.resolve(now());
      }
    },
    /**
     * Phase b, after `done` jobs completed: one ping job to confirm the worker is live, a short
     * pause so it is truly idle, then `samples` jobs `GAP_MS` apart, each added by `add(data)` with
     * its enqueue time. Gives the start latencies, sorted.
     */
    async idleLatency({ add, done, samples, log }) {
      await add({ i: -1 });
      await untilCompleted(done + 1);
      latencies = [];
      await sleep(500);
      log(`latency: ${samples} jobs, ${GAP_MS} ms apart`);
      const tLat = now();
      for (let i = 0; i < samples; i++) {
        const wait = tLat + i * GAP_MS - now();
        if (wait > 0) await sleep(wait);
        await add({ i, t: now() });
      }
      await untilCompleted(done + 1 + samples);
      const sorted = latencies.slice().sort((a, b) => a - b);
      if (sorted.length !== samples) log(`warning: ${sorted.length} latency samples, expected ${samples}`);
      return sorted;
    },
  };
}

/** A process's command name and CPU seconds (utime + stime, 1/100 s ticks) from /proc/<pid>/stat. */
function procCpu(path) {
  try {
    const text = readFileSync(path, 'utf8');
    const close = text.lastIndexOf(')');
    const comm = text.slice(text.indexOf('(') + 1, close);
    const fields = text.slice(close + 1).trim().split(/\s+/);
    return { comm, secs: (Number(fields[11]) + Number(fields[12])) / 100 };
  } catch {
    return null;
  }
}

/**
 * CPU time spent between `take()` and `since(before, jobs)`, in microseconds per job: this process,
 * the redis-server (`INFO cpu` through `redis`, an ioredis client, when given) and every PostgreSQL
 * process (the whole server: a figure well above zero for a system that does not use it says the
 * machine was not quiet). The same measure as `cpu` in worker/examples/jobs_bench.rs.
 */
export function cpuMeter(redis) {
  const take = async () => {
    let redisSecs = 0;
    if (redis) {
      const info = await redis.info('cpu');
      const field = (name) => Number((info.match(new RegExp(`^${name}:([0-9.]+)`, 'm')) || [])[1] || 0);
      redisSecs = field('used_cpu_user') + field('used_cpu_sys');
    }
    let postgres = 0;
    for (const pid of readdirSync('/proc')) {
      if (!/^[0-9]+$/.test(pid)) continue;
      const p = procCpu(`/proc/${pid}/stat`);
      if (p && p.comm === 'postgres') postgres += p.secs;
    }
    const self = procCpu('/proc/self/stat');
    return { process: self ? self.secs : 0, redis: redisSecs, postgres };
  };
  return {
    take,
    async since(before, jobs) {
      const after = await take();
      const perJob = (k) => Math.round((Math.max(0, after[k] - before[k]) * 1e6) / jobs);
      return { process: perJob('process'), redis: perJob('redis'), postgres: perJob('postgres') };
    },
  };
}

/** The one JSON result line run.sh reads. */
export function resultLine({ system, version, n, concurrency, enqueueS, drainS, sorted, samples, cpu }) {
  return {
    system,
    version,
    n,
    concurrency,
    enqueue_per_s: round(n / enqueueS, 1),
    drain_per_s: round(n / drainS, 1),
    latency_p50_ms: round(percentile(sorted, 50), 3),
    latency_p99_ms: round(percentile(sorted, 99), 3),
    samples,
    cpu_us_per_job: cpu,
  };
}
