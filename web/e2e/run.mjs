// Starts the api (`api all`: api, worker and scheduler in one process, so summaries run) on a
// free port with a fresh database, serving the built SPA, runs the browser tests against it with
// Node's test runner, then stops the api and drops the database. The tests get the api's binary
// and settings (E2E_API_BIN, E2E_API_ENV as JSON) to start another api of their own.
//
// Environment: E2E_API_BIN (the api binary, default ../target/debug/api), E2E_DATABASE_HOST
// (default 127.0.0.1:5432), E2E_REDIS_URL (default redis://127.0.0.1:6379), E2E_CHROMIUM
// (default /usr/bin/chromium), E2E_SCREENSHOT_DIR (default: the system's temporary folder),
// E2E_ONLY (run only the test files whose name contains it, e.g. `consult`).
import { spawn, spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { freePort } from './servers.mjs'

const web = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const apiBin = resolve(web, process.env.E2E_API_BIN ?? '../target/debug/api')
const dist = resolve(web, 'dist')
const dbHost = process.env.E2E_DATABASE_HOST ?? '127.0.0.1:5432'
const [pgHost, pgPort = '5432'] = dbHost.split(':')
const database = `spreekkamer_e2e_${randomBytes(4).toString('hex')}`
const READY_TIMEOUT_MS = 60_000

function fail(message) {
  console.error(`e2e: ${message}`)
  process.exit(1)
}

if (!existsSync(apiBin)) fail(`the api binary ${apiBin} does not exist; build it with \`cargo build -p api\` (or set E2E_API_BIN)`)
if (!existsSync(join(dist, 'index.html'))) fail('web/dist is missing; run `npm run build` first')

const port = await freePort()
const baseUrl = `http://127.0.0.1:${port}`
let apiOutput = ''

const outbox = mkdtempSync(join(tmpdir(), 'spreekkamer-e2e-outbox-'))
/** What every api of this run shares; a test's own api adds its address and queue names. */
const sharedEnv = {
  APP_ENV: 'development',
  APP_DATABASE_URL: `postgres://postgres@${pgHost}:${pgPort}/${database}`,
  APP_REDIS_URL: process.env.E2E_REDIS_URL ?? 'redis://127.0.0.1:6379',
  APP_WEB_DIST: dist,
  APP_LOG_FORMAT: 'json',
  APP_MAIL_OUTBOX: outbox,
  // no speech engine here: the page offers the typed transcript
  APP_SPEECH_URL: '',
  APP_SPEECH_RADIOLOGY_URL: '',
  APP_LLM_URL: '',
  // not the default, so the tests see the SPA take it from the public settings
  APP_SUPPORT_EMAIL: 'hulp@spreekkamer.test',
}

// the worker's and scheduler's own HTTP servers are off in `api all`: the api serves their health
const api = spawn(apiBin, ['all'], {
  env: {
    ...process.env,
    ...sharedEnv,
    APP_HTTP_ADDR: `127.0.0.1:${port}`,
    APP_PUBLIC_URL: baseUrl,
    // its own queue names, so messages of this run never reach another process's workers
    APP_JOBS_NAMESPACE: `e2e-${process.pid}`,
  },
  stdio: ['ignore', 'pipe', 'pipe'],
})
api.stdout.on('data', (chunk) => (apiOutput += chunk))
api.stderr.on('data', (chunk) => (apiOutput += chunk))
let apiExited = null
const apiDone = new Promise((done) =>
  api.on('exit', (code, signal) => {
    apiExited = { code, signal }
    done()
  }),
)

async function stopApi() {
  if (apiExited) return
  api.kill('SIGTERM')
  const timer = setTimeout(() => api.kill('SIGKILL'), 10_000)
  await apiDone
  clearTimeout(timer)
}

function dropDatabase() {
  const result = spawnSync(
    'psql',
    ['-h', pgHost, '-p', pgPort, '-U', 'postgres', '-v', 'ON_ERROR_STOP=1', '-c', `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`],
    { encoding: 'utf8' },
  )
  if (result.status !== 0) console.error(`e2e: could not drop the database ${database}: ${result.stderr || result.error}`)
}

async function cleanUp() {
  await stopApi()
  dropDatabase()
  rmSync(outbox, { recursive: true, force: true })
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, async () => {
    await cleanUp()
    process.exit(130)
  })
}

async function waitUntilReady() {
  const deadline = Date.now() + READY_TIMEOUT_MS
  while (Date.now() < deadline) {
    if (apiExited) return `the api exited early (${apiExited.signal ?? `code ${apiExited.code}`})`
    try {
      const response = await fetch(`${baseUrl}/readyz`, { signal: AbortSignal.timeout(2_000) })
      if (response.status === 200) return null
    } catch {
      // not listening yet
    }
    await new Promise((wait) => setTimeout(wait, 250))
  }
  return `the api was not ready within ${READY_TIMEOUT_MS / 1000} s`
}

let exitCode = 1
try {
  console.log(`e2e: starting the api at ${baseUrl} with database ${database}`)
  const problem = await waitUntilReady()
  if (problem) {
    console.error(`e2e: ${problem}. Its output:\n${apiOutput}`)
  } else {
    const tests = readdirSync(join(web, 'e2e'))
      .filter((name) => name.endsWith('.test.mjs') && name.includes(process.env.E2E_ONLY ?? ''))
      .sort()
      .map((name) => join('e2e', name))
    const runner = spawn(process.execPath, ['--test', '--test-reporter=spec', '--test-concurrency=1', ...tests], {
      cwd: web,
      env: { ...process.env, E2E_BASE_URL: baseUrl, E2E_API_BIN: apiBin, E2E_API_ENV: JSON.stringify(sharedEnv) },
      stdio: 'inherit',
    })
    exitCode = await new Promise((done) => runner.on('exit', (code, signal) => done(code ?? (signal ? 1 : 0))))
    if (exitCode !== 0) {
      const tail = apiOutput.trimEnd().split('\n').slice(-40).join('\n')
      console.error(`e2e: tests failed; the last lines the api wrote:\n${tail}`)
    }
  }
} finally {
  await cleanUp()
}
process.exit(exitCode)
