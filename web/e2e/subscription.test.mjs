// The subscription page and the gate, as a practitioner: a new user is sent from /template to
// /subscription, buys the practice tier for 3 users yearly through the local checkout, links and
// unlinks a colleague, cancels and keeps access, and is refused a second trial; a checkout that
// fails leaves no active subscription and says so.
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import { after, afterEach, before, describe, it } from 'node:test'
import { accessToken, baseUrl, emailField, freshPage, launchBrowser, pathAndQuery, screenshotDir } from './browser.mjs'

const BILLING_MESSAGES = [
  ['Naam', 'Anne de Vries', 'Geen naam ingevuld'],
  ['Telefoonnummer', '0201234567', 'Geen telefoonnummer ingevuld'],
  ['Straat', 'Lindelaan', 'Geen straatnaaam ingevuld'],
  ['Huisnummer', '12', 'Geen huisnummer ingevuld'],
  ['Postcode', '123', 'Geen postcode ingevuld'],
  ['Postcode', '1234 ab', "Ongeldige postcode. Vul postcode in volgens bijv. '1234AB'"],
  ['Plaats', 'Utrecht', 'Geen plaatsnaam ingevuld'],
  ['E-mailadres voor de factuur', 'administratie@praktijk.nl', 'Geen email ingevuld'],
]

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

/** A new practitioner who accepted the agreement (through the api, as the 'Welkom' screen does), signed in at `path`. */
async function newPractitioner(path, width = 1440) {
  const email = `praktijk-${randomBytes(4).toString('hex')}@praktijk.nl`
  const token = await accessToken(baseUrl, email)
  const accepted = await fetch(`${baseUrl}/api/user/agreement`, { method: 'POST', headers: { authorization: `Bearer ${token}` } })
  assert.equal(accepted.status, 200)
  const fresh = await freshPage(browser, { viewport: { width, height: 900 } })
  context = fresh.context
  const { page } = fresh
  await page.goto(path)
  await emailField(page).waitFor()
  await emailField(page).fill(email)
  await page.getByRole('button', { name: 'Inloggen', exact: true }).click()
  return { page, email, token }
}

const tierCard = (page, name) => page.getByRole('article', { name })

/** Clicks 'Factuur' until the invoice downloads: while it is being made the page says so. */
async function downloadInvoice(page, payments) {
  for (let attempt = 0; attempt < 60; attempt++) {
    const download = page.waitForEvent('download', { timeout: 2_000 }).catch(() => null)
    await payments.getByRole('button', { name: 'Factuur' }).click()
    const done = await download
    if (done) return done
    await page.getByRole('alert').filter({ hasText: 'De factuur wordt nog gemaakt.' }).waitFor()
  }
  throw new Error('no invoice within 2 minutes')
}

async function payInLocalCheckout(page, outcome) {
  await page.waitForURL(/\/payment\/checkout\//)
  const labels = { paid: 'Betaald', failed: 'Mislukt', expired: 'Verlopen', canceled: 'Geannuleerd' }
  await page.getByRole('button', { name: labels[outcome] }).click()
  await page.waitForURL((url) => url.pathname === '/subscription')
}

async function fillBilling(page) {
  const dialog = page.getByRole('dialog', { name: 'Gegevens voor de factuur' })
  await dialog.waitFor()
  for (const [label, value, message] of BILLING_MESSAGES) {
    await dialog.getByRole('button', { name: 'Afrekenen' }).click()
    await dialog.getByRole('alert').filter({ hasText: message }).waitFor()
    await dialog.getByLabel(label, { exact: true }).fill(value)
  }
  return dialog
}

describe('subscriptions', () => {
  it('a new user without a subscription buys the practice tier for 3 users yearly, links a colleague, cancels and keeps access', async () => {
    const { page, token } = await newPractitioner('/template')

    // the gate: the template page sends a user without a subscription here, the api refuses with 402
    await page.getByRole('heading', { level: 1, name: 'Abonnementen' }).waitFor()
    assert.equal(pathAndQuery(page), '/subscription')
    const refused = await fetch(`${baseUrl}/api/template/entry/count`, { headers: { authorization: `Bearer ${token}` } })
    assert.equal(refused.status, 402)
    await page.getByText('Je hebt nog geen abonnement.').waitFor()

    // the practice tier, yearly, 3 users: the total and the price without VAT
    await page.getByRole('radio', { name: 'Jaarlijks (5% korting)' }).click()
    const practice = tierCard(page, 'Praktijk')
    await practice.getByLabel('Aantal gebruikers').fill('3')
    await practice.getByText(/Totaal:.*1\.333,80.*per jaar/).waitFor()
    assert.match(await practice.textContent(), /444,60.*per gebruiker per jaar/)
    assert.match(await practice.textContent(), /367,44 excl\. btw/)
    // the discount code only for the monthly individual tier
    assert.equal(await practice.getByLabel('Kortingscode').count(), 0)
    assert.equal(await tierCard(page, 'Individueel').getByLabel('Kortingscode').count(), 0, 'not on yearly billing')
    await page.screenshot({ path: join(screenshotDir, 'spreekkamer-abonnementen.png'), fullPage: true })
    await practice.getByRole('button', { name: 'Kiezen' }).click()

    // every billing message in the spec's order, then the checkout
    const dialog = await fillBilling(page)
    await page.screenshot({ path: join(screenshotDir, 'spreekkamer-factuurgegevens.png') })
    await dialog.getByRole('button', { name: 'Afrekenen' }).click()
    await payInLocalCheckout(page, 'paid')

    // back: an active subscription and a PAID payment
    const own = page.getByRole('article', { name: 'Spreekkamer Praktijk (3 gebruikers, jaarlijks)' })
    await own.getByText('Actief', { exact: true }).waitFor({ timeout: 30_000 })
    await own.getByText('Jaarlijks opzegbaar').waitFor()
    await own.getByText(/23:59$/).waitFor()
    const payments = page.getByRole('table')
    await payments.getByText('Betaald').waitFor()
    assert.match(await payments.textContent(), /1\.333,80/)

    // the template page opens now
    await page.getByRole('link', { name: 'Templates' }).first().click()
    await page.waitForURL((url) => url.pathname.startsWith('/template'))
    await page.getByRole('link', { name: 'Abonnementen' }).first().click()
    await page.getByRole('heading', { level: 1, name: 'Abonnementen' }).waitFor()

    // a linked colleague, added in any case and shown lowercased, then removed
    await own.getByLabel('E-mailadres van de collega').fill('Collega@Praktijk.NL')
    await own.getByRole('button', { name: 'Toevoegen' }).click()
    await own.getByText('collega@praktijk.nl').waitFor()
    await own.getByText('(nog geen account)').waitFor()
    await own.getByRole('button', { name: 'Verwijderen' }).click()
    await own.getByText('collega@praktijk.nl').waitFor({ state: 'detached' })
    await own.getByRole('button', { name: 'Toevoegen' }).click()
    await own.getByRole('alert').filter({ hasText: 'Geen e-mail adres ingevuld' }).waitFor()

    // the invoice: a PDF with its number and the amounts (the worker may still be making it)
    const download = await downloadInvoice(page, payments)
    const file = join(screenshotDir, download.suggestedFilename())
    await download.saveAs(file)
    const number = download.suggestedFilename().match(/^factuur-(\d{4}-\d{5})\.pdf$/)?.[1]
    assert.ok(number, download.suggestedFilename())
    const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' })
    assert.match(text, /Factuurnummer/)
    assert.ok(text.includes(number), `the number ${number} in the invoice:\n${text}`)
    for (const expected of ['Spreekkamer Praktijk (3 gebruikers,', 'jaarlijks)', '3 gebruikers', '€ 1.102,31', '€ 231,49', '€ 1.333,80', 'Betaald', 'Anne de Vries', 'Lindelaan 12']) {
      assert.ok(text.includes(expected), `${expected} in the invoice:\n${text}`)
    }

    // cancel: still usable until its last day
    await own.getByRole('button', { name: 'Opzeggen' }).click()
    await page.getByRole('dialog', { name: 'Abonnement opzeggen?' }).getByRole('button', { name: 'Opzeggen' }).click()
    await own.getByText('Actief · Opgezegd').waitFor()
    assert.equal(await own.getByRole('button', { name: 'Opzeggen' }).count(), 0)
    const still = await fetch(`${baseUrl}/api/template/entry/count`, { headers: { authorization: `Bearer ${token}` } })
    assert.equal(still.status, 200, 'a cancelled subscription keeps access until its date')

    // a trial only once: this user starts one, a second is refused
    await tierCard(page, 'Gratis').getByRole('button', { name: 'Probeer gratis' }).click()
    const trialDialog = page.getByRole('dialog', { name: 'Gegevens voor de factuur' })
    for (const [label, value] of BILLING_MESSAGES.filter((_, i) => i !== 4)) await trialDialog.getByLabel(label, { exact: true }).fill(value)
    await trialDialog.getByRole('button', { name: 'Proefabonnement activeren' }).click()
    await page.getByRole('article', { name: 'Spreekkamer Gratis (proefabonnement)' }).waitFor()
    await tierCard(page, 'Gratis').getByRole('button', { name: 'Probeer gratis' }).click()
    for (const [label, value] of BILLING_MESSAGES.filter((_, i) => i !== 4)) await trialDialog.getByLabel(label, { exact: true }).fill(value)
    await trialDialog.getByRole('button', { name: 'Proefabonnement activeren' }).click()
    await trialDialog.getByRole('alert').filter({ hasText: 'Gebruiker heeft al eens een proefabonnement geactiveerd' }).waitFor()
    await page.screenshot({ path: join(screenshotDir, 'spreekkamer-abonnementen-actief.png'), fullPage: true })
  })

  it('a checkout that fails leaves no active subscription and says so', async () => {
    const { page, token } = await newPractitioner('/subscription', 390)
    await page.getByRole('heading', { level: 1, name: 'Abonnementen' }).waitFor()
    await tierCard(page, 'Individueel').getByRole('button', { name: 'Kiezen' }).click()
    const dialog = await fillBilling(page)
    await dialog.getByRole('button', { name: 'Afrekenen' }).click()
    await payInLocalCheckout(page, 'failed')
    await page.getByText('De betaling is niet gelukt. Je abonnement is niet geactiveerd; probeer het opnieuw.').waitFor({ timeout: 30_000 })
    await page.getByRole('table').getByText('Mislukt').waitFor()
    // a subscription that was never paid for is not shown, and nothing has expired
    assert.equal(await page.getByRole('article', { name: /Spreekkamer Individueel/ }).count(), 0)
    assert.equal(await page.getByText('Let op: je abonnement is verlopen.', { exact: false }).count(), 0)
    await page.screenshot({ path: join(screenshotDir, 'spreekkamer-abonnementen-mislukt-390.png'), fullPage: true })
    const active = await fetch(`${baseUrl}/payment/subscription/hasUserActiveSubscription`, { headers: { authorization: `Bearer ${token}` } })
    assert.equal(await active.json(), false)
    const refused = await fetch(`${baseUrl}/api/template/entry/count`, { headers: { authorization: `Bearer ${token}` } })
    assert.equal(refused.status, 402)
  })
})
