// The live consult page in real Chromium with a fake microphone playing Dutch speech made with
// espeak-ng. Without a speech engine (the run's api) the clinician types the conversation. With
// one, a second api (started here, behind a proxy the test can cut) sends each utterance its
// voice-activity detection cut from the real audio to a speech test double.
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
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
async function startSpeechApi(speechUrl) {
  const port = await freePort()
  const proxy = await startProxy({ host: '127.0.0.1', port })
  // no interim requests: every request the double gets is a finished utterance
  const env = { APP_SPEECH_URL: speechUrl, APP_SPEECH_INTERIM: '0' }
  const api = await startApi('speech', env, { command: 'all', port, publicUrl: proxy.url })
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
    assert.equal(await page.getByRole('combobox', { name: 'Microfoon' }).locator('option').first().textContent(), 'Selecteer microfoon')

    await page.getByRole('button', { name: 'Start' }).click()
    await page.getByText('Er is geen spraakherkenning ingesteld.', { exact: false }).first().waitFor()
    const typed = page.getByLabel('Gesprek (getypt of geplakt)')

    // an empty transcript: Samenvatten does nothing
    await page.getByRole('button', { name: 'Samenvatten' }).click()
    assert.equal(await page.getByRole('progressbar').count(), 0)

    await typed.fill(TYPED_CONSULT)
    await page.getByRole('button', { name: 'Samenvatten' }).click()
    const subjective = episode(page, 1).getByLabel('Subjectief', { exact: true })
    await page.waitForFunction((el) => el.value !== '', await subjective.elementHandle(), { timeout: 30_000 })
    const fields = await soepFields(page)
    assert.match(fields.Subjectief, /keelpijn/)
    assert.match(fields.Objectief, /De keel is rood/)
    assert.match(fields.Evaluatie, /virale keelontsteking/)
    assert.match(fields.Plan, /paracetamol/)
    assert.equal(summarizeMessages.length, 1, 'only the second Samenvatten sent a request')
    assert.deepEqual(
      { ...summarizeMessages[0].request, transcript: undefined },
      { template: 'soap', flavour: 'normal', modelSize: 'large', precision: 'medium', episodeCount: 1, transcript: undefined },
    )
    assert.equal(summarizeMessages[0].request.transcript, TYPED_CONSULT)

    // Kopieren puts the field's text on the clipboard
    await episode(page, 1).getByRole('button', { name: 'Kopieren' }).first().click()
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), fields.Subjectief)

    // Opnieuw: back to the empty form
    await page.getByRole('button', { name: 'Opnieuw' }).click()
    await page.getByRole('button', { name: 'Start' }).waitFor()
    assert.deepEqual(await soepFields(page), { Subjectief: '', Objectief: '', Evaluatie: '', Plan: '' })
    assert.equal(await typed.count(), 0)
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
    assert.match((await soepFields(page)).Plan, /paracetamol/)
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
    assert.match(fields.Subjectief, /keelpijn/)
    assert.match(fields.Plan, /paracetamol/)
    assert.equal(double.requests().length, 0, 'no audio reached the speech engine')
  })

  it('with a speech engine: spoken sentences become bubbles in order, then a SOEP note', async () => {
    const { wav, sentences } = recording([
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
    double.setScript(sentences)
    const { page } = await consultPage(wav, speechApi.proxy.url, '/audioconsult/beta/soap')
    await page.getByRole('button', { name: 'Start' }).click()
    await page.getByRole('button', { name: 'Pauzeer' }).waitFor()
    await page.getByTestId('waveform').waitFor()

    await waitForBubbles(page, sentences.length)
    assert.deepEqual(await bubbleTexts(page), sentences.map((s) => s.text))
    assertRequestsWereUtterances(double.requests(), sentences)

    await page.getByRole('button', { name: 'Samenvatten' }).click()
    const subjective = episode(page, 1).getByLabel('Subjectief', { exact: true })
    await page.waitForFunction((el) => el.value !== '', await subjective.elementHandle(), { timeout: 30_000 })
    const fields = await soepFields(page)
    assert.match(fields.Subjectief, /keelpijn/)
    assert.match(fields.Objectief, /De keel is rood/)
    assert.match(fields.Evaluatie, /virale keelontsteking/)
    assert.match(fields.Plan, /paracetamol/)

    await episode(page, 1).getByRole('button', { name: 'Kopieren' }).nth(3).click()
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), fields.Plan)

    await page.getByRole('button', { name: 'Opnieuw' }).click()
    await page.getByRole('button', { name: 'Start' }).waitFor()
    assert.equal(await page.getByTestId('transcript').count(), 0)
    assert.deepEqual(await soepFields(page), { Subjectief: '', Objectief: '', Evaluatie: '', Plan: '' })
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
