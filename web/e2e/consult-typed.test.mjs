// Typed consults on the embedded summariser, in real Chromium, as the seeded GP: a Samenvatten
// pressed at once after Start, before the socket says it is ready, still brings the note; two
// problems asked as one episode are offered as two; and a typed practice meeting gives minutes ('Overleg') with what was discussed and what was agreed
// (who does what, when), in the record's voice and without the speakers' labels.
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { freshPage, launchBrowser, screenshotDir, signInAs } from './browser.mjs'

const MEETING = [
  'Huisarts: Goedemiddag allemaal, we beginnen met mevrouw Jansen.',
  'POH: Haar bloeddruk was vorige week 162/98, ondanks de amlodipine.',
  'Huisarts: Dan starten we met hydrochloorthiazide erbij.',
  'Assistente: Ik plan over vier weken een controle bij de POH.',
  'POH: Ik bel haar donderdag om het uit te leggen.',
  'Huisarts: Prima, dan de volgende.',
].join('\n')

let browser

before(async () => {
  browser = await launchBrowser()
})

after(async () => {
  await browser?.close()
})

const CONSULT = [
  'Ik heb sinds drie dagen keelpijn.',
  'De keel is rood, er is geen beslag.',
  'Dit past bij een virale keelontsteking.',
  'U kunt paracetamol nemen.',
].join('\n')

describe('a typed consult', () => {
  it('a Samenvatten pressed before the socket is ready is kept and sent, with no false warning', async () => {
    const { context, page } = await freshPage(browser, { viewport: { width: 1440, height: 900 } })
    // the server's 'ready' is held back until Samenvatten has been pressed
    let release
    const pressed = new Promise((resolve) => {
      release = resolve
    })
    const sent = []
    await page.routeWebSocket(/\/ws\/speech\/consult\//, (ws) => {
      const server = ws.connectToServer()
      ws.onMessage((message) => {
        if (typeof message === 'string') sent.push({ message })
        server.send(message)
      })
      // in order: whatever follows 'ready' waits behind it
      let order = Promise.resolve()
      server.onMessage((message) => {
        order = order.then(async () => {
          if (typeof message === 'string' && JSON.parse(message).type === 'ready') await pressed
          ws.send(message)
        })
      })
    })
    await page.goto('/audioconsult/beta/soap')
    await signInAs(page, 'huisarts@example.nl')
    const typed = page.getByLabel('Gesprek (getypt of geplakt)')
    await typed.fill(CONSULT)
    await page.getByRole('button', { name: 'Start' }).click()
    // pressed while the page has not yet heard 'ready'
    await page.getByRole('button', { name: 'Samenvatten' }).click()
    await page.waitForTimeout(300)
    assert.equal(sent.filter(({ message }) => JSON.parse(message).type === 'summarize').length, 0, 'kept until ready')
    release()

    const subjective = page.getByRole('group', { name: 'Episode 1' }).getByLabel('Subjectief', { exact: true })
    await page.waitForFunction((el) => el.value !== '', await subjective.elementHandle(), { timeout: 30_000 })
    assert.match(await subjective.inputValue(), /keelpijn/)
    const requests = sent.filter(({ message }) => JSON.parse(message).type === 'summarize')
    assert.equal(requests.length, 1, 'one summary request reached the server')
    assert.equal(await page.getByText('De verbinding is weggevallen', { exact: false }).count(), 0)
    await context.close()
  })
})

const TWO_PROBLEMS = [
  'Ik heb sinds drie dagen keelpijn en het slikken doet pijn.',
  'Ik heb ook sinds een week pijn onder in mijn rug.',
  'Het slikken gaat slecht en de keel voelt rauw.',
  'De keel is rood, er is geen beslag.',
  'De rug is goed beweeglijk. Lasègue is negatief.',
  'De keelpijn is een virale keelontsteking.',
  'Dit is aspecifieke lage rugpijn.',
  'Neem paracetamol voor de keel.',
  'Voor de rug naproxen, en blijf in beweging.',
].join('\n')

describe('a typed consult of two problems asked as one episode', () => {
  it('lists them problem by problem and offers the split, which gives two episodes', async () => {
    const { context, page } = await freshPage(browser, { viewport: { width: 1440, height: 900 } })
    await page.goto('/audioconsult/beta/soap')
    await signInAs(page, 'huisarts@example.nl')
    await page.getByLabel('Gesprek (getypt of geplakt)').fill(TWO_PROBLEMS)
    await page.getByRole('button', { name: 'Start' }).click()
    await page.getByRole('button', { name: 'Samenvatten' }).click()

    const offer = page.getByTestId('split-offer')
    await offer.waitFor({ timeout: 30_000 })
    assert.match(await offer.textContent(), /2 problemen gevonden — als 2 episodes tonen\?/)
    assert.equal(await page.getByRole('group', { name: 'Episode 2' }).count(), 0)
    const plan = await page.getByRole('group', { name: 'Episode 1' }).getByLabel('Plan', { exact: true }).inputValue()
    assert.ok(plan.indexOf('paracetamol') < plan.indexOf('naproxen'), plan)

    await offer.getByRole('button', { name: 'Als 2 episodes tonen' }).click()
    const second = page.getByRole('group', { name: 'Episode 2' })
    await second.waitFor({ timeout: 30_000 })
    assert.match(await second.getByLabel('Plan', { exact: true }).inputValue(), /naproxen/)
    assert.doesNotMatch(await page.getByRole('group', { name: 'Episode 1' }).getByLabel('Plan', { exact: true }).inputValue(), /naproxen/)
    assert.equal(await page.getByLabel('Episodes').inputValue(), '2')
    await offer.waitFor({ state: 'detached' })
    await context.close()
  })
})

describe('a typed meeting', () => {
  it('gives minutes with the agreements, who does what and when, and no speaker labels', async () => {
    const { context, page } = await freshPage(browser, { viewport: { width: 1440, height: 900 } })
    await page.goto('/audioconsult/beta/meeting')
    await signInAs(page, 'huisarts@example.nl')
    await page.getByRole('heading', { level: 1 }).waitFor()
    await page.getByRole('button', { name: 'Start' }).click()
    await page.getByLabel('Gesprek (getypt of geplakt)').fill(MEETING)
    await page.getByRole('button', { name: 'Samenvatten' }).click()

    const minutes = page.getByLabel('Verslag van het overleg', { exact: true })
    await page.waitForFunction((el) => el.value !== '', await minutes.elementHandle(), { timeout: 30_000 })
    const text = await minutes.inputValue()
    const [discussed, agreed] = text.split('Afspraken/acties:')
    assert.ok(agreed, `the minutes have an agreements part:\n${text}`)
    assert.match(discussed, /^Besproken:/)
    assert.match(discussed, /162\/98/, 'the measurement is kept')
    // the three agreements: the medication start, the follow-up and the phone call, each once
    assert.doesNotMatch(agreed, /Geen afspraken vastgelegd/)
    assert.match(agreed, /hydrochloorthiazide/)
    assert.match(agreed, /over vier weken/i)
    assert.match(agreed, /POH belt haar donderdag/)
    assert.equal(agreed.trim().split('\n').length, 3, agreed)
    // in the record's voice: no speaker labels and no "ik" or "we"
    assert.doesNotMatch(text, /^(- )?(Huisarts|POH|Assistente):/m)
    assert.doesNotMatch(text, /\b(ik|we|wij)\b/i)

    await page.getByRole('progressbar').waitFor({ state: 'detached' })
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: 900 })
      await page.waitForTimeout(400)
      await page.screenshot({ path: join(screenshotDir, `spreekkamer-consult-meeting-${width}.png`), fullPage: true })
    }
    await context.close()
  })
})
