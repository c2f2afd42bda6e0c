// The pages a GP uses on a phone, at 390 px wide (and at 1440 px for comparison), in real
// Chromium: /template and /personalize show every row's owner and buttons without the page
// scrolling sideways, and the floating 'Feedback geven' button leaves the consult page's
// 'Kopieren' buttons and fields free. Screenshots of each go to the screenshot directory.
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { accessToken, baseUrl, pagesPerTest, screenshotDir } from './browser.mjs'

const PHONE = { width: 390, height: 844 }
const DESKTOP = { width: 1440, height: 900 }

const { openAs } = pagesPerTest()

/** Calls the api as `token`; gives the parsed answer. */
async function call(token, method, path, body) {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  const text = await response.text()
  assert.ok(response.ok, `${method} ${path}: ${response.status} ${text}`)
  return JSON.parse(text)
}

/** The page does not scroll sideways: nothing is wider than the window. */
async function assertNoSidewaysScroll(page, width) {
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth)
  assert.ok(scrollWidth <= width, `the page is ${scrollWidth} px wide at ${width} px`)
}

/** `locator` is shown and lies wholly within the window's width (scrolled to, if need be). */
async function assertWithinWidth(locator, width, what) {
  await locator.scrollIntoViewIfNeeded()
  assert.ok(await locator.isVisible(), `${what} is visible`)
  const box = await locator.boundingBox()
  assert.ok(box && box.x >= 0 && box.x + box.width <= width, `${what} lies within ${width} px: ${JSON.stringify(box)}`)
  // nor is it cut off by the box the table scrolls in
  const clipped = await locator.evaluate((el) => {
    const frame = el.closest('[class*="overflow-"]')
    if (!frame) return false
    const a = el.getBoundingClientRect()
    const b = frame.getBoundingClientRect()
    return a.left < b.left - 0.5 || a.right > b.right + 0.5
  })
  assert.ok(!clipped, `${what} is not cut off by its table`)
}

function overlaps(a, b) {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
}

const shot = (name) => join(screenshotDir, `spreekkamer-${name}.png`)

describe('on a phone', () => {
  it('/template shows each row with its owner and its buttons, without sideways scrolling', async () => {
    const suffix = randomBytes(3).toString('hex')
    const token = await accessToken(baseUrl, 'huisarts@example.nl')
    const title = `Keelpijn beleid ${suffix}`
    const entry = await call(token, 'PUT', '/api/template/entry?sharedTemplate=false', {
      soepType: 'PLAN',
      title,
      text: 'Paracetamol zo nodig, terugkomen bij koorts boven 38,5 graden of slikproblemen.',
      description: 'Een lange omschrijving van een template regel die op een telefoon over meerdere regels loopt.',
      codes: ['R74', 'R21'],
    })
    const groupTitle = `Luchtwegen ${suffix}`
    await call(token, 'PUT', '/api/template/group?sharedTemplate=false', {
      title: groupTitle,
      description: 'Regels voor klachten van de luchtwegen',
      entries: [{ id: entry.id }],
    })

    for (const [name, viewport] of [
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ]) {
      const page = await openAs('huisarts@example.nl', '/template', viewport)
      await page.getByRole('heading', { level: 1, name: 'Templates' }).waitFor()
      const entries = page.getByRole('tabpanel')
      await entries.getByPlaceholder(/Zoek/).first().fill(suffix)
      const row = entries.getByRole('row').filter({ hasText: title })
      await row.waitFor()
      await page.screenshot({ path: shot(`templates-${name}`), fullPage: true })
      await assertNoSidewaysScroll(page, viewport.width)
      await assertWithinWidth(row.locator('td[data-label="Eigenaar"]'), viewport.width, 'the owner')
      await assertWithinWidth(row.getByRole('button', { name: /^Bekijken/ }), viewport.width, 'the preview button')
      await assertWithinWidth(row.getByRole('link', { name: /^Bewerken/ }), viewport.width, 'the edit link')
      await assertWithinWidth(row.getByRole('button', { name: /^Verwijderen/ }), viewport.width, 'the delete button')

      await page.getByRole('tab', { name: 'Template groepen' }).click()
      const groups = page.getByRole('tabpanel')
      await groups.getByPlaceholder(/Zoek/).first().fill(suffix)
      const groupRow = groups.getByRole('row').filter({ hasText: groupTitle })
      await groupRow.waitFor()
      await page.screenshot({ path: shot(`template-groups-${name}`), fullPage: true })
      await assertNoSidewaysScroll(page, viewport.width)
      await assertWithinWidth(groupRow.locator('td[data-label="Eigenaar"]'), viewport.width, 'the group owner')
      await assertWithinWidth(groupRow.getByRole('link', { name: /^Bewerken/ }), viewport.width, 'the group edit link')
      await assertWithinWidth(groupRow.getByRole('button', { name: /^Verwijderen/ }), viewport.width, 'the group delete button')
    }
  })

  it('/personalize shows every example with its buttons, without sideways scrolling', async () => {
    const token = await accessToken(baseUrl, 'huisarts@example.nl')
    const marker = randomBytes(3).toString('hex')
    await call(token, 'POST', '/api/user/personalized/soap', {
      subjective: `Patiënt (${marker}) meldt sinds een week hoesten met opgeven van groen slijm, geen koorts, wel moe.`,
      objective: 'Longen: vesiculair ademgeruis, geen bijgeluiden. Temperatuur 37,2 graden.',
      evaluation: 'Acute bronchitis, waarschijnlijk viraal.',
      plan: 'Uitleg over het natuurlijk beloop, terugkomen bij koorts of kortademigheid. Eenlangwoordzonderspatiesdatnietmagoverlopenopeentelefoonscherm.',
    })
    for (const [name, viewport] of [
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ]) {
      const page = await openAs('huisarts@example.nl', '/personalize', viewport)
      await page.getByRole('heading', { level: 1, name: 'Personaliseer' }).waitFor()
      const row = page.getByRole('row').filter({ hasText: marker })
      await row.waitFor()
      await page.screenshot({ path: shot(`personalize-${name}`), fullPage: true })
      await assertNoSidewaysScroll(page, viewport.width)
      await assertWithinWidth(row.getByRole('button', { name: /bewerken/ }), viewport.width, 'the edit button')
      await assertWithinWidth(row.getByRole('button', { name: /verwijderen/ }), viewport.width, 'the delete button')
    }
  })

  it("the 'Feedback geven' button leaves the consult page's Kopieren buttons and fields free", async () => {
    for (const [name, viewport] of [
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ]) {
      const page = await openAs('huisarts@example.nl', '/audioconsult/beta/soap', viewport)
      await page.getByRole('heading', { level: 1, name: 'Gesproken consult' }).waitFor()
      const episode = page.getByRole('group', { name: 'Episode 1' })
      for (const field of ['Subjectief', 'Objectief', 'Evaluatie', 'Plan']) {
        await episode.getByLabel(field, { exact: true }).fill(`${field}: een tekst van enkele regels om het veld te vullen.\nTweede regel.\nDerde regel.`)
      }
      await assertNoSidewaysScroll(page, viewport.width)
      const feedback = page.getByRole('button', { name: 'Feedback geven' })
      // the page settled (the note kept, every notice that loads in shown), so that nothing
      // moves the fields after the scroll; then scrolled to the end, where the last fields and
      // buttons of the note are
      await page.locator('[data-testid="note-status"][data-state="saved"]').waitFor()
      await page.waitForLoadState('networkidle')
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight))
      await page.screenshot({ path: shot(`consult-end-${name}`) })
      await page.screenshot({ path: shot(`consult-${name}`), fullPage: true })
      const button = await feedback.boundingBox()
      const targets = [...(await page.getByRole('button', { name: 'Kopieren' }).all()), ...(await page.locator('main textarea, main input').all())]
      assert.ok(targets.length >= 4, 'the note has its buttons and fields')
      for (const target of targets) {
        if (!(await target.isVisible())) continue
        const box = await target.boundingBox()
        if (!box) continue
        assert.ok(!overlaps(button, box), `the feedback button (${JSON.stringify(button)}) covers ${await target.evaluate((el) => el.outerHTML.slice(0, 80))} at ${JSON.stringify(box)}`)
      }
    }
  })
})
