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
import { Queue, Worker } from 'bullmq';
import IORedis from 'ioredis';
import { cpuMeter, intEnv, now, resultLine, tracker } from './harness.mjs';

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
const log = (...a) => console.error('[bullmq]', ...a);

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

const jobs = tracker();
const infoConnection = new IORedis(REDIS_URL);
const cpu = cpuMeter(infoConnection);
const cpuBefore = await cpu.take();

const tStart = now();
const worker = new Worker(
  QUEUE,
  async (job) => {
    jobs.started(job.data.t);
  },
  { connection, concurrency: CONC },
);
worker.on('completed', () => jobs.completed());
worker.on('failed', (job, err) => log('job failed', job?.id, err));
worker.on('error', (err) => log('worker error', err));

const tDone = await jobs.untilCompleted(N);
const drainS = (tDone - tStart) / 1000;
const cpuPerJob = await cpu.since(cpuBefore, N);
log(`drained ${N} in ${drainS.toFixed(3)} s`);

// --- b. idle enqueue-to-start latency ------------------------------------------------------
const sorted = await jobs.idleLatency({ add: (data) => queue.add('noop', data), done: N, samples: SAMPLES, log });

await worker.close();
await queue.close();
infoConnection.disconnect();

console.log(
  JSON.stringify(resultLine({ system: 'bullmq', version: BULLMQ_VERSION, n: N, concurrency: CONC, enqueueS, drainS, sorted, samples: SAMPLES, cpu: cpuPerJob })),
);
