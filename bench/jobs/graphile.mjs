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
import pg from 'pg';
import { Logger, makeWorkerUtils, run, runMigrations } from 'graphile-worker';
import { cpuMeter, intEnv, now, resultLine, tracker } from './harness.mjs';

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
const log = (...a) => console.error('[graphile]', ...a);

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

  const jobs = tracker();
  const cpu = cpuMeter(null);
  const cpuBefore = await cpu.take();

  const tStart = now();
  const runner = await run({
    pgPool,
    logger,
    concurrency: CONC,
    noHandleSignals: true,
    taskList: {
      noop: async (payload) => {
        jobs.started(payload.t);
      },
    },
  });
  runner.events.on('job:success', () => jobs.completed());
  runner.events.on('job:error', ({ error }) => log('job failed', error));

  const tDone = await jobs.untilCompleted(N);
  const drainS = (tDone - tStart) / 1000;
  const cpuPerJob = await cpu.since(cpuBefore, N);
  log(`drained ${N} in ${drainS.toFixed(3)} s`);

  // --- b. idle enqueue-to-start latency ----------------------------------------------------
  const sorted = await jobs.idleLatency({ add: (data) => utils.addJob('noop', data), done: N, samples: SAMPLES, log });

  await runner.stop();
  await utils.release();
  await pgPool.end();
  const version = (await admin.query('show server_version')).rows[0].server_version.split(' ')[0];

  return resultLine({
    system: 'graphile-worker',
    version: `${GRAPHILE_VERSION}, PostgreSQL ${version}`,
    n: N,
    concurrency: CONC,
    enqueueS,
    drainS,
    sorted,
    samples: SAMPLES,
    cpu: cpuPerJob,
  });
}
