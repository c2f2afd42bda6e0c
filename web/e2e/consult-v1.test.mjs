// The first version's consult pages from Home, in real Chromium, as the seeded GP: 'Gesproken
// consult' (/consult/v1/audio, the classic routing: typed here, as the run's api has no speech
// engine, summarised by `v1` with high precision) and 'E-consult' (/consult/v1/econsult: a
// patient's written question summarised, with a reply drafted, edited and copied).
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { baseUrl, freshPage, launchBrowser, screenshotDir, signInAs } from './browser.mjs'

const TWO_PROBLEMS = [
  'Goedemorgen, wat kan ik voor u doen?',
  'Ik heb sinds drie dagen keelpijn.',
  'De keel is rood, er is geen beslag.',
  'Dit past bij een virale keelontsteking.',
  'U kunt paracetamol nemen.',
  'Verder heb ik sinds een week pijn onder in mijn rug.',
  'De rug is soepel beweeglijk, geen uitstraling.',
  'Dat is aspecifieke lage rugpijn.',
  'Blijf in beweging en neem zo nodig naproxen.',
].join('\n')

const QUESTION = [
  'Beste dokter,',
  'Sinds vier dagen heb ik een verstopte neus en hoofdpijn boven mijn ogen. Ik heb geen koorts.',
  'Ik gebruik al neusspray maar het helpt niet. Moet ik langskomen of kan ik iets anders proberen?',
  'Met vriendelijke groet, Jan de Boer',
].join('\n')

let browser

before(async () => {
  browser = await launchBrowser()
})

after(async () => {
  await browser?.close()
})

/** Signed in as the GP on Home, the clipboard allowed; the summary calls the page makes are collected. */
async function home() {
  const { context, page } = await freshPage(browser, { viewport: { width: 1440, height: 900 } })
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl })
  const calls = []
  page.on('request', (request) => {
    if (request.url().includes('/consult/generative')) calls.push({ url: new URL(request.url()), body: request.postData() })
  })
  await page.goto('/')
  await signInAs(page, 'huisarts@example.nl')
  await page.getByRole('heading', { level: 1, name: /^Welkom/ }).waitFor()
  return { context, page, calls }
}

/** Full-page screenshots of the page at 1440 and 390 px wide. */
async function screenshots(page, name) {
  // after the copy's toast, and with the text areas fitted to the new width (250 ms debounce)
  await page.getByText('Gekopieerd naar het klembord.').waitFor({ state: 'hidden' })
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 })
    await page.waitForTimeout(400)
    await page.screenshot({ path: join(screenshotDir, `spreekkamer-${name}-${width}.png`), fullPage: true })
  }
  await page.setViewportSize({ width: 1440, height: 900 })
}

describe('the first version of the consult', () => {
  it('Gesproken consult: typed, high precision with two episodes, summarised by v1 into SOEP', async () => {
    const { context, page, calls } = await home()
    await page.getByRole('link', { name: /^Gesproken consult/ }).click()
    await page.getByRole('heading', { level: 1, name: 'Gesproken consult' }).waitFor()
    assert.equal(new URL(page.url()).pathname, '/consult/v1/audio')
    assert.equal(await page.getByText('Pagina niet gevonden').count(), 0)
    // SOEP only; the episodes go with high precision only
    assert.equal(await page.getByLabel('Sjabloon').count(), 0)
    assert.equal(await page.getByLabel('Episodes').count(), 0)
    await page.getByLabel('Precisie').selectOption('high')
    await page.getByLabel('Episodes').selectOption('2')

    await page.getByRole('button', { name: 'Start' }).click()
    await page.getByText('Er is geen spraakherkenning ingesteld.', { exact: false }).first().waitFor()
    await page.getByLabel('Gesprek (getypt of geplakt)').fill(TWO_PROBLEMS)
    await page.getByRole('button', { name: 'Samenvatten' }).click()

    const subjective = page.getByRole('group', { name: 'Episode 1' }).getByLabel('Subjectief', { exact: true })
    await page.waitForFunction((el) => el.value !== '', await subjective.elementHandle(), { timeout: 30_000 })
    await page.getByRole('group', { name: 'Episode 2' }).waitFor()
    const all = []
    for (const n of [1, 2]) {
      for (const field of ['Subjectief', 'Objectief', 'Evaluatie', 'Plan']) {
        all.push(await page.getByRole('group', { name: `Episode ${n}` }).getByLabel(field, { exact: true }).inputValue())
      }
    }
    const note = all.join('\n')
    assert.match(note, /keelpijn/)
    assert.match(note, /rug/)

    assert.equal(calls.length, 1)
    assert.equal(calls[0].url.pathname, '/api/audio/consult/generative/v1')
    assert.equal(calls[0].url.searchParams.get('episodeCount'), '2')
    assert.equal(calls[0].body, TWO_PROBLEMS)

    // Kopieren puts the field on the clipboard
    await page.getByRole('group', { name: 'Episode 1' }).getByRole('button', { name: 'Kopieren' }).first().click()
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), await subjective.inputValue())

    await page.getByRole('progressbar').waitFor({ state: 'detached' })
    await screenshots(page, 'consult-v1-audio')
    await context.close()
  })

  it('Gesproken consult with normal precision is summarised by v2-turbo', async () => {
    const { context, page, calls } = await home()
    await page.goto('/consult/v1/audio')
    await page.getByRole('button', { name: 'Start' }).click()
    await page.getByLabel('Gesprek (getypt of geplakt)').fill(TWO_PROBLEMS)
    await page.getByRole('button', { name: 'Samenvatten' }).click()
    const subjective = page.getByRole('group', { name: 'Episode 1' }).getByLabel('Subjectief', { exact: true })
    await page.waitForFunction((el) => el.value !== '', await subjective.elementHandle(), { timeout: 30_000 })
    assert.equal(calls.length, 1)
    assert.equal(calls[0].url.pathname, '/api/audio/consult/generative/v2-turbo')
    assert.equal(calls[0].url.searchParams.get('episodeCount'), null)
    await context.close()
  })

  it('E-consult: a pasted question is summarised, its reply drafted, edited and copied', async () => {
    const { context, page, calls } = await home()
    await page.getByRole('link', { name: /^E-consult/ }).click()
    await page.getByRole('heading', { level: 1, name: 'E-consult' }).waitFor()
    assert.equal(new URL(page.url()).pathname, '/consult/v1/econsult')

    // nothing pasted: nothing asked
    await page.getByRole('button', { name: 'Samenvatten' }).click()
    await page.getByRole('alert').filter({ hasText: 'Plak eerst de vraag van de patiënt.' }).waitFor()
    assert.equal(calls.length, 0)

    await page.getByLabel('Vraag van de patiënt').fill(QUESTION)
    await page.getByRole('button', { name: 'Samenvatten' }).click()
    const reply = page.getByRole('textbox', { name: 'Concept-antwoord aan de patiënt' })
    await reply.waitFor({ timeout: 30_000 })
    assert.equal(calls.length, 1)
    assert.equal(calls[0].url.pathname, '/api/electronic/consult/generative')
    assert.equal(JSON.parse(calls[0].body).text, QUESTION)

    const summary = page.getByRole('region', { name: 'Samenvatting' })
    const subjective = await summary.getByLabel('Subjectief', { exact: true }).inputValue()
    assert.match(subjective, /verstopte neus/)
    // the patient's question is kept; the greeting and the signature are not part of the note
    assert.match(subjective, /Vraag: .*langskomen/)
    assert.doesNotMatch(subjective, /Beste dokter|vriendelijke groet|Jan de Boer/)
    const drafted = await reply.inputValue()
    assert.match(drafted, /^Beste Jan de Boer,/)
    assert.match(drafted, /Met vriendelijke groet,\nUw huisarts$/)

    // the GP writes the advice into the reply, and copies it
    const edited = drafted.replace('Dank u voor uw bericht.', 'Dank u voor uw bericht. Spoel uw neus een paar keer per dag met zout water.')
    await reply.fill(edited)
    await page.getByRole('region', { name: 'Concept-antwoord aan de patiënt' }).getByRole('button', { name: 'Kopieren' }).click()
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), edited)

    await page.getByRole('progressbar').waitFor({ state: 'detached' })
    await screenshots(page, 'consult-v1-econsult')
    await context.close()
  })
})
