// The staff CMS: staff find a practitioner who bought a subscription through the local checkout,
// read their subscriptions and payments in the info modal, set their HIS, change a valid-until
// (a wrong format first), make the bookkeeping contact and invoice of a payment that has neither,
// and find every action in the audit log; they add and delete a HIS, cannot delete one with users
// and see that HIS's users; every tab and every dialog opened from it fits at 1440 and 390 px (no
// sideways scroll, nothing beyond the window's edge, long values included) and is photographed;
// an ordinary user who opens /cms is sent to '/'.
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { randomBytes, randomUUID } from 'node:crypto'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { accessToken, baseUrl, pagesPerTest, pathAndQuery, screenshotDir } from './browser.mjs'

const PRAKTIJK = '5b0e1a52-2f1c-4c57-9a6e-000000000003'
const INDIVIDUEEL = '5b0e1a52-2f1c-4c57-9a6e-000000000002'
const BUILT_TABS = [
  ['gebruikers', 'Gebruikers'],
  ['abonnementen', 'Gebruikers abonnementen'],
  ['betalingen', 'Betalingen'],
  ['organisaties', 'Hoofdorganisaties'],
  ['organisatie-abonnementen', 'Abonnementen via organisatie'],
  ['his', 'HIS'],
  ['statistieken', 'Statistieken'],
  ['auditlog', 'Auditlog'],
  ['achtergrondtaken', 'Achtergrondtaken'],
]

const { openAs } = pagesPerTest({ width: 1440, height: 900 })

const bearer = (token) => ({ authorization: `Bearer ${token}` })

/** A new practitioner (made on their first call) who accepted the agreement; their address and token. */
async function newPractitioner(prefix) {
  const email = `${prefix}-${randomBytes(4).toString('hex')}@praktijk.nl`
  const token = await accessToken(baseUrl, email)
  const accepted = await fetch(`${baseUrl}/api/user/agreement`, { method: 'POST', headers: bearer(token) })
  assert.equal(accepted.status, 200)
  return { email, token }
}

/** Buys the practice tier for 3 users, yearly, and pays in the local checkout, as the subscription page does. */
async function buyPractice(token) {
  const link = await fetch(`${baseUrl}/payment/paymentinfo/getPaymentLink`, {
    method: 'POST',
    headers: { ...bearer(token), 'content-type': 'application/json' },
    body: JSON.stringify({
      contactName: 'Anne de Vries',
      practiceName: 'Huisartsenpraktijk De Linde',
      sendInvoiceToEmail: 'administratie@praktijk.nl',
      phoneNumber: '0201234567',
      streetAddress: 'Lindelaan',
      houseNumber: '12',
      houseNumberAddition: 'A',
      postcode: '1234AB',
      city: 'Utrecht',
      kvkNumber: '12345678',
      subscriptionType: 'ANUALLY',
      userAmount: 3,
      tierId: PRAKTIJK,
      isIndividual: false,
      intervalMonths: 12,
      description: 'Praktijk',
    }),
  })
  assert.equal(link.status, 200, await link.clone().text())
  const { href } = await link.json()
  const paid = await fetch(new URL(href, baseUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'outcome=paid',
    redirect: 'manual',
  })
  assert.ok(paid.status < 400, `the checkout took the outcome: ${paid.status}`)
  for (let i = 0; i < 60; i++) {
    const active = await fetch(`${baseUrl}/payment/subscription/hasUserActiveSubscription`, { headers: bearer(token) })
    if ((await active.json()) === true) return
    await new Promise((wait) => setTimeout(wait, 500))
  }
  throw new Error('the subscription did not become active')
}

/**
 * A paid first payment that has neither a bookkeeping contact nor an invoice, written straight
 * into the database: one the provider's webhook made, but whose bookkeeping was never done (the
 * webhook's own jobs would make both at once, and the buttons would never show).
 */
function paidPaymentWithoutBookkeeping(email) {
  const { APP_DATABASE_URL: url } = JSON.parse(process.env.E2E_API_ENV ?? '{}')
  assert.ok(url, 'E2E_API_ENV names the database')
  const subscription = randomUUID()
  const payment = randomUUID()
  const sql = `
    begin;
    insert into subscriptions (id, user_id, tier_id, description, is_active, is_individual, user_amount, interval_months,
                               price_per_user, amount, valid_until, next_payment_date)
    select '${subscription}', u.id, t.id, 'Spreekkamer Individueel (1 gebruiker, maandelijks)', true, true, 1, 1,
           t.price_per_user_month, t.price_per_user_month, current_date + 30, current_date + 31
      from subscription_tiers t, users u where t.id = '${INDIVIDUEEL}' and u.email = '${email}';
    insert into payments (id, user_id, subscription_id, description, user_amount, amount_cents, status, interval_months,
                          is_first_payment, sequence_type, provider, provider_payment_id, idempotency_key, period_start,
                          period_end, paid_at, send_invoice_to_email, practice_name, contact_name, street_address,
                          house_number, postcode, city, phone_number)
    select '${payment}', s.user_id, s.id, s.description, 1, s.amount, 'PAID', 1, true, 'first', 'local',
           'ltr_e2e_${payment}', 'e2e:${payment}', current_date, s.valid_until, now(), '${email}',
           'Praktijk Boekhouding', 'Bram Boek', 'Kerkstraat', '7', '3511AB', 'Utrecht', '0301234567'
      from subscriptions s where s.id = '${subscription}';
    update subscriptions set first_payment_id = '${payment}' where id = '${subscription}';
    commit;`
  execFileSync('psql', [url, '-v', 'ON_ERROR_STOP=1', '-q', '-c', sql], { encoding: 'utf8' })
}

const tab = (page, name) => page.getByRole('tab', { name, exact: true })
const euros = (text) => new RegExp(text.replace('.', '\\.').replace(' ', '\\s'))

/** Waits until `table` has `count` rows (the header's included): the search is debounced. */
async function rowsSettle(table, count) {
  for (let i = 0; i < 100; i++) {
    if ((await table.getByRole('row').count()) === count) return
    await new Promise((wait) => setTimeout(wait, 100))
  }
  assert.equal(await table.getByRole('row').count(), count, 'rows of the table')
}

/**
 * The page fits its window: it does not scroll sideways, and nothing shown lies beyond the
 * window's edges (a table cell or button in a box that scrolls sideways would). Visually hidden
 * texts (in a box of 1 px) do not count.
 */
async function assertFits(page, what) {
  const { scrollWidth, innerWidth, outside } = await page.evaluate(() => {
    const width = window.innerWidth
    const outside = []
    // visually hidden: itself or inside a box of 1 px (sr-only, as the table's headers below md)
    const hidden = (element) => {
      for (let at = element; at && at !== document.body; at = at.parentElement) {
        const box = at.getBoundingClientRect()
        if (box.width <= 1 || box.height <= 1) return true
      }
      return false
    }
    for (const element of document.body.querySelectorAll('*')) {
      const box = element.getBoundingClientRect()
      if (hidden(element)) continue
      if (box.right > width + 0.5 || box.left < -0.5)
        outside.push(`<${element.tagName.toLowerCase()}> '${(element.textContent ?? '').trim().slice(0, 40)}' from ${Math.round(box.left)} to ${Math.round(box.right)} px`)
    }
    return { scrollWidth: document.documentElement.scrollWidth, innerWidth: width, outside }
  })
  assert.ok(scrollWidth <= innerWidth, `${what}: the page is ${scrollWidth} px wide in a window of ${innerWidth} px`)
  assert.deepEqual(outside.slice(0, 5), [], `${what}: shown beyond the window of ${innerWidth} px`)
}

/** Waits until no transition or animation runs (a modal fading in, a switch sliding). */
async function settled(page) {
  await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== 'running'))
}

/** A staff call that answers JSON. */
async function cmsPost(token, path, body) {
  const response = await fetch(`${baseUrl}${path}`, { method: 'POST', headers: { ...bearer(token), 'content-type': 'application/json' }, body: JSON.stringify(body) })
  assert.ok(response.ok, `${path}: ${response.status} ${await response.clone().text()}`)
  return response.json()
}

describe('the staff CMS', () => {
  it('staff find a user, read and change their subscriptions, make the bookkeeping, and see it in the audit log', async () => {
    const buyer = await newPractitioner('cms')
    await buyPractice(buyer.token)
    const bookkeeping = await newPractitioner('cms-boek')
    paidPaymentWithoutBookkeeping(bookkeeping.email)

    const page = await openAs('staff@example.nl', '/cms')
    await page.getByRole('heading', { level: 1, name: 'CMS' }).waitFor()
    assert.equal(pathAndQuery(page), '/cms')
    // the NavBar offers the CMS to staff
    await page.getByRole('navigation', { name: 'Hoofdnavigatie' }).getByRole('link', { name: 'CMS' }).waitFor()
    // the tabs in the spec's order, the first chosen
    const tabs = await page.getByRole('tab').allTextContents()
    assert.deepEqual(tabs, [
      'Gebruikers',
      'Gebruikers abonnementen',
      'Betalingen',
      'Organisaties',
      'Organisatie abonnementen',
      'HIS',
      'Statistieken',
      'Auditlog',
      'Achtergrondtaken',
    ])
    assert.equal(await tab(page, 'Gebruikers').getAttribute('aria-selected'), 'true')

    // Gebruikers: found by part of the e-mail address
    const users = page.getByRole('table', { name: 'Gebruikers' })
    const part = buyer.email.slice(4, 12)
    await page.getByPlaceholder('Zoek op id, firebase-id of e-mail').fill(part)
    const row = users.getByRole('row').filter({ hasText: buyer.email })
    await rowsSettle(users, 2)
    await row.waitFor()
    await row.getByRole('img', { name: 'Nee' }).waitFor()

    // the info modal: the paid subscription and its payment
    await row.getByRole('button', { name: `Informatie over ${buyer.email}` }).click()
    const info = page.getByRole('dialog', { name: `Gebruiker informatie voor ${buyer.email}` })
    await info.waitFor()
    await info.getByRole('heading', { name: 'Abonnementen', exact: true }).waitFor()
    await info.getByText('3 gelijktijdige gebruikers').waitFor()
    await info.getByText('Betaald voor 12 maanden').waitFor()
    await info.getByText(euros('€ 1.333,80')).waitFor()
    for (const text of ['Huisartsenpraktijk De Linde', 'Anne de Vries', 'Lindelaan 12 A', '1234AB', 'Utrecht', '0201234567', '12345678', 'Betaald'])
      await info.getByText(text, { exact: true }).first().waitFor()
    await page.screenshot({ path: join(screenshotDir, 'spreekkamer-cms-gebruiker-informatie.png') })
    await info.getByRole('button', { name: 'Sluit' }).click()
    await info.waitFor({ state: 'hidden' })

    // 'Zet HIS voor gebruiker'
    await row.getByRole('button', { name: `HIS wijzigen voor ${buyer.email}` }).click()
    const his = page.getByRole('dialog', { name: 'Zet HIS voor gebruiker' })
    await his.getByLabel('HIS').selectOption({ label: 'Medicom' })
    await his.getByRole('button', { name: 'Opslaan' }).click()
    await his.waitFor({ state: 'hidden' })
    await row.getByText('Medicom').waitFor()
    // the HIS filter: an exact name
    await page.getByRole('combobox', { name: 'HIS', exact: true }).selectOption({ label: 'Medicom' })
    await row.waitFor()
    await page.getByRole('combobox', { name: 'HIS', exact: true }).selectOption({ label: 'MicroHIS' })
    await users.getByText('Geen resultaten.').waitFor()
    await page.getByRole('combobox', { name: 'HIS', exact: true }).selectOption({ label: 'Alle' })

    // Gebruikers abonnementen: the valid-until, a wrong format first
    await tab(page, 'Gebruikers abonnementen').click()
    await page.waitForURL((url) => url.search === '?tab=abonnementen')
    await page.getByPlaceholder('Zoek op e-mail of gebruikers-id').fill(buyer.email)
    const subscriptions = page.getByRole('table', { name: 'Gebruikers abonnementen' })
    const subscription = subscriptions.getByRole('row').filter({ hasText: buyer.email })
    await subscription.waitFor()
    await subscription.getByRole('button', { name: 'Geldig tot wijzigen' }).click()
    const validUntil = page.getByRole('dialog', { name: 'Geldig tot wijzigen' })
    await validUntil.getByLabel('Geldig tot (yyyy-mm-dd)').fill('31-12-2030')
    await validUntil.getByRole('button', { name: 'Opslaan' }).click()
    await validUntil.getByRole('alert').filter({ hasText: 'Datum format incorrect, gebruik yyyy-mm-dd, bijv. 2024-02-30' }).waitFor()
    await validUntil.getByLabel('Geldig tot (yyyy-mm-dd)').fill('2030-12-31')
    await validUntil.getByRole('button', { name: 'Opslaan' }).click()
    await validUntil.waitFor({ state: 'hidden' })
    await subscription.getByText(/31 december 2030/).waitFor()
    assert.equal(await subscription.getByRole('switch').isChecked(), true)
    // the toggles
    await page.getByRole('switch', { name: 'Alleen betaalde abonnementen' }).click()
    await subscription.waitFor()
    await page.getByRole('switch', { name: 'Alleen betaalde abonnementen' }).click()

    // reload keeps the tab
    await page.reload()
    await tab(page, 'Gebruikers abonnementen').waitFor()
    assert.equal(await tab(page, 'Gebruikers abonnementen').getAttribute('aria-selected'), 'true')

    // Betalingen: the buyer's invoice is made by the checkout's own jobs; the green check shows
    await tab(page, 'Betalingen').click()
    const payments = page.getByRole('table', { name: 'Betalingen' })
    const search = page.getByPlaceholder('Zoek op e-mail of gebruikers-id')
    await search.fill(buyer.email)
    const bought = payments.getByRole('row').filter({ hasText: buyer.email })
    await bought.getByText(euros('€ 1.333,80')).waitFor()
    await bought.getByRole('img', { name: /^Factuur gemaakt/ }).waitFor({ timeout: 60_000 })

    // a paid payment without contact and invoice: 'Moneybird contact maken', then 'Factuur maken', then the check
    await search.fill(bookkeeping.email)
    const unbooked = payments.getByRole('row').filter({ hasText: bookkeeping.email })
    await unbooked.getByRole('button', { name: 'Moneybird contact maken' }).click()
    await unbooked.getByRole('button', { name: 'Factuur maken' }).click({ timeout: 60_000 })
    await unbooked.getByRole('img', { name: /^Factuur gemaakt/ }).waitFor({ timeout: 60_000 })
    await page.screenshot({ path: join(screenshotDir, 'spreekkamer-cms-boekhouding.png'), fullPage: true })

    // the invoice details, checked in the spec's order before they are sent
    await unbooked.getByRole('button', { name: /^Factuurgegevens wijzigen/ }).click()
    const edit = page.getByRole('dialog', { name: 'Factuurgegevens wijzigen' })
    await edit.getByLabel('Postcode').fill('35')
    await edit.getByLabel('Naam', { exact: true }).fill('')
    await edit.getByRole('button', { name: 'Opslaan' }).click()
    await edit.getByRole('alert').filter({ hasText: 'Geen naam ingevuld' }).waitFor()
    await edit.getByLabel('Naam', { exact: true }).fill('Bram de Boekhouder')
    await edit.getByRole('button', { name: 'Opslaan' }).click()
    await edit.getByRole('alert').filter({ hasText: "Ongeldige postcode. Vul postcode in volgens bijv. '1234AB'" }).waitFor()
    await edit.getByLabel('Postcode').fill('3511 AB')
    await edit.getByRole('button', { name: 'Opslaan' }).click()
    await edit.waitFor({ state: 'hidden' })
    await unbooked.getByText('Bram de Boekhouder').waitFor()

    // Auditlog: the actions on the buyer
    await tab(page, 'Auditlog').click()
    await page.getByText('Zie hier alle interacties die zijn gedaan door gebruikers van het CMS').waitFor()
    const audit = page.getByRole('table', { name: 'Auditlog' })
    await page.getByPlaceholder('Zoek in het log').fill(buyer.email)
    await audit.getByRole('row').nth(1).waitFor()
    const logs = await audit.locator('tbody tr td:first-child').allTextContents()
    assert.ok(logs.some((log) => /HIS/.test(log)), `the HIS change in the audit log:\n${logs.join('\n')}`)
    assert.ok(logs.some((log) => /31.12.2030|2030-12-31|31 december 2030/.test(log)), `the valid-until in the audit log:\n${logs.join('\n')}`)
    await page.getByPlaceholder('Zoek in het log').fill(bookkeeping.email)
    await audit.getByRole('row').nth(2).waitFor()
    const bookkeepingLogs = await audit.locator('tbody tr td:first-child').allTextContents()
    assert.ok(bookkeepingLogs.some((log) => /contact/i.test(log)), `the contact in the audit log:\n${bookkeepingLogs.join('\n')}`)
    assert.ok(bookkeepingLogs.some((log) => /factuur/i.test(log)), `the invoice in the audit log:\n${bookkeepingLogs.join('\n')}`)
  })

  it('staff add a HIS and delete it, cannot delete a HIS with users, and see its users', async () => {
    // a practitioner on Medicom, set through the api as the Gebruikers tab does
    const linked = await newPractitioner('cms-his')
    const staff = await accessToken(baseUrl, 'staff@example.nl')
    const found = await fetch(`${baseUrl}/api/cms/users/all?search=${encodeURIComponent(linked.email)}`, { headers: bearer(staff) })
    assert.equal(found.status, 200)
    const [{ userInfo }] = (await found.json()).rows
    const list = await (await fetch(`${baseUrl}/api/cms/his/all`, { headers: bearer(staff) })).json()
    const medicom = list.find((his) => his.name === 'Medicom')
    const set = await fetch(`${baseUrl}/api/cms/setHISforUser/${encodeURIComponent(userInfo.id)}`, {
      method: 'POST',
      headers: { ...bearer(staff), 'content-type': 'application/json' },
      body: JSON.stringify(medicom.id),
    })
    assert.equal(set.status, 204, await set.text())

    const page = await openAs('staff@example.nl', '/cms?tab=his')
    await page.getByRole('heading', { level: 2, name: 'HIS', exact: true }).waitFor()
    const select = page.getByRole('combobox', { name: 'HIS', exact: true })
    const selected = () => select.evaluate((element) => element.selectedOptions[0]?.textContent)

    // 'Nieuwe HIS..' with Enter: it shows in the dropdown, chosen, with no users
    const name = `Testhis-${randomBytes(3).toString('hex')}`
    const field = page.getByPlaceholder('Nieuwe HIS..')
    await field.fill(name)
    await field.press('Enter')
    await select.locator('option', { hasText: name }).waitFor({ state: 'attached' })
    await page.getByRole('table', { name: `Gebruikers van ${name}` }).getByText('Geen resultaten.').waitFor()
    assert.equal(await selected(), `${name} (0 gebruikers)`)
    assert.equal(await field.inputValue(), '')
    // the same name again, in other letters: the api's Dutch refusal
    await field.fill(name.toUpperCase())
    await page.getByRole('button', { name: 'Toevoegen' }).click()
    await page.getByRole('alert').filter({ hasText: 'Deze HIS bestaat al.' }).waitFor()

    // deleted after the question
    await page.getByRole('button', { name: `HIS ${name} verwijderen` }).click()
    const confirm = page.getByRole('dialog', { name: 'HIS verwijderen?' })
    await confirm.getByRole('button', { name: 'Verwijderen' }).click()
    await confirm.waitFor({ state: 'hidden' })
    await select.locator('option', { hasText: name }).waitFor({ state: 'detached' })

    // Medicom: the practitioner's row, red (no subscription); it cannot be deleted
    await select.selectOption(medicom.id)
    const users = page.getByRole('table', { name: 'Gebruikers van Medicom' })
    const row = users.getByRole('row').filter({ hasText: linked.email })
    await row.waitFor()
    assert.deepEqual(await row.getByRole('cell').allTextContents(), [linked.email, 'Nee', '-', 'Geen'])
    assert.match(await row.getAttribute('class'), /bg-red-50/)
    await page.getByRole('button', { name: 'HIS Medicom verwijderen' }).click()
    await confirm.getByRole('button', { name: 'Verwijderen' }).click()
    await confirm.waitFor({ state: 'hidden' })
    const refused = page.getByRole('alert').filter({ hasText: 'Kon HIS niet verwijderen, er zijn gebruikers gelinkt aan deze HIS' })
    await refused.waitFor()
    assert.match(await refused.getAttribute('class'), /text-red-700/)
    assert.match(await selected(), /^Medicom \(\d+ gebruikers?\)$/)
    await page.screenshot({ path: join(screenshotDir, 'spreekkamer-cms-his-verwijderen.png'), fullPage: true })

    // the audit log holds the add and the delete
    await tab(page, 'Auditlog').click()
    await page.getByPlaceholder('Zoek in het log').fill(name)
    const audit = page.getByRole('table', { name: 'Auditlog' })
    await rowsSettle(audit, 3)
    const logs = await audit.locator('tbody tr td:first-child').allTextContents()
    assert.ok(logs.some((log) => /voegde de HIS toe/.test(log)), `the add in the audit log:\n${logs.join('\n')}`)
    assert.ok(logs.some((log) => /verwijderde de HIS/.test(log)), `the delete in the audit log:\n${logs.join('\n')}`)
  })

  it('fits every tab and the dialogs opened from it at 1440 and 390 px: no sideways scroll, nothing cut off', async () => {
    // long values, as the tables meet them: an address and an organisation name that must wrap or be cut off
    const buyer = await newPractitioner('cms-passend-met-een-heel-lang-e-mailadres-voor-de-tabel')
    await buyPractice(buyer.token)
    const staff = await accessToken(baseUrl, 'staff@example.nl')
    const mainName = `Zorggroep Met Een Naam Die Over Meerdere Regels Moet Lopen ${randomBytes(3).toString('hex')}`
    const main = await cmsPost(staff, '/api/cms/organization', { organizationName: mainName, agbCode: '01010101', type: 'CARE_GROUP' })
    const sub = await cmsPost(staff, `/api/cms/suborganizationLinkingtoMain/${main.id}`, {
      organizationName: 'Huisartsenpraktijk De Lange Linde',
      agbCode: '02020202',
      validUntil: '2099-12-31',
    })
    await cmsPost(staff, `/api/cms/suborganizationLinkingToUsers/${main.id}/${sub.id}`, { email: buyer.email, sendEmail: false })

    // each tab, and how to open each dialog it has (after a search for the buyer where the tab has one)
    const search = (page, placeholder, text) => page.getByPlaceholder(placeholder).fill(text)
    const dialogsOf = {
      gebruikers: [
        async (page) => {
          await search(page, 'Zoek op id, firebase-id of e-mail', buyer.email)
          await page.getByRole('button', { name: `Informatie over ${buyer.email}` }).click()
          return page.getByRole('dialog', { name: `Gebruiker informatie voor ${buyer.email}` })
        },
        async (page) => {
          await page.getByRole('button', { name: `HIS wijzigen voor ${buyer.email}` }).click()
          return page.getByRole('dialog', { name: 'Zet HIS voor gebruiker' })
        },
      ],
      abonnementen: [
        async (page) => {
          await search(page, 'Zoek op e-mail of gebruikers-id', buyer.email)
          await page.getByRole('button', { name: 'Geldig tot wijzigen' }).first().click()
          return page.getByRole('dialog', { name: 'Geldig tot wijzigen' })
        },
        async (page) => {
          await page.getByRole('button', { name: 'Opzeggen' }).first().click()
          return page.getByRole('dialog', { name: 'Abonnement opzeggen?' })
        },
      ],
      betalingen: [
        async (page) => {
          await search(page, 'Zoek op e-mail of gebruikers-id', buyer.email)
          await page.getByRole('button', { name: /^Factuurgegevens wijzigen van / }).first().click()
          return page.getByRole('dialog', { name: 'Factuurgegevens wijzigen' })
        },
      ],
      organisaties: [
        async (page) => {
          await search(page, 'Zoek op naam of AGB-code', mainName)
          await page.getByRole('row').filter({ hasText: mainName }).getByRole('button', { name: 'Suborganisaties (1)' }).click()
          const dialog = page.getByRole('dialog', { name: `Suborganisaties van ${mainName}` })
          await dialog.getByRole('listitem').first().waitFor()
          return dialog
        },
        async (page) => {
          await page.getByRole('button', { name: `Looptijd van ${mainName} wijzigen` }).click()
          return page.getByRole('dialog', { name: 'Looptijd wijzigen' })
        },
        async (page) => {
          await page.getByRole('button', { name: `${mainName} verwijderen` }).click()
          return page.getByRole('dialog', { name: 'Hoofdorganisatie verwijderen?' })
        },
      ],
      'organisatie-abonnementen': [
        async (page) => {
          await page.getByRole('button', { name: /^Geldig tot van .* wijzigen$/ }).first().click()
          return page.getByRole('dialog', { name: 'Geldig tot wijzigen' })
        },
        async (page) => {
          await page.getByRole('switch', { name: 'Verwijder dubbele abonnementen' }).click()
          await page.getByRole('button', { name: /^Abonnement van .* verwijderen$/ }).first().click()
          return page.getByRole('dialog', { name: 'Dubbel abonnement verwijderen?' })
        },
      ],
      his: [
        async (page) => {
          await page.getByRole('button', { name: /^HIS .* verwijderen$/ }).click()
          return page.getByRole('dialog', { name: 'HIS verwijderen?' })
        },
      ],
    }

    for (const width of [1440, 390]) {
      const page = await openAs('staff@example.nl', '/cms', width)
      await page.getByRole('heading', { level: 1, name: 'CMS' }).waitFor()
      if (width === 390) {
        // on a phone the tabs are a select
        const select = page.getByLabel('Tabblad')
        await select.selectOption({ label: 'Betalingen' })
        await page.waitForURL((url) => url.search === '?tab=betalingen')
        await page.getByRole('heading', { level: 2, name: 'Betalingen' }).waitFor()
      }
      for (const [id, name] of BUILT_TABS) {
        await page.goto(`/cms?tab=${id}`)
        await page.getByRole('heading', { level: 2, name, exact: true }).waitFor()
        // the lists have loaded
        await page.getByText('Laden…').first().waitFor({ state: 'detached' })
        if (id === 'statistieken') await page.getByRole('img', { name: /^Nieuwe gebruikers per dag/ }).waitFor()
        await assertFits(page, `${id} at ${width} px`)
        await page.screenshot({ path: join(screenshotDir, `spreekkamer-cms-${id}-${width}.png`), fullPage: true })

        for (const [index, open] of (dialogsOf[id] ?? []).entries()) {
          const dialog = await open(page)
          await dialog.waitFor()
          await settled(page)
          await assertFits(page, `${id}: dialog ${index + 1} at ${width} px`)
          await page.screenshot({ path: join(screenshotDir, `spreekkamer-cms-${id}-dialoog-${index + 1}-${width}.png`) })
          await page.keyboard.press('Escape')
          await dialog.waitFor({ state: 'hidden' })
        }
      }
    }
  })

  it('sends an ordinary user from /cms to /', async () => {
    const page = await openAs('huisarts@example.nl', '/cms')
    await page.waitForURL((url) => url.pathname === '/')
    await page.getByRole('heading', { level: 1, name: /^Welkom/ }).waitFor()
    assert.equal(await page.getByRole('navigation', { name: 'Hoofdnavigatie' }).getByRole('link', { name: 'CMS' }).count(), 0)
    const refused = await fetch(`${baseUrl}/api/cms`, { method: 'POST', headers: bearer(await accessToken(baseUrl, 'huisarts@example.nl')) })
    assert.equal(refused.status, 403)
  })
})
