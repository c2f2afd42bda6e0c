// What the browser tests start beside the run's api: a second api with settings of their own, and
// a tiny HTTP server standing in for another site (the record system, the new environment).
import { spawn } from 'node:child_process'
import { createServer as createHttpServer } from 'node:http'
import { createServer } from 'node:net'

export function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = createServer()
    server.on('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      server.close(() => resolvePort(port))
    })
  })
}

/**
 * Another api on the run's database with the run's settings plus `env`; `url` is its address.
 * Options: `command` (`serve`, or `all` for one with a worker), `port` (a free one by default) and
 * `publicUrl` (where browsers reach it, e.g. through a proxy; the api on `port` by default).
 * `stop()` ends it.
 */
export async function startApi(name, env, { command = 'serve', port: chosenPort, publicUrl } = {}) {
  const port = chosenPort ?? (await freePort())
  const url = publicUrl ?? `http://127.0.0.1:${port}`
  let output = ''
  const child = spawn(process.env.E2E_API_BIN, [command], {
    env: {
      ...process.env,
      ...JSON.parse(process.env.E2E_API_ENV ?? '{}'),
      APP_HTTP_ADDR: `127.0.0.1:${port}`,
      APP_PUBLIC_URL: url,
      // its own queue names: jobs it makes never reach another process's workers
      APP_JOBS_NAMESPACE: `e2e-${name}-${process.pid}`,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  child.stdout.on('data', (c) => (output += c))
  child.stderr.on('data', (c) => (output += c))
  const exited = new Promise((done) => child.on('exit', done))
  const deadline = Date.now() + 60_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the ${name} api exited early:\n${output}`)
    try {
      const response = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2_000) })
      if (response.status === 200) break
    } catch {
      // not yet listening
    }
    if (Date.now() > deadline) throw new Error(`the ${name} api was not ready:\n${output}`)
    await new Promise((wait) => setTimeout(wait, 250))
  }
  return {
    url,
    output: () => output,
    async stop() {
      if (child.exitCode !== null) return
      child.kill('SIGTERM')
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000)
      await exited
      clearTimeout(timer)
    },
  }
}

/**
 * Another site on a free port: every GET answers a small HTML page with `title` as its heading;
 * every POST is kept (method, path, content type, the form's fields in order) and answered
 * with a page 'Ontvangen'.
 */
export async function startSite(title) {
  const posts = []
  const server = createHttpServer((request, response) => {
    const chunks = []
    request.on('data', (chunk) => chunks.push(chunk))
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8')
      let heading = title
      if (request.method === 'POST') {
        posts.push({
          path: new URL(request.url, 'http://site').pathname,
          contentType: request.headers['content-type'] ?? '',
          fields: [...new URLSearchParams(body)],
        })
        heading = 'Ontvangen'
      }
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      response.end(`<!doctype html><html lang="nl"><head><title>${heading}</title></head><body><h1>${heading}</h1></body></html>`)
    })
  })
  await new Promise((ready) => server.listen(0, '127.0.0.1', ready))
  const origin = `http://127.0.0.1:${server.address().port}`
  return {
    origin,
    posts,
    close: () =>
      new Promise((done) => {
        server.closeAllConnections()
        server.close(done)
      }),
  }
}
