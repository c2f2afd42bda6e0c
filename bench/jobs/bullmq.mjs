// BullMQ side of the job-queue benchmark (see run.sh).
//
// Env: REDIS_URL (required), N (20000), CONC (100), SAMPLES (300).
// Phase a: enqueue N no-op jobs with addBulk (chunks of 1000), then start a worker with
//          concurrency CONC and time from `new Worker()` until N 'completed' events.
// Phase b: with the worker idle, enqueue SAMPLES jobs 20 ms apart, each carrying its enqueue
//          time; the handler records now - enqueue time when it starts.
// Prints one JSON line on stdout; logs go to stderr.
//
// Jobs use removeOnComplete: true, BullMQ's counterpart of Celery's task_ignore_result.
import { createRequire } from 'node:module';
import { setTimeout as sleep } from 'node:timers/promises';
import { Queue, Worker } from 'bullmq';

const require = createRequire(import.meta.url);
const BULLMQ_VERSION = require('bullmq/package.json').version;

const REDIS_URL = process.env.REDIS_URL;
if (!REDIS_URL) {
  console.error('bullmq.mjs: set REDIS_URL (e.g. redis://127.0.0.1:6390/0)');
  process.exit(2);
}
const N = intEnv('N', 20000);
const CONC = intEnv('CONC', 100);
const SAMPLES = intEnv('SAMPLES', 300);
const QUEUE = 'bench';
const CHUNK = 1000;
const GAP_MS = 20;

function intEnv(name, dflt) {
  const v = process.env[name];
  return v === undefined || v === '' ? dflt : parseInt(v, 10);
}
const log = (...a) => console.error('[bullmq]', ...a);
// Wall-clock milliseconds with sub-millisecond resolution.
const now = () => performance.timeOrigin + performance.now();
// Nearest-rank percentile (same definition as celery_bench.py).
function percentile(sorted, p) {
  const idx = Math.max(0, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[idx];
}
const round = (x, d) => Number(x.toFixed(d));

// A worker needs maxRetriesPerRequest: null for its blocking connection.
const connection = { url: REDIS_URL, maxRetriesPerRequest: null };

const queue = new Queue(QUEUE, { connection, defaultJobOptions: { removeOnComplete: true } });
await queue.waitUntilReady();
await queue.obliterate({ force: true });

// --- a. throughput -------------------------------------------------------------------------
log(`enqueue ${N} jobs in chunks of ${CHUNK}`);
const tEnq = now();
for (let start = 0; start < N; start += CHUNK) {
  const batch = [];
  for (let i = start; i < Math.min(N, start + CHUNK); i++) batch.push({ name: 'noop', data: { i } });
  await queue.addBulk(batch);
}
const enqueueS = (now() - tEnq) / 1000;
log(`enqueued in ${enqueueS.toFixed(3)} s`);

let completed = 0;
let waiter = null; // { target, resolve }: resolved when `completed` reaches target
let latencies = [];
const untilCompleted = (target) =>
  new Promise((resolve) => {
    if (completed >= target) resolve(now());
    else waiter = { target, resolve };
  });

const tStart = now();
const worker = new Worker(
  QUEUE,
  async (job) => {
    if (job.data.t !== undefined) latencies.push(now() - job.data.t);
  },
  { connection, concurrency: CONC },
);
worker.on('completed', () => {
  completed++;
  if (waiter && completed >= waiter.target) {
    const w = waiter;
    waiter = null;
    w.resolve(now());
  }
});
worker.on('failed', (job, err) => log('job failed', job?.id, err));
worker.on('error', (err) => log('worker error', err));

const tDone = await untilCompleted(N);
const drainS = (tDone - tStart) / 1000;
log(`drained ${N} in ${drainS.toFixed(3)} s`);

// --- b. idle enqueue-to-start latency ------------------------------------------------------
// One ping job to confirm the worker is live, then a short pause so it is truly idle.
await queue.add('noop', { i: -1 });
await untilCompleted(N + 1);
latencies = [];
await sleep(500);

log(`latency: ${SAMPLES} jobs, ${GAP_MS} ms apart`);
const tLat = now();
for (let i = 0; i < SAMPLES; i++) {
  const wait = tLat + i * GAP_MS - now();
  if (wait > 0) await sleep(wait);
  await queue.add('noop', { i, t: now() });
}
await untilCompleted(N + 1 + SAMPLES);

const sorted = latencies.slice().sort((a, b) => a - b);
if (sorted.length !== SAMPLES) log(`warning: ${sorted.length} latency samples, expected ${SAMPLES}`);

await worker.close();
await queue.close();

console.log(
  JSON.stringify({
    system: 'bullmq',
    version: BULLMQ_VERSION,
    n: N,
    concurrency: CONC,
    enqueue_per_s: round(N / enqueueS, 1),
    drain_per_s: round(N / drainS, 1),
    latency_p50_ms: round(percentile(sorted, 50), 3),
    latency_p99_ms: round(percentile(sorted, 99), 3),
    samples: SAMPLES,
  }),
);
