import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import { after, afterEach, before, describe, it } from 'node:test'
import { emailField, freshPage, launchBrowser, pathAndQuery, screenshotDir } from './browser.mjs'

const DOWNLOAD = 'Download de gebruikersovereenkomst (PDF)'
const ACCEPT = 'Ik ga akkoord'

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

/** Signs in on the development sign-in page with a typed address (an unknown one is a new user). */
async function signInWithAddress(page, email) {
  await emailField(page).waitFor()
  await emailField(page).fill(email)
  await page.getByRole('button', { name: 'Inloggen', exact: true }).click()
}

const mainNav = (page) => page.getByRole('navigation', { name: 'Hoofdnavigatie' })

async function inTheApplication(page) {
  await page.getByRole('heading', { level: 1, name: /^Welkom, / }).waitFor()
  await mainNav(page).waitFor()
}

describe('the gebruikersovereenkomst', () => {
  it('is downloaded, then accepted, and the application opens for good', async () => {
    const email = `nieuw-${randomBytes(4).toString('hex')}@praktijk.nl`
    const fresh = await freshPage(browser, { acceptDownloads: true })
    context = fresh.context
    const { page } = fresh
    await page.goto('/status?bron=e2e')
    await signInWithAddress(page, email)

    // only the 'Welkom' screen, the accept button disabled until the PDF is downloaded
    await page.getByRole('heading', { level: 1, name: 'Welkom', exact: true }).waitFor()
    assert.equal(await page.getByRole('navigation').count(), 0, 'no navigation')
    assert.ok((await page.locator('main').textContent()).includes(email))
    const accept = page.getByRole('button', { name: ACCEPT })
    assert.ok(await accept.isDisabled(), 'accept is disabled before the download')
    assert.ok(await page.getByText('Download eerst de overeenkomst om verder te gaan.').isVisible())

    const download = page.waitForEvent('download')
    await page.getByRole('link', { name: DOWNLOAD }).click()
    const file = await download
    assert.equal(file.suggestedFilename(), 'overeenkomst_v1.pdf')
    assert.equal(new URL(file.url()).pathname, '/files/overeenkomst_v1.pdf')
    assert.equal(await file.failure(), null, 'the PDF downloaded')

    // a reload keeps the download (this tab's storage)
    await page.reload()
    await page.getByRole('heading', { level: 1, name: 'Welkom', exact: true }).waitFor()
    assert.ok(await accept.isEnabled(), 'accept is enabled after the download')
    await page.screenshot({ path: join(screenshotDir, 'spreekkamer-overeenkomst.png'), fullPage: true })

    const recorded = page.waitForResponse(
      (r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/user/agreement',
    )
    await accept.click()
    const response = await recorded
    assert.equal(response.status(), 200)
    const body = await response.json()
    assert.equal(body.version, 1)
    assert.ok(body.acceptedAt, 'the api says when')

    // back where the user wanted to go, in the application
    await page.getByRole('heading', { level: 1, name: 'Status' }).waitFor()
    await mainNav(page).waitFor()
    assert.equal(pathAndQuery(page), '/status?bron=e2e')

    // the renewed token carries the claim: a reload stays in the application
    await page.reload()
    await page.getByRole('heading', { level: 1, name: 'Status' }).waitFor()
    await mainNav(page).waitFor()
    await page.goto('/')
    await inTheApplication(page)
    assert.equal(await page.getByRole('heading', { level: 1, name: 'Welkom', exact: true }).count(), 0)
  })
})
