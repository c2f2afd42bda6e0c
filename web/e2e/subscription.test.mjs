// The subscription page and the gate, as a practitioner: a new user is sent from /template to
// /subscription, buys the practice tier for 3 users yearly through the local checkout, links a
// colleague (after confirming the invitation) who then signs up, unlinks them (after confirming),
// cancels and keeps access, and is not offered a second trial; a checkout that fails leaves no
// active subscription and says so; an abandoned checkout is resumed and cancelled; a failure shows
// while another payment is open; a seat stored by account shows a name; bad user counts are refused
// at the field; the page with payments, seats and the billing dialog fits at 1440 and 390 px.
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import { after, afterEach, before, describe, it } from 'node:test'
import { accessToken, baseUrl, emailField, freshPage, launchBrowser, pathAndQuery, screenshotDir, signInAs } from './browser.mjs'

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

    // a linked colleague without an account: added in any case, shown lowercased, only once the
    // invitation is confirmed
    const colleague = `collega-${randomBytes(4).toString('hex')}@praktijk.nl`
    await own.getByLabel('E-mailadres van de collega').fill(colleague.toUpperCase())
    await own.getByRole('button', { name: 'Toevoegen' }).click()
    const invite = page.getByRole('dialog', { name: 'Uitnodiging sturen?' })
    await invite.getByText(`Er is nog geen account met ${colleague}.`, { exact: false }).waitFor()
    await invite.getByRole('button', { name: 'Uitnodiging sturen' }).click()
    await own.getByText(colleague).waitFor()
    await own.getByText('(nog geen account)').waitFor()
    // the colleague signs up and signs in (the account exists once the api has seen them): the
    // seat names the account and no longer says it has none
    const colleagueToken = await accessToken(baseUrl, colleague)
    const seen = await fetch(`${baseUrl}/payment/subscription/getTiers`, { headers: { authorization: `Bearer ${colleagueToken}` } })
    // a new colleague has not accepted the agreement yet (403 agreement_required), but is known now
    assert.equal(seen.status, 403)
    await page.reload()
    await own.getByText(colleague).waitFor()
    await own.getByText('(nog geen account)').waitFor({ state: 'detached' })
    // removing asks first
    await own.getByRole('button', { name: 'Verwijderen' }).click()
    const unlink = page.getByRole('dialog', { name: 'Gebruiker ontkoppelen?' })
    await unlink.getByRole('button', { name: 'Annuleren' }).click()
    await own.getByText(colleague).waitFor()
    await own.getByRole('button', { name: 'Verwijderen' }).click()
    await unlink.getByRole('button', { name: 'Ontkoppelen' }).click()
    await own.getByText(colleague).waitFor({ state: 'detached' })
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

    // a trial only once: this user starts one; then the tier says why it is not offered again
    const trialTier = tierCard(page, 'Gratis')
    assert.equal(await trialTier.getByText('Gebruiker heeft al eens een proefabonnement geactiveerd').count(), 0)
    await trialTier.getByRole('button', { name: 'Probeer gratis' }).click()
    const trialDialog = page.getByRole('dialog', { name: 'Gegevens voor de factuur' })
    for (const [label, value] of BILLING_MESSAGES.filter((_, i) => i !== 4)) await trialDialog.getByLabel(label, { exact: true }).fill(value)
    await trialDialog.getByRole('button', { name: 'Proefabonnement activeren' }).click()
    await page.getByRole('article', { name: 'Spreekkamer Gratis (proefabonnement)' }).waitFor()
    await trialTier.getByText('Gebruiker heeft al eens een proefabonnement geactiveerd').waitFor()
    assert.equal(await trialTier.getByRole('button', { name: 'Probeer gratis' }).isDisabled(), true)
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

  it('refuses a second trial started elsewhere for 10 s, as the spec says', async () => {
    const { page, token } = await newPractitioner('/subscription')
    await tierCard(page, 'Gratis').getByRole('button', { name: 'Probeer gratis' }).click()
    const trialDialog = page.getByRole('dialog', { name: 'Gegevens voor de factuur' })
    for (const [label, value] of BILLING_MESSAGES.filter((_, i) => i !== 4)) await trialDialog.getByLabel(label, { exact: true }).fill(value)
    // the trial is activated in another tab meanwhile
    const other = await fetch(`${baseUrl}/payment/subscription/createTrialSubscription`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ...TRIAL_DETAILS, tierId: await tierId(token, 'Gratis') }),
    })
    assert.equal(other.status, 201)
    await trialDialog.getByRole('button', { name: 'Proefabonnement activeren' }).click()
    const refusal = trialDialog.getByRole('alert').filter({ hasText: 'Gebruiker heeft al eens een proefabonnement geactiveerd' })
    await refusal.waitFor()
    const shown = Date.now()
    await refusal.waitFor({ state: 'detached', timeout: 12_000 })
    const seconds = (Date.now() - shown) / 1000
    assert.ok(seconds > 9 && seconds < 11.5, `shown ${seconds} s`)
  })

  it('an abandoned checkout can be resumed and cancelled, and the page stops saying it waits', async () => {
    const { page } = await newPractitioner('/subscription')
    await tierCard(page, 'Individueel').getByRole('button', { name: 'Kiezen' }).click()
    await (await fillBilling(page)).getByRole('button', { name: 'Afrekenen' }).click()
    await page.waitForURL(/\/payment\/checkout\//)
    const checkout = page.url()
    // back from the checkout without paying
    await page.goBack()
    await page.waitForURL((url) => url.pathname === '/subscription')
    await page.getByText('We wachten op de bevestiging van je betaling.', { exact: false }).waitFor()
    const open = page.getByRole('region', { name: 'Open betalingen' })
    await open.getByText('Spreekkamer Individueel (1 gebruiker, maandelijks)').waitFor()
    await open.getByText(/Te betalen tot \d\d:\d\d/).waitFor()
    await page.screenshot({ path: join(screenshotDir, 'spreekkamer-abonnementen-open-betaling.png'), fullPage: true })
    // 'Verder met betalen' goes back to the same checkout
    await open.getByRole('link', { name: 'Verder met betalen' }).click()
    await page.waitForURL(/\/payment\/checkout\//)
    assert.equal(page.url(), checkout)
    await page.goBack()
    await page.waitForURL((url) => url.pathname === '/subscription')
    // 'Annuleren' cancels it: no longer waiting, the failure with a way to try again
    await open.getByRole('button', { name: 'Annuleren' }).click()
    await page.getByText('De betaling is niet gelukt. Je abonnement is niet geactiveerd; probeer het opnieuw.').waitFor()
    await open.waitFor({ state: 'detached' })
    assert.equal(await page.getByText('We wachten op de bevestiging', { exact: false }).count(), 0)
    assert.equal(await page.getByText('Je betaling is nog niet afgerond', { exact: false }).count(), 0)
    await page.getByRole('table').getByText('Geannuleerd').waitFor()
    // and the page no longer polls
    let asked = 0
    page.on('request', (request) => {
      if (request.url().includes('/payment/subscription/getPaymentsForUser')) asked++
    })
    await page.waitForTimeout(5_000)
    assert.equal(asked, 0, 'no polling once nothing the page started is open')
    await page.getByRole('button', { name: 'Opnieuw proberen' }).click()
    await page.getByRole('heading', { name: 'Kies een abonnement' }).waitFor()
  })

  it('a failed payment shows the failure while another payment is open', async () => {
    const { page } = await newPractitioner('/subscription')
    await tierCard(page, 'Individueel').getByRole('button', { name: 'Kiezen' }).click()
    await (await fillBilling(page)).getByRole('button', { name: 'Afrekenen' }).click()
    await payInLocalCheckout(page, 'failed')
    const failure = page.getByText('De betaling is niet gelukt. Je abonnement is niet geactiveerd; probeer het opnieuw.')
    await failure.waitFor({ timeout: 30_000 })
    // a second try, left open at the checkout
    await tierCard(page, 'Individueel').getByRole('button', { name: 'Kiezen' }).click()
    await (await fillBilling(page)).getByRole('button', { name: 'Afrekenen' }).click()
    await page.waitForURL(/\/payment\/checkout\//)
    await page.goBack()
    await page.waitForURL((url) => url.pathname === '/subscription')
    await page.getByRole('region', { name: 'Open betalingen' }).getByRole('link', { name: 'Verder met betalen' }).waitFor()
    await failure.waitFor()
    await page.getByRole('table').getByText('Mislukt').waitFor()
  })

  it('a seat stored by account shows the colleague, not an id', async () => {
    const fresh = await freshPage(browser, { viewport: { width: 1440, height: 900 } })
    context = fresh.context
    const { page } = fresh
    await page.goto('/subscription')
    await signInAs(page, 'huisarts@example.nl')
    const practice = page.getByRole('article', { name: /Spreekkamer Praktijk/ })
    await practice.getByText('poh (poh@example.nl)').waitFor()
    assert.doesNotMatch(await practice.textContent(), /8d3c0f7e/)
    assert.equal(await practice.getByText('(nog geen account)').count(), 0)
  })

  it('refuses user counts of 0, -1, 2.5 and 1001 at the field, before any price', async () => {
    const { page } = await newPractitioner('/subscription', 390)
    const practice = tierCard(page, 'Praktijk')
    const field = practice.getByLabel('Aantal gebruikers')
    const message = practice.getByText('Vul een aantal gebruikers van 1 tot en met 1000 in.')
    for (const typed of ['0', '-1', '2.5', '1001']) {
      await field.fill(typed)
      await message.waitFor()
      assert.equal(await field.getAttribute('aria-invalid'), 'true', typed)
      assert.equal(await practice.getByText('Totaal:').count(), 0, `no total for ${typed}`)
      assert.equal(await practice.getByRole('button', { name: 'Kiezen' }).isDisabled(), true, typed)
    }
    await field.fill('1000')
    await message.waitFor({ state: 'detached' })
    await practice.getByText(/Totaal:.*39\.000,00.*per maand/).waitFor()
  })

  it('fits at 1440 and 390 px with payments, seats and the billing dialog open', async () => {
    const { page } = await newPractitioner('/subscription', 390)
    const practice = tierCard(page, 'Praktijk')
    await practice.getByLabel('Aantal gebruikers').fill('2')
    await practice.getByRole('button', { name: 'Kiezen' }).click()
    await (await fillBilling(page)).getByRole('button', { name: 'Afrekenen' }).click()
    await payInLocalCheckout(page, 'paid')
    const own = page.getByRole('article', { name: 'Spreekkamer Praktijk (2 gebruikers, maandelijks)' })
    await own.getByText('Actief', { exact: true }).waitFor({ timeout: 30_000 })
    const long = `een-heel-lang-adres-van-een-collega-${randomBytes(4).toString('hex')}@huisartsenpraktijk-de-lange-naam.nl`
    await own.getByLabel('E-mailadres van de collega').fill(long)
    await own.getByRole('button', { name: 'Toevoegen' }).click()
    await page.getByRole('dialog', { name: 'Uitnodiging sturen?' }).getByRole('button', { name: 'Uitnodiging sturen' }).click()
    await own.getByText(long).waitFor()
    await page.getByRole('table').getByText('Betaald').waitFor()
    const fits = async (what) => {
      const { scrollWidth, innerWidth } = await page.evaluate(() => ({
        scrollWidth: document.documentElement.scrollWidth,
        innerWidth: window.innerWidth,
      }))
      assert.ok(scrollWidth <= innerWidth, `${what}: ${scrollWidth} px wide in ${innerWidth}`)
    }
    for (const width of [390, 1440]) {
      await page.setViewportSize({ width, height: 900 })
      await fits(`the page at ${width}`)
      await page.screenshot({ path: join(screenshotDir, `spreekkamer-abonnementen-betaald-${width}.png`), fullPage: true })
      await tierCard(page, 'Individueel').getByRole('button', { name: 'Kiezen' }).click()
      const dialog = page.getByRole('dialog', { name: 'Gegevens voor de factuur' })
      await dialog.waitFor()
      await fits(`the billing dialog at ${width}`)
      const box = await dialog.boundingBox()
      assert.ok(box && box.x >= 0 && box.x + box.width <= width, `the dialog within the screen at ${width}: ${JSON.stringify(box)}`)
      await page.screenshot({ path: join(screenshotDir, `spreekkamer-factuurgegevens-${width}.png`) })
      await dialog.getByRole('button', { name: 'Sluiten' }).click()
      await dialog.waitFor({ state: 'detached' })
    }
  })
})

const TRIAL_DETAILS = {
  contactName: 'Anne de Vries',
  phoneNumber: '0201234567',
  streetAddress: 'Lindelaan',
  houseNumber: '12',
  postcode: '1234AB',
  city: 'Utrecht',
  sendInvoiceToEmail: 'administratie@praktijk.nl',
  intervalMonths: 1,
  userAmount: 1,
}

/** The id of the tier named `name`. */
async function tierId(token, name) {
  const tiers = await (await fetch(`${baseUrl}/payment/subscription/getTiers`, { headers: { authorization: `Bearer ${token}` } })).json()
  return tiers.find((tier) => tier.name === name).id
}
