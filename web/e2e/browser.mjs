// Shared set-up of the browser tests: one Chromium per test file, a fresh context per test.
import { tmpdir } from 'node:os'
import { after, afterEach, before } from 'node:test'
import { chromium } from 'playwright-core'

export const baseUrl = process.env.E2E_BASE_URL ?? 'http://127.0.0.1:8080'
export const screenshotDir = process.env.E2E_SCREENSHOT_DIR ?? tmpdir()

const ARGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

/** Chromium; `extraArgs` adds flags (e.g. a fake microphone, see `fakeMicrophoneArgs`). */
export function launchBrowser(extraArgs = []) {
  return chromium.launch({ executablePath: process.env.E2E_CHROMIUM ?? '/usr/bin/chromium', headless: true, args: [...ARGS, ...extraArgs] })
}

/** Flags that give Chromium a microphone playing `wav` once (then silence), allowed without asking. */
export function fakeMicrophoneArgs(wav) {
  return ['--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream', `--use-file-for-fake-audio-capture=${wav}%noloop`]
}

/** Content-Security-Policy violations the pages of this test file reported, not yet failed on. */
const cspViolations = []

// every test fails when a page it opened broke the api's Content-Security-Policy
afterEach(() => {
  if (cspViolations.length === 0) return
  const seen = cspViolations.splice(0)
  throw new Error(`Content-Security-Policy violations:\n${seen.join('\n')}`)
})

/** Collects the CSP violations of `page`: Chromium's console reports and the DOM's events. */
function watchCsp(page) {
  page.on('console', (message) => {
    const text = message.text()
    if (text.includes('Content Security Policy') || text.startsWith('CSP violation:')) cspViolations.push(`${page.url()}: ${text}`)
  })
}

/** A new, empty browser context (no session, no storage) and a page in it. */
export async function freshPage(browser, options = {}) {
  const context = await browser.newContext({ baseURL: baseUrl, locale: 'nl-NL', ...options })
  context.setDefaultTimeout(15_000)
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) =>
      console.error(`CSP violation: ${event.violatedDirective} blocked ${event.blockedURI || '(inline)'} in ${event.sourceFile || event.documentURI}`),
    )
  })
  context.on('page', watchCsp)
  const page = await context.newPage()
  return { context, page }
}

/**
 * The browser of a test file whose tests open signed-in pages: launched before the file's tests,
 * closed after them, and every context a test opened closed when that test ends. Call it at the
 * top of the file. `openAs(email, path, viewport)` opens `path` on a fresh page and signs in as a
 * seeded user; `viewport` is `{ width, height }`, a width in pixels (900 high) or, left out, the
 * file's `viewport` (else Chromium's own). `freshPage()` gives a fresh page closed the same way.
 */
export function pagesPerTest(viewport) {
  let browser
  const contexts = []
  before(async () => {
    browser = await launchBrowser()
  })
  after(async () => {
    await browser?.close()
  })
  afterEach(async () => {
    while (contexts.length > 0) await contexts.pop().close()
  })
  const fresh = async (options = {}) => {
    const opened = await freshPage(browser, options)
    contexts.push(opened.context)
    return opened
  }
  return {
    freshPage: fresh,
    async openAs(email, path, size = viewport) {
      size = typeof size === 'number' ? { width: size, height: 900 } : size
      const { page } = await fresh(size ? { viewport: size } : {})
      await page.goto(path)
      await signInAs(page, email)
      return page
    },
  }
}

/** The development sign-in page of the api's issuer. */
export function emailField(page) {
  return page.getByLabel('E-mailadres')
}

/** Waits for the sign-in page, then signs in as one of the seeded users. */
export async function signInAs(page, email) {
  await emailField(page).waitFor()
  await page.locator(`button[name="login_hint"][value="${email}"]`).click()
}

/** The path and query string of the page's address. */
export function pathAndQuery(page) {
  const url = new URL(page.url())
  return url.pathname + url.search
}

/**
 * Every text a level-1 heading of `page` showed, across its navigations (so a screen that shows
 * only a moment, or one that never should, can be asserted on). Call before the first `goto`.
 */
export async function headingsSeen(page) {
  const seen = new Set()
  await page.exposeBinding('__e2eHeading', (_source, text) => seen.add(text))
  await page.addInitScript(() => {
    const report = () => {
      for (const heading of document.querySelectorAll('h1')) window.__e2eHeading(heading.textContent ?? '')
    }
    new MutationObserver(report).observe(document, { subtree: true, childList: true, characterData: true })
  })
  return seen
}

/** An access token of a seeded user from the development issuer (password grant) of the api at `origin`. */
export async function accessToken(origin, email) {
  const response = await fetch(`${origin}/oidc/token`, {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'password', username: email, password: 'test', client_id: 'spreekkamer-web' }),
  })
  if (response.status !== 200) throw new Error(`no token for ${email}: ${response.status} ${await response.text()}`)
  return (await response.json()).access_token
}
