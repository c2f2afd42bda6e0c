// The live consult page in real Chromium with a fake microphone playing Dutch speech made with
// espeak-ng. Without a speech engine (the run's api) the clinician types the conversation. With
// one, a second api (started here, behind a proxy the test can cut) sends each utterance its
// voice-activity detection cut from the real audio to a speech test double.
// Summaries that do not come or fail: an api whose worker takes only e-mail leaves them in the
// queue (the page's clock is run past the delay bound with Playwright's clock, then a worker for
// summaries is started on the same queues), and a language model that refuses makes them fail.
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, afterEach, before, describe, it } from 'node:test'
import { baseUrl, fakeMicrophoneArgs, freshPage, launchBrowser, screenshotDir, signInAs } from './browser.mjs'
import { startProxy } from './proxy.mjs'
import { freePort, startApi } from './servers.mjs'
import { startSpeechDouble } from './speech-double.mjs'

const RATE = 48000
const work = mkdtempSync(join(tmpdir(), 'spreekkamer-e2e-speech-'))
let fileCount = 0

function sox(...args) {
  return execFileSync('sox', args, { encoding: 'utf8' })
}

/** A sentence spoken by espeak-ng's Dutch voice, as 48 kHz mono 16-bit; with its length. */
function spoken(text) {
  const raw = join(work, `raw-${++fileCount}.wav`)
  const file = join(work, `zin-${fileCount}.wav`)
  execFileSync('espeak-ng', ['-v', 'nl', '-s', '150', '-w', raw, text])
  sox(raw, '-r', String(RATE), '-c', '1', '-b', '16', file)
  return { text, file, seconds: Number(sox('--i', '-D', file).trim()) }
}

/**
 * One WAV of the parts in order: a number is that many seconds of silence, a string a sentence.
 * Gives the file and the sentences with their lengths.
 */
function recording(parts) {
  const files = []
  const sentences = []
  for (const part of parts) {
    if (typeof part === 'number') {
      const file = join(work, `stilte-${++fileCount}.wav`)
      sox('-n', '-r', String(RATE), '-c', '1', '-b', '16', file, 'trim', '0', String(part))
      files.push(file)
    } else {
      const sentence = spoken(part)
      files.push(sentence.file)
      sentences.push({ text: sentence.text, seconds: sentence.seconds })
    }
  }
  const wav = join(work, `opname-${++fileCount}.wav`)
  sox(...files, wav)
  return { wav, sentences }
}

/** A second api (`api all`) on the run's database with a speech engine, reached through a proxy. */
async function startSpeechApi(speechUrl, mode = 'transcription') {
  const port = await freePort()
  const proxy = await startProxy({ host: '127.0.0.1', port })
  // no interim requests: every request the double gets is a finished utterance
  const env = { APP_SPEECH_URL: speechUrl, APP_SPEECH_INTERIM: '0', APP_SPEECH_MODE: mode }
  const api = await startApi(`speech-${mode}`, env, { command: 'all', port, publicUrl: proxy.url })
  return {
    proxy,
    output: api.output,
    async stop() {
      await api.stop()
      await proxy.close()
    },
  }
}

let double
let speechApi
const open = []

before(async () => {
  double = await startSpeechDouble()
  speechApi = await startSpeechApi(double.url)
})

after(async () => {
  await speechApi?.stop()
  await double?.close()
  rmSync(work, { recursive: true, force: true })
})

afterEach(async () => {
  while (open.length > 0) await open.pop().close()
})

/** Chromium whose microphone plays `wav`, signed in as the GP at `path` on `origin`. */
async function consultPage(wav, origin, path) {
  const browser = await launchBrowser(fakeMicrophoneArgs(wav))
  open.push(browser)
  const { context, page } = await freshPage(browser, { baseURL: origin })
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin })
  const summarizeMessages = []
  page.on('websocket', (socket) =>
    socket.on('framesent', ({ payload }) => {
      if (typeof payload === 'string' && payload.includes('"summarize"')) summarizeMessages.push(JSON.parse(payload))
    }),
  )
  await page.goto(path)
  await signInAs(page, 'huisarts@example.nl')
  return { page, summarizeMessages }
}

/**
 * Chromium without a fake microphone (so none is allowed), signed in as the GP at `path` on
 * `origin`. `microphoneRequests()` counts the page's calls of getUserMedia; with `refuse`, each
 * is refused as when the user blocks the microphone.
 */
async function pageWithoutMicrophone(origin, path, { refuse = false } = {}) {
  const browser = await launchBrowser()
  open.push(browser)
  const { page } = await freshPage(browser, { baseURL: origin })
  await page.addInitScript((refuseAll) => {
    const devices = navigator.mediaDevices
    if (!devices) return
    const original = devices.getUserMedia?.bind(devices)
    window.__microphoneRequests = 0
    devices.getUserMedia = (constraints) => {
      window.__microphoneRequests++
      if (refuseAll || !original) return Promise.reject(new DOMException('Permission denied', 'NotAllowedError'))
      return original(constraints)
    }
  }, refuse)
  await page.goto(path)
  await signInAs(page, 'huisarts@example.nl')
  return { page, microphoneRequests: () => page.evaluate(() => window.__microphoneRequests) }
}

function episode(page, n) {
  return page.getByRole('group', { name: `Episode ${n}` })
}

async function soepFields(page, n = 1) {
  const fieldset = episode(page, n)
  const values = {}
  for (const name of ['Subjectief', 'Objectief', 'Evaluatie', 'Plan']) values[name] = await fieldset.getByLabel(name, { exact: true }).inputValue()
  return values
}

async function bubbleTexts(page) {
  return (await page.getByTestId('bubble').allTextContents()).map((t) => t.replace(/^(Zorgverlener|Patiënt): /, ''))
}

/** Waits until the transcript shows `count` finished sentences. */
async function waitForBubbles(page, count) {
  await page.getByTestId('bubble').nth(count - 1).waitFor({ timeout: 60_000 })
}

/** The double's requests were real utterances: 16 kHz mono PCM16 WAVs with the right fields. */
/**
 * Speaks `script` (seconds of silence and sentences, as `recording` takes it) into the consult
 * page of the api at `origin`, and waits until every sentence is a bubble, in order, each one
 * utterance the speech double heard.
 */
async function speakConsult(origin, script) {
  const { wav, sentences } = recording(script)
  double.setScript(sentences)
  const { page } = await consultPage(wav, origin, '/audioconsult/beta/soap')
  await page.getByRole('button', { name: 'Start' }).click()
  await page.getByRole('button', { name: 'Pauzeer' }).waitFor()
  await page.getByTestId('waveform').waitFor()
  await waitForBubbles(page, sentences.length)
  assert.deepEqual(await bubbleTexts(page), sentences.map((s) => s.text))
  assertRequestsWereUtterances(double.requests(), sentences)
  return { page, sentences }
}

function assertRequestsWereUtterances(requests, sentences) {
  assert.equal(requests.length, sentences.length, `one request per sentence, got ${requests.map((r) => r.wav.seconds.toFixed(2)).join(', ')} s`)
  requests.forEach((request, i) => {
    assert.equal(request.filename, 'audio.wav')
    assert.deepEqual({ rate: request.wav.rate, channels: request.wav.channels, bits: request.wav.bits }, { rate: 16000, channels: 1, bits: 16 })
    assert.equal(request.fields.language, 'nl')
    assert.equal(request.fields.response_format, 'json')
    assert.ok(request.fields.model, 'a model is named')
    assert.equal(request.text, sentences[i].text, `utterance ${i + 1} lasts ${request.wav.seconds.toFixed(2)} s, sentence ${sentences[i].seconds.toFixed(2)} s`)
  })
}

const TYPED_CONSULT = [
  'Goedemorgen, wat kan ik voor u doen?',
  'Dokter, ik heb sinds drie dagen keelpijn.',
  'Heeft u koorts?',
  'Nee.',
  'De keel is rood, de amandelen zijn niet gezwollen en er is geen beslag.',
  'De temperatuur is 37,4 graden.',
  'Dit past bij een virale keelontsteking.',
  'U kunt paracetamol 1000 mg drie keer per dag nemen.',
].join('\n')

describe('live consult', () => {
  it('without a speech engine: the conversation is typed, summarised into SOEP, copied and reset', async () => {
    const { wav } = recording([2])
    const { page, summarizeMessages } = await consultPage(wav, baseUrl, '/')
    // the home card opens the page with the new model and the SOEP template
    await page.getByRole('link', { name: /^Nieuw Gesproken consult/ }).click()
    await page.getByRole('heading', { level: 1, name: 'Gesproken consult' }).waitFor()
    assert.equal(new URL(page.url()).pathname, '/audioconsult/beta/soap')
    // known before Start: no engine, so no microphone to pick and the typed transcript at once
    await page.getByTestId('no-engine').waitFor()
    assert.match(await page.getByTestId('no-engine').textContent(), /^Er is geen spraakherkenning ingesteld, dus opnemen kan hier niet\./)
    assert.equal(await page.getByRole('combobox', { name: 'Microfoon' }).count(), 0)
    const typed = page.getByLabel('Gesprek (getypt of geplakt)')
    await typed.waitFor()

    await page.getByRole('button', { name: 'Start' }).click()
    await page.getByText('Er is geen spraakherkenning ingesteld. Typ', { exact: false }).first().waitFor()

    // an empty transcript: Samenvatten does nothing
    await page.getByRole('button', { name: 'Samenvatten' }).click()
    assert.equal(await page.getByRole('progressbar').count(), 0)

    await typed.fill(TYPED_CONSULT)
    await page.getByRole('button', { name: 'Samenvatten' }).click()
    const subjective = episode(page, 1).getByLabel('Subjectief', { exact: true })
    await page.waitForFunction((el) => el.value !== '', await subjective.elementHandle(), { timeout: 30_000 })
    const fields = await soepFields(page)
    assert.match(fields.Subjectief, /keelpijn/i)
    assert.match(fields.Objectief, /keel (is )?rood/i)
    assert.match(fields.Evaluatie, /virale keelontsteking/i)
    assert.match(fields.Plan, /paracetamol/i)
    assert.equal(summarizeMessages.length, 1, 'only the second Samenvatten sent a request')
    assert.deepEqual(
      { ...summarizeMessages[0].request, transcript: undefined },
      { template: 'soap', flavour: 'normal', modelSize: 'large', precision: 'medium', episodeCount: 1, transcript: undefined },
    )
    assert.equal(summarizeMessages[0].request.transcript, TYPED_CONSULT)

    // Kopieren puts the field's text on the clipboard
    await episode(page, 1).getByRole('button', { name: 'Kopieren' }).first().click()
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), fields.Subjectief)

    // Opnieuw (the note not edited by hand: nothing to ask): back to the empty form, a new consult
    await page.getByRole('button', { name: 'Opnieuw' }).click()
    await page.getByRole('button', { name: 'Start' }).waitFor()
    assert.deepEqual(await soepFields(page), { Subjectief: '', Objectief: '', Evaluatie: '', Plan: '' })
    assert.equal(await typed.inputValue(), '')
    assert.equal(new URL(page.url()).searchParams.get('consult'), null)
  })

  it('without a speech engine the page never asks for the microphone, so a browser without one works', async () => {
    const { page, microphoneRequests } = await pageWithoutMicrophone(baseUrl, '/audioconsult/beta/soap')
    await page.getByRole('heading', { level: 1, name: 'Gesproken consult' }).waitFor()
    await page.getByRole('button', { name: 'Start' }).click()
    await page.getByText('Er is geen spraakherkenning ingesteld.', { exact: false }).first().waitFor()
    await page.getByLabel('Gesprek (getypt of geplakt)').fill(TYPED_CONSULT)
    await page.getByRole('button', { name: 'Samenvatten' }).click()
    const subjective = episode(page, 1).getByLabel('Subjectief', { exact: true })
    await page.waitForFunction((el) => el.value !== '', await subjective.elementHandle(), { timeout: 30_000 })
    assert.match((await soepFields(page)).Plan, /paracetamol/i)
    assert.equal(await microphoneRequests(), 0, 'the microphone was never asked for')
    assert.equal(await page.getByRole('alert').count(), 0, 'no microphone warning')
    assert.equal(await page.getByRole('button', { name: 'Pauzeer' }).count(), 0)
  })

  it('with a speech engine and a blocked microphone: the page explains it and the conversation can be typed', async () => {
    double.setScript([])
    const { page, microphoneRequests } = await pageWithoutMicrophone(speechApi.proxy.url, '/audioconsult/beta/soap', { refuse: true })
    await page.getByRole('button', { name: 'Start' }).click()
    await page.getByRole('alert').filter({ hasText: 'De browser geeft geen toegang tot de microfoon.' }).waitFor()
    await page.getByText('Zonder microfoon kun je het gesprek typen of plakken', { exact: false }).waitFor()
    assert.equal(await microphoneRequests(), 1, 'asked once the session had an engine')
    await page.screenshot({ path: join(screenshotDir, 'spreekkamer-consult-microfoon-geweigerd.png'), fullPage: true })
    assert.equal(await page.getByRole('button', { name: 'Pauzeer' }).count(), 0)

    // trying again asks again, and is refused again
    await page.getByRole('button', { name: 'Microfoon opnieuw proberen' }).click()
    await page.waitForFunction(() => window.__microphoneRequests === 2)
    await page.getByRole('alert').filter({ hasText: 'De browser geeft geen toegang tot de microfoon.' }).waitFor()

    await page.getByLabel('Gesprek (getypt of geplakt)').fill(TYPED_CONSULT)
    await page.getByRole('button', { name: 'Samenvatten' }).click()
    const subjective = episode(page, 1).getByLabel('Subjectief', { exact: true })
    await page.waitForFunction((el) => el.value !== '', await subjective.elementHandle(), { timeout: 30_000 })
    const fields = await soepFields(page)
    assert.match(fields.Subjectief, /keelpijn/i)
    assert.match(fields.Plan, /paracetamol/i)
    assert.equal(double.requests().length, 0, 'no audio reached the speech engine')
  })

  it('with a speech engine: spoken sentences become bubbles in order, then a SOEP note', async () => {
    const { page } = await speakConsult(speechApi.proxy.url, [
      1,
      'Ik heb sinds drie dagen keelpijn.',
      1.5,
      'De keel is rood en er is geen beslag.',
      1.5,
      'Dit past bij een virale keelontsteking.',
      1.5,
      'U kunt paracetamol drie keer per dag nemen.',
      3,
    ])

    await page.getByRole('button', { name: 'Samenvatten' }).click()
    const subjective = episode(page, 1).getByLabel('Subjectief', { exact: true })
    await page.waitForFunction((el) => el.value !== '', await subjective.elementHandle(), { timeout: 30_000 })
    const fields = await soepFields(page)
    assert.match(fields.Subjectief, /keelpijn/i)
    assert.match(fields.Objectief, /keel (is )?rood/i)
    assert.match(fields.Evaluatie, /virale keelontsteking/i)
    assert.match(fields.Plan, /paracetamol/i)

    await episode(page, 1).getByRole('button', { name: 'Kopieren' }).nth(3).click()
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), fields.Plan)

    await page.getByRole('button', { name: 'Opnieuw' }).click()
    await page.getByRole('button', { name: 'Start' }).waitFor()
    assert.equal(await page.getByTestId('transcript').count(), 0)
    assert.deepEqual(await soepFields(page), { Subjectief: '', Objectief: '', Evaluatie: '', Plan: '' })
  })

  it('with the realtime engine against speaches as it ships: the same sentences, in order, each once', async () => {
    const realtimeApi = await startSpeechApi(double.url, 'realtime')
    try {
      const { sentences } = await speakConsult(realtimeApi.proxy.url, [
        1,
        'Ik heb sinds drie dagen keelpijn.',
        1.5,
        'De keel is rood en er is geen beslag.',
        1.5,
        'Dit past bij een virale keelontsteking.',
        3,
      ])
      assert.deepEqual(
        double.requests().map((r) => r.via),
        sentences.map(() => 'realtime'),
        'every utterance went over the realtime socket',
      )
    } finally {
      await realtimeApi.stop()
    }
  })

  it('dictation: finished sentences are appended to Dictatie, without a transcript panel', async () => {
    const { wav, sentences } = recording([1, 'Geachte collega.', 1.5, 'Hierbij verwijs ik mevrouw Jansen naar uw polikliniek.', 3])
    double.setScript(sentences)
    const { page } = await consultPage(wav, speechApi.proxy.url, '/audioconsult/beta/dictation')
    await page.getByRole('heading', { level: 1, name: 'Dicteren' }).waitFor()
    await page.getByRole('button', { name: 'Start' }).click()
    const dictation = page.getByLabel('Dictatie', { exact: true })
    const expected = sentences.map((s) => s.text).join(' ')
    await page.waitForFunction(
      ([el, text]) => el.value === text || el.value.split('. ').length > text.split('. ').length,
      [await dictation.elementHandle(), expected],
      { timeout: 60_000 },
    )
    assert.equal(await dictation.inputValue(), expected)
    assert.equal(await page.getByTestId('transcript').count(), 0)
    assertRequestsWereUtterances(double.requests(), sentences)
  })

  it('a dropped socket reconnects and the audio spoken during the gap reaches the transcript', async () => {
    const gap = 8
    const { wav, sentences } = recording([1, 'Ik heb last van mijn rug.', gap, 'Het begon na het tillen van een zware doos.', 3])
    double.setScript(sentences)
    const { page } = await consultPage(wav, speechApi.proxy.url, '/audioconsult/beta/soap')
    await page.getByRole('button', { name: 'Start' }).click()
    await waitForBubbles(page, 1)

    // the network goes: every connection through the proxy is cut and new ones are refused
    speechApi.proxy.cut()
    await page.getByTestId('reconnecting').waitFor()
    // The cut came at least the server's 0.7 s of closing silence after the first sentence, so
    // once the page keeps this much audio the second sentence has been spoken into the gap.
    const needed = Math.ceil(gap - 0.7 + sentences[1].seconds + 1)
    await page.waitForFunction((n) => Number(document.querySelector('[data-testid="kept-seconds"]')?.dataset.seconds) >= n, needed, {
      timeout: 60_000,
    })
    assert.deepEqual(await bubbleTexts(page), [sentences[0].text], 'nothing reached the server during the gap')
    speechApi.proxy.restore()

    await waitForBubbles(page, 2)
    assert.deepEqual(await bubbleTexts(page), sentences.map((s) => s.text))
    await page.getByTestId('reconnecting').waitFor({ state: 'detached' })
    assertRequestsWereUtterances(double.requests(), sentences)
  })
})

/** What the page heard on its speech socket: `job` and `summarization` messages, and how many pongs. */
function socketLog(page) {
  const log = { jobs: [], results: [], pongs: 0 }
  page.on('websocket', (socket) =>
    socket.on('framereceived', ({ payload }) => {
      if (typeof payload !== 'string') return
      const message = JSON.parse(payload)
      if (message.type === 'job') log.jobs.push(message)
      else if (message.type === 'summarization') log.results.push(message)
      else if (message.type === 'pong') log.pongs++
    }),
  )
  return log
}

/** Waits (in real time, at most 60 s) until `condition()` holds. */
async function until(condition, what) {
  const deadline = Date.now() + 60_000
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`waited in vain for ${what}`)
    await new Promise((wait) => setTimeout(wait, 100))
  }
}

/**
 * Runs the page's clock `ms` ahead, firing its timers as they come due, in steps of 10 s: after
 * each the socket's ping is answered before the next, so the page does not take the fast clock
 * for a silent network.
 */
async function runClock(page, log, ms) {
  const STEP = 10_000
  for (let left = ms; left > 0; left -= STEP) {
    const pongs = log.pongs
    await page.clock.runFor(Math.min(STEP, left))
    await until(() => log.pongs > pongs, 'the pong after a step of the clock')
  }
}

const OTHER_CONSULT = [
  'Goedemiddag, vertelt u het maar.',
  'Dokter, ik heb sinds een week rugpijn na het tillen van een kast.',
  'Straalt het uit naar uw been?',
  'Nee.',
  'De onderrug is drukpijnlijk, de proef van Lasègue is negatief.',
  'Dit past bij aspecifieke lage rugpijn.',
  'Blijf zo veel mogelijk in beweging en neem zo nodig paracetamol.',
].join('\n')

/**
 * An api whose worker takes only e-mail, so its summaries wait in the queue as when the queue
 * stalled (`startWorker()` starts a worker for them on the same queues, one job at a time in the
 * queue's order); Chromium on its consult page with the typed consult summarised and the page's
 * clock run past the delay bound. Checks the page on the way.
 */
async function delayedSummary(name) {
  const namespace = `e2e-${name}-${process.pid}`
  const stalled = await startApi(name, { APP_JOBS_NAMESPACE: namespace, APP_WORKER_QUEUES: 'email' }, { command: 'all' })
  let worker
  open.push({ close: async () => (await worker?.stop(), await stalled.stop()) })
  const startWorker = async () => {
    const env = { APP_JOBS_NAMESPACE: namespace, APP_WORKER_QUEUES: 'summarise_consult', APP_WORKER_CONCURRENCY_SUMMARISE_CONSULT: '1' }
    worker = await startApi(`${name}-worker`, env, { command: 'all' })
  }

  const browser = await launchBrowser()
  open.push(browser)
  const { page } = await freshPage(browser, { baseURL: stalled.url, viewport: { width: 1440, height: 900 } })
  // the page's clock runs as usual until the test runs it ahead
  await page.clock.install()
  const log = socketLog(page)
  const summarizeMessages = []
  page.on('websocket', (socket) =>
    socket.on('framesent', ({ payload }) => {
      if (typeof payload === 'string' && payload.includes('"summarize"')) summarizeMessages.push(JSON.parse(payload))
    }),
  )
  await page.goto('/audioconsult/beta/soap')
  await signInAs(page, 'huisarts@example.nl')
  await page.getByRole('button', { name: 'Start' }).click()
  await page.getByText('Er is geen spraakherkenning ingesteld.', { exact: false }).first().waitFor()
  const typed = page.getByLabel('Gesprek (getypt of geplakt)')
  await typed.fill(TYPED_CONSULT)
  await page.getByRole('button', { name: 'Samenvatten' }).click()

  await until(() => log.jobs.some((j) => j.state === 'queued'), 'the answer naming the job')
  const firstJob = log.jobs.find((j) => j.state === 'queued').id
  await page.getByTestId('summary-job-state').filter({ hasText: 'Status: In de wachtrij' }).waitFor()
  const delayed = page.getByTestId('summary-delayed')
  // the bound: a minute past the estimate for this transcript, as the page computed it
  const bound = Number(await page.getByTestId('summary').getAttribute('data-delayed-after-ms'))
  assert.ok(bound > 60_000 && bound < 70_000, `a minute past an estimate of a few seconds, not ${bound} ms`)

  // just before the bound: still waiting, no message
  await runClock(page, log, bound - 5_000)
  assert.equal(await delayed.count(), 0, 'no delay message before the bound')
  assert.equal(await page.getByRole('button', { name: 'Samenvatten' }).isDisabled(), true)

  // past it: the message, with the transcript and the empty note as they were
  await runClock(page, log, 10_000)
  await delayed.waitFor()
  assert.equal(
    (await delayed.getByText('Het samenvatten duurt', { exact: false }).textContent()).trim(),
    'Het samenvatten duurt langer dan verwacht. Je transcript blijft bewaard.',
  )
  assert.equal(await typed.inputValue(), TYPED_CONSULT)
  assert.deepEqual(await soepFields(page), { Subjectief: '', Objectief: '', Evaluatie: '', Plan: '' })
  await page.getByTestId('summary-job-state').filter({ hasText: 'Status: In de wachtrij' }).waitFor()
  assert.equal(Number(await page.getByRole('progressbar').getAttribute('aria-valuenow')), 95, 'the bar waits at its cap')
  return { page, log, typed, delayed, firstJob, summarizeMessages, startWorker }
}

describe('a summary that does not come', () => {
  it('past its bound the page says so, keeps the transcript, asks again, and shows the newest result once the queue moves', async () => {
    const { page, log, typed, delayed, firstJob, summarizeMessages, startWorker } = await delayedSummary('stalled')
    await page.screenshot({ path: join(screenshotDir, 'spreekkamer-consult-samenvatting-vertraagd-1440.png'), fullPage: true })
    await page.setViewportSize({ width: 390, height: 844 })
    await page.screenshot({ path: join(screenshotDir, 'spreekkamer-consult-samenvatting-vertraagd-390.png'), fullPage: true })
    await page.setViewportSize({ width: 1440, height: 900 })
    // the job is still waiting, so the page keeps polling it as well as listening
    const polled = page.waitForResponse((r) => r.url().endsWith(`/api/jobs/${firstJob}`) && r.status() === 200)
    await page.clock.runFor(2_000)
    assert.equal((await (await polled).json()).state, 'queued')

    // from here on, note whether a result field is ever given the first conversation's summary
    await page.evaluate(() => {
      window.__firstSummaryShown = false
      const value = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')
      Object.defineProperty(HTMLTextAreaElement.prototype, 'value', {
        ...value,
        set(text) {
          if (this.closest('fieldset') && String(text).includes('keelpijn')) window.__firstSummaryShown = true
          value.set.call(this, text)
        },
      })
    })

    // the clinician pastes the right conversation and asks again: a new request replaces the first
    await typed.fill(OTHER_CONSULT)
    await delayed.getByRole('button', { name: 'Opnieuw proberen' }).click()
    await delayed.waitFor({ state: 'detached' })
    await until(() => log.jobs.filter((j) => j.state === 'queued').length === 2, 'the answer naming the second job')
    const secondJob = log.jobs.filter((j) => j.state === 'queued')[1].id
    assert.notEqual(secondJob, firstJob)
    assert.equal(summarizeMessages.length, 2)
    assert.equal(summarizeMessages[1].request.transcript, OTHER_CONSULT)

    // the queue moves: a worker for summaries runs both jobs, one at a time in the queue's order,
    // so the first job's (late) result reaches the page before the newer one's
    await startWorker()
    await until(
      () => [firstJob, secondJob].every((id) => log.results.some((r) => r.jobId === id) && log.jobs.some((j) => j.id === id && j.state === 'succeeded')),
      'both summaries',
    )
    assert.deepEqual(
      log.results.map((r) => r.jobId),
      [firstJob, secondJob],
      'the first job finished first',
    )
    // the newest request's result is shown; the first job's never was
    const subjective = episode(page, 1).getByLabel('Subjectief', { exact: true })
    await page.waitForFunction((el) => el.value !== '', await subjective.elementHandle())
    const fields = await soepFields(page)
    assert.match(fields.Subjectief, /rugpijn/i)
    assert.doesNotMatch(Object.values(fields).join('\n'), /keelpijn/)
    assert.equal(await page.evaluate(() => window.__firstSummaryShown), false, 'the first summary was never shown')
    assert.equal(await typed.inputValue(), OTHER_CONSULT)
    await page.getByRole('progressbar').waitFor({ state: 'detached' })
    assert.equal(await delayed.count(), 0)
  })

  it('a summary that comes after the delay message is shown as usual, and leaves what was written meanwhile', async () => {
    const { page, log, typed, delayed, firstJob, summarizeMessages, startWorker } = await delayedSummary('late')
    // the clinician stops waiting and writes the plan herself
    const plan = episode(page, 1).getByLabel('Plan', { exact: true })
    await plan.fill('Zelf geschreven: terugkomen bij koorts.')

    await startWorker()
    const subjective = episode(page, 1).getByLabel('Subjectief', { exact: true })
    await page.waitForFunction((el) => el.value !== '', await subjective.elementHandle(), { timeout: 30_000 })
    const fields = await soepFields(page)
    assert.match(fields.Subjectief, /keelpijn/i)
    assert.match(fields.Evaluatie, /virale keelontsteking/i)
    assert.equal(fields.Plan, 'Zelf geschreven: terugkomen bij koorts.', 'what she wrote stays')
    await page.getByText('Tekst die tijdens het wachten is geschreven of gedicteerd, is bewaard.', { exact: false }).waitFor()
    await delayed.waitFor({ state: 'detached' })
    await page.getByRole('progressbar').waitFor({ state: 'detached' })
    assert.equal(await typed.inputValue(), TYPED_CONSULT)
    assert.deepEqual(log.results.map((r) => r.jobId), [firstJob])
    assert.equal(summarizeMessages.length, 1)
  })
})

/** A language model that refuses every request (400): each summary fails for good at once. */
async function startRefusingModel() {
  let requests = 0
  const server = createServer((request, response) => {
    request.resume()
    request.on('end', () => {
      requests++
      response.writeHead(400, { 'content-type': 'application/json' })
      response.end(JSON.stringify({ error: { message: 'refused', type: 'invalid_request_error' } }))
    })
  })
  await new Promise((ready) => server.listen(0, '127.0.0.1', ready))
  return {
    url: `http://127.0.0.1:${server.address().port}/v1`,
    requests: () => requests,
    close: () =>
      new Promise((done) => {
        server.closeAllConnections()
        server.close(done)
      }),
  }
}

describe('a summary that fails', () => {
  it('shows the Dutch reason on the page, keeps the transcript, and can be asked again from there', async () => {
    const model = await startRefusingModel()
    const refusing = await startApi('refusing', { APP_LLM_URL: model.url, APP_LLM_MODEL: 'weigeraar' }, { command: 'all' })
    open.push({ close: async () => (await refusing.stop(), await model.close()) })

    const browser = await launchBrowser()
    open.push(browser)
    const { page } = await freshPage(browser, { baseURL: refusing.url })
    const log = socketLog(page)
    await page.goto('/audioconsult/beta/soap')
    await signInAs(page, 'huisarts@example.nl')
    await page.getByRole('button', { name: 'Start' }).click()
    const typed = page.getByLabel('Gesprek (getypt of geplakt)')
    await typed.fill(TYPED_CONSULT)
    await page.getByRole('button', { name: 'Samenvatten' }).click()

    const failed = page.getByTestId('summary-failed')
    await failed.waitFor({ timeout: 30_000 })
    const reason = 'De samenvatting kon niet worden gemaakt: het taalmodel weigerde het verzoek (HTTP-status 400).'
    assert.equal((await failed.getByRole('alert').textContent()).trim(), reason)
    assert.equal(log.jobs.at(-1).state, 'failed')
    assert.equal(await page.getByRole('progressbar').count(), 0)
    assert.equal(await typed.inputValue(), TYPED_CONSULT)
    assert.equal(await page.getByRole('button', { name: 'Samenvatten' }).isEnabled(), true)
    await page.screenshot({ path: join(screenshotDir, 'spreekkamer-consult-samenvatting-mislukt.png'), fullPage: true })

    // Opnieuw proberen asks again: a new job, which fails the same way
    const before = model.requests()
    await failed.getByRole('button', { name: 'Opnieuw proberen' }).click()
    await until(() => log.jobs.filter((j) => j.state === 'queued').length === 2, 'the second job')
    await until(() => model.requests() > before, 'the second request to the model')
    await until(() => log.jobs.filter((j) => j.state === 'failed').length === 2, 'the second failure')
    await failed.waitFor()
    assert.equal((await failed.getByRole('alert').textContent()).trim(), reason)
    assert.equal(await typed.inputValue(), TYPED_CONSULT)
  })
})
