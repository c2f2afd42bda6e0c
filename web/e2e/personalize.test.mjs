import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import { after, afterEach, before, describe, it } from 'node:test'
import { freshPage, launchBrowser, pathAndQuery, screenshotDir, signInAs } from './browser.mjs'

let browser
let context

before(async () => {
  browser = await launchBrowser()
})

after(async () => {
  await browser?.close()
})

afterEach(async () => {
  await context?.close()
  context = undefined
})

const random = (label) => `${label} ${randomBytes(4).toString('hex')}`
const soapPath = '/api/user/personalized/soap'

/** Clicks 'Opslaan' in the modal and gives the api's answer. */
async function save(page) {
  const response = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === soapPath)
  await page.getByRole('dialog').getByRole('button', { name: 'Opslaan', exact: true }).click()
  return response
}

describe('personalize', () => {
  it('refuses an empty example, then adds, edits and deletes one', async () => {
    const fresh = await freshPage(browser)
    context = fresh.context
    const { page } = fresh
    await page.goto('/personalize')
    await signInAs(page, 'huisarts@example.nl')
    await page.getByRole('heading', { level: 1, name: 'Personaliseer' }).waitFor()
    assert.equal(pathAndQuery(page), '/personalize')
    await page.getByRole('tab', { name: 'SOEP' }).waitFor()
    for (const column of ['Subjectief', 'Objectief', 'Evaluatie', 'Plan']) {
      await page.getByRole('columnheader', { name: column }).waitFor()
    }

    // empty: refused in the browser, nothing sent; the modal stays open
    let posts = 0
    page.on('request', (r) => {
      if (r.method() === 'POST' && new URL(r.url()).pathname === soapPath) posts++
    })
    await page.getByRole('button', { name: 'Nieuw SOEP voorbeeld' }).first().click()
    const dialog = page.getByRole('dialog')
    await dialog.getByRole('heading', { name: 'Nieuw SOEP voorbeeld' }).waitFor()
    await dialog.getByRole('button', { name: 'Opslaan', exact: true }).click()
    await dialog.getByRole('alert').filter({ hasText: 'Geen tekst ingevuld' }).waitFor()
    assert.equal(posts, 0)

    // added: it appears in the table
    const parts = {
      Subjectief: random('Hoest sinds een week'),
      Objectief: random('Longen schoon'),
      Evaluatie: random('Virale luchtweginfectie'),
      Plan: random('Afwachten'),
    }
    for (const [label, text] of Object.entries(parts)) await dialog.getByLabel(label).fill(text)
    assert.equal((await save(page)).status(), 200)
    await dialog.waitFor({ state: 'detached' })
    const row = page.getByRole('row').filter({ hasText: parts.Subjectief })
    await row.waitFor()
    for (const text of Object.values(parts)) assert.match(await row.textContent(), new RegExp(text))
    await page.screenshot({ path: join(screenshotDir, 'spreekkamer-personalize.png'), fullPage: true })

    // edited: the new plan shows
    const plan = random('Terugkomen bij koorts')
    await row.getByRole('button', { name: /bewerken/ }).click()
    await dialog.getByRole('heading', { name: 'SOEP voorbeeld bewerken' }).waitFor()
    assert.equal(await dialog.getByLabel('Subjectief').inputValue(), parts.Subjectief)
    await dialog.getByLabel('Plan').fill(plan)
    assert.equal((await save(page)).status(), 200)
    await dialog.waitFor({ state: 'detached' })
    await row.getByText(plan).waitFor()
    assert.doesNotMatch(await row.textContent(), new RegExp(parts.Plan))

    // deleted, after confirming
    const deleted = page.waitForResponse((r) => r.request().method() === 'DELETE' && new URL(r.url()).pathname.startsWith(`${soapPath}/`))
    await row.getByRole('button', { name: /verwijderen/ }).click()
    const confirm = page.getByRole('dialog').filter({ hasText: 'SOEP voorbeeld verwijderen' })
    await confirm.getByRole('button', { name: 'Verwijderen', exact: true }).click()
    assert.equal((await deleted).status(), 204)
    await row.waitFor({ state: 'detached' })
  })
})

describe('feedback widget', () => {
  it('sends feedback with the page it came from, thanks the user, and refuses 3000 characters', async () => {
    const fresh = await freshPage(browser)
    context = fresh.context
    const { page } = fresh
    await page.goto('/status')
    await signInAs(page, 'huisarts@example.nl')
    await page.getByRole('heading', { level: 1, name: 'Status' }).waitFor()

    await page.getByRole('button', { name: 'Feedback geven' }).click()
    const panel = page.getByRole('dialog', { name: 'Feedback' })
    const text = random('De statuspagina is duidelijk')
    await panel.getByLabel('Je feedback').fill(text)
    await panel.getByRole('radio', { name: '4 van 5' }).check({ force: true })
    await panel.getByRole('checkbox', { name: 'Anoniem versturen' }).click()
    const sent = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/feedback')
    await panel.getByRole('button', { name: 'Versturen' }).click()
    const response = await sent
    assert.equal(response.status(), 201)
    assert.deepEqual(response.request().postDataJSON(), {
      type: 'status',
      text,
      rating: 4,
      anonymous: true,
      consultId: null,
      consultType: 'status',
    })
    await panel.getByText('Verstuurd').waitFor()
    await panel.getByText('Bedankt! De feedback komt direct bij het ontwikkelteam terecht.').waitFor()
    await page.screenshot({ path: join(screenshotDir, 'spreekkamer-feedback.png'), fullPage: true })

    // 3000 characters: a warning naming the support address (APP_SUPPORT_EMAIL), and the send button disabled
    await page.goto('/template')
    await page.getByRole('button', { name: 'Feedback geven' }).click()
    const send = panel.getByRole('button', { name: 'Versturen' })
    await panel.getByLabel('Je feedback').fill('a'.repeat(2999))
    assert.equal(await send.isEnabled(), true)
    await panel.getByLabel('Je feedback').fill('a'.repeat(3000))
    await panel.getByRole('alert').filter({ hasText: 'mail ons op hulp@spreekkamer.test.' }).waitFor()
    assert.equal(await send.isDisabled(), true)
  })
})
