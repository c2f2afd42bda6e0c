// A typed two-problem consult on the embedded summariser, in real Chromium, as the seeded GP: two
// episodes with S, O, E and P in their places, ICPC chips under each Evaluatie with their evidence
// highlighted on a click, an accepted code in the copied evaluation, and the quiet line that the
// note was drafted without a language model.
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { baseUrl, freshPage, launchBrowser, screenshotDir, signInAs } from './browser.mjs'

const CONSULT = [
  'Huisarts: Goedemorgen, wat kan ik voor u doen?',
  'Patiënt: Ik heb sinds vier dagen keelpijn en het slikken doet pijn.',
  'Huisarts: Heeft u koorts gehad?',
  'Patiënt: Nee, geen koorts.',
  'Patiënt: En ik heb sinds een week pijn onder in mijn rug, na het tillen van een kast.',
  'Huisarts: Ik kijk even in uw keel.',
  'Huisarts: De keel is rood, er is geen beslag op de amandelen.',
  'Huisarts: De keelpijn is een virale keelontsteking, daar is geen antibioticum voor nodig.',
  'Huisarts: U kunt paracetamol nemen als het nodig is.',
  'Huisarts: De rug is goed beweeglijk en de proef van Lasègue is negatief.',
  'Huisarts: Dat is aspecifieke lage rugpijn.',
  'Huisarts: Voor de rug schrijf ik naproxen voor en ik verwijs u naar de fysiotherapeut.',
].join('\n')

let browser

before(async () => {
  browser = await launchBrowser()
})

after(async () => {
  await browser?.close()
})

/** The four fields of episode `n`. */
async function episode(page, n) {
  const group = page.getByRole('group', { name: `Episode ${n}` })
  const fields = {}
  for (const [key, label] of [
    ['S', 'Subjectief'],
    ['O', 'Objectief'],
    ['E', 'Evaluatie'],
    ['P', 'Plan'],
  ]) {
    fields[key] = await group.getByLabel(label, { exact: true }).inputValue()
  }
  return fields
}

describe('a typed two-problem consult', () => {
  it('gives two SOEP episodes with ICPC chips, their evidence, and the accepted code in the copy', async () => {
    const { context, page } = await freshPage(browser, { viewport: { width: 1440, height: 900 } })
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl })
    await page.goto('/audioconsult/beta/soap')
    await signInAs(page, 'huisarts@example.nl')
    await page.getByLabel('Episodes').selectOption('2')
    const typed = page.getByLabel('Gesprek (getypt of geplakt)')
    // without a speech engine the page offers the typed box; Start opens the session
    const start = page.getByRole('button', { name: 'Start' })
    const summarize = page.getByRole('button', { name: 'Samenvatten' })
    if (!(await typed.isVisible())) await start.click()
    await typed.fill(CONSULT)
    if (!(await summarize.isVisible())) await start.click()
    if ((await typed.inputValue()) !== CONSULT) await typed.fill(CONSULT)
    await summarize.click()

    const chips = page.getByRole('group', { name: 'Episode 1' }).getByTestId('episode-codes')
    await chips.waitFor({ timeout: 30_000 })
    const throat = await episode(page, 1)
    const back = await episode(page, 2)
    assert.match(throat.S, /keelpijn/i)
    assert.match(throat.O, /rood/i)
    assert.match(throat.E, /virale keelontsteking/i)
    assert.match(throat.P, /paracetamol/i)
    assert.match(back.S, /rug/i)
    assert.match(back.O, /Lasègue/i)
    assert.match(back.E, /aspecifieke lage rugpijn/i)
    assert.match(back.P, /naproxen/i)
    assert.match(back.P, /fysiotherapeut/i)
    assert.doesNotMatch(throat.P, /naproxen|fysiotherapeut/i, 'the back pain plan stays with the back pain')
    for (const text of [...Object.values(throat), ...Object.values(back)]) {
      assert.doesNotMatch(text, /Huisarts:|Patiënt:|\?/, `no speaker labels or questions in the note: ${text}`)
    }
    await page.getByTestId('drafted-without-model').waitFor()

    // the chips: R74 for the throat, L03 for the back, no process codes
    const codesOf = async (n) =>
      page.getByRole('group', { name: `Episode ${n}` }).locator('[data-code]').evaluateAll((els) => els.map((el) => el.dataset.code))
    const throatCodes = await codesOf(1)
    const backCodes = await codesOf(2)
    assert.ok(throatCodes.includes('R74'), `throat codes ${throatCodes}`)
    assert.ok(backCodes.includes('L03'), `back codes ${backCodes}`)
    assert.ok(!throatCodes.includes('L03') && !backCodes.includes('R74'), 'each code in the episode of its problem')
    assert.ok([...throatCodes, ...backCodes].every((c) => !/^(-|.(3|4|5|6)\d)/.test(c)), 'no process codes')

    // a click shows its evidence, highlighted
    await chips.getByRole('button', { name: 'R74 Verkoudheid', exact: true }).click()
    const evidence = page.getByTestId('code-evidence')
    await evidence.waitFor()
    assert.match(await evidence.locator('mark').first().textContent(), /virale keelontsteking/)
    await page.screenshot({ path: join(screenshotDir, 'spreekkamer-consult-icpc-1440.png'), fullPage: true })

    // accepted, it goes with the evaluation's copy
    await chips.getByRole('button', { name: 'R74 overnemen' }).click()
    await chips.getByText('✓ Overgenomen').waitFor()
    const evaluation = page.getByRole('group', { name: 'Episode 1' }).getByLabel('Evaluatie', { exact: true })
    const copyButtons = page.getByRole('group', { name: 'Episode 1' }).getByRole('button', { name: 'Kopieren' })
    await copyButtons.nth(2).click()
    await page.getByText('Gekopieerd naar het klembord.').waitFor()
    const copied = await page.evaluate(() => navigator.clipboard.readText())
    assert.equal(copied, `${(await evaluation.inputValue()).trim()}\nICPC: R74 Verkoudheid`)

    // removed, a chip is gone
    const other = throatCodes.find((c) => c !== 'R74')
    if (other) {
      await chips.getByRole('button', { name: `${other} verwijderen` }).click()
      assert.deepEqual(await codesOf(1), throatCodes.filter((c) => c !== other))
    }
    await page.setViewportSize({ width: 390, height: 844 })
    await page.waitForTimeout(400)
    await page.screenshot({ path: join(screenshotDir, 'spreekkamer-consult-icpc-390.png'), fullPage: true })
    await context.close()
  })
})
