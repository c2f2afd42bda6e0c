// graphile-worker side of the job-queue benchmark (see run.sh): a queue whose jobs are rows in
// PostgreSQL, as ours are, woken by LISTEN/NOTIFY.
//
// Env: DATABASE_URL (required: a server where it may create and drop a database of its own),
//      N (20000), CONC (100), SAMPLES (300), PG_POOL (40, the connections ours may use).
// Phase a: enqueue N no-op jobs with addJobs (chunks of 1000), then start a runner with
//          concurrency CONC and time from `run()` until N 'job:success' events.
// Phase b: with the runner idle, enqueue SAMPLES jobs 20 ms apart, each carrying its enqueue
//          time; the task records now - enqueue time when it starts.
// Prints one JSON line on stdout; logs go to stderr.
//
// graphile-worker deletes a job's row when it succeeds, its counterpart of removeOnComplete.
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { Logger, makeWorkerUtils, run, runMigrations } from 'graphile-worker';

// the package exports no ./package.json
const GRAPHILE_VERSION = JSON.parse(
  readFileSync(new URL('node_modules/graphile-worker/package.json', import.meta.url), 'utf8'),
).version;

const SERVER = process.env.DATABASE_URL;
if (!SERVER) {
  console.error('graphile.mjs: set DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/postgres)');
  process.exit(2);
}
const N = intEnv('N', 20000);
const CONC = intEnv('CONC', 100);
const SAMPLES = intEnv('SAMPLES', 300);
const POOL = intEnv('PG_POOL', 40);
const CHUNK = 1000;
const GAP_MS = 20;

function intEnv(name, dflt) {
  const v = process.env[name];
  return v === undefined || v === '' ? dflt : parseInt(v, 10);
}
const log = (...a) => console.error('[graphile]', ...a);
const now = () => performance.timeOrigin + performance.now();
// Nearest-rank percentile (same definition as bullmq.mjs and celery_bench.py).
function percentile(sorted, p) {
  const idx = Math.max(0, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[idx];
}
const round = (x, d) => Number(x.toFixed(d));

// A database of its own on the server, dropped at the end.
const dbName = `graphile_bench_${process.pid}`;
const url = new URL(SERVER);
const admin = new pg.Client({ connectionString: SERVER });
await admin.connect();
await admin.query(`create database ${dbName}`);
url.pathname = `/${dbName}`;
const connectionString = url.toString();
let result;
try {
  result = await bench(connectionString);
} finally {
  await admin.query(`drop database if exists ${dbName} with (force)`);
  await admin.end();
}
console.log(JSON.stringify(result));

async function bench(connectionString) {
  const logFactory = () => (level, message) => {
    if (level === 'error') log(message);
  };
  const logger = new Logger(logFactory);
  // one pool for the runner and the enqueuing, ended here before the database is dropped
  const pgPool = new pg.Pool({ connectionString, max: POOL });
  pgPool.on('error', (e) => log('pool error', e.message));
  await runMigrations({ pgPool, logger });
  const utils = await makeWorkerUtils({ pgPool, logger });

  // --- a. throughput -----------------------------------------------------------------------
  log(`enqueue ${N} jobs in chunks of ${CHUNK}`);
  const tEnq = now();
  for (let start = 0; start < N; start += CHUNK) {
    const batch = [];
    for (let i = start; i < Math.min(N, start + CHUNK); i++) batch.push({ identifier: 'noop', payload: { i } });
    await utils.addJobs(batch);
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
  const runner = await run({
    pgPool,
    logger,
    concurrency: CONC,
    noHandleSignals: true,
    taskList: {
      noop: async (payload) => {
        if (payload.t !== undefined) latencies.push(now() - payload.t);
      },
    },
  });
  runner.events.on('job:success', () => {
    completed++;
    if (waiter && completed >= waiter.target) {
      const w = waiter;
      waiter = null;
      w.resolve(now());
    }
  });
  runner.events.on('job:error', ({ error }) => log('job failed', error));

  const tDone = await untilCompleted(N);
  const drainS = (tDone - tStart) / 1000;
  log(`drained ${N} in ${drainS.toFixed(3)} s`);

  // --- b. idle enqueue-to-start latency ----------------------------------------------------
  await utils.addJob('noop', { i: -1 });
  await untilCompleted(N + 1);
  latencies = [];
  await sleep(500);

  log(`latency: ${SAMPLES} jobs, ${GAP_MS} ms apart`);
  const tLat = now();
  for (let i = 0; i < SAMPLES; i++) {
    const wait = tLat + i * GAP_MS - now();
    if (wait > 0) await sleep(wait);
    await utils.addJob('noop', { i, t: now() });
  }
  await untilCompleted(N + 1 + SAMPLES);

  const sorted = latencies.slice().sort((a, b) => a - b);
  if (sorted.length !== SAMPLES) log(`warning: ${sorted.length} latency samples, expected ${SAMPLES}`);

  await runner.stop();
  await utils.release();
  await pgPool.end();
  const version = (await admin.query('show server_version')).rows[0].server_version.split(' ')[0];

  return {
    system: 'graphile-worker',
    version: `${GRAPHILE_VERSION}, PostgreSQL ${version}`,
    n: N,
    concurrency: CONC,
    enqueue_per_s: round(N / enqueueS, 1),
    drain_per_s: round(N / drainS, 1),
    latency_p50_ms: round(percentile(sorted, 50), 3),
    latency_p99_ms: round(percentile(sorted, 99), 3),
    samples: SAMPLES,
  };
}
